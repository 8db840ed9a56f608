package io.ringlab.experiment;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.VariantDTO;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.ProblemDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO.Kind;
import io.ringlab.sim.api.dto.ValueDTO;

/** {@link ExperimentReader}: a good file read completely, and each kind of bad input reported at its position. */
class ExperimentReaderTest {
    /** The base pipeline, in {@code pipelines/ab.pipeline} below the test's folder. */
    static final String PIPELINE = """
            name = "ab"
            duration = 100ms
            headline = sink.rxMpps
            element src : source { rate = 1Gbit; size = 1518B }
            element q : pfifo { limit = 100 }
            element eth0 : netdev {
                ring = 64
                bql = false
            }
            element sink : sink
            src -> q -> eth0 -> sink
            """;

    /** The installed types: the pipeline's, fastnic (netdev's properties and more) and plainnic (no bql). */
    static final List<ElementDescriptorDTO> TYPES = List.of(
            type("source", PropertyDescriptorDTO.of("rate", Kind.RATE, "1Gbit", "1bit", "400Gbit", "offered load"),
                    PropertyDescriptorDTO.of("size", Kind.SIZE, "64B", "60B", "64KiB", "frame size")),
            type("pfifo", PropertyDescriptorDTO.of("limit", Kind.INTEGER, "1000", "1", null, "packets")),
            type("netdev", PropertyDescriptorDTO.of("ring", Kind.INTEGER, "256", "1", "4096", "descriptors"),
                    PropertyDescriptorDTO.of("bql", Kind.BOOLEAN, "false", null, null, "byte queue limits")),
            type("fastnic", PropertyDescriptorDTO.of("ring", Kind.INTEGER, "256", "1", "4096", "descriptors"),
                    PropertyDescriptorDTO.of("bql", Kind.BOOLEAN, "false", null, null, "byte queue limits"),
                    PropertyDescriptorDTO.of("coalesce", Kind.DURATION, "0s", null, null, "interrupt coalescing")),
            type("plainnic", PropertyDescriptorDTO.of("ring", Kind.INTEGER, "256", "1", "512", "descriptors")),
            type("sink"));

    @TempDir
    Path dir;

    @BeforeEach
    void writePipeline() throws IOException {
        Files.createDirectories(dir.resolve("pipelines"));
        Files.writeString(dir.resolve("pipelines/ab.pipeline"), PIPELINE);
    }

    static ElementDescriptorDTO type(String id, PropertyDescriptorDTO... properties) {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = id;
        d.properties.addAll(List.of(properties));
        return d;
    }

    private ExperimentDTO read(String text) throws PipelineException {
        return ExperimentReader.read("bad.experiment", text, dir, TYPES);
    }

    /** @return the problems of reading {@code text}, each {@code line:column: message} (or the message alone at line 0) */
    private List<String> problems(String text) {
        PipelineException e = assertThrows(PipelineException.class, () -> read(text));
        List<String> out = new ArrayList<>();
        for (ProblemDTO p : e.problems()) {
            out.add((p.file.equals("bad.experiment") ? "" : p.file + ":") + (p.line > 0 ? p.line + ":" + p.column + ": " : "")
                    + p.message);
        }
        return out;
    }

    /** A valid head: pipeline, seeds and two variants; a test appends its own lines. */
    private static String valid(String extra) {
        return "pipeline = \"pipelines/ab.pipeline\"\nseeds = 3\nvariant off\nvariant on { set eth0.bql = true }\n" + extra;
    }

    @Test
    void aPipelineWithATapIsRefusedForItsRunsWouldShareOneFile() throws IOException {
        Files.writeString(dir.resolve("pipelines/tap.pipeline"), PIPELINE.replace("element sink : sink",
                "element cap : tap { file = \"eth0.pcapng\" }\nelement sink : sink").replace("eth0 -> sink",
                "eth0 -> cap -> sink"));
        List<String> p = problems("pipeline = \"pipelines/tap.pipeline\"\nseeds = 3\nvariant off\n");
        assertTrue(p.stream().anyMatch(m -> m.contains("line 10: element cap is a tap: each run of the experiment would"
                + " write its one capture file")), p.toString());
    }

    // ---- a good file ------------------------------------------------------------------------------------------------

    @Test
    void aGoodFileIsReadCompletely() throws Exception {
        Files.writeString(dir.resolve("bql.experiment"), """
                # BQL off and on for the same traffic
                name = "bql"
                description = "BQL off against on"
                pipeline = "pipelines/ab.pipeline"      # relative to this file
                duration = 20ms
                warmup = 2ms
                seeds = [1, 2, 3, 7]
                metrics = [
                    sink.rxMpps,                        # throughput
                    eth0.limit,
                ]
                set q.limit = 50                        # every variant
                variant off { set eth0.bql = false }
                variant on
                {
                    set eth0.bql = true
                    set src.rate = "2Gbit"
                }
                variant fast { type eth0 = fastnic; set eth0.coalesce = 10us }
                variant swapped { swap = "10ms:eth0=fastnic@1.2.0", swap = "15ms:eth0" }
                """);
        ExperimentDTO e = ExperimentReader.read(dir.resolve("bql.experiment"), TYPES);

        assertEquals(dir.resolve("bql.experiment").toString(), e.file);
        assertEquals("bql", e.name);
        assertEquals("BQL off against on", e.description);
        assertEquals(dir.resolve("pipelines/ab.pipeline").toString(), e.pipelineFile);
        assertEquals("ab", e.pipeline.name);
        assertEquals(20_000_000_000L, e.durationPicos);
        assertEquals(2_000_000_000L, e.warmupPicos);
        assertEquals("2ms@6:10", e.warmupValue.text + "@" + e.warmupValue.line + ":" + e.warmupValue.column,
                "where the file sets the warm-up");
        assertEquals(List.of(1L, 2L, 3L, 7L), e.seeds);
        assertEquals(List.of("sink.rxMpps@9:5", "eth0.limit@10:5"), e.metrics.stream().map(m -> m.text + "@" + m.line + ":"
                + m.column).toList());
        assertEquals(List.of("off", "on", "fast", "swapped"), e.variants.stream().map(v -> v.name).toList());

        VariantDTO off = e.variants.get(0);
        assertEquals(List.of("q.limit=50", "eth0.bql=false"), off.overrides);
        assertEquals(Map.of(), off.types);
        assertEquals(13, off.line);
        assertEquals(9, off.column);
        VariantDTO on = e.variants.get(1);
        assertEquals(List.of("q.limit=50", "eth0.bql=true", "src.rate=\"2Gbit\""), on.overrides);
        VariantDTO fast = e.variants.get(2);
        assertEquals(Map.of("eth0", "fastnic"), fast.types);
        assertEquals(List.of("q.limit=50", "eth0.coalesce=10us"), fast.overrides);
        assertEquals(List.of("10ms:eth0=fastnic@1.2.0", "15ms:eth0"), e.variants.get(3).swaps);
    }

    @Test
    void defaultsComeFromTheFileNameAndThePipeline() throws Exception {
        Files.createDirectories(dir.resolve("experiments"));
        Path f = dir.resolve("experiments/min.experiment");
        Files.writeString(f, "pipeline = ../pipelines/ab.pipeline\nseeds = 3\nvariant base\n");
        ExperimentDTO e = ExperimentReader.read(f, TYPES);
        assertEquals("min", e.name);
        assertNull(e.description);
        assertEquals(dir.resolve("pipelines/ab.pipeline").toString(), e.pipelineFile, "resolved and normalised");
        assertEquals(0, e.durationPicos, "0: the pipeline's duration");
        assertEquals(0, e.warmupPicos);
        assertNull(e.warmupValue, "the file sets no warm-up");
        assertEquals(List.of(1L, 2L, 3L), e.seeds);
        assertEquals(List.of("sink.rxMpps"), e.metrics.stream().map(m -> m.text).toList(), "the pipeline's headline");
        assertEquals(0, e.metrics.get(0).line);
        assertEquals(List.of(), e.variants.get(0).overrides);
    }

    @Test
    void aSingleMetricNeedsNoBrackets() throws Exception {
        ExperimentDTO e = read(valid("metrics = q.drops\n"));
        ValueDTO m = e.metrics.get(0);
        assertEquals("q.drops@5:11", m.text + "@" + m.line + ":" + m.column);
        assertEquals(1, e.metrics.size());
    }

    // ---- the syntax -------------------------------------------------------------------------------------------------

    @Test
    void unknownAndRepeatedKeysAreReportedWithTheAllowedOnes() {
        assertEquals(List.of("5:1: unknown key 'seed': allowed keys are name, description, pipeline, duration, warmup, fork, "
                + "seeds, metrics (other statements: KEY = VALUE, set ELEMENT.PROPERTY = VALUE, type ELEMENT = TYPE, sweep TARGET = VALUES or "
                + "variant NAME { ... })", "6:1: key 'seeds' is set twice: first at line 2, again at line 6"),
                problems(valid("seed = 1\nseeds = 4\n")));
    }

    @Test
    void requiredKeysAndAVariantMissingAreReported() {
        assertEquals(List.of("the key 'pipeline' is missing: name the base pipeline's file, relative to this file's folder, "
                + "as in pipeline = \"../pipelines/netdev-bql.pipeline\"",
                "the key 'seeds' is missing: give a count (seeds = 10 runs every variant with seeds 1 to 10) or a list "
                + "(seeds = [1, 2, 3, 7])",
                "no variant: declare at least one, the baseline first, as in 'variant off { set eth0.bql = false }' and "
                + "'variant on { set eth0.bql = true }'"), problems("name = x\n"));
    }

    @Test
    void statementsAndBlocksReportWhatWasExpected() {
        assertEquals(List.of(
                "5:1: unknown statement 'varient': expected KEY = VALUE, set ELEMENT.PROPERTY = VALUE, type ELEMENT = TYPE"
                        + ", sweep TARGET = VALUES or variant NAME { ... }",
                "6:9: variant name 'a$b' is not valid: variant names start with a letter and contain only letters, digits,"
                        + " '_' and '-'",
                "7:9: variant 'on' is declared twice: first at line 4, again at line 7",
                "8:13: unknown statement 'sett': expected set ELEMENT.PROPERTY = VALUE, type ELEMENT = TYPE or swap = "
                        + "\"AT:ELEMENT[=TYPE[@VERSION]]\" in variant 'x'",
                "9:32: expected ',', ';', a new line or '}' after the value of 'set eth0.bql', found 'true' (quote a value "
                        + "that contains spaces)",
                "11:1: expected '}' to close the block of variant 'open' opened at line 10, found end of file"),
                problems(valid("""
                        varient z { }
                        variant a$b
                        variant on
                        variant x { sett eth0.bql = true }
                        variant y { set eth0.bql = not true }
                        variant open {
                        """)));
    }

    @Test
    void listsReportUnclosedAndMisplacedBrackets() {
        assertEquals(List.of("5:8: 'name' takes one value, not a list",
                "6:15: expected ',' or ']' after 'a.b' in the list of 'metrics' opened at line 6 column 11, found end of line",
                "7:9: seeds: the list is empty; give at least one seed, as in seeds = [1, 2, 3]"),
                problems("pipeline = \"pipelines/ab.pipeline\"\nvariant off\nvariant on\nduration = 1ms\nname = [a]\n"
                        + "metrics = [a.b\nseeds = []\n"));
    }

    // ---- values -----------------------------------------------------------------------------------------------------

    @Test
    void durationsAndWarmUpAreChecked() {
        assertEquals(List.of("5:12: duration: '20' is not a duration: the unit is missing; write a number followed by ps, "
                + "ns, us (or µs), ms or s"), problems(valid("duration = 20\n")));
        assertEquals(List.of("5:12: duration must be more than 0s"), problems(valid("duration = 0ms\n")));
        assertEquals(List.of("6:10: warmup 50ms must be less than each run's duration, 20ms (the experiment's duration)"),
                problems(valid("duration = 20ms\nwarmup = 50ms\n")));
        assertEquals(List.of("5:10: warmup 100ms must be less than each run's duration, 100ms (the pipeline's duration)"),
                problems(valid("warmup = 100ms\n")));
    }

    @Test
    void seedsAreACountOrAListOfDistinctIntegers() {
        String head = "pipeline = \"pipelines/ab.pipeline\"\nvariant off\n";
        assertEquals(List.of("3:9: seeds: a count of 0 is less than 1: write the number of seeds (seeds = 10 runs seeds 1 "
                + "to 10), or for particular seeds a list, as in seeds = [1, 2, 3, 7]"), problems(head + "seeds = 0\n"));
        assertEquals(List.of("3:16: seed 2 is listed twice: first at line 3 column 13, again at column 16; runs are paired "
                + "by seed, so each seed runs once per variant"), problems(head + "seeds = [1, 2, 2]\n"));
        List<String> p = problems(head + "seeds = [1, x]\n");
        assertEquals(1, p.size());
        assertTrue(p.get(0).startsWith("3:13: seeds: 'x' is not an integer"), p.toString());
    }

    @Test
    void metricsNeedTheirFormAndADeclaredElement() {
        assertEquals(List.of(
                "5:12: metric 'rxMpps' is not ELEMENT.METRIC (for example sink.rxMpps), pool:ELEMENT.POOL.METRIC, "
                        + "cpuN.METRIC or l3.METRIC",
                "5:20: metric 'snk.rxMpps': no element 'snk' in pipeline " + dir.resolve("pipelines/ab.pipeline")
                        + "; elements: src, q, eth0, sink",
                "5:57: metric 'q.drops' is listed twice: first at line 5 column 32, again at column 57"),
                problems(valid("metrics = [rxMpps, snk.rxMpps, q.drops, cpu0.busyNanos, q.drops, pool:eth0.rx.inUse]\n")));
    }

    @Test
    void moreSeedsThanAnExperimentRunsAreRefusedBeforeAnyIsMade() {
        // seeds = 1G made a billion seeds (and an OutOfMemoryError) before the first check
        assertEquals(List.of("2:9: seeds: a count of 1G is more than 10,000, the most an experiment runs (every variant"
                + " runs once per seed)"), problems("pipeline = \"pipelines/ab.pipeline\"\nseeds = 1G\nvariant a\n"));
        String list = "[" + "1,".repeat(ExperimentDTO.MAX_SEEDS) + "2]";
        assertEquals(List.of("2:9: seeds: the list has 10,001 seeds, more than 10,000, the most an experiment runs (every"
                + " variant runs once per seed)"), problems("pipeline = \"pipelines/ab.pipeline\"\nseeds = " + list
                + "\nvariant a\n"));
        assertDoesNotThrow(() -> read("pipeline = \"pipelines/ab.pipeline\"\nseeds = 10k\nvariant a\n"));
    }

    @Test
    void aForkWithoutWarmupSetsTheWarmupAtItsOwnPosition() throws Exception {
        ExperimentDTO e = read("pipeline = \"pipelines/ab.pipeline\"\nseeds = 2\nfork   = 50ms\nvariant a\n"
                + "variant b { swap = \"60ms:eth0\" }\n");
        assertEquals(50_000_000_000L, e.warmupPicos);
        assertEquals("50ms@3:10", e.warmupValue.text + "@" + e.warmupValue.line + ":" + e.warmupValue.column);
    }

    @Test
    void aMissingOrBrokenPipelineIsReportedAtItsKeyOrWithItsOwnPositions() throws IOException {
        Path missing = dir.resolve("pipelines/none.pipeline");
        assertEquals(List.of("1:12: pipeline 'pipelines/none.pipeline' (" + missing + "): cannot read the pipeline: no such "
                + "file"), problems("pipeline = \"pipelines/none.pipeline\"\nseeds = 2\nvariant a\n"));
        Files.writeString(dir.resolve("pipelines/broken.pipeline"), "element q : pfifo { limit = }\n");
        assertEquals(List.of("2:12: in pipeline pipelines/broken.pipeline: " + dir.resolve("pipelines/broken.pipeline")
                + ":1:29: expected a value after 'limit =', found '}'"),
                problems("seeds = 2\npipeline = \"pipelines/broken.pipeline\"\nvariant a\n"));
        Files.writeString(dir.resolve("pipelines/empty.pipeline"), "# to do\n");
        assertEquals(List.of("1:12: pipeline 'pipelines/empty.pipeline' (" + dir.resolve("pipelines/empty.pipeline")
                + "): the pipeline declares no element: nothing to run; declare the elements and connect them, as in"
                + " 'element src : source', 'element snk : sink' and 'src -> snk' (docs/pipeline-format.md)"),
                problems("pipeline = \"pipelines/empty.pipeline\"\nseeds = 2\nvariant a\n"));
        Files.write(dir.resolve("pipelines/latin1.pipeline"), new byte[] {'#', (byte) 0xE9, '\n'});
        List<String> latin1 = problems("pipeline = \"pipelines/latin1.pipeline\"\nseeds = 2\nvariant a\n");
        assertEquals(1, latin1.size(), latin1.toString());
        assertTrue(latin1.get(0).startsWith("1:12: in pipeline pipelines/latin1.pipeline: "
                + dir.resolve("pipelines/latin1.pipeline") + ":1:2: cannot read the pipeline: the file is not UTF-8 text"),
                latin1.toString());
    }

    // ---- variants against the pipeline and the installed types -----------------------------------------------------

    @Test
    void setChecksTheElementThePropertyAndTheValue() {
        assertEquals(List.of(
                "5:17: set eth1.bql: no element 'eth1' in pipeline " + dir.resolve("pipelines/ab.pipeline")
                        + "; elements: src, q, eth0, sink",
                "6:17: set eth0.bm: element eth0 (type netdev) has no property 'bm'; its properties: ring, bql",
                "7:29: set eth0.ring: element eth0 (type netdev): ring=9999 is out of range: allowed 1 to 4096",
                "8:17: 'eth0' is not ELEMENT.PROPERTY: write the element's name, '.', and the property's name, as in eth0.bql",
                "9:22: property name 'Bql' of 'set eth0.Bql' is not valid: property names start with a lower-case letter "
                        + "and contain only letters and digits"),
                problems(valid("""
                        variant a { set eth1.bql = true }
                        variant b { set eth0.bm = true }
                        variant c { set eth0.ring = 9999 }
                        variant d { set eth0 = 1 }
                        variant e { set eth0.Bql = true }
                        """)));
    }

    @Test
    void typeChecksTheTypeAndThatTheElementsPropertiesStillFit() {
        String pipeline = dir.resolve("pipelines/ab.pipeline").toString();
        assertEquals(List.of(
                "5:25: type eth0 = nosuch: element type 'nosuch' is not installed; installed types: source, pfifo, netdev, "
                        + "fastnic, plainnic, sink",
                "6:25: type eth0 = plainnic: type plainnic has no property 'bql', which " + pipeline + ":8:11 sets; its "
                        + "properties: ring",
                "7:18: type eth9 = fastnic: no element 'eth9' in pipeline " + pipeline + "; elements: src, q, eth0, sink",
                "8:17: set eth0.bm: element eth0 (type fastnic, as variant 'd' makes it) has no property 'bm'; its "
                        + "properties: ring, bql, coalesce"),
                problems(valid("""
                        variant a { type eth0 = nosuch }
                        variant b { type eth0 = plainnic }
                        variant c { type eth9 = fastnic }
                        variant d { set eth0.bm = 1; type eth0 = fastnic }
                        """)));
    }

    @Test
    void aCommonSetIsCheckedAgainstEachVariantsType() {
        List<String> p = problems("pipeline = \"pipelines/ab.pipeline\"\nseeds = 3\nset eth0.coalesce = 5us\n"
                + "variant off\nvariant fast { type eth0 = fastnic }\n");
        assertEquals(List.of("3:5: set eth0.coalesce: element eth0 (type netdev) has no property 'coalesce'; its properties: "
                + "ring, bql"), p, "reported once, for the variants where eth0 stays a netdev");
    }

    @Test
    void swapsAreCheckedForTheirShapeOnly() {
        String pipeline = dir.resolve("pipelines/ab.pipeline").toString();
        assertEquals(List.of(
                "5:20: swap 'eth0=fastnic': no ':' after the time; expected AT:ELEMENT[=TYPE[@VERSION]], as in 1s:eth0=stmmac",
                "6:20: swap '1x:eth0': the time: '1x' is not a duration: write a number followed by ps, ns, us (or µs), ms "
                        + "or s",
                "7:20: swap '2s:eth0': the time 2s is not before the end of each run, 100ms (the pipeline's duration)",
                "8:20: swap '1ms:eth9=fastnic': no element 'eth9' in pipeline " + pipeline + "; elements: src, q, eth0, "
                        + "sink; expected AT:ELEMENT[=TYPE[@VERSION]], as in 1s:eth0=stmmac",
                "9:20: swap '1ms:eth0=FastNic': element type 'FastNic' is not valid: type ids start with a lower-case letter "
                        + "and contain only lower-case letters, digits, '_', '.' and '-'"),
                problems(valid("""
                        variant a { swap = "eth0=fastnic" }
                        variant b { swap = "1x:eth0" }
                        variant c { swap = "2s:eth0" }
                        variant d { swap = "1ms:eth9=fastnic" }
                        variant e { swap = "1ms:eth0=FastNic" }
                        """)));
    }

    @Test
    void anUnreadableExperimentFileIsOneProblemWithoutPosition() {
        Path f = dir.resolve("none.experiment");
        PipelineException e = assertThrows(PipelineException.class, () -> ExperimentReader.read(f, TYPES));
        assertEquals(f + ": cannot read the experiment: no such file", e.getMessage());
    }
}

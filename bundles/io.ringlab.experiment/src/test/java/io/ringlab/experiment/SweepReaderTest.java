package io.ringlab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.SweepDTO;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.ProblemDTO;

/**
 * Sweeps in experiment files ({@link ExperimentParser}, {@link ExperimentReader}): lists, ranges, element types and
 * zipped targets read and expanded, and each kind of bad sweep reported at its line and column before anything runs.
 * The pipeline and the installed types are {@link ExperimentReaderTest}'s.
 */
class SweepReaderTest {
    @TempDir
    Path dir;

    @BeforeEach
    void writePipeline() throws IOException {
        Files.createDirectories(dir.resolve("pipelines"));
        Files.writeString(dir.resolve("pipelines/ab.pipeline"), ExperimentReaderTest.PIPELINE);
    }

    private ExperimentDTO read(String text) throws PipelineException {
        return ExperimentReader.read("sweep.experiment", text, dir, ExperimentReaderTest.TYPES);
    }

    /** A valid head with two variants; the test appends its sweeps (from line 5). */
    private static String valid(String extra) {
        return "pipeline = \"pipelines/ab.pipeline\"\nseeds = 3\nvariant off\nvariant on { set eth0.bql = true }\n" + extra;
    }

    private List<String> problems(String text) {
        PipelineException e = assertThrows(PipelineException.class, () -> read(text));
        List<String> out = new ArrayList<>();
        for (ProblemDTO p : e.problems()) {
            out.add((p.line > 0 ? p.line + ":" + p.column + ": " : "") + p.message);
        }
        return out;
    }

    private static List<String> flat(SweepDTO s) {
        List<String> values = new ArrayList<>();
        s.values.forEach(t -> values.add(String.join("|", t)));
        return values;
    }

    @Test
    void listsRangesTypesAndZippedTargetsAreReadAndExpanded() throws Exception {
        ExperimentDTO e = read(valid("""
                sweep eth0.ring = [64, 128, 0x100]
                sweep src.rate = 100Mbit..1Gbit +300Mbit
                sweep q.limit = 10..1000 *10
                sweep (src.size, eth0) = [(64B, fastnic), (1518B, netdev)]
                """));
        assertEquals(4, e.sweeps.size());
        assertEquals(List.of("eth0.ring"), e.sweeps.get(0).targets);
        assertEquals(List.of("64", "128", "0x100"), flat(e.sweeps.get(0)), "a list keeps the values as written");
        assertEquals(5, e.sweeps.get(0).line);
        assertEquals(1, e.sweeps.get(0).column);
        assertEquals(List.of("100Mbit", "400Mbit", "700Mbit", "1Gbit"), flat(e.sweeps.get(1)),
                "LOW + i * STEP up to HIGH, in the property's grammar");
        assertEquals(List.of("10", "100", "1000"), flat(e.sweeps.get(2)));
        assertEquals(List.of("src.size", "eth0"), e.sweeps.get(3).targets);
        assertEquals(List.of("64B|fastnic", "1518B|netdev"), flat(e.sweeps.get(3)));
    }

    @Test
    void anElementTypeIsSweptOverInstalledTypesThatFitItsProperties() throws Exception {
        ExperimentDTO e = read(valid("sweep eth0 = [netdev, fastnic]\n"));
        assertEquals(List.of("eth0"), e.sweeps.get(0).targets);
        assertEquals(List.of("netdev", "fastnic"), flat(e.sweeps.get(0)));
        // plainnic has no bql, which the pipeline sets on eth0 and variant 'on' sets too
        List<String> p = problems(valid("sweep eth0 = [netdev, plainnic]\n"));
        assertEquals(1, p.size(), p.toString());
        assertEquals(true, p.get(0).startsWith("5:23: sweep eth0: type plainnic has no property 'bql', which "), p.get(0));
    }

    @Test
    void aPropertySweptOnAnElementWhoseTypeIsSweptMustExistInEveryType() {
        List<String> p = problems("pipeline = \"pipelines/ab.pipeline\"\nseeds = 1\nvariant base\n"
                + "sweep eth0 = [netdev, fastnic]\nsweep eth0.coalesce = [1us, 2us]\n");
        assertEquals(List.of("5:7: sweep eth0.coalesce: element eth0 (type netdev, as a sweep makes it) has no property"
                + " 'coalesce'; its properties: ring, bql"), p);
    }

    @Test
    void aValueOutsideThePropertysRangeIsRefusedAtItsPositionWithTheAllowedRange() {
        assertEquals(List.of("5:24: sweep eth0.ring: element eth0 (type netdev, the pipeline's): ring=8192 is out of"
                + " range: allowed 1 to 4096"), problems(valid("sweep eth0.ring = [64, 8192]\n")));
        assertEquals(List.of("5:19: sweep eth0.ring: ring=8192 is out of range: allowed 1 to 4096"),
                problems(valid("sweep eth0.ring = 64..8192 *2\n")));
    }

    @Test
    void badRangesSayWhatARangeIs() {
        assertEquals(List.of("5:18: sweep src.rate: the range 1Gbit..2Gbit has no step: " + SweepRange.FORMS),
                problems(valid("sweep src.rate = 1Gbit..2Gbit\n")));
        assertEquals(List.of("5:18: sweep eth0.bql: property 'bql' is a boolean, which has no range: give its values as"
                + " a list"), problems("pipeline = \"pipelines/ab.pipeline\"\nseeds = 1\nvariant base\n\n"
                        + "sweep eth0.bql = true..false +1\n"));
        assertEquals(List.of("5:19: sweep eth0.ring: the range 512..64 runs downwards: write the lower value first"),
                problems(valid("sweep eth0.ring = 512..64 *2\n")));
        assertEquals(List.of("5:19: sweep eth0.ring: the factor *1 does not advance: give a factor more than 1, as in *2"),
                problems(valid("sweep eth0.ring = 64..512 *1\n")));
        assertEquals(List.of("5:19: sweep eth0.ring: '64' is neither a list nor a range: " + SweepRange.FORMS
                + ", or give the values as a list, as in [64, 128, 256]"), problems(valid("sweep eth0.ring = 64\n")));
    }

    @Test
    void aSweptTargetIsSetNowhereElseAndSweptOnce() {
        assertEquals(List.of("5:7: sweep eth0.bql: 'eth0.bql' is also set by variant 'on' at line 4: a swept target takes"
                + " its value from the sweep alone"), problems(valid("sweep eth0.bql = [true, false]\n")));
        assertEquals(List.of("6:8: sweep (eth0.ring, src.rate): 'eth0.ring' is swept twice: first at line 5, again at line"
                + " 6; one sweep gives a target its values (targets that move together: sweep (A, B) = [...])"),
                problems(valid("sweep eth0.ring = [64]\nsweep (eth0.ring, src.rate) = [(64, 1Gbit)]\n")));
        assertEquals(List.of("5:7: sweep nic.ring: no element 'nic' in pipeline " + dir.resolve("pipelines/ab.pipeline")
                + "; elements: src, q, eth0, sink"), problems(valid("sweep nic.ring = [64]\n")));
        List<String> twice = problems(valid("sweep eth0.ring = [64, 128, 64]\n"));
        assertEquals(1, twice.size(), twice.toString());
        assertEquals(true, twice.get(0).startsWith("5:29: sweep eth0.ring: the value 64 is listed twice: first at line 5"),
                twice.get(0));
    }

    @Test
    void zippedTuplesHaveOneValuePerTarget() {
        assertEquals(List.of("5:46: sweep (eth0.ring, src.rate): this tuple has 1 value for 2 targets"),
                problems(valid("sweep (eth0.ring, src.rate) = [(64, 1Gbit), (128)]\n")));
        assertEquals(List.of("5:32: sweep (eth0.ring, src.rate): expected a tuple such as (100Mbit, 100Mbit), found '64'"
                + " (write the values of one point in parentheses, without a space after '(')"),
                problems(valid("sweep (eth0.ring, src.rate) = [64, 1Gbit]\n")));
        assertEquals(List.of("5:31: sweep (eth0.ring, src.rate): targets that move together take a list of tuples, as in"
                + " [(100Mbit, 100Mbit), (1Gbit, 1Gbit)], not a range"),
                problems(valid("sweep (eth0.ring, src.rate) = 1..3 +1\n")));
    }

    @Test
    void moreRunsThanAnExperimentTakesAreRefusedBeforeAnyRun() {
        List<String> p = problems("pipeline = \"pipelines/ab.pipeline\"\nseeds = 100\nvariant off\nvariant on\n"
                + "sweep eth0.ring = 1..4096\nsweep q.limit = 1..20\n");
        assertEquals(List.of("5:1: the sweeps up to this one expand to more than 100,000 runs (variants x points x seeds),"
                + " the most an experiment runs: narrow a range or take fewer seeds"), p);
    }
}

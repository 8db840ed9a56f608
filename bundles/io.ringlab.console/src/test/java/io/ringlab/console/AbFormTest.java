package io.ringlab.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO.Kind;
import io.ringlab.sim.api.dto.RunResultDTO;

class AbFormTest {
    private static final String PIPELINE = """
            name = "netdev-bql"
            duration = 200ms
            headline = eth0.ringUsed
            element src : source
            element q : pfifo { limit = 1000 }
            element eth0 : netdev { ring = 256; bql = false }
            element sink : sink
            src -> q -> eth0 -> sink
            """;

    private static List<ElementDescriptorDTO> types() {
        ElementDescriptorDTO pfifo = EditorFixtures.type("pfifo", ElementDescriptorDTO.QDISC);
        pfifo.properties.add(PropertyDescriptorDTO.of("limit", Kind.INTEGER, "1000", "1", "1000000", "packets"));
        ElementDescriptorDTO netdev = EditorFixtures.type("netdev", ElementDescriptorDTO.DRIVER);
        netdev.properties.add(PropertyDescriptorDTO.of("ring", Kind.INTEGER, "256", "1", "4096", "descriptors"));
        netdev.properties.add(PropertyDescriptorDTO.of("bql", Kind.BOOLEAN, "false", null, null, "Byte Queue Limits"));
        ElementDescriptorDTO fastnic = EditorFixtures.type("fastnic", ElementDescriptorDTO.DRIVER);
        fastnic.properties.add(PropertyDescriptorDTO.of("ring", Kind.INTEGER, "256", "1", "4096", "descriptors"));
        fastnic.properties.add(PropertyDescriptorDTO.of("coalesce", Kind.DURATION, "0s", "0s", "1ms", "IRQ coalescing"));
        return List.of(EditorFixtures.type("source", ElementDescriptorDTO.SOURCE), pfifo, netdev, fastnic,
                EditorFixtures.type("sink", ElementDescriptorDTO.SINK));
    }

    private static PipelineDTO pipeline() throws Exception {
        return PipelineReader.read("netdev-bql.pipeline", PIPELINE);
    }

    private static AbForm.Fields fields(String types, String overrides, String seeds, String duration, String warmup,
            List<String> chosen, String typed) {
        return new AbForm.Fields(types, overrides, seeds, duration, warmup, chosen, typed);
    }

    @Test
    void theFormMakesVariantAAsItIsAndBWithItsTypesAndOverrides() throws Exception {
        PipelineDTO p = pipeline();
        AbForm.Built b = AbForm.build(fields("", "eth0.bql=true\n\n  q.limit=50  ", "2", "20ms", "5ms",
                List.of("eth0.ringUsed"), "q.backlog, sink.rxPackets  pool:eth0.rx.inUse"), p, "/x/netdev-bql.pipeline", types());
        assertEquals(List.of(), b.errors());
        ExperimentDTO e = b.experiment();
        assertSame(p, e.pipeline);
        assertEquals("/x/netdev-bql.pipeline", e.pipelineFile);
        assertEquals("netdev-bql-ab", e.name);
        assertEquals(AbForm.FILE, e.file);
        assertEquals(List.of(1L, 2L), e.seeds);
        assertEquals(20_000_000_000L, e.durationPicos);
        assertEquals(5_000_000_000L, e.warmupPicos);
        assertEquals(List.of("eth0.ringUsed", "q.backlog", "sink.rxPackets", "pool:eth0.rx.inUse"),
                e.metrics.stream().map(m -> m.text).toList());
        assertEquals(List.of(AbForm.A, AbForm.B), e.variants.stream().map(v -> v.name).toList());
        assertEquals(List.of(), e.variants.get(0).overrides);
        assertEquals(Map.of(), e.variants.get(0).types);
        assertEquals(List.of("eth0.bql=true", "q.limit=50"), e.variants.get(1).overrides);
        assertEquals("""
                netdev-bql-ab (<A/B form>)
                pipeline netdev-bql (/x/netdev-bql.pipeline)
                variant A (baseline): the pipeline as it is
                variant B: set eth0.bql=true; set q.limit=50
                seeds [1, 2], duration 20ms, warm-up 5ms
                metrics eth0.ringUsed, q.backlog, sink.rxPackets, pool:eth0.rx.inUse""",
                AbForm.describe(e));
    }

    @Test
    void aTypeReplacementIsCheckedAndTheOverridesAfterItUseTheNewType() throws Exception {
        AbForm.Built b = AbForm.build(fields("eth0 = fastnic", "eth0.coalesce=50us", "1", "", "", List.of("eth0.ringUsed"), ""),
                pipeline(), null, types());
        assertEquals(List.of(), b.errors());
        assertEquals(Map.of("eth0", "fastnic"), b.experiment().variants.get(1).types);
        assertEquals(0, b.experiment().durationPicos, "empty: the pipeline's duration");
        assertEquals("<unsaved>", b.experiment().pipelineFile);

        AbForm.Built bad = AbForm.build(fields("eth0=fastnic", "eth0.bql=true", "1", "", "", List.of("eth0.ringUsed"), ""),
                pipeline(), null, types());
        assertEquals(List.of("Variant B overrides, line 1: 'eth0.bql=true': element eth0 (type fastnic, as B makes it) has no "
                + "property 'bql'; its properties: ring, coalesce"), bad.errors());
    }

    @Test
    void everyMessageNamesItsFieldAndWhatIsAllowed() throws Exception {
        AbForm.Built b = AbForm.build(fields("eth9=netdev\neth0=nosuch\neth0", "eth0.ring=9999\neth0bql=true\nq.limit=x\nwire.rate=1Gbit",
                "0", "20", "1s", List.of(), "rxMpps"), pipeline(), null, types());
        assertNull(b.experiment());
        assertEquals(List.of(
                "Seeds: a count of 0 is less than 1; write how many seeds to run, a whole number from 1 (3 runs seeds 1 to 3 in each variant)",
                "Duration: '20' is not a duration: the unit is missing; write a number followed by ps, ns, us (or µs), ms or s; "
                        + "empty for the pipeline's duration",
                "Warm-up: 1s must be less than each run's duration, 200ms (the pipeline's)",
                "Variant B types, line 1 'eth9=netdev': no element 'eth9' in pipeline netdev-bql; elements: src, q, eth0, sink",
                "Variant B types, line 2 'eth0=nosuch': element type 'nosuch' is not installed; installed types: source, pfifo, "
                        + "netdev, fastnic, sink",
                "Variant B types, line 3 'eth0': expected ELEMENT=TYPE, as in eth0=stmmac",
                "Variant B overrides, line 1: eth0.ring=9999 is out of range: allowed 1 to 4096",
                "Variant B overrides, line 2: --set 'eth0bql=true': expected ELEMENT.PROPERTY=VALUE",
                "Variant B overrides, line 3: q.limit: 'x' is not an integer: write decimal digits, optionally followed by k, M or G "
                        + "(times 1000, 1000000 or 1000000000), or 0x and hex digits; '_' may separate digits",
                "Variant B overrides, line 4: 'wire.rate=1Gbit': no element 'wire' in pipeline netdev-bql; elements: src, q, eth0, sink",
                "Metrics: 'rxMpps' is not ELEMENT.METRIC (for example sink.rxMpps), pool:ELEMENT.POOL.METRIC, cpuN.METRIC or l3.METRIC"),
                b.errors());
    }

    @Test
    void moreSeedsThanAnExperimentRunsAreRefused() throws Exception {
        // 2000000000 made two billion seeds in the console's heap
        AbForm.Built b = AbForm.build(fields("", "eth0.bql=true", "2000000000", "", "", List.of("sink.rxMpps"), ""),
                pipeline(), null, types());
        assertNull(b.experiment());
        assertEquals(List.of("Seeds: a count of 2000000000 is more than 10,000, the most an experiment runs; write how many"
                + " seeds to run, a whole number from 1 (3 runs seeds 1 to 3 in each variant)"), b.errors());
    }

    @Test
    void bWithoutChangesNoMetricAndAnEmptySeedsFieldAreRefused() throws Exception {
        AbForm.Built b = AbForm.build(fields(" ", "", " ", "", "", List.of(), "  "), pipeline(), null, types());
        assertEquals(List.of(
                "Seeds: empty; write how many seeds to run, a whole number from 1 (3 runs seeds 1 to 3 in each variant)",
                "Variant B: give at least one element type replacement (ELEMENT=TYPE) or property override (ELEMENT.PROPERTY=VALUE); "
                        + "without one, B is A",
                "Metrics: none chosen; select at least one in the list, or type ELEMENT.METRIC (for example sink.rxMpps), "
                        + "pool:ELEMENT.POOL.METRIC, cpuN.METRIC or l3.METRIC"), b.errors());
        AbForm.Built words = AbForm.build(fields("", "eth0.bql=true", "two", "", "", List.of("snk.rxPackets"), ""), pipeline(),
                null, types());
        assertEquals(List.of("Seeds: 'two' is not a whole number; write how many seeds to run, a whole number from 1 (3 runs "
                + "seeds 1 to 3 in each variant)", "Metrics: 'snk.rxPackets': no element 'snk' in pipeline netdev-bql; elements: src, "
                + "q, eth0, sink"), words.errors());
    }

    @Test
    void anOldMetricNameIsReadAsTodaysWithAWarningThatNamesTheField() throws Exception {
        AbForm.Built b = AbForm.build(fields("", "eth0.bql=true", "1", "", "", List.of("eth0.ringUsed"), "sink.rxMbps"),
                pipeline(), null, types());
        assertEquals(List.of(), b.errors());
        assertEquals(List.of("eth0.ringUsed", "sink.rxMbitPerSecond"), b.experiment().metrics.stream().map(m -> m.text).toList());
        assertEquals(List.of("Metrics: warning: metric sink.rxMbps is now sink.rxMbitPerSecond (Mbit/s); the old name will go"),
                b.warnings());

        AbForm.Built today = AbForm.build(fields("", "eth0.bql=true", "1", "", "", List.of("sink.rxMbitPerSecond"), ""),
                pipeline(), null, types());
        assertEquals(List.of(), today.warnings());
    }

    @Test
    void theMetricChoicesAreWhatTheShortRunReportedSorted() {
        RunResultDTO r = new RunResultDTO();
        r.elements.put("sink", Map.of("rxPackets", 1.0, "latencyP50Micros", Double.NaN));
        r.elements.put("pool:eth0.rx", Map.of("inUse", 3.0));
        r.elements.put("cpu0", Map.of("utilisationPercent", 12.0));
        assertEquals(List.of("cpu0.utilisationPercent", "pool:eth0.rx.inUse", "sink.latencyP50Micros", "sink.rxPackets"),
                AbForm.reportedMetrics(r));
    }

    @Test
    void progressReadsAsTheCommandLinesLines() {
        assertEquals("3/4 runs, 1:02 elapsed: variant B, seed 1 FINISHED", AbForm.progress(3, 4, 62, "B", 1, "FINISHED"));
        assertTrue(AbForm.PROBE_DURATION.endsWith("ms"));
    }

    /** A file's experiment with the panel's seeds, duration and warm-up; blank keeps the file's; the file's DTO untouched. */
    @Test
    void aFilesSeedsDurationAndWarmupAreOverriddenWhereGiven() throws Exception {
        ExperimentDTO file = new ExperimentDTO();
        file.name = "f";
        file.pipeline = PipelineReader.read("p.pipeline", "duration = 50ms\nelement s : sink\n");
        file.seeds.addAll(List.of(3L, 7L));
        file.durationPicos = 0;
        file.warmupPicos = 5_000_000_000L;
        AbForm.Built same = AbForm.overrideFile(file, "", " ", "");
        assertEquals(List.of(), same.errors());
        assertEquals(List.of(3L, 7L), same.experiment().seeds);
        assertEquals(5_000_000_000L, same.experiment().warmupPicos);
        assertSame(file.pipeline, same.experiment().pipeline);

        AbForm.Built changed = AbForm.overrideFile(file, "2", "20ms", "0s");
        assertEquals(List.of(1L, 2L), changed.experiment().seeds);
        assertEquals(20_000_000_000L, changed.experiment().durationPicos);
        assertEquals(0, changed.experiment().warmupPicos);
        assertEquals(List.of(3L, 7L), file.seeds, "the file's experiment is not changed");
        assertEquals(0, file.durationPicos);

        AbForm.Built bad = AbForm.overrideFile(file, "two", "", "60ms");
        assertNull(bad.experiment());
        assertEquals(List.of("Seeds: 'two' is not a whole number; write how many seeds to run, a whole number from 1 (3 runs"
                + " seeds 1 to 3 in each variant)", "Warm-up: 60ms must be less than each run's duration, 50ms (the pipeline's)"),
                bad.errors());
    }
}

package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import io.ringlab.conformance.MetricDeclarations;
import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.MetricDescriptorDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

import io.ringlab.conformance.ModelTests;

/**
 * Every built-in element type's declared metrics ({@link ElementDescriptorDTO#metricDescriptors}, what
 * {@code ringlab elements} lists) are what runs of it report: each sample pipeline and two small ones run briefly, and
 * the conformance kit's check ({@link MetricDeclarations}) holds each type's reported metrics, over all the runs, to its
 * declarations both ways, with a kind, a unit and a meaning. So a metric added to an element without its declaration,
 * or a declaration left behind by a metric removed, fails here.
 */
class MetricDescriptorsTest {
    /** The types no sample uses: fq_codel, drop; and TCP with CUBIC and two streams, on ping's idle path. */
    private static final List<String> EXTRA = List.of("""
            duration = 20ms
            element src : source { rate = 2Gbit; flows = 4 }
            element q : fq_codel
            element eth0 : netdev
            element wire : link { rate = 1Gbit }
            element end : drop
            src -> q -> eth0 -> wire -> end
            """, PingTest.IDLE.replace("duration = 10s", "duration = 50ms")
                    .replace("element ping : ping { interval = 1s }", "element tcp : tcp { streams = 2; congestion = cubic }")
                    .replace("ping -> q", "tcp -> q").replace("ping.in", "tcp.in"));

    @Test
    void everyReportedMetricIsDeclaredByItsTypeAndEveryDeclaredOneReported(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        TestRegistry registry = new TestRegistry();
        Map<String, ElementDescriptorDTO> types = new TreeMap<>();
        for (ElementDescriptorDTO d : registry.types()) {
            types.put(d.type, d);
        }
        Map<String, Set<String>> reported = new TreeMap<>();
        for (String text : pipelines(dir)) {
            PipelineDTO p = PipelineReader.read("test.pipeline", text);
            RunResultDTO r = Pipelines.build(registry, text, 1).run();
            assertEquals("FINISHED", r.state, r.error);
            for (ElementSpecDTO e : p.elements) {
                reported.computeIfAbsent(e.type, k -> new TreeSet<>())
                        .addAll(r.elements.getOrDefault(e.name, Map.of()).keySet());
            }
        }
        Map<String, List<String>> undeclared = new TreeMap<>();
        Map<String, List<String>> unreported = new TreeMap<>();
        reported.forEach((type, names) -> {
            List<String> u = MetricDeclarations.undeclared(types.get(type), names);
            if (!u.isEmpty()) {
                undeclared.put(type, u);
            }
            List<String> n = MetricDeclarations.unreported(registry.factory(type).descriptor(), names);
            if (!n.isEmpty()) {
                unreported.put(type, n);
            }
        });
        assertEquals(Map.of(), undeclared, "metrics reported but not declared, by type");
        assertEquals(Map.of(), unreported, "metrics declared but never reported, by type");
        assertEquals(types.keySet(), reported.keySet(), "every built-in type ran");
    }

    @Test
    void everyDeclaredMetricHasAKindAUnitAndAMeaning() {
        List<String> bad = new ArrayList<>();
        for (ElementDescriptorDTO d : new TestRegistry().types()) {
            assertTrue(!d.metricDescriptors.isEmpty(), d.type + " declares no metric");
            for (MetricDescriptorDTO m : d.metricDescriptors) {
                if (m.kind == null || m.unit == null || m.description == null || m.description.isBlank()) {
                    bad.add(d.type + "." + m.name);
                }
            }
            assertEquals(d.metricDescriptors.stream().map(m -> m.name).filter(n -> !n.contains("<")).toList(), d.metrics,
                    d.type + ": the names are the descriptors'");
        }
        assertEquals(List.of(), bad, "declared without kind, unit or meaning");
    }

    /**
     * Every type's canvas roles are well formed (a level a gauge, a throughput a counter of bytes or packets, a capacity
     * a metric or property of the type), the drivers, qdiscs and links have some, and the check fails on what it must
     * refuse.
     */
    @Test
    void canvasRolesNameGaugesCountersAndCapacitiesOfTheType() {
        Map<String, List<String>> bad = new TreeMap<>();
        Map<String, List<String>> roles = new TreeMap<>();
        for (ElementDescriptorDTO d : new TestRegistry().types()) {
            List<String> b = MetricDeclarations.canvasRoles(d);
            if (!b.isEmpty()) {
                bad.put(d.type, b);
            }
            d.metricDescriptors.stream().filter(m -> m.canvas != null)
                    .forEach(m -> roles.computeIfAbsent(d.type, k -> new ArrayList<>()).add(m.name + ":" + m.canvas));
        }
        assertEquals(Map.of(), bad, "canvas roles");
        assertEquals(List.of("backlog:level", "backlogBytes:level", "sentBytes:throughput"), roles.get("pfifo"));
        assertEquals(List.of("txBytes:throughput", "ringUsed:level", "inflight:level"), roles.get("netdev"));
        assertEquals(List.of("wireBytes:throughput", "busySeconds:busy"), roles.get("link"));

        ElementDescriptorDTO wrong = new ElementDescriptorDTO();
        wrong.type = "t";
        wrong.metricDescriptors.add(new MetricDescriptorDTO(MetricDescriptorDTO.COUNTER, "held", "", "x").level(null));
        wrong.metricDescriptors.add(new MetricDescriptorDTO(MetricDescriptorDTO.COUNTER, "cycles", "ns", "x").throughput(null));
        wrong.metricDescriptors.add(new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, "used", "", "x").level("size"));
        MetricDescriptorDTO odd = new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, "odd", "", "x");
        odd.canvas = "bar";
        wrong.metricDescriptors.add(odd);
        wrong.metricDescriptors.add(new MetricDescriptorDTO(MetricDescriptorDTO.COUNTER, "idle", "ns", "x").busy());
        assertEquals(List.of("t.held: canvas=level on a counter; a level is a gauge (what the element holds now)",
                "t.cycles: canvas=throughput in unit ns; a throughput counts bytes (B) or packets",
                "t.used: canvas=level, capacity=size names neither a metric nor a property of the type (metrics: [cycles,"
                        + " held, idle, odd, used], properties: [])",
                "t.odd: canvas=bar; allowed: level, throughput, busy",
                "t.idle: canvas=busy on a counter in unit ns; a busy time is a gauge in seconds (s)"),
                MetricDeclarations.canvasRoles(wrong));
    }

    private static List<String> pipelines(Path dir) throws Exception {
        List<String> l = new ArrayList<>();
        // pcap-source replays a capture a source wrote: made here, so the type runs too
        Path capture = dir.resolve("src.pcapng");
        PcapTest.run(PcapSourceTest.ORIGINAL.replace("200ms", "20ms"), List.of("src.out=" + capture));
        l.add(PcapSourceTest.replayOf(capture, "loop = 2").replace("400ms", "50ms"));
        try (var s = Files.list(DocsIndexTest.repository().resolve("pipelines"))) {
            for (Path f : s.sorted().toList()) {
                l.add(ModelTests.sample(f.getFileName().toString(), "20ms"));
            }
        }
        l.addAll(EXTRA);
        return l;
    }
}

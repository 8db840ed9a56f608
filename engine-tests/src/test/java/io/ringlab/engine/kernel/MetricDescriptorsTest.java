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
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.MetricDescriptorDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * Every built-in element type's declared metrics ({@link ElementDescriptorDTO#metricDescriptors}, what
 * {@code ringlab elements} lists) cover what a run of it reports: each sample pipeline and two small ones run briefly,
 * and every metric each element reports must be declared by its type, with a kind and a meaning. So a metric added to
 * an element without its declaration fails here.
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
    void everyReportedMetricIsDeclaredByItsType() throws Exception {
        TestRegistry registry = new TestRegistry();
        Map<String, ElementDescriptorDTO> types = new TreeMap<>();
        for (ElementDescriptorDTO d : registry.types()) {
            types.put(d.type, d);
        }
        Map<String, Set<String>> undeclared = new TreeMap<>();
        Set<String> ran = new TreeSet<>();
        for (String text : pipelines()) {
            PipelineDTO p = PipelineReader.read("test.pipeline", text);
            RunResultDTO r = Pipelines.build(registry, text, 1).run();
            assertEquals("FINISHED", r.state, r.error);
            for (ElementSpecDTO e : p.elements) {
                ran.add(e.type);
                List<Pattern> declared = declared(types.get(e.type));
                for (String m : r.elements.getOrDefault(e.name, Map.of()).keySet()) {
                    if (declared.stream().noneMatch(d -> d.matcher(m).matches())) {
                        undeclared.computeIfAbsent(e.type, k -> new TreeSet<>()).add(m);
                    }
                }
            }
        }
        assertEquals(Map.of(), undeclared, "metrics reported but not declared, by type");
        assertEquals(types.keySet(), ran, "every built-in type ran");
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

    /** @return a type's declared names as patterns: {@code <i>} stands for a number */
    private static List<Pattern> declared(ElementDescriptorDTO d) {
        List<Pattern> l = new ArrayList<>();
        for (MetricDescriptorDTO m : d.metricDescriptors) {
            l.add(Pattern.compile(Pattern.quote(m.name).replace("<i>", "\\E[0-9]+\\Q")));
        }
        return l;
    }

    private static List<String> pipelines() throws IOException {
        List<String> l = new ArrayList<>();
        Path dir = Path.of("").toAbsolutePath();
        while (!Files.isDirectory(dir.resolve("pipelines"))) { // the repository's, from the module's folder up
            dir = dir.getParent();
        }
        try (var s = Files.list(dir.resolve("pipelines"))) {
            for (Path f : s.sorted().toList()) {
                l.add(Pipelines.sample(f.getFileName().toString(), "20ms"));
            }
        }
        l.addAll(EXTRA);
        return l;
    }
}

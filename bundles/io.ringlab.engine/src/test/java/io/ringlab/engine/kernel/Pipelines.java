package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/** Test helpers: build runs from pipeline text. */
final class Pipelines {
    /** A pipeline with every source of randomness: Poisson arrivals, uniform sizes, flows, random loss, a CPU consumer. */
    static final String RANDOM = """
            name = "random"
            duration = 20ms
            element src : source { rate = 1.2Gbit; sizes = uniform; size = 64B; sizeMax = 1518B; arrivals = poisson; flows = 8 }
            element q : pfifo { limit = 200 }
            element eth0 : netdev { ring = 32; bql = true }
            element wire : link { rate = 1Gbit; delay = 50us; loss = 0.01 }
            element sink : sink { cycles = 2000 }
            src -> q -> eth0 -> wire -> sink
            """;

    private Pipelines() {
    }

    static RunImpl build(String text, long seed, String... sets) throws PipelineException {
        return build(new TestRegistry(), text, seed, sets);
    }

    static RunImpl build(Registry registry, String text, long seed, String... sets) throws PipelineException {
        RunOptionsDTO o = new RunOptionsDTO();
        o.seed = seed;
        o.snapshotIntervalMillis = 0;
        o.overrides.addAll(java.util.List.of(sets));
        return new PipelineBuilder(registry).build(PipelineReader.read("test.pipeline", text), o);
    }

    /**
     * @return the text of {@code pipelines/NAME} of the repository (found from the module's folder up) with its
     *         {@code duration} header set to {@code duration}
     */
    static String sample(String name, String duration) throws IOException {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isDirectory(dir.resolve("pipelines"))) {
            dir = dir.getParent();
        }
        assertTrue(dir != null, "no pipelines folder above " + Path.of("").toAbsolutePath());
        String text = Files.readString(dir.resolve("pipelines").resolve(name));
        String replaced = text.replaceFirst("(?m)^duration = .*$", "duration = " + duration);
        assertTrue(!replaced.equals(text) || text.contains("duration = " + duration), name + " has no duration header");
        return replaced;
    }

    /**
     * Runs a pipeline with the models on the class path and checks what every run must: it finished,
     * and packets and buffers are conserved.
     */
    static RunResultDTO runConserved(String text, long seed, String... sets) throws PipelineException {
        RunResultDTO r = build(new TestRegistry(), text, seed, sets).run();
        assertEquals("FINISHED", r.state, r.error);
        assertTrue(r.invariants.packetConservation && r.invariants.bufferConservation, r.invariants.violations.toString());
        return r;
    }

    /** @return {@code element.name} of a result; the test fails naming what the element has when it is absent */
    static double metric(RunResultDTO r, String element, String name) {
        var metrics = r.elements.get(element);
        assertTrue(metrics != null, "no element " + element + " in " + r.elements.keySet());
        Double v = metrics.get(name);
        assertTrue(v != null, element + "." + name + " missing in " + metrics.keySet());
        return v;
    }
}

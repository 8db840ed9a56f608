package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertTrue;

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
     * @return {@code element.name} of a result; the test fails naming what the element has when it is absent (the
     *         engine's own tests; a model's tests have the conformance kit's {@code ModelTests.metric})
     */
    static double metric(RunResultDTO r, String element, String name) {
        var metrics = r.elements.get(element);
        assertTrue(metrics != null, "no element " + element + " in " + r.elements.keySet());
        Double v = metrics.get(name);
        assertTrue(v != null, element + "." + name + " missing in " + metrics.keySet());
        return v;
    }
}

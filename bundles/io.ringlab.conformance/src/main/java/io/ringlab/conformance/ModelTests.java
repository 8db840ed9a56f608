package io.ringlab.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.ringlab.engine.standalone.Standalone;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * Helpers for a model bundle's own behaviour tests (beside the contracts): run a pipeline's text with the models on the
 * test's class path, check what every run must keep, read a metric, start from a sample of the repository.
 *
 * <pre>
 * RunResultDTO r = ModelTests.runConserved(ModelTests.sample("stmmac-bql-100m.pipeline", "2s"), 1, "eth0.bql=false");
 * assertTrue(ModelTests.metric(r, "eth0", "txPackets") &gt; 0);
 * </pre>
 *
 * The simulator is one {@link Standalone} for the test's class loader, made on first use; it is thread-safe, so tests may
 * run in parallel.
 */
public final class ModelTests {
    private static volatile Standalone simulator;

    private ModelTests() {
    }

    /** @return the simulator every helper here runs on: what the test's class path offers, discovered once */
    public static Standalone simulator() {
        Standalone s = simulator;
        if (s == null) {
            synchronized (ModelTests.class) {
                s = simulator;
                if (s == null) {
                    s = Standalone.builder().build();
                    simulator = s;
                }
            }
        }
        return s;
    }

    /**
     * @param seed the run's seed
     * @param sets {@code --set} overrides, {@code element.property=value}
     * @return options with that seed and those overrides, and no live snapshots
     */
    public static RunOptionsDTO options(long seed, String... sets) {
        RunOptionsDTO o = new RunOptionsDTO();
        o.seed = seed;
        o.snapshotIntervalMillis = 0;
        o.overrides.addAll(List.of(sets));
        return o;
    }

    /**
     * Runs a pipeline's text to its end.
     *
     * @return the result, finished or failed
     * @throws PipelineException when the engine refuses the text or an override
     */
    public static RunResultDTO run(String text, long seed, String... sets) throws PipelineException {
        return simulator().run(text, options(seed, sets));
    }

    /**
     * Runs a pipeline's text and checks what every run must: it finished, packets are conserved (generated = delivered +
     * dropped + in flight, walked) and buffers too (no leak, no double free).
     *
     * @return the result
     * @throws PipelineException when the engine refuses the text or an override
     * @throws AssertionError naming the state or the violated invariant
     */
    public static RunResultDTO runConserved(String text, long seed, String... sets) throws PipelineException {
        RunResultDTO r = run(text, seed, sets);
        Runs.conserved(r, "the run");
        return r;
    }

    /**
     * @return {@code element.name} of a result
     * @throws AssertionError naming the elements, or the element's metrics, when the one asked for is absent
     */
    public static double metric(RunResultDTO r, String element, String name) {
        Map<String, Double> metrics = r.elements.get(element);
        if (metrics == null) {
            throw new AssertionError("no element " + element + " in " + r.elements.keySet());
        }
        Double v = metrics.get(name);
        if (v == null) {
            throw new AssertionError(element + "." + name + " missing in " + metrics.keySet());
        }
        return v;
    }

    /**
     * Reads a sample of the repository, {@code pipelines/NAME}, found from the working directory up (a module's folder
     * under Maven), with its {@code duration} header set.
     *
     * @param name the file name, for example {@code stmmac-bql-100m.pipeline}
     * @param duration the duration to run, in the file format ({@code 20ms})
     * @return the text
     * @throws AssertionError when there is no {@code pipelines} folder above, or the sample has no duration header
     */
    public static String sample(String name, String duration) {
        Path start = Path.of("").toAbsolutePath();
        Path dir = start;
        while (dir != null && !Files.isDirectory(dir.resolve("pipelines"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new AssertionError("no pipelines folder in " + start + " or above");
        }
        String text;
        try {
            text = Files.readString(dir.resolve("pipelines").resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the sample " + dir.resolve("pipelines").resolve(name), e);
        }
        String replaced = text.replaceFirst("(?m)^duration = .*$", "duration = " + duration);
        if (replaced.equals(text) && !text.contains("duration = " + duration)) {
            throw new AssertionError(name + " has no duration header");
        }
        return replaced;
    }
}

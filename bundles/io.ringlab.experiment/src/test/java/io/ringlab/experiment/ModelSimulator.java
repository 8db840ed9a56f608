package io.ringlab.experiment;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;

import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.RunState;
import io.ringlab.sim.api.SimulationRun;
import io.ringlab.sim.api.Simulator;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * A {@link Simulator} for the experiment tests whose runs compute their results from the pipeline and the options with a
 * given function, so a run's result depends only on what it was given (as the engine's does). Thread-safe: runs may be
 * prepared and run on several threads. A hook may hold a run in {@code run()} to force an order of completion, without
 * sleeping.
 */
final class ModelSimulator implements Simulator {

    /** What a run does inside {@code run()} before it computes its result (wait for another run, interrupt someone). */
    interface Hook {
        void inRun(PipelineDTO pipeline, RunOptionsDTO options, CountDownLatch stopped) throws InterruptedException;
    }

    private final List<ElementDescriptorDTO> types;
    private final BiFunction<PipelineDTO, RunOptionsDTO, RunResultDTO> model;
    /** Every prepare call, in call order, as {@code pipeline-name seed overrides types}. */
    final List<String> prepared = Collections.synchronizedList(new ArrayList<>());
    /** Every run that ran, as {@code seed overrides}, in the order the runs ended. */
    final List<String> ended = Collections.synchronizedList(new ArrayList<>());
    /** Options of every prepare call, in call order. */
    final List<RunOptionsDTO> options = Collections.synchronizedList(new ArrayList<>());
    /** Pipelines of every prepare call, in call order. */
    final List<PipelineDTO> pipelines = Collections.synchronizedList(new ArrayList<>());
    volatile Hook hook = (p, o, stopped) -> {
    };
    /** If set, prepare throws it for a pipeline whose options contain this override. */
    volatile String refuse;
    /** If set, every prepare refuses with this message at line 5, column 1 of the pipeline. */
    volatile String refuseAtLine5;

    ModelSimulator(List<ElementDescriptorDTO> types, BiFunction<PipelineDTO, RunOptionsDTO, RunResultDTO> model) {
        this.types = types;
        this.model = model;
    }

    /** @return a FINISHED result with both invariants holding and the given metrics ({@code element.metric} to value) */
    static RunResultDTO result(PipelineDTO p, RunOptionsDTO o, Map<String, Double> metrics) {
        RunResultDTO r = new RunResultDTO();
        r.ringlabVersion = "0.1.0.test";
        r.pipeline = p.name;
        r.seed = o.seed;
        r.state = "FINISHED";
        r.simulatedSeconds = o.durationPicos / 1e12;
        r.wallSeconds = Math.random(); // a wall-clock field: differs between identical runs, as the engine's
        r.events = 1000 + o.seed;
        r.packets = 100 + o.seed;
        r.invariants.packetConservation = true;
        r.invariants.bufferConservation = true;
        metrics.forEach((m, v) -> {
            int dot = m.lastIndexOf('.');
            r.elements.computeIfAbsent(m.substring(0, dot), k -> new TreeMap<>()).put(m.substring(dot + 1), v);
        });
        return r;
    }

    @Override
    public List<ElementDescriptorDTO> elementTypes() {
        return types;
    }

    @Override
    public List<String> poolKinds() {
        return List.of("fixed");
    }

    @Override
    public SimulationRun prepare(PipelineDTO pipeline, RunOptionsDTO o) throws PipelineException {
        List<String> retyped = new ArrayList<>();
        pipeline.elements.forEach(e -> retyped.add(e.name + ":" + e.type));
        prepared.add(pipeline.name + " " + o.seed + " " + o.overrides + " " + retyped);
        options.add(o);
        pipelines.add(pipeline);
        if (refuseAtLine5 != null) {
            throw new PipelineException(List.of(new io.ringlab.sim.api.dto.ProblemDTO(pipeline.file, 5, 1, refuseAtLine5)));
        }
        String refused = refuse;
        if (refused != null && o.overrides.contains(refused)) {
            throw new PipelineException(List.of(new io.ringlab.sim.api.dto.ProblemDTO(pipeline.file, 0, 0,
                    "--set '" + refused + "': refused by the model")));
        }
        CountDownLatch stopped = new CountDownLatch(1);
        return (SimulationRun) Proxy.newProxyInstance(SimulationRun.class.getClassLoader(), new Class<?>[] {SimulationRun.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "run" -> {
                        hook.inRun(pipeline, o, stopped);
                        RunResultDTO r = stopped.getCount() == 0 ? stoppedResult(pipeline, o) : model.apply(pipeline, o);
                        ended.add(o.seed + " " + o.overrides);
                        yield r;
                    }
                    case "stop", "close" -> {
                        stopped.countDown();
                        yield null;
                    }
                    case "state" -> RunState.READY;
                    case "metricNames" -> metricNames(pipeline, o); // what the model's result will report
                    case "seriesNames" -> List.of();
                    case "toString" -> "run of " + pipeline.name + " seed " + o.seed;
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private Map<String, java.util.Set<String>> metricNames(PipelineDTO pipeline, RunOptionsDTO o) {
        Map<String, java.util.Set<String>> names = new TreeMap<>();
        try {
            model.apply(pipeline, o).elements.forEach((owner, m) -> names.put(owner, new java.util.TreeSet<>(m.keySet())));
        } catch (RuntimeException e) {
            // a model that fails its runs: no names, and nothing is checked
        }
        return names;
    }

    private static RunResultDTO stoppedResult(PipelineDTO p, RunOptionsDTO o) {
        RunResultDTO r = result(p, o, Map.of());
        r.state = "STOPPED";
        return r;
    }

    /** Waits for a latch, failing instead of hanging if a bug keeps it closed. */
    static void await(CountDownLatch latch) throws InterruptedException {
        if (!latch.await(60, TimeUnit.SECONDS)) {
            throw new AssertionError("a latch the test waits for was never opened");
        }
    }
}

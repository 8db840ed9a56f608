package io.ringlab.cli;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.RunState;
import io.ringlab.sim.api.SimulationRun;
import io.ringlab.sim.api.Simulator;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.RunSnapshotDTO;

/**
 * A {@link Simulator} for the command tests: {@link #prepare} records what it was given and returns a run whose
 * {@link SimulationRun#run()} hands back the configured result, or throws the configured {@link PipelineException}.
 */
class FakeSimulator implements Simulator {
    /** Element types {@link #elementTypes()} returns. */
    final List<ElementDescriptorDTO> elementTypes = new ArrayList<>();
    /** Pool kinds {@link #poolKinds()} returns. */
    final List<String> poolKinds = new ArrayList<>();
    /** What {@link #poolKindDescription} says of a kind; a kind not here says nothing. */
    final java.util.Map<String, String> poolDescriptions = new java.util.HashMap<>();
    /** Pipelines given to {@link #prepare}, in call order. */
    final List<PipelineDTO> pipelines = new ArrayList<>();
    /** Options given to {@link #prepare}, in call order. */
    final List<RunOptionsDTO> options = new ArrayList<>();

    /** The result every run returns unless {@link #queued} has one. */
    RunResultDTO result = Results.ok("tiny");
    /** Results handed out first, one per prepare, before falling back to {@link #result}. */
    final Deque<RunResultDTO> queued = new ArrayDeque<>();
    /** If set, {@link #prepare} throws it (after recording its arguments) from call {@link #failFromCall} on. */
    PipelineException failure;
    /** The first prepare call, counted from 0, that throws {@link #failure}. */
    int failFromCall;

    FakeSimulator result(RunResultDTO r) {
        this.result = r;
        return this;
    }

    FakeSimulator failWith(PipelineException e) {
        return failWith(e, 0);
    }

    /** Makes prepare call {@code fromCall} (from 0) and every later one throw {@code e}. */
    FakeSimulator failWith(PipelineException e, int fromCall) {
        this.failure = e;
        this.failFromCall = fromCall;
        return this;
    }

    int prepareCalls() {
        return pipelines.size();
    }

    RunOptionsDTO lastOptions() {
        return options.get(options.size() - 1);
    }

    PipelineDTO lastPipeline() {
        return pipelines.get(pipelines.size() - 1);
    }

    @Override
    public List<ElementDescriptorDTO> elementTypes() {
        return List.copyOf(elementTypes);
    }

    @Override
    public List<String> poolKinds() {
        return List.copyOf(poolKinds);
    }

    @Override
    public String poolKindDescription(String kind) {
        return poolDescriptions.getOrDefault(kind, "");
    }

    @Override
    public SimulationRun prepare(PipelineDTO pipeline, RunOptionsDTO runOptions) throws PipelineException {
        int call = pipelines.size();
        pipelines.add(pipeline);
        options.add(runOptions);
        if (failure != null && call >= failFromCall) {
            throw failure;
        }
        return new FakeRun(queued.isEmpty() ? result : queued.poll(), runOptions.durationPicos);
    }

    /** A prepared run that only supports {@link #run()} and the snapshot of a run not started yet. */
    static final class FakeRun implements SimulationRun {
        private final RunResultDTO result;
        private final long durationPicos;
        private RunState state = RunState.READY;

        FakeRun(RunResultDTO result, long durationPicos) {
            this.result = result;
            this.durationPicos = durationPicos;
        }

        @Override
        public RunState state() {
            return state;
        }

        @Override
        public RunResultDTO run() {
            state = "FAILED".equals(result.state) ? RunState.FAILED : RunState.FINISHED;
            return result;
        }

        @Override
        public void start() {
            throw new UnsupportedOperationException("the CLI runs on the calling thread");
        }

        @Override
        public void pause() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void resume() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void step() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void stop() {
            throw new UnsupportedOperationException();
        }

        @Override
        public RunResultDTO await(long timeout, TimeUnit unit) {
            throw new UnsupportedOperationException();
        }

        @Override
        public RunSnapshotDTO snapshot() {
            RunSnapshotDTO s = new RunSnapshotDTO();
            s.state = RunState.READY;
            s.durationSeconds = durationPicos / 1e12;
            return s;
        }

        @Override
        public void abort(String reason) {
            throw new UnsupportedOperationException();
        }

        /** @return the result's series */
        @Override
        public java.util.List<String> seriesNames() {
            java.util.List<String> names = new java.util.ArrayList<>();
            if (result.series != null) {
                names.addAll(result.series.columns.subList(1, result.series.columns.size()));
                names.addAll(result.series.points.keySet());
            }
            return names;
        }

        /** @return what the result will report */
        @Override
        public java.util.Map<String, java.util.Set<String>> metricNames() {
            java.util.Map<String, java.util.Set<String>> names = new java.util.TreeMap<>();
            result.elements.forEach((owner, m) -> names.put(owner, new java.util.TreeSet<>(m.keySet())));
            return names;
        }

        @Override
        public java.util.concurrent.CompletionStage<io.ringlab.sim.api.dto.SwapDTO> swap(String element, String type,
                String version) {
            throw new UnsupportedOperationException();
        }

        @Override
        public java.util.concurrent.CompletionStage<RunResultDTO> completion() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {
            state = RunState.STOPPED; // a prepared run released without running (a refused --print)
        }
    }
}

package io.ringlab.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.ringlab.experiment.api.ExperimentListener;
import io.ringlab.experiment.api.ExperimentService;
import io.ringlab.experiment.api.ResultsException;
import io.ringlab.experiment.api.RunStore;
import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.sim.api.PipelineException;

/**
 * An {@link ExperimentService} for the command tests: {@link #read(Path)} records the file and hands back
 * {@link #experiment}; {@link #run} records what it was given, tells the listener of each run of {@link #result} in
 * order, and hands back {@link #result}. Either may throw a configured {@link PipelineException} instead.
 */
class FakeExperiments implements ExperimentService {
    /** What {@link #read(Path)} returns. */
    ExperimentDTO experiment = AbResults.experiment();
    /** What {@link #run} returns. */
    ExperimentResultDTO result = AbResults.ok();
    /** If set, {@link #read(Path)} throws it. */
    PipelineException readFailure;
    /** If set, {@link #run} throws it. */
    PipelineException runFailure;
    /** Files given to {@link #read(Path)}. */
    final List<Path> read = new ArrayList<>();
    /** The experiment {@link #run} was given last; {@code null} before. */
    ExperimentDTO ran;
    /** Whether {@link #run} returns with the caller's interrupt status set, as the service does when a signal stopped it. */
    boolean interrupted;
    /** The threads {@link #run} was given last; -1 before. */
    int threads = -1;

    @Override
    public ExperimentDTO read(Path file) throws PipelineException {
        read.add(file);
        if (readFailure != null) {
            throw readFailure;
        }
        return experiment;
    }

    @Override
    public ExperimentDTO read(String fileName, String text, Path directory) {
        throw new UnsupportedOperationException("the command line reads files");
    }

    /** The values {@link #summarize} was given, in order. */
    final List<double[]> summarized = new ArrayList<>();

    /** Not used by the commands: only the console rebuilds comparisons from a database. */
    @Override
    public io.ringlab.experiment.api.dto.ComparisonDTO compare(double[] a, double[] b) {
        throw new UnsupportedOperationException("the commands do not compare stored runs");
    }

    /** Mean and a normal-free interval: the count and mean only (the command tests check what plot draws from it). */
    @Override
    public io.ringlab.experiment.api.dto.MetricSummaryDTO summarize(double[] values) {
        summarized.add(values.clone());
        io.ringlab.experiment.api.dto.MetricSummaryDTO s = new io.ringlab.experiment.api.dto.MetricSummaryDTO();
        s.n = values.length;
        s.mean = values.length == 0 ? null : java.util.Arrays.stream(values).average().getAsDouble();
        return s;
    }

    /** The runs {@link #result} holds, as planned: its variants, seeds and points with state {@code PLANNED}. */
    @Override
    public List<RunSummaryDTO> runs(ExperimentDTO e) throws PipelineException {
        this.ran = e;
        if (runFailure != null) {
            throw runFailure;
        }
        List<RunSummaryDTO> planned = new ArrayList<>();
        for (RunSummaryDTO s : result.runs) {
            RunSummaryDTO p = new RunSummaryDTO();
            p.variant = s.variant;
            p.seed = s.seed;
            p.point.putAll(s.point);
            p.state = RunSummaryDTO.PLANNED;
            planned.add(p);
        }
        return planned;
    }

    /** The store {@link #run(ExperimentDTO, int, ExperimentListener, RunStore, boolean)} was given last, and its rerun. */
    RunStore store;
    boolean rerun;

    /** As {@link #run(ExperimentDTO, int, ExperimentListener)}, recording each run of {@link #result} in the store. */
    @Override
    public ExperimentResultDTO run(ExperimentDTO e, int threads, ExperimentListener listener, RunStore store, boolean rerun)
            throws PipelineException, ResultsException {
        this.store = store;
        this.rerun = rerun;
        ExperimentResultDTO r = run(e, threads, listener);
        for (RunSummaryDTO s : r.runs) {
            store.record(e, s, null);
        }
        return r;
    }

    @Override
    public ExperimentResultDTO run(ExperimentDTO e, int threads, ExperimentListener listener) throws PipelineException {
        this.ran = e;
        this.threads = threads;
        if (runFailure != null) {
            throw runFailure;
        }
        int total = result.runs.size();
        listener.started(e, total, threads == 0 ? 2 : threads);
        int done = 0;
        for (RunSummaryDTO s : result.runs) {
            listener.runEnded(s, null, ++done, total);
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return result;
    }

    @Override
    public ExperimentResultDTO run(ExperimentDTO e, io.ringlab.experiment.api.RunExecutor executor,
            ExperimentListener listener, RunStore store, boolean rerun)
            throws PipelineException, io.ringlab.experiment.api.ResultsException {
        return run(e, executor.parallelism(), listener, store, rerun);
    }

    @Override
    public io.ringlab.sim.api.dto.RunResultDTO execute(io.ringlab.experiment.api.dto.RunTaskDTO task) {
        throw new UnsupportedOperationException("the command tests send no task");
    }

    @Override
    public java.util.Map<String, String> bundles() {
        return java.util.Map.of();
    }
}

package io.ringlab.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.ringlab.experiment.api.ExperimentListener;
import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.pipeline.format.OutputFile;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * {@code ringlab ab FILE --flent DIR}: each run that ends with a result is written to DIR as a flent data file
 * ({@link FlentFile}; its step is the run's series interval), named {@code EXPERIMENT-VARIANT[-PARAM=VALUE...]-seedN
 * .flent.gz} (characters other than letters, digits, {@code . _ = -} as {@code _}). A run taken from the results
 * database has no series in memory: it is counted, and {@code --rerun} writes it. Calls are serialized by the
 * experiment service.
 */
final class FlentRuns implements ExperimentListener {
    private final Path dir;
    private final String pipelineFile;
    private String experiment = "experiment";
    private int written;
    private int stored;
    private final List<String> failures = new ArrayList<>();

    FlentRuns(Path dir, String pipelineFile) {
        this.dir = dir;
        this.pipelineFile = pipelineFile;
    }

    @Override
    public void started(ExperimentDTO e, int runs, int threads) {
        experiment = e.name;
    }

    @Override
    public void runEnded(RunSummaryDTO run, RunResultDTO result, int done, int total) {
        if (run.stored) {
            stored++;
            return;
        }
        if (result == null || !RunSummaryDTO.FINISHED.equals(run.state) && !RunSummaryDTO.STOPPED.equals(run.state)) {
            return;
        }
        Path file = dir.resolve(name(experiment, run));
        try {
            FlentFile.Plan plan = FlentFile.plan(result);
            OutputFile.write(file, FlentFile.content(result, plan, pipelineFile, title(experiment, run)));
            written++;
        } catch (IllegalArgumentException | IllegalStateException | IOException e) {
            failures.add(file + ": " + (e instanceof IOException io ? OutputFile.reason(io) : e.getMessage()));
        }
    }

    /** @return the file name of a run's flent file */
    static String name(String experiment, RunSummaryDTO run) {
        StringBuilder n = new StringBuilder(String.valueOf(experiment)).append('-').append(run.variant);
        run.point.forEach((k, v) -> n.append('-').append(k).append('=').append(v));
        n.append("-seed").append(run.seed);
        return n.toString().replaceAll("[^A-Za-z0-9._=-]", "_") + ".flent.gz";
    }

    /** @return a run's title in its file (the legend of a plot of several): experiment, variant, point, seed */
    static String title(String experiment, RunSummaryDTO run) {
        StringBuilder t = new StringBuilder(String.valueOf(experiment)).append(' ').append(run.variant);
        run.point.forEach((k, v) -> t.append(' ').append(k).append('=').append(v));
        return t.append(" seed ").append(run.seed).toString();
    }

    /** Creates the folder; @return why it cannot be, or {@code null} */
    static String prepare(Path dir) {
        try {
            Files.createDirectories(dir);
            return Files.isWritable(dir) ? null : "--flent " + dir + ": the folder is not writable";
        } catch (IOException e) {
            return "--flent " + dir + ": the folder cannot be created: " + OutputFile.reason(e);
        }
    }

    /** @return what the command says at the end: files written, runs without one, failures */
    List<String> report() {
        List<String> lines = new ArrayList<>();
        lines.add("flent: " + written + " file" + (written == 1 ? "" : "s") + " written to " + dir
                + (stored == 0 ? "" : "; " + stored + " run" + (stored == 1 ? "" : "s") + " taken from the results database"
                        + " have none (--rerun writes them)"));
        failures.forEach(f -> lines.add("flent: not written: " + f));
        return lines;
    }

    boolean failed() {
        return !failures.isEmpty();
    }

    /** Tells two listeners, in order. */
    static ExperimentListener both(ExperimentListener a, ExperimentListener b) {
        return new ExperimentListener() {
            @Override
            public void started(ExperimentDTO experiment, int runs, int threads) {
                a.started(experiment, runs, threads);
                b.started(experiment, runs, threads);
            }

            @Override
            public void runStarted(RunSummaryDTO run) {
                a.runStarted(run);
                b.runStarted(run);
            }

            @Override
            public void runEnded(RunSummaryDTO run, RunResultDTO result, int done, int total) {
                a.runEnded(run, result, done, total);
                b.runEnded(run, result, done, total);
            }
        };
    }
}

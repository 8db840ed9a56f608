package io.ringlab.cli;

import java.io.PrintStream;
import java.util.Locale;

import io.ringlab.pipeline.format.Units;
import io.ringlab.sim.api.RunState;
import io.ringlab.sim.api.SimulationRun;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.RunSnapshotDTO;

/**
 * The progress of {@code ringlab run --progress} on standard error: one line when the run starts (the pipeline is read
 * and prepared, its elements exist), then every {@value #INTERVAL_MILLIS} ms of wall time the simulated time reached,
 * the events so far and the wall time. On a terminal the line is redrawn in place; otherwise (a file, a pipe, the Gogo
 * shell) each report is a line of its own, which scripts can wait for ({@code progress: started ...}).
 */
final class RunProgress implements AutoCloseable {
    /** How often the engine publishes a snapshot for it, and how often it prints one. */
    static final long INTERVAL_MILLIS = 1000;

    private final SimulationRun run;
    private final PrintStream err;
    private final boolean terminal;
    private final long startNanos = System.nanoTime();
    private final Thread thread;

    private RunProgress(SimulationRun run, PipelineDTO pipeline, PrintStream err, boolean terminal) {
        this.run = run;
        this.err = err;
        this.terminal = terminal;
        err.printf(Locale.ROOT, "progress: started %s, %s of simulated time%n", pipeline.name,
                time(run.snapshot().durationSeconds));
        err.flush();
        thread = new Thread(this::report, "ringlab-progress");
        thread.setDaemon(true);
        thread.start();
    }

    /** @return a watcher that prints to {@code err}, redrawing in place when {@code terminal} */
    static Runner.Watcher on(PrintStream err, boolean terminal) {
        return Runner.Watcher.every(INTERVAL_MILLIS, (run, pipeline) -> new RunProgress(run, pipeline, err, terminal));
    }

    private void report() {
        try {
            while (true) {
                Thread.sleep(INTERVAL_MILLIS);
                RunSnapshotDTO s = run.snapshot();
                if (s == null || s.state != RunState.RUNNING) {
                    continue; // not started yet, paused or held (a bundle update): nothing new to say
                }
                String line = line(s, (System.nanoTime() - startNanos) / 1_000_000_000L);
                err.print(terminal ? "\r\033[2K" + line : line + "\n");
                err.flush();
            }
        } catch (InterruptedException e) {
            // the run ended
        }
    }

    /** @return {@code progress: 1.250s of 5s simulated (25.0 %), 1234567 events, 0:02 wall} */
    static String line(RunSnapshotDTO s, long wallSeconds) {
        double percent = s.durationSeconds > 0 ? 100 * s.simulatedSeconds / s.durationSeconds : 0;
        return String.format(Locale.ROOT, "progress: %.3fs of %s simulated (%.1f %%), %d events, %s wall",
                s.simulatedSeconds, time(s.durationSeconds), percent, s.events, Progress.minutesSeconds(wallSeconds));
    }

    /** @return a duration in the pipeline files' grammar ({@code 5s}, {@code 20ms}) */
    private static String time(double seconds) {
        return Units.formatPicos(Math.round(seconds * 1e12));
    }

    @Override
    public void close() throws InterruptedException {
        thread.interrupt();
        thread.join();
        if (terminal) {
            err.println();
        }
    }
}

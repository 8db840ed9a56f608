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

    /**
     * @return {@code progress: 1.25s of 5s simulated (25.0 %), 1,234,567 events, 0:02 wall, ETA 0:06}: the simulated
     *         time in the unit of the run's duration (12.5ms of 20ms), the ETA from the wall time per simulated second so
     *         far
     */
    static String line(RunSnapshotDTO s, long wallSeconds) {
        double fraction = s.durationSeconds > 0 ? s.simulatedSeconds / s.durationSeconds : 0;
        String eta = fraction > 0 && fraction < 1
                ? ", ETA " + Progress.minutesSeconds(Math.round(wallSeconds * (1 - fraction) / fraction)) : "";
        return String.format(Locale.ROOT, "progress: %s of %s simulated (%.1f %%), %,d events, %s wall%s",
                inUnitOf(s.simulatedSeconds, s.durationSeconds), time(s.durationSeconds), 100 * fraction, s.events,
                Progress.minutesSeconds(wallSeconds), eta);
    }

    /** @return {@code seconds} in the unit {@link Units#formatPicos} writes {@code durationSeconds} in, to 3 decimals */
    static String inUnitOf(double seconds, double durationSeconds) {
        String d = time(durationSeconds);
        int at = 0;
        while (at < d.length() && (Character.isDigit(d.charAt(at)) || d.charAt(at) == '.')) {
            at++;
        }
        String unit = d.substring(at);
        double picos = Units.parsePicos("1" + unit);
        return new java.math.BigDecimal(seconds * 1e12 / picos).setScale(3, java.math.RoundingMode.HALF_UP)
                .stripTrailingZeros().toPlainString() + unit;
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

package io.ringlab.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import io.ringlab.pipeline.format.OutputFile;
import io.ringlab.sim.api.SimulationRun;
import io.ringlab.sim.api.dto.RunSnapshotDTO;

/**
 * {@code ringlab run --snapshots FILE}: while the run runs, FILE holds its latest snapshot ({@link RunSnapshotDTO} as
 * compact JSON, NaN as {@code null}), rewritten every {@value #INTERVAL_MILLIS} ms of wall time when the run moved on.
 * Each version is written by {@link OutputFile}'s rules (beside FILE and moved over it atomically, so a reader never sees
 * half a snapshot; a FIFO or device in place); the last
 * is the snapshot the run ended with. A write that fails is reported once on standard error and the run goes on
 * without snapshots.
 */
final class SnapshotFile implements AutoCloseable {
    /** How often the file is rewritten (and the engine publishes a snapshot). */
    static final long INTERVAL_MILLIS = 250;

    private final SimulationRun run;
    private final Path file;
    private final PrintStream err;
    private final Thread thread;
    /** Written by the thread, then by {@link #close()} after joining it. */
    private long writtenEvents = -1;
    private Object writtenState;
    private int writtenSwaps = -1;
    private boolean failed;

    private SnapshotFile(SimulationRun run, Path file, PrintStream err) {
        this.run = run;
        this.file = file;
        this.err = err;
        thread = new Thread(this::write, "ringlab-snapshots");
        thread.setDaemon(true);
        thread.start();
    }

    /** @return a watcher that keeps {@code file} up to date, reporting a failed write on {@code err} */
    static Runner.Watcher to(Path file, PrintStream err) {
        return Runner.Watcher.every(INTERVAL_MILLIS, (run, pipeline) -> new SnapshotFile(run, file, err));
    }

    private void write() {
        try {
            while (!failed) {
                update();
                Thread.sleep(INTERVAL_MILLIS);
            }
        } catch (InterruptedException e) {
            // the run ended
        }
    }

    /** Writes the run's snapshot if it moved on since the last one written. */
    private void update() {
        RunSnapshotDTO s = run.snapshot();
        if (s == null || (s.events == writtenEvents && s.state == writtenState && s.swaps.size() == writtenSwaps)) {
            return; // nothing moved on (a swap applied while paused moves no event)
        }
        try {
            byte[] text = Json.compact(s).getBytes(StandardCharsets.UTF_8);
            OutputFile.write(file, o -> o.write(text));
            writtenEvents = s.events;
            writtenState = s.state;
            writtenSwaps = s.swaps.size();
        } catch (java.nio.channels.ClosedByInterruptException ended) {
            // close() interrupted this thread while it wrote: it writes the last snapshot itself
        } catch (IOException | RuntimeException e) {
            failed = true;
            err.println("ringlab: --snapshots " + file + ": " + (e instanceof IOException io ? OutputFile.reason(io)
                    : e.getMessage()) + "; no more snapshots for this run");
        }
    }

    /** Stops the thread and writes the snapshot the run ended with. */
    @Override
    public void close() throws InterruptedException {
        thread.interrupt();
        thread.join();
        if (!failed) {
            update();
        }
    }
}

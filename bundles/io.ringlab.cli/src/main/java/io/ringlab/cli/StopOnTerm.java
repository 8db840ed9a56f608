package io.ringlab.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.ringlab.sim.api.SimulationRun;
import io.ringlab.sim.api.dto.PipelineDTO;

/**
 * {@code ringlab run} ended by a signal (SIGTERM, SIGINT: {@code kill}, Ctrl-C, the console's Stop of a
 * separate-process run) stops the run instead of losing it: a shutdown hook asks the run to stop, and holds the JVM's
 * exit until the command has printed its summary and written its JSON ({@link #written()}), {@value #GRACE_SECONDS} s at
 * most (a run stuck in an element's endless loop cannot stop; its watchdog reports it). The result is STOPPED, with its
 * metrics and both invariants, as a stop in the console gives.
 */
final class StopOnTerm implements Runner.Watcher {
    /** How long a signal waits for the stopped run's outputs before the JVM exits anyway. */
    static final long GRACE_SECONDS = 10;

    private final CountDownLatch written = new CountDownLatch(1);
    /** The hook of the run being watched, or {@code null}; removed once the outputs are written. */
    private volatile Thread hook;

    @Override
    public long intervalMillis() {
        return Long.MAX_VALUE; // reads no snapshot
    }

    @Override
    public AutoCloseable watch(SimulationRun run, PipelineDTO pipeline) {
        Thread h = new Thread(() -> {
            run.stop();
            try {
                written.await(GRACE_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "ringlab-stop-on-signal");
        Runtime.getRuntime().addShutdownHook(h);
        hook = h;
        return () -> {
            // the hook stays until written(): a signal between the run's end and its outputs still waits for them
        };
    }

    /**
     * The command has written everything it writes for the run (or will write nothing): a waiting signal may end the
     * JVM, and a later one finds no hook.
     */
    void written() {
        written.countDown();
        Thread h = hook;
        if (h != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(h);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs: it has just been released
            }
        }
    }
}

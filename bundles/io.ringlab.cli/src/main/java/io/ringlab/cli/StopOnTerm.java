package io.ringlab.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.ringlab.pipeline.format.OutputFile;
import io.ringlab.sim.api.SimulationRun;
import io.ringlab.sim.api.dto.PipelineDTO;

/**
 * A command ended by a signal (SIGTERM, SIGINT, SIGHUP: {@code kill}, Ctrl-C, a closed terminal, the console's Stop of a
 * separate-process run) stops its work instead of losing it: a shutdown hook stops it ({@code ringlab run}: the run
 * stops; {@code ringlab ab}: the runs in progress stop and those not started are not), and holds the JVM's exit until
 * the command has printed its summary and written its outputs ({@link #written()}), {@value #GRACE_SECONDS} s at most (a
 * run stuck in an element's endless loop cannot stop; its watchdog reports it). A run's result is STOPPED, with its
 * metrics and both invariants, as a stop in the console gives; an experiment's report covers the runs that finished.
 * <p>
 * What is still unwritten when the time is up is named on standard error ({@link #pending}), and the temporary files of
 * writes under way are removed, so no {@code .partial} is left. The JVM then exits with 128 + the signal's number
 * (143, 130, 129).
 */
final class StopOnTerm implements Runner.Watcher {
    /** How long a signal waits for the stopped work's outputs before the JVM exits anyway. */
    static final long GRACE_SECONDS = 10;

    private final PrintStream err;
    private final long graceMillis;
    private final CountDownLatch written = new CountDownLatch(1);
    /** The outputs not written yet, by option, with their paths. */
    private final Map<String, String> pending = new ConcurrentHashMap<>();
    /** The hook armed, or {@code null}; removed once the outputs are written. */
    private volatile Thread hook;

    StopOnTerm(PrintStream err) {
        this(err, TimeUnit.SECONDS.toMillis(GRACE_SECONDS));
    }

    StopOnTerm(PrintStream err, long graceMillis) {
        this.err = err;
        this.graceMillis = graceMillis;
    }

    @Override
    public long intervalMillis() {
        return Long.MAX_VALUE; // reads no snapshot
    }

    @Override
    public AutoCloseable watch(SimulationRun run, PipelineDTO pipeline) {
        arm(run::stop);
        return () -> {
            // the hook stays until written(): a signal between the run's end and its outputs still waits for them
        };
    }

    /** From now on a signal calls {@code stop} and waits for the outputs (once per command). */
    void arm(Runnable stop) {
        Thread h = new Thread(() -> onSignal(stop), "ringlab-stop-on-signal");
        Runtime.getRuntime().addShutdownHook(h);
        hook = h;
    }

    /**
     * @param option an output the command will write ({@code --json}); {@code null} paths and standard output
     *        ({@code -}) are left out
     */
    void pending(String option, String path) {
        if (path != null && !"-".equals(path)) {
            pending.put(option, path);
        }
    }

    /** The output of {@code option} is written (or failed with its own message). */
    void done(String option) {
        pending.remove(option);
    }

    /** What the hook does: stops the work, waits for the outputs, says what is left and removes its temporary files. */
    void onSignal(Runnable stop) {
        stop.run();
        try {
            if (written.await(graceMillis, TimeUnit.MILLISECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<Path> abandoned = OutputFile.abandonWrites();
        StringBuilder what = new StringBuilder();
        pending.forEach((option, path) -> what.append(what.isEmpty() ? "" : ", ").append(option).append(' ').append(path));
        err.println("ringlab: stopped by a signal; the outputs were not all written within " + graceMillis / 1000.0
                + " s, and the process ends without " + (what.isEmpty() ? "the summary" : what) + (abandoned.isEmpty()
                ? "" : " (the files there are left as they were)"));
        err.flush();
    }

    /**
     * The command has written everything it writes (or will write nothing): a waiting signal may end the JVM, and a
     * later one finds no hook.
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

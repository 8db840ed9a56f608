package io.ringlab.engine.kernel;

import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

/**
 * The per-event watchdog ({@code RunOptionsDTO.eventWatchdogMillis}): a daemon thread that looks at the engine thread's
 * event count a few times per limit and calls back when one event has run longer than the limit, with the report of
 * where the engine thread is (docs/engine.md, "Fault isolation").
 */
final class Watchdog {
    private Watchdog() {
    }

    /** Where a stuck engine thread is: the element innermost on its stack ({@code -1}: none), and the report. */
    record Stuck(int culprit, String message) {
    }

    /**
     * @param limit the longest one event may run, in nanoseconds of wall time
     * @param onStuck told how long the event has run, once, from the watchdog's thread
     * @return the watchdog's thread, started; interrupt it to end it
     */
    static Thread start(Simulation sim, long limit, String name, LongConsumer onStuck) {
        Thread w = new Thread(() -> {
            long seen = -1;
            long since = System.nanoTime();
            while (!Thread.currentThread().isInterrupted()) {
                LockSupport.parkNanos(Math.max(1_000_000L, Math.min(limit / 4, 250_000_000L)));
                long now = System.nanoTime();
                long count = sim.progress();
                if (!sim.advancing || count != seen) {
                    seen = sim.advancing ? count : -1;
                    since = now;
                } else if (now - since > limit) {
                    onStuck.accept(now - since);
                    return;
                }
            }
        }, name);
        w.setDaemon(true);
        w.start();
        return w;
    }

    /** @return the element whose code is innermost on the stuck engine thread's stack, where it is, and the report */
    static Stuck stuck(Simulation sim, Thread engine, long nanos) {
        StackTraceElement[] frames = engine.getStackTrace();
        int culprit = Faults.culprit(sim, frames, sim.current);
        String where = "";
        if (culprit >= 0) {
            String cls = sim.elements[culprit].getClass().getName();
            for (StackTraceElement f : frames) {
                if (f.getClassName().equals(cls) || f.getClassName().startsWith(cls + "$")) {
                    where = " at " + f;
                    break;
                }
            }
        } else if (frames.length > 0) {
            where = " at " + frames[0];
        }
        String message = (culprit >= 0 ? "element " + sim.describe(culprit) : "the engine") + String.format(
                java.util.Locale.ROOT, " has run one event for %.1f s of wall time without returning (an endless loop?)",
                nanos / 1e9) + where + "; the run is stopped by the watchdog (RunOptionsDTO.eventWatchdogMillis)";
        return new Stuck(culprit, message);
    }
}

package io.ringlab.cli;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

import io.ringlab.experiment.api.ExperimentListener;
import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * The progress of {@code ringlab ab} on standard error: runs done out of all, how many of them were taken from the
 * results database rather than run, how many failed or broke an invariant, the wall time since the first run started
 * and an estimate of the time left. On a terminal, one bar redrawn in place ({@code \r}), with failed runs printed above
 * it; otherwise (a file, a pipe, the Gogo shell) one plain line per run that ended. The experiment service serializes
 * the calls.
 */
final class Progress implements ExperimentListener {
    private static final int BAR = 30;

    private final PrintStream err;
    private final boolean terminal;
    private long startNanos;
    /** Runs taken from the results database: they cost no simulation, so the estimate leaves them out. */
    private int stored;
    /** Runs that failed, or finished with an invariant broken. */
    private int failed;
    /** The keys (or variant and seed) of the runs started and not ended. */
    private final java.util.Set<String> running = new java.util.HashSet<>();
    /** Runs ended per cluster worker, in the order the workers first ended one; empty for local runs. */
    private final java.util.Map<String, Integer> byWorker = new java.util.LinkedHashMap<>();

    /**
     * @param err where progress goes
     * @param terminal whether {@code err} is a terminal (the launcher tells: {@link Commands#TERMINAL_PROPERTY})
     */
    Progress(PrintStream err, boolean terminal) {
        this.err = err;
        this.terminal = terminal;
    }

    @Override
    public void started(ExperimentDTO experiment, int runs, int threads) {
        startNanos = System.nanoTime();
        err.printf(Locale.ROOT, "experiment %s: %d variants x %s%d seeds = %d runs on %d thread%s%n", experiment.name,
                experiment.variants.size(), points(experiment), experiment.seeds.size(), runs, threads,
                threads == 1 ? "" : "s");
        if (terminal) {
            err.print(bar(0, runs));
            err.flush();
        }
    }

    @Override
    public void runStarted(RunSummaryDTO run) {
        running.add(id(run)); // a run sent again after its worker left counts once
    }

    private static String id(RunSummaryDTO run) {
        return run.key != null ? run.key : run(run);
    }

    @Override
    public void runEnded(RunSummaryDTO run, RunResultDTO result, int done, int total) {
        running.remove(id(run));
        if (run.worker != null) {
            byWorker.merge(run.worker, 1, Integer::sum);
        }
        String problem = problem(run);
        if (run.stored) {
            stored++;
        }
        if (problem != null) {
            failed++;
        }
        if (terminal) {
            if (problem != null) {
                err.print("\r\033[2K" + problem + "\n"); // clear the bar's line, print the problem above the bar
            }
            err.print(bar(done, total));
            if (done == total) {
                err.println();
            }
        } else {
            err.printf(Locale.ROOT, "%d/%d runs, %s: %s %s%s%s%n", done, total, elapsed(), run(run),
                    problem != null ? problem : run.state, run.stored ? " (from the results database)" : "",
                    run.worker != null ? " on " + run.worker : "");
        }
        if (done == total && !byWorker.isEmpty()) {
            List<String> parts = new java.util.ArrayList<>();
            byWorker.forEach((w, n) -> parts.add(w + " " + n));
            err.println("runs per worker: " + String.join(", ", parts));
        }
        err.flush();
    }

    /** @return what went wrong in a run, or {@code null} if it finished with both invariants */
    static String problem(RunSummaryDTO run) {
        if (RunSummaryDTO.FAILED.equals(run.state)) {
            return run(run) + ": FAILED: " + run.error;
        }
        if (RunSummaryDTO.FINISHED.equals(run.state) && !(run.packetConservation && run.bufferConservation)) {
            return run(run) + ": an invariant is broken: " + String.join("; ", run.violations);
        }
        return null;
    }

    /** @return which run: {@code variant on, seed 3}, with its sweep point when it has one ({@code at eth0.txRing=64}) */
    static String run(RunSummaryDTO run) {
        return "variant " + run.variant + (run.point.isEmpty() ? "" : " at " + point(run.point)) + ", seed " + run.seed;
    }

    /** @return a sweep point as {@code eth0.txRing=64, eth0.bql=true} */
    static String point(java.util.Map<String, String> point) {
        java.util.List<String> parts = new java.util.ArrayList<>();
        point.forEach((k, v) -> parts.add(k + "=" + v));
        return String.join(", ", parts);
    }

    /** @return {@code "N sweep points x "} for an experiment with sweeps, else empty */
    static String points(ExperimentDTO e) {
        long n = 1;
        for (var s : e.sweeps) {
            n *= s.values.size();
        }
        return e.sweeps.isEmpty() ? "" : String.format(Locale.ROOT, "%,d sweep point%s x ", n, n == 1 ? "" : "s");
    }

    private String bar(int done, int total) {
        int filled = total == 0 ? BAR : done * BAR / total;
        long seconds = (System.nanoTime() - startNanos) / 1_000_000_000L;
        return String.format(Locale.ROOT, "\r[%s%s] %d/%d runs%s, %s elapsed%s", "#".repeat(filled), ".".repeat(BAR - filled),
                done, total, counts(running.size(), stored, failed), minutesSeconds(seconds), eta(seconds, done - stored, total - done));
    }

    /** @return {@code " (2 running, 3 from the database, 1 failed)"}, the parts that are not zero, or empty */
    static String counts(int running, int stored, int failed) {
        List<String> parts = new java.util.ArrayList<>();
        if (running > 0) {
            parts.add(running + " running");
        }
        if (stored > 0) {
            parts.add(stored + " from the database");
        }
        if (failed > 0) {
            parts.add(failed + " failed");
        }
        return parts.isEmpty() ? "" : " (" + String.join(", ", parts) + ")";
    }

    /**
     * @param elapsedSeconds wall time since the first run started
     * @param simulated runs that ended and were simulated (not taken from the database)
     * @param left runs that have not ended
     * @return {@code , ETA M:SS} from the wall time per simulated run so far (a run still to come that the database holds
     *         makes it too long); empty before a simulated run ended and after the last
     */
    static String eta(long elapsedSeconds, int simulated, int left) {
        return simulated <= 0 || left <= 0 ? "" : ", ETA " + minutesSeconds(Math.round((double) elapsedSeconds * left / simulated));
    }

    private String elapsed() {
        return minutesSeconds((System.nanoTime() - startNanos) / 1_000_000_000L);
    }

    /** @return wall time as {@code M:SS} */
    static String minutesSeconds(long seconds) {
        return String.format(Locale.ROOT, "%d:%02d", seconds / 60, seconds % 60);
    }
}

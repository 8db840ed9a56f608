package io.ringlab.experiment.api;

import org.osgi.annotation.versioning.ConsumerType;

import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * Told of an experiment's progress by {@link ExperimentService#run}: a progress bar, a console panel that shows runs as
 * they end.
 * <p>
 * Calls come from the experiment's worker threads but never at the same time (the service serializes them), so an
 * implementation needs no locking of its own; each call should return quickly, since a run's thread waits for it. A
 * listener that throws does not stop the experiment: the exception is dropped.
 */
@ConsumerType
public interface ExperimentListener {

    /**
     * Called once, on the calling thread, after the variants were checked and before the first run starts.
     *
     * @param experiment the experiment; read only
     * @param runs how many runs there will be (variants times seeds)
     * @param threads how many run at once
     */
    default void started(ExperimentDTO experiment, int runs, int threads) {
    }

    /**
     * Called when a run starts on one of this process's threads, or is sent to a cluster's worker (again, if its worker
     * left before it ended). Runs taken from a results database do not start.
     *
     * @param run the run's summary so far: variant, seed, point, key, and {@link RunSummaryDTO#worker} for a run sent to a
     *        worker; read only
     * @since 1.2
     */
    default void runStarted(RunSummaryDTO run) {
    }

    /**
     * Called after each run ends, in the order they end (which depends on the threads: use {@code run.variant} and
     * {@code run.seed}, not the order of calls).
     *
     * @param run the run's summary; read only
     * @param result the run's full result (its series, every metric), or {@code null} if the run could not be prepared;
     *        read only
     * @param done how many runs have ended, this one included, from 1
     * @param total how many runs there are
     */
    void runEnded(RunSummaryDTO run, RunResultDTO result, int done, int total);
}

package io.ringlab.experiment.api;

import java.util.function.Consumer;

import org.osgi.annotation.versioning.ConsumerType;

import io.ringlab.experiment.api.dto.RunTaskDTO;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * Runs an experiment's runs somewhere other than this process's threads: the workers of a cluster
 * ({@link ClusterService#connect}). {@link ExperimentService#run(io.ringlab.experiment.api.dto.ExperimentDTO,
 * RunExecutor, ExperimentListener, RunStore, boolean)} calls {@link #run} from {@link #parallelism()} threads at once,
 * each waiting for one run's result; it keys, records and reports the runs as it does for local ones.
 * <p>
 * Thread-safe.
 *
 * @since 1.2
 */
@ConsumerType
public interface RunExecutor extends AutoCloseable {

    /** @return how many runs it takes at once (the sum of its workers' threads), at least 1 */
    int parallelism();

    /**
     * Sends one run to a worker and waits for its result. If the worker leaves before the run ends, the run is run
     * again elsewhere and only one result comes back.
     *
     * @param task the run; read only
     * @param sent told the worker's name ({@code host:port}) each time the run is sent, before the wait; called on the
     *        calling thread
     * @return the run's result, as the worker's engine gave it
     * @throws PipelineException if the worker refused the run (its bundles or version differ from the submitter's, so
     *         its key would differ) or the engine refused the pipeline, with the worker's message
     * @throws InterruptedException if the calling thread was interrupted while it waited: the result is dropped (the
     *         worker may still finish the run)
     * @throws IllegalStateException if the cluster can no longer be reached (no worker left, the connection lost)
     */
    RunResultDTO run(RunTaskDTO task, Consumer<String> sent) throws PipelineException, InterruptedException;

    /** Disconnects; runs in progress are not waited for. Idempotent. */
    @Override
    void close();
}

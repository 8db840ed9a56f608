package io.ringlab.experiment.api;

import org.osgi.annotation.versioning.ProviderType;

import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * Where an experiment's runs are kept and found again by key: a results database open for writing
 * ({@link ResultsService#openForWriting}). {@link ExperimentService#run(ExperimentDTO, int, ExperimentListener, RunStore,
 * boolean)} asks it for each run's key before the run, and skips a run it finds; it records each run as the run ends.
 * <p>
 * A run's key is a hash of everything that determines its result (the variant's pipeline, its overrides and swaps, the
 * sweep point, the seed, the duration, the warm-up and the fork, and the versions and content of the bundles the run
 * uses), so a run found by key gives what running it again would give.
 * <p>
 * Thread-safe: the experiment's workers record runs as they end, from several threads.
 *
 * @since 1.1
 */
@ProviderType
public interface RunStore extends AutoCloseable {

    /**
     * @param key a run's key
     * @return the summary of the finished run recorded under the key, with {@link RunSummaryDTO#key} and
     *         {@link RunSummaryDTO#stored} set and every metric it recorded; {@code null} if no run with that key
     *         finished (a run recorded as failed or stopped is run again)
     * @throws ResultsException if the database cannot be read
     */
    RunSummaryDTO find(String key) throws ResultsException;

    /**
     * {@link #find(String)} for many keys at once, which a store answers with one query where it can.
     *
     * @param keys runs' keys
     * @return key to the summary of each finished run the store holds; the keys it does not hold are absent
     * @throws ResultsException if the database cannot be read
     */
    default java.util.Map<String, RunSummaryDTO> find(java.util.Collection<String> keys) throws ResultsException {
        java.util.Map<String, RunSummaryDTO> found = new java.util.LinkedHashMap<>();
        for (String k : keys) {
            RunSummaryDTO s = find(k);
            if (s != null) {
                found.put(k, s);
            }
        }
        return found;
    }

    /**
     * Records one run, all of it or nothing (one transaction): its summary, every metric of its result with its unit,
     * its series, swaps, warnings and invariant violations. A run already recorded under the key is replaced.
     *
     * @param experiment the experiment the run belongs to (its name, its sweeps' parameters); read only
     * @param summary the run's summary, with its {@link RunSummaryDTO#key}; read only
     * @param result the run's full result; {@code null} for a run that could not be prepared
     * @throws ResultsException if the run cannot be written; nothing of it is then in the database
     */
    default void record(ExperimentDTO experiment, RunSummaryDTO summary, RunResultDTO result) throws ResultsException {
        java.util.List<RunResultDTO> results = new java.util.ArrayList<>();
        results.add(result);
        record(experiment, java.util.List.of(summary), results);
    }

    /**
     * Records several runs of one experiment, all of them or none (one transaction), each as
     * {@link #record(ExperimentDTO, RunSummaryDTO, RunResultDTO)} does: the experiment service hands over the runs that
     * ended while the store wrote the previous ones, so that one transaction's cost is shared.
     *
     * @param experiment the experiment the runs belong to; read only
     * @param summaries the runs' summaries, each with its key; read only
     * @param results their full results in the same order, an element {@code null} for a run that could not be
     *        prepared; read only
     * @throws ResultsException if the runs cannot be written; nothing of them is then in the database
     */
    void record(ExperimentDTO experiment, java.util.List<RunSummaryDTO> summaries, java.util.List<RunResultDTO> results)
            throws ResultsException;

    /** Closes the database; what was recorded stays. Idempotent. */
    @Override
    void close();
}

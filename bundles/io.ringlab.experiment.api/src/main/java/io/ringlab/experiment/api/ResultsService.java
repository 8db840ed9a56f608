package io.ringlab.experiment.api;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.osgi.annotation.versioning.ProviderType;

import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.experiment.api.dto.ScalarDTO;
import io.ringlab.experiment.api.dto.TableDTO;
import io.ringlab.sim.api.dto.SeriesDTO;

/**
 * Experiment results databases (embedded DuckDB files; schema in {@code docs/experiments.md}, "The results database"):
 * one writer at a time, which {@code ringlab ab} opens for the whole experiment, and readers (the console,
 * {@code ringlab results}, third parties) that open the file read-only. A database holds the runs of any number of
 * experiments, each run under its key ({@link RunStore}).
 * <p>
 * Thread-safe.
 *
 * @since 1.1
 */
@ProviderType
public interface ResultsService {

    /**
     * Opens a database for writing, creating the file (and its folder) if there is none. DuckDB allows one process to
     * write a file: while another holds it, this waits up to {@code wait}, then fails naming that process.
     *
     * @param database the file; must not be {@code null}
     * @param wait how long to wait for another writer to let go; {@link Duration#ZERO} for not at all
     * @return the store; close it when the experiment ends
     * @throws ResultsException naming the file and why: held by another process (its PID and program), not a results
     *         database, not writable
     */
    RunStore openForWriting(Path database, Duration wait) throws ResultsException;

    /**
     * @param database a results database, opened read-only
     * @return the experiments it holds, by name, in alphabetical order
     * @throws ResultsException naming the file and why it cannot be read
     */
    List<String> experiments(Path database) throws ResultsException;

    /**
     * @param database a results database, opened read-only
     * @param experiment an experiment's name
     * @return its runs, by sweep point, variant and seed as the experiment ran them (each with its key, point, state,
     *         invariants and the experiment's metrics)
     * @throws ResultsException naming the file and why it cannot be read
     */
    List<RunSummaryDTO> runs(Path database, String experiment) throws ResultsException;

    /**
     * @param database a results database, opened read-only
     * @param experiment an experiment's name
     * @param metric a metric, {@code ELEMENT.METRIC}
     * @return the metric's value in every run of the experiment that reported it, with the run's variant, sweep point
     *         and seed, in the order of {@link #runs}
     * @throws ResultsException naming the file and why it cannot be read
     */
    List<ScalarDTO> scalars(Path database, String experiment, String metric) throws ResultsException;

    /**
     * @param database a results database, opened read-only
     * @param runKey a run's key
     * @return the run's series as the run reported them (columns and rows at its sampling interval); {@code null} if the
     *         database has no run with that key
     * @throws ResultsException naming the file and why it cannot be read
     */
    SeriesDTO series(Path database, String runKey) throws ResultsException;

    /**
     * Runs a query (DuckDB's SQL) on a database opened read-only.
     *
     * @param database a results database
     * @param sql the query
     * @return its columns and rows
     * @throws ResultsException naming the file and, for a wrong query, DuckDB's message
     */
    TableDTO query(Path database, String sql) throws ResultsException;

    /**
     * Writes a query's result to a file, CSV with a header line or Parquet, through a temporary file in the target's
     * folder that replaces the target only when complete (a failed export leaves the target as it was).
     *
     * @param database a results database, opened read-only
     * @param sql the query
     * @param out the file to write
     * @param format {@code csv} or {@code parquet}
     * @return how many rows were written
     * @throws ResultsException naming the file and why
     */
    long export(Path database, String sql, Path out, String format) throws ResultsException;
}

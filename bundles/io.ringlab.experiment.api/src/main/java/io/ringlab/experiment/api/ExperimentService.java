package io.ringlab.experiment.api;

import java.nio.file.Path;
import java.util.List;

import org.osgi.annotation.versioning.ProviderType;

import io.ringlab.experiment.api.dto.ComparisonDTO;
import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.experiment.api.dto.MetricSummaryDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.experiment.api.dto.RunTaskDTO;
import io.ringlab.sim.api.PipelineException;

/**
 * Reads and runs A/B experiments: one base pipeline, variants of it (property overrides, element types, swaps; the first
 * variant is the baseline), a list of seeds and the metrics to compare. Every (variant, seed) pair is an independent run
 * of the engine's {@link io.ringlab.sim.api.Simulator}; every variant runs with the same seeds, so the variants see the
 * same traffic (common random numbers), and the report pairs them by seed. The file format, the statistics and their
 * edge cases are described in {@code docs/experiments.md}.
 * <p>
 * Thread-safe: several experiments may be read and run at once from different threads.
 */
@ProviderType
public interface ExperimentService {

    /**
     * Reads an experiment file (UTF-8) and the base pipeline it names, and checks the variants against the installed
     * element types: every element a variant names exists, every type it asks for is installed, every property it sets
     * exists in the element's type with a value that fits, and an element whose type a variant replaces keeps only
     * properties the new type has.
     *
     * @param file the experiment file; its folder is where a relative {@code pipeline} path starts; must not be
     *        {@code null}
     * @return the experiment; never {@code null}
     * @throws PipelineException listing every problem found, each with its file, line and column (the pipeline's own
     *         problems with the pipeline file's positions), or one problem without a position if the file cannot be
     *         read
     */
    ExperimentDTO read(Path file) throws PipelineException;

    /**
     * Reads an experiment from text, as {@link #read(Path)} does.
     *
     * @param fileName the file's name for messages and {@link ExperimentDTO#file}, and, without folders and extension,
     *        the default {@link ExperimentDTO#name}; {@code null} for {@code "<input>"}
     * @param text the experiment's text; must not be {@code null}
     * @param directory where a relative {@code pipeline} path starts; must not be {@code null}
     * @return the experiment; never {@code null}
     * @throws PipelineException listing every problem found
     */
    ExperimentDTO read(String fileName, String text, Path directory) throws PipelineException;

    /**
     * Checks an experiment as {@link #run} does before its first run (every variant prepared once at the first point of
     * each set of element types its sweeps give it, and closed) and lists the runs it expands to, without running them:
     * every variant with every seed at every sweep point, in the order {@link #run} starts them, each with its variant,
     * seed and {@link RunSummaryDTO#point}, and state {@link RunSummaryDTO#PLANNED}.
     *
     * @param experiment the experiment; not modified; must not be {@code null}
     * @return the runs; never {@code null}
     * @throws PipelineException if the experiment is not runnable, as {@link #run} says
     * @since 1.1
     */
    List<RunSummaryDTO> runs(ExperimentDTO experiment) throws PipelineException;

    /**
     * The statistics of one group of runs, as the experiment's report computes them per variant and point (the mean, the
     * sample standard deviation and the 95 % confidence interval from Student's t, with the report's edge cases): for
     * readers of a results database that group runs their own way ({@code ringlab plot}, the console).
     *
     * @param values one value per run; not modified; must not be {@code null}
     * @return the summary; never {@code null}
     * @since 1.1
     */
    MetricSummaryDTO summarize(double[] values);

    /**
     * The paired comparison of one variant against the baseline, as the experiment's report computes it per metric and
     * point (the mean difference {@code b - a} with its 95 % confidence interval and a two-sided paired t-test, with the
     * report's edge cases and notes): for readers of a results database that rebuild a report from its runs (the
     * console).
     *
     * @param a the baseline's value for each seed, NaN where the seed's run gave none or does not count; not modified;
     *        must not be {@code null}
     * @param b the variant's value for the same seeds in the same order, NaN likewise; not modified; must not be
     *        {@code null}
     * @return the comparison over the seeds with a value in both; its {@code metric}, {@code a} and {@code b} are left
     *         {@code null} for the caller; never {@code null}
     * @throws IllegalArgumentException if the arrays differ in length
     * @since 1.3
     */
    ComparisonDTO compare(double[] a, double[] b);

    /**
     * Runs every (variant, seed) pair of an experiment, on up to {@code threads} threads, and reports per metric and
     * variant the mean with its 95 % confidence interval, and for every variant after the first the paired difference
     * against the first with its confidence interval and a paired t-test.
     * <p>
     * Before the first run, every variant is prepared once (and closed) so that a variant the engine refuses stops the
     * experiment before it spends time on the others. After that, a run that fails, or ends with a broken invariant, is
     * reported in {@link ExperimentResultDTO#runs} with its variant, seed and error, and left out of the statistics; the
     * other runs are still reported. The results do not depend on {@code threads} nor on the order in which runs end.
     * <p>
     * Blocks until every run has ended. If the calling thread is interrupted, runs not started yet are not started, the
     * running ones are stopped, the result reports what had finished with {@link ExperimentResultDTO#cancelled} set,
     * and the thread's interrupt status is set again.
     *
     * @param experiment the experiment, usually from {@link #read(Path)}; not modified; must not be {@code null}
     * @param threads how many runs at once, at least 1; 0 takes {@link Runtime#availableProcessors()}
     * @param listener told of each run as it ends; may be {@code null}
     * @return the result; never {@code null}
     * @throws PipelineException if the experiment is not runnable: no variant or seed, a warm-up not shorter than the
     *         duration, or a variant the engine refuses (each problem at the variant's position, with the engine's
     *         message); nothing has run then
     * @throws IllegalArgumentException if {@code threads} is negative
     */
    ExperimentResultDTO run(ExperimentDTO experiment, int threads, ExperimentListener listener) throws PipelineException;

    /**
     * As {@link #run(ExperimentDTO, int, ExperimentListener)}, keeping the runs in a results database: every run's key
     * ({@link RunStore}) is computed before anything runs; a run whose key the store holds as finished is not run again
     * (unless {@code rerun}) and counts with its stored summary ({@link RunSummaryDTO#stored}), so an interrupted
     * experiment resumes where it stopped and a widened sweep runs only its new points; every run that ends is recorded
     * in the store (one transaction each) before the listener hears of it. If recording fails, no further run starts,
     * the running ones are stopped, and the result reports what finished with the failure in
     * {@link ExperimentResultDTO#problems}.
     *
     * @param experiment the experiment; not modified; must not be {@code null}
     * @param threads how many runs at once, at least 1; 0 takes {@link Runtime#availableProcessors()}
     * @param listener told of each run as it ends, stored ones included (first, in the order of the runs); may be
     *        {@code null}
     * @param store where the runs are kept; must not be {@code null}
     * @param rerun {@code true} runs every run, replacing what the store holds
     * @return the result; never {@code null}
     * @throws PipelineException as {@link #run(ExperimentDTO, int, ExperimentListener)}
     * @throws ResultsException if the store cannot be read before the runs
     * @since 1.1
     */
    ExperimentResultDTO run(ExperimentDTO experiment, int threads, ExperimentListener listener, RunStore store,
            boolean rerun) throws PipelineException, ResultsException;

    /**
     * As {@link #run(ExperimentDTO, int, ExperimentListener, RunStore, boolean)}, with the runs sent to an executor (a
     * cluster's workers, {@link ClusterService#connect}) instead of this process's threads: {@code executor.parallelism()}
     * runs at once, each as a {@link RunTaskDTO} with its key and the bundles the key was computed from. The result is
     * the same as a local run's, apart from the wall-clock fields and {@link RunSummaryDTO#worker}.
     *
     * @param experiment the experiment; not modified; must not be {@code null}
     * @param executor where the runs run; must not be {@code null}; not closed
     * @param listener told of each run as it starts and ends; may be {@code null}
     * @param store where the runs are kept; must not be {@code null}
     * @param rerun {@code true} runs every run, replacing what the store holds
     * @return the result; never {@code null}
     * @throws PipelineException as {@link #run(ExperimentDTO, int, ExperimentListener)}
     * @throws ResultsException if the store cannot be read before the runs
     * @since 1.2
     */
    ExperimentResultDTO run(ExperimentDTO experiment, RunExecutor executor, ExperimentListener listener, RunStore store,
            boolean rerun) throws PipelineException, ResultsException;

    /**
     * Runs one task sent by another installation (a cluster worker runs each task it receives this way), after checking
     * that this installation computes the task's key from the task: the same Ringlab version and the same bundles, so
     * the same result. A task whose key differs is refused, naming each bundle that is missing here or differs (with
     * both versions).
     *
     * @param task the run; read only; must not be {@code null}
     * @return the run's result
     * @throws PipelineException if the task is refused, or the engine refuses its pipeline
     * @since 1.2
     */
    io.ringlab.sim.api.dto.RunResultDTO execute(RunTaskDTO task) throws PipelineException;

    /**
     * @return the bundles of this installation whose code can change a run's result (the engine, the models, the
     *         third-party bundles that provide element types), symbolic name to {@code version#sha256} of the bundle's
     *         content, sorted: what run keys are computed from
     * @since 1.2
     */
    java.util.Map<String, String> bundles();
}

package io.ringlab.experiment.api.dto;

import java.util.ArrayList;
import java.util.List;

import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.ValueDTO;

/**
 * An A/B experiment: a base pipeline, its variants, the seeds every variant runs with and the metrics to compare. Read
 * from an experiment file by {@code ExperimentService.read}, or built by hand.
 * <p>
 * Not thread-safe; the service does not modify an experiment it is given.
 */
public class ExperimentDTO {
    /**
     * The most seeds an experiment runs, 10,000: every variant runs once per seed, and a count beyond this is a typo
     * ({@code seeds = 1G} would fill the heap with seeds before a single run). Readers of experiment files and of
     * {@code --seeds} refuse more.
     *
     * @since 1.2
     */
    public static final int MAX_SEEDS = 10_000;

    /**
     * The most runs an experiment expands to, 100,000 (variants times sweep points times seeds): beyond it a range or a
     * product of sweeps is a typo, and readers refuse it before anything runs.
     *
     * @since 1.3
     */
    public static final int MAX_RUNS = 100_000;

    /** The experiment file as the user named it; {@code "<input>"} if there is none. Problems name it. */
    public String file = "<input>";
    /** The experiment's name; the reader defaults it to the file name without folders and extension. */
    public String name;
    /** One paragraph about the experiment; {@code null} if none. */
    public String description;
    /** The base pipeline's file, resolved against the experiment file's folder and normalised; never {@code null}. */
    public String pipelineFile;
    /**
     * The experiment file's {@code pipeline} value as written, with its position: a problem found in the pipeline is
     * reported there, then at the pipeline's own position; {@code null} for an experiment built by hand.
     *
     * @since 1.2
     */
    public ValueDTO pipelineValue;
    /** The base pipeline as read from {@link #pipelineFile}; never {@code null} for a runnable experiment. */
    public PipelineDTO pipeline;
    /** Simulated time per run in picoseconds; 0 takes the pipeline's {@code duration}, or 1 second. */
    public long durationPicos;
    /** Warm-up in picoseconds that each run's results exclude ({@code RunOptionsDTO.warmupPicos}); 0 for none. */
    public long warmupPicos;
    /**
     * The experiment file's value that sets {@link #warmupPicos}, with its position: the {@code warmup} key's, or the
     * {@code fork} key's when the fork sets the warm-up; {@code null} when the file sets none, or for an experiment
     * built by hand. A message about the warm-up (one not shorter than a {@code --duration}) points at it.
     *
     * @since 1.2
     */
    public ValueDTO warmupValue;
    /**
     * The fork of a forked experiment in picoseconds, 0 for none: every variant runs the same pipeline with the same
     * settings, so that for a seed all variants share their history up to the fork ({@code RunOptionsDTO.forkAtPicos}:
     * the engine proves it with the state hash each run records there), and differ only by swaps at or after it. The
     * warm-up is then at least the fork, so the metrics cover only what came after.
     *
     * @since 1.1
     */
    public long forkPicos;
    /**
     * The experiment file's {@code fork} value with its position; {@code null} when the file sets none, or for an
     * experiment built by hand. A message about the fork (one not shorter than a {@code --duration}) points at it.
     *
     * @since 1.2
     */
    public ValueDTO forkValue;
    /** The seeds, distinct, in the order given; every variant runs once with each. Never {@code null}. */
    public List<Long> seeds = new ArrayList<>();
    /**
     * The metrics to compare, each {@code ELEMENT.METRIC} (also {@code pool:ELEMENT.POOL.METRIC}, {@code cpuN.METRIC},
     * {@code l3.METRIC}) as written, with its position in the experiment file (line 0 when it came from elsewhere); in
     * the order given. Never {@code null}.
     */
    public List<ValueDTO> metrics = new ArrayList<>();
    /** The variants in file order; the first is the baseline every other is compared with. Never {@code null}. */
    public List<VariantDTO> variants = new ArrayList<>();
    /**
     * The sweeps in file order; empty for an experiment without sweep points. Their cartesian product (the first sweep
     * varying slowest) gives the points, and every variant runs with every seed at every point. A target a sweep sets is
     * set by no variant and no common {@code set} or {@code type} statement. Never {@code null}.
     *
     * @since 1.3
     */
    public List<SweepDTO> sweeps = new ArrayList<>();
}

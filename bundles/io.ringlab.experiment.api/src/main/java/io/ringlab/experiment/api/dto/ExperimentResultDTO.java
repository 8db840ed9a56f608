package io.ringlab.experiment.api.dto;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.ringlab.sim.api.dto.ProblemDTO;

/**
 * The result of an experiment: per variant and metric a {@link MetricSummaryDTO}, per metric and non-baseline variant a
 * {@link ComparisonDTO} against the baseline, every run's summary, and the problems found in the results. The command
 * line writes it as JSON with these field names.
 * <p>
 * Two runs of the same experiment with the same seeds and Ringlab version give equal results apart from the wall-clock
 * fields ({@link #wallSeconds}, {@link RunSummaryDTO#wallSeconds}), whatever the number of threads.
 * <p>
 * Not thread-safe.
 */
public class ExperimentResultDTO {
    /** Version of this result's layout; 1. */
    public int schemaVersion = 1;
    /** Ringlab's version (the engine bundle's, as the runs report it); {@code null} if no run produced a result. */
    public String ringlabVersion;
    /** The experiment's name. */
    public String name;
    /** The experiment file as given. */
    public String experimentFile;
    /** The base pipeline's name. */
    public String pipeline;
    /** The base pipeline's file, resolved. */
    public String pipelineFile;
    /** Simulated time of each run, in seconds. */
    public double durationSeconds;
    /** Warm-up each run's results exclude, in seconds. */
    public double warmupSeconds;
    /**
     * The fork of a forked experiment in seconds, 0 for none ({@code ExperimentDTO.forkPicos}); when the variants' runs of
     * a seed did not reach the same state there, {@link #problems} says so.
     *
     * @since 1.1
     */
    public double forkSeconds;
    /** The seeds, in the order run. Never {@code null}. */
    public List<Long> seeds = new ArrayList<>();
    /** The metrics compared, {@code ELEMENT.METRIC}, in the experiment's order. Never {@code null}. */
    public List<String> metrics = new ArrayList<>();
    /** The baseline variant's name (the first). */
    public String baseline;
    /**
     * The sweep targets, in the experiment's order ({@code ELEMENT.PROPERTY}, or {@code ELEMENT} for a type); empty for
     * an experiment without sweeps. Never {@code null}.
     *
     * @since 1.3
     */
    public List<String> parameters = new ArrayList<>();
    /**
     * An experiment with sweeps: the statistics per point, in the order the points run (the first sweep varying
     * slowest); {@link #variants} and {@link #comparisons} are then empty. Empty for an experiment without sweeps. Never
     * {@code null}.
     *
     * @since 1.3
     */
    public List<PointResultDTO> points = new ArrayList<>();
    /**
     * Variant name to metric to its summary (an experiment without sweeps; with sweeps see {@link #points}); variants in the experiment's order (the baseline first), metrics in the
     * experiment's order. Every variant has every metric. Never {@code null}.
     */
    public Map<String, Map<String, MetricSummaryDTO>> variants = new LinkedHashMap<>();
    /**
     * Every non-baseline variant against the baseline (an experiment without sweeps), for every metric: by metric, then by variant, in the experiment's
     * order. Empty with one variant. Never {@code null}.
     */
    public List<ComparisonDTO> comparisons = new ArrayList<>();
    /**
     * Every run: by sweep point (in {@link #points}' order), then by variant (in the experiment's order), then by seed
     * (in {@link #seeds}' order). Never {@code null}.
     */
    public List<RunSummaryDTO> runs = new ArrayList<>();
    /**
     * Metrics some runs did not report, each at the metric's position in the experiment file, naming the variants and
     * seeds that lacked it and the metrics that exist there. Empty when every counted run reported every metric.
     */
    public List<ProblemDTO> problems = new ArrayList<>();
    /** How many runs ran at once. */
    public int threads;
    /** Wall-clock time of the whole experiment, in seconds (a host measurement). */
    public double wallSeconds;
    /** {@code true} if the experiment was cancelled before every run ended; the statistics cover what finished. */
    public boolean cancelled;
}

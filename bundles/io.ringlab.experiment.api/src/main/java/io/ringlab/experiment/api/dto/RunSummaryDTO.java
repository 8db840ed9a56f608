package io.ringlab.experiment.api.dto;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.ringlab.sim.api.dto.HeadlineDTO;
import io.ringlab.sim.api.dto.SampleWarningDTO;
import io.ringlab.sim.api.dto.SwapDTO;

/**
 * One run of an experiment, one variant with one seed: how it ended, its invariants, its headline numbers and the values
 * of the experiment's metrics. A run counts in the statistics when {@link #state} is {@code FINISHED} and both
 * invariants hold.
 * <p>
 * Not thread-safe.
 */
public class RunSummaryDTO {
    /** {@link #state} of a run that reached its duration. */
    public static final String FINISHED = "FINISHED";
    /** {@link #state} of a run stopped before its duration (the experiment was cancelled while it ran). */
    public static final String STOPPED = "STOPPED";
    /** {@link #state} of a run the engine refused to prepare, or in which an element failed. */
    public static final String FAILED = "FAILED";
    /** {@link #state} of a run that never started because the experiment was cancelled. */
    public static final String CANCELLED = "CANCELLED";
    /**
     * {@link #state} of a run listed by {@code ExperimentService.runs}: planned, not run.
     *
     * @since 1.3
     */
    public static final String PLANNED = "PLANNED";

    /**
     * The run's key: a hash of everything that determines its result ({@code RunStore}); {@code null} for an experiment
     * run without a results database.
     *
     * @since 1.3
     */
    public String key;
    /**
     * {@code true} when the run was not run but taken from the results database, where a run with the same key had
     * finished (its wall-clock fields are that run's).
     *
     * @since 1.3
     */
    public boolean stored;
    /** The variant's name. */
    public String variant;
    /** The seed. */
    public long seed;
    /**
     * The run's sweep point: each sweep target to its value, in the experiment's order; empty for an experiment without
     * sweeps. Never {@code null}.
     *
     * @since 1.3
     */
    public Map<String, String> point = new LinkedHashMap<>();
    /**
     * {@link #FINISHED}, {@link #STOPPED} (cancelled while running), {@link #FAILED} (the engine refused to prepare it,
     * or an element failed) or {@link #CANCELLED} (never started).
     */
    public String state;
    /** Why the run failed, as the engine says it; {@code null} unless {@link #state} is {@link #FAILED}. */
    public String error;
    /** Packet conservation held ({@code InvariantReportDTO.packetConservation}); {@code false} for a run without result. */
    public boolean packetConservation;
    /** Buffer conservation held ({@code InvariantReportDTO.bufferConservation}); {@code false} for a run without result. */
    public boolean bufferConservation;
    /** The invariants' violations, one line each; empty when both hold. Never {@code null}. */
    public List<String> violations = new ArrayList<>();
    /**
     * The experiment's metrics this run reported, in the experiment's order, {@code ELEMENT.METRIC} to its value, or to
     * {@code null} when the run reported the metric without a finite value (NaN: no sample). A metric the run did not
     * report is absent. Never {@code null}.
     */
    public Map<String, Double> metrics = new LinkedHashMap<>();
    /** The pipeline's headline metric for this run; {@code null} if the pipeline names none or the run has no result. */
    public HeadlineDTO headline;
    /** Virtual time reached, in seconds. */
    public double simulatedSeconds;
    /** Wall-clock time the run took, in seconds (a host measurement: differs between identical runs). */
    public double wallSeconds;
    /** Events the engine processed. */
    public long events;
    /** Packets the sources generated. */
    public long packets;
    /** The swaps applied during the run, in order. Never {@code null}. */
    public List<SwapDTO> swaps = new ArrayList<>();
    /**
     * The hash of the run's state at the experiment's fork ({@code RunResultDTO.forkStateHash}); {@code null} without a
     * fork or without a result.
     *
     * @since 1.1
     */
    public String forkStateHash;
    /**
     * The run's figures that rest on too few samples ({@code RunResultDTO.sampleWarnings}); empty for none or without a
     * result. Never {@code null}.
     *
     * @since 1.2
     */
    public List<SampleWarningDTO> sampleWarnings = new ArrayList<>();
    /**
     * Where the run ran: the cluster worker's address ({@code host:port}) for a run sent to a cluster; {@code null} for a
     * run on this machine's own threads or one taken from a results database.
     *
     * @since 1.4
     */
    public String worker;
}

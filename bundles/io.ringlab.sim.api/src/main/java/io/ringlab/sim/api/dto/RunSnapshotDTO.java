package io.ringlab.sim.api.dto;

import java.util.Map;
import java.util.TreeMap;

import io.ringlab.sim.api.RunState;

/**
 * What a running simulation publishes at a wall-clock rate for live views. Immutable once published: the engine builds a
 * new snapshot each time and never changes one it has handed out, so a reader on another thread may keep it. The series
 * rows are shared with the run, which never writes a row again once it is sampled; readers must not modify them.
 */
public class RunSnapshotDTO {
    /** The run's state when the snapshot was taken. */
    public RunState state;
    /** Virtual time in seconds. */
    public double simulatedSeconds;
    /** The run's duration in seconds of virtual time. */
    public double durationSeconds;
    /** Events processed so far. */
    public long events;
    /** Element name to metric name to value, as in the result. */
    public Map<String, Map<String, Double>> elements = new TreeMap<>();
    /**
     * Drops so far by element and reason, counted from the run's start as {@link InvariantReportDTO#droppedByElement}.
     *
     * @since 1.7
     */
    public Map<String, Map<String, Long>> droppedByElement = new TreeMap<>();
    /**
     * Each latency histogram's distribution so far, as {@link RunResultDTO#distributions}.
     *
     * @since 1.7
     */
    public Map<String, java.util.List<double[]>> distributions = new TreeMap<>();
    /** Series sampled so far; shares no arrays with the live run. */
    public SeriesDTO series = new SeriesDTO();
    /**
     * The swaps so far (the console marks them on its charts).
     *
     * @since 1.3
     */
    public java.util.List<SwapDTO> swaps = new java.util.ArrayList<>();
}

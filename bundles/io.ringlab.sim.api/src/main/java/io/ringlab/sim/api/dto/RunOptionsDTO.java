package io.ringlab.sim.api.dto;

import java.util.ArrayList;
import java.util.List;

/** How to run a pipeline. */
public class RunOptionsDTO {
    /** Duration in picoseconds of virtual time; 0 takes the pipeline's duration, or 1 second. */
    public long durationPicos;
    /** The seed; {@code null} takes the pipeline's seed, or 1. */
    public Long seed;
    /** Interval of the time series in picoseconds of virtual time; 0 takes duration / 200. */
    public long seriesIntervalPicos;
    /** Property overrides in the {@code --set} grammar, {@code ELEMENT.PROPERTY=VALUE}; never {@code null}. */
    public List<String> overrides = new ArrayList<>();
    /** Wall-clock interval between published snapshots in milliseconds (10 Hz by default). */
    public long snapshotIntervalMillis = 100;
    /** Real-time factor: 0 runs as fast as possible; 1.0 runs at wall-clock speed. */
    public double realTimeFactor;
    /**
     * Warm-up in picoseconds of virtual time, 0 for none: the run's results exclude it (element counters, rates,
     * histograms, the cores' busy time and caches, the runtime table); the time series and the invariants cover the
     * whole run. Less than the duration.
     *
     * @since 1.2
     */
    public long warmupPicos;
    /**
     * Swaps to apply during the run, each {@code AT:ELEMENT[=TYPE[@VERSION]]}: at virtual time AT (the time grammar of
     * pipeline files, {@code 10s}), at the first safe point (between two events) at or after it, the implementation behind
     * ELEMENT is replaced by a new instance of TYPE (an element type id) from the bundle of version VERSION, or by a fresh
     * instance of the newest installed version of its own type; the old instance hands its state over (docs/hot-swap.md).
     * Never {@code null}.
     *
     * @since 1.3
     */
    public List<String> swaps = new ArrayList<>();

    /**
     * The fork of a forked A/B experiment, in picoseconds of virtual time, 0 for none: at that time, before any event of
     * its instant and before the swaps of that time, the engine records a hash of the run's state in
     * {@link RunResultDTO#forkStateHash}. Branches that run the same pipeline and seed to the fork, and differ only in
     * what they do from there (a swap at the fork), must record the same hash. Less than the duration.
     *
     * @since 1.3
     */
    public long forkAtPicos;

    /**
     * The per-event watchdog, in milliseconds of wall time: an event (an element's callback, a CPU task) that runs longer
     * without returning ends the run FAILED with a report naming the element, its type and bundle and where it was
     * (docs/engine.md, "Fault isolation"). 0 takes the default, 10,000 ms; a negative value turns the watchdog off.
     *
     * @since 1.3
     */
    public long eventWatchdogMillis;

    /**
     * Packet captures, each {@code ELEMENT[.PORT]=FILE} (the command line's {@code --pcap}): a pcapng file of the frames
     * that pass the port (what the element pushes or is pulled from an output, what arrives at an input), timestamped with
     * virtual time; an element without a port names a driver's {@code wire} output and {@code rx} input (what
     * {@code tcpdump -i} shows), or, for an element without those, all its connected ports. A capture changes no result,
     * appears in no metric, runtime row or series, and is written as {@code FILE.partial} until the run ends
     * (docs/pcap.md). Never {@code null}.
     *
     * @since 1.5
     */
    public List<String> captures = new ArrayList<>();

    /**
     * The bytes kept of each captured frame (the pcapng snap length), at least 14; 0 takes the default, 128 (Ethernet,
     * IPv4 and TCP headers with options, and a little payload).
     *
     * @since 1.5
     */
    public int captureSnaplen;
}

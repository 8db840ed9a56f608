package io.ringlab.sim.api.dto;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The end-of-run invariant checks. Packets: {@code generated == delivered + dropped + inFlight}, where {@code inFlight} is
 * counted by walking every element's rings, queues and wires, never by subtraction. Buffers: for every pool
 * {@code allocs - frees == inUse}, every in-use buffer is held by some element (otherwise it is a leak, reported with its
 * owner), and no buffer was freed twice.
 * <p>
 * Packets are wire segments: a buffer of {@code n} segments (a GSO skb) counts {@code n} packets when generated,
 * delivered, dropped and in flight.
 */
public class InvariantReportDTO {
    /** {@code true} if packet conservation holds. */
    public boolean packetConservation;
    /** {@code true} if buffer conservation holds (no leak, no double free, counters consistent). */
    public boolean bufferConservation;
    /** Packets counted by sources. */
    public long generated;
    /** Packets delivered to their destination. */
    public long delivered;
    /** Packets dropped, all reasons. */
    public long dropped;
    /** Drops by named reason; sums to {@link #dropped}. */
    public Map<String, Long> droppedByReason = new TreeMap<>();
    /**
     * Drops by the element that dropped them (its {@code drop} or {@code recycle}, or a swap's drain of it), then by
     * reason, over the whole run as {@link #droppedByReason}: each reason's counts over the elements sum to its entry
     * there. Elements without drops are absent.
     *
     * @since 1.7
     */
    public Map<String, Map<String, Long>> droppedByElement = new TreeMap<>();
    /**
     * Packets found in flight by the walk: distinct packet ids held (one packet may sit in two buffers at once); a held
     * buffer of {@code n} segments holds the ids {@code packetId .. packetId + n - 1}.
     */
    public long inFlight;
    /** Buffers allocated over the run, all pools. */
    public long buffersAllocated;
    /** Buffers freed over the run, all pools. */
    public long buffersFreed;
    /** Buffers in use at the end according to the pools. */
    public long buffersInUse;
    /** Buffers in use and held by an element at the end (the walk). */
    public long buffersHeld;
    /** Leaked buffers by owning element name. */
    public Map<String, Long> leaksByOwner = new TreeMap<>();
    /**
     * Refused double frees, keyed {@code "<element> (pool <pool>)"}: the element whose deliver or drop made the second free,
     * or, for a free made directly on a pool, the element that held the buffer last.
     */
    public Map<String, Long> doubleFreesByOwner = new TreeMap<>();
    /** Human-readable lines explaining each violation; empty when both invariants hold. */
    public List<String> violations = new ArrayList<>();
}

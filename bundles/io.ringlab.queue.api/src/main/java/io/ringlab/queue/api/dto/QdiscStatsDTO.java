package io.ringlab.queue.api.dto;

import java.util.Map;
import java.util.TreeMap;

/**
 * Counters of a qdisc, named as {@code tc -s qdisc} prints them. Identity:
 * {@code enqueued + requeues - dequeued - (drops after enqueue) == backlogPackets} (a requeued packet is dequeued again).
 * <p>
 * Not thread-safe; a snapshot.
 */
public class QdiscStatsDTO {
    /** Packets accepted by enqueue. */
    public long enqueued;
    /** Packets handed out by dequeue (a requeued packet dequeued again counts again). */
    public long dequeued;
    /** Packets put back by requeue. */
    public long requeues;
    /**
     * Times a shaper held a packet back because its class was over its rate ({@code tc -s} "overlimits",
     * {@code qstats.overlimits}); 0 for a qdisc that does not shape (pfifo, pfifo_fast, fq_codel in Linux 4.x). Since 1.1.
     */
    public long overlimits;
    /** Drops of all reasons ({@code tc -s} "dropped"). */
    public long drops;
    /** Drops by reason; sums to {@link #drops}. Never {@code null}. */
    public Map<String, Long> dropsByReason = new TreeMap<>();
    /** Packets queued now. */
    public long backlogPackets;
    /** Bytes queued now. */
    public long backlogBytes;
}

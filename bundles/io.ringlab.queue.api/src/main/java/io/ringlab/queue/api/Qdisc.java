package io.ringlab.queue.api;

import org.osgi.annotation.versioning.ConsumerType;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.queue.api.dto.QdiscStatsDTO;

/**
 * A queueing discipline as {@code tc} knows it: enqueue, dequeue, peek, backlog, drops by reason.
 * <p>
 * Identities kept by every implementation (ns-3 {@code QueueDisc}, {@code tc -s}): {@code enqueued + requeues - dequeued -
 * dropped after enqueue = backlog}; {@code drops = drops before enqueue + drops after enqueue}. A dropped buffer is returned by
 * {@link #enqueue} (drop before enqueue) or handed to the {@link DropSink} (drop of a queued packet, as fq_codel and CoDel
 * do), never freed by the qdisc itself, so the element around it frees it under the named reason.
 * <p>
 * Hot path: no allocation, no exceptions. Not thread-safe: one engine thread.
 */
@ConsumerType
public interface Qdisc {

    /**
     * Enqueues a packet.
     *
     * @param buffer the packet; must not be {@code null}
     * @param nowPicos virtual time in picoseconds
     * @return {@code null} if queued; otherwise the buffer that was dropped instead (this one, or another already queued that
     *         a head-drop policy chose), whose reason is {@link #lastDropReason()}
     */
    Buffer enqueue(Buffer buffer, long nowPicos);

    /**
     * Dequeues the next packet.
     *
     * @param nowPicos virtual time in picoseconds
     * @return the packet, or {@code null} if none is ready
     */
    Buffer dequeue(long nowPicos);

    /** @return the packet {@link #dequeue} would return next, without removing it, or {@code null}. */
    Buffer peek();

    /**
     * Puts a packet back at the head ({@code dev_requeue_skb}) when the driver refused it; counted as a requeue.
     *
     * @param buffer the packet that was last dequeued
     */
    void requeue(Buffer buffer);

    /** @return packets queued now ({@code tc -s} backlog in packets, "qlen"). */
    int backlogPackets();

    /** @return bytes queued now ({@code tc -s} backlog in bytes). */
    long backlogBytes();

    /** @return the drop reason of the last drop (one of the {@code DROP_*} constants or a qdisc's own). */
    String lastDropReason();

    /** @param sink receives packets the qdisc drops after they were queued; {@code null} when dropping returns them. */
    void dropSink(DropSink sink);

    /** @param visitor called for every queued packet (for the invariant walk). */
    void forEachQueued(BufferVisitor visitor);

    /** @return a snapshot of counters; never {@code null}. */
    QdiscStatsDTO stats();

    /** Drop reason: the queue was at its packet or byte limit (tail drop). */
    String DROP_OVERLIMIT = "qdisc-overlimit";
    /** Drop reason: an AQM (CoDel) decided to drop. */
    String DROP_AQM = "qdisc-aqm";

    /** Receives packets a qdisc drops from inside its queues; implemented by the element around the qdisc. */
    @org.osgi.annotation.versioning.ConsumerType
    @FunctionalInterface
    interface DropSink {
        /**
         * @param buffer the dropped packet, which the receiver frees
         * @param reason the drop reason
         */
        void dropped(Buffer buffer, String reason);
    }
}

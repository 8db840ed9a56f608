package io.ringlab.qdisc;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.queue.api.Qdisc;
import io.ringlab.queue.api.dto.QdiscStatsDTO;

/**
 * Linux {@code pfifo_fast}, the default root qdisc of a single-queue device: three FIFO bands chosen by the packet's
 * priority, band 0 served first, tail drop at a limit on the total queue length ({@code net/sched/sch_generic.c} of the
 * v3.x/v4.x kernels, before the lockless rewrite of v4.16).
 * <p>
 * <b>Model.</b> {@code pfifo_fast_enqueue}: if the total {@code qlen < limit} (the device's {@code tx_queue_len}) the packet
 * joins the tail of band {@code prio2band[skb->priority & TC_PRIO_MAX]} ({@link #PRIO2BAND}, {@link #TC_PRIO_MAX}) and is
 * stamped with the enqueue time; otherwise it is dropped ({@code qdisc_drop}) and returned with reason
 * {@link Qdisc#DROP_OVERLIMIT}. {@code pfifo_fast_dequeue}: the head of the lowest-numbered band that holds a packet (the
 * kernel finds it with {@code bitmap2band[priv->bitmap]}; here the bands are scanned from 0, which gives the same band).
 * {@link #requeue} puts a packet the driver refused back at the head of its own band and counts it in {@code qlen}, as
 * {@code dev_requeue_skb} does ("it's still part of the queue"). Backlog bytes are {@link Buffer#length()}
 * ({@code qdisc_pkt_len}).
 * <p>
 * <b>Requeue, a stated difference.</b> The kernel keeps a requeued packet in the single {@code q->gso_skb} slot, which
 * {@code dequeue_skb} hands out before asking any band; here it goes back to the head of its band, so a higher-priority
 * packet that arrived between the driver's dequeue and its requeue leaves first. Without such an arrival the order is the
 * same (the requeued packet came from the highest non-empty band).
 * <p>
 * <b>Configuration.</b> {@code limit} in packets, 1 to {@link PfifoQdisc#MAX_LIMIT}, default {@link PfifoQdisc#DEFAULT_LIMIT}
 * (Ethernet's {@code txqueuelen}). The limit is on the three bands together; current kernels (v4.16+, {@code skb_array}
 * per band) apply {@code tx_queue_len} to each band instead, which this model does not.
 * <p>
 * <b>Storage.</b> One ring of {@code limit + 1} references per band, allocated at construction (a band may hold every
 * packet, plus one requeued while an enqueue refilled the qdisc). Enqueue, dequeue, peek and requeue allocate nothing, box
 * nothing and throw nothing, except {@link #requeue} when its contract is broken.
 * <p>
 * <b>Counters</b> (since creation, never reset): {@code enqueued}, {@code dequeued}, {@code requeues}, {@code drops} (all
 * {@link Qdisc#DROP_OVERLIMIT}, all before enqueue), and per band the packets and bytes queued now
 * ({@link #backlogPackets(int)}, {@link #backlogBytes(int)}). Identity: {@code enqueued + requeues - dequeued =
 * backlogPackets}. The {@link Qdisc.DropSink} is kept but never called.
 * <p>
 * Not thread-safe: one engine thread.
 *
 * @see PfifoFastProvider
 */
final class PfifoFastQdisc implements Qdisc {

    /** Number of bands: {@code PFIFO_FAST_BANDS} ({@code net/sched/sch_generic.c}). */
    static final int BANDS = 3;

    /**
     * Mask applied to {@code skb->priority} before the band lookup: {@code TC_PRIO_MAX}
     * ({@code include/uapi/linux/pkt_sched.h}).
     */
    static final int TC_PRIO_MAX = 15;

    /**
     * Band of each priority 0 to 15: {@code prio2band} ({@code net/sched/sch_generic.c}; {@code sch_default_prio2band} in
     * current kernels). Priority 6 ({@code TC_PRIO_INTERACTIVE}) and 7 ({@code TC_PRIO_CONTROL}) go to band 0; 0
     * ({@code TC_PRIO_BESTEFFORT}), 4 ({@code TC_PRIO_INTERACTIVE_BULK}) and 8 to 15 to band 1; 1 to 3 and 5 ({@code
     * TC_PRIO_FILLER}, {@code TC_PRIO_BULK}) to band 2.
     */
    private static final int[] PRIO2BAND = {1, 2, 2, 2, 1, 2, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1};

    private final int limit;
    private final PacketFifo[] bands = new PacketFifo[BANDS];
    private int qlen;
    private long backlogBytes;

    private long enqueued;
    private long dequeued;
    private long requeues;
    private long overlimitDrops;
    private String lastDropReason;
    private DropSink dropSink;

    /**
     * @param limit the limit on the total queue length in packets, 1 to {@link PfifoQdisc#MAX_LIMIT}
     * @throws IllegalArgumentException with a {@code key=value} message when out of range
     */
    PfifoFastQdisc(int limit) {
        if (limit < 1 || limit > PfifoQdisc.MAX_LIMIT) {
            throw new IllegalArgumentException("limit=" + limit + ", allowed 1 to " + PfifoQdisc.MAX_LIMIT + " packets");
        }
        this.limit = limit;
        for (int band = 0; band < BANDS; band++) {
            bands[band] = new PacketFifo(limit + 1);
        }
    }

    /**
     * @param priority a packet's {@code skb->priority}
     * @return its band, 0 to 2: {@code prio2band[priority & TC_PRIO_MAX]}
     */
    static int band(int priority) {
        return PRIO2BAND[priority & TC_PRIO_MAX];
    }

    /** @return the limit on the total queue length in packets. */
    int limit() {
        return limit;
    }

    /** {@code pfifo_fast_enqueue}: tail drop when the total {@code qlen >= limit}; sets {@link Buffer#enqueuedPicos(long)}. */
    @Override
    public Buffer enqueue(Buffer buffer, long nowPicos) {
        if (qlen >= limit) {
            overlimitDrops++;
            lastDropReason = DROP_OVERLIMIT;
            return buffer;
        }
        buffer.enqueuedPicos(nowPicos);
        bands[band(buffer.priority())].addLast(buffer);
        qlen++;
        backlogBytes += buffer.length();
        enqueued++;
        return null;
    }

    /** {@code pfifo_fast_dequeue}: the head of the first non-empty band. */
    @Override
    public Buffer dequeue(long nowPicos) {
        for (PacketFifo fifo : bands) {
            Buffer buffer = fifo.pollFirst();
            if (buffer != null) {
                qlen--;
                backlogBytes -= buffer.length();
                dequeued++;
                return buffer;
            }
        }
        return null;
    }

    /** {@code pfifo_fast_peek}: the head of the first non-empty band, or {@code null}. */
    @Override
    public Buffer peek() {
        for (PacketFifo fifo : bands) {
            Buffer buffer = fifo.peekFirst();
            if (buffer != null) {
                return buffer;
            }
        }
        return null;
    }

    /**
     * Puts the packet back at the head of its band and counts a requeue; it counts in {@code qlen} and keeps its
     * {@link Buffer#enqueuedPicos()}. See the class comment for how this differs from the kernel's {@code gso_skb} slot.
     *
     * @throws IllegalStateException if the band's ring is full, which only happens when the caller requeues a packet it did
     *             not just dequeue
     */
    @Override
    public void requeue(Buffer buffer) {
        int band = band(buffer.priority());
        if (!bands[band].addFirst(buffer)) {
            throw new IllegalStateException("requeue into a full ring: band=" + band + ", backlogPackets=" + qlen
                    + ", limit=" + limit + ", requeue only the packet last dequeued");
        }
        qlen++;
        backlogBytes += buffer.length();
        requeues++;
    }

    @Override
    public int backlogPackets() {
        return qlen;
    }

    @Override
    public long backlogBytes() {
        return backlogBytes;
    }

    /**
     * @param band 0 to {@link #BANDS} - 1
     * @return packets queued in the band now
     */
    int backlogPackets(int band) {
        return bands[band].size();
    }

    /**
     * @param band 0 to {@link #BANDS} - 1
     * @return bytes queued in the band now
     */
    long backlogBytes(int band) {
        return bands[band].bytes();
    }

    /** @return {@link Qdisc#DROP_OVERLIMIT} after the first drop, {@code null} before. */
    @Override
    public String lastDropReason() {
        return lastDropReason;
    }

    /** Kept for the contract; pfifo_fast drops only before enqueue and never calls it. */
    @Override
    public void dropSink(DropSink sink) {
        this.dropSink = sink;
    }

    /** @return the sink set by {@link #dropSink(DropSink)}, or {@code null}. */
    DropSink dropSink() {
        return dropSink;
    }

    /** Visits the queued packets band by band, each from head to tail: the order in which they would leave. */
    @Override
    public void forEachQueued(BufferVisitor visitor) {
        for (PacketFifo fifo : bands) {
            fifo.forEach(visitor);
        }
    }

    /** @return a new snapshot; {@code dropsByReason} always holds {@link Qdisc#DROP_OVERLIMIT}, 0 before any drop. */
    @Override
    public QdiscStatsDTO stats() {
        QdiscStatsDTO stats = new QdiscStatsDTO();
        stats.enqueued = enqueued;
        stats.dequeued = dequeued;
        stats.requeues = requeues;
        stats.drops = overlimitDrops;
        stats.dropsByReason.put(DROP_OVERLIMIT, overlimitDrops);
        stats.backlogPackets = qlen;
        stats.backlogBytes = backlogBytes;
        return stats;
    }

    @Override
    public String toString() {
        return "PfifoFastQdisc[limit=" + limit + ", backlogPackets=" + qlen + " (" + bands[0].size() + "/" + bands[1].size()
                + "/" + bands[2].size() + "), backlogBytes=" + backlogBytes + "]";
    }
}

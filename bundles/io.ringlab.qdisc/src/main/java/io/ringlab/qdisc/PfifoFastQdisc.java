package io.ringlab.qdisc;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.queue.api.Qdisc;

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
final class PfifoFastQdisc extends BandedFifoQdisc {

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

    /**
     * @param limit the limit on the total queue length in packets, 1 to {@link PfifoQdisc#MAX_LIMIT}
     * @throws IllegalArgumentException with a {@code key=value} message when out of range
     */
    PfifoFastQdisc(int limit) {
        super(limit, BANDS);
    }

    /**
     * @param priority a packet's {@code skb->priority}
     * @return its band, 0 to 2: {@code prio2band[priority & TC_PRIO_MAX]}
     */
    static int band(int priority) {
        return PRIO2BAND[priority & TC_PRIO_MAX];
    }

    /** {@code pfifo_fast_enqueue}: the band is {@code prio2band[skb->priority & TC_PRIO_MAX]}. */
    @Override
    int bandOf(Buffer buffer) {
        return band(buffer.priority());
    }

    @Override
    public String toString() {
        return "PfifoFastQdisc[limit=" + limit() + ", backlogPackets=" + backlogPackets() + " (" + backlogPackets(0) + "/"
                + backlogPackets(1) + "/" + backlogPackets(2) + "), backlogBytes=" + backlogBytes() + "]";
    }
}

package io.ringlab.qdisc;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.queue.api.Qdisc;

/**
 * Linux {@code pfifo}: one FIFO of packets with a packet limit and tail drop ({@code net/sched/sch_fifo.c}).
 * <p>
 * <b>Model.</b> {@code pfifo_enqueue}: if {@code qlen < limit} the packet goes to the tail
 * ({@code qdisc_enqueue_tail}), otherwise it is dropped ({@code qdisc_drop} in current kernels,
 * {@code qdisc_reshape_fail} in the 2014 code, which drops as well for a root qdisc) and returned to the caller with reason
 * {@link Qdisc#DROP_OVERLIMIT}. Dequeue takes the head ({@code qdisc_dequeue_head}). {@link #requeue} puts a packet the
 * driver refused back in front ({@code net/sched/sch_generic.c}, {@code dev_requeue_skb}); as there, the requeued packet
 * counts in {@code qlen} ("it's still part of the queue"), so it counts against the limit and the backlog. Backlog bytes
 * are {@link Buffer#length()} ({@code qdisc_pkt_len}, without the GSO header adjustment of {@code qdisc_pkt_len_init}).
 * <p>
 * <b>Configuration.</b> {@code limit} in packets, 1 to {@link #MAX_LIMIT}; the kernel's default is the device's
 * {@code tx_queue_len} ({@code fifo_init}), {@link #DEFAULT_LIMIT} for Ethernet.
 * <p>
 * <b>Storage.</b> A ring of {@code limit + 1} buffer references, allocated at construction: {@code limit} slots for the
 * queue plus one for a packet requeued while an enqueue refilled the queue between the driver's dequeue and its requeue
 * (the kernel's {@code qlen} reaches {@code limit + 1} then too). Enqueue, dequeue, peek and requeue allocate nothing, box
 * nothing and throw nothing, except {@link #requeue} when its contract is broken.
 * <p>
 * <b>Counters</b> (since creation, never reset): {@code enqueued} (packets accepted), {@code dequeued} (packets handed
 * out, a requeued packet again when it leaves again), {@code requeues}, {@code drops} (all {@link Qdisc#DROP_OVERLIMIT},
 * all before enqueue). Identity: {@code enqueued + requeues - dequeued = backlogPackets}. pfifo never drops a queued packet,
 * so the {@link Qdisc.DropSink} is kept but never called.
 * <p>
 * Not thread-safe: one engine thread.
 *
 * @see PfifoProvider
 */
final class PfifoQdisc extends BandedFifoQdisc {

    /**
     * Default limit in packets: the device's {@code tx_queue_len}, 1000 for Ethernet ({@code DEFAULT_TX_QUEUE_LEN},
     * {@code include/net/pkt_sched.h}; {@code ether_setup} in {@code net/ethernet/eth.c}), which {@code fifo_init}
     * ({@code net/sched/sch_fifo.c}) takes when {@code tc} gives no limit.
     */
    static final int DEFAULT_LIMIT = 1000;

    /**
     * Largest limit in packets: 1,000,000. A Ringlab bound, not the kernel's (a {@code u32}): it keeps the preallocated ring
     * at a few megabytes of references.
     */
    static final int MAX_LIMIT = 1_000_000;

    /**
     * @param limit the queue limit in packets, 1 to {@link #MAX_LIMIT}
     * @throws IllegalArgumentException with a {@code key=value} message when out of range
     */
    PfifoQdisc(int limit) {
        super(limit, 1);
    }

    /** One band: {@code pfifo_enqueue} is {@code qdisc_enqueue_tail}, dequeue {@code qdisc_dequeue_head}. */
    @Override
    int bandOf(Buffer buffer) {
        return 0;
    }

    @Override
    public String toString() {
        return "PfifoQdisc[limit=" + limit() + ", backlogPackets=" + backlogPackets() + ", backlogBytes=" + backlogBytes()
                + "]";
    }
}

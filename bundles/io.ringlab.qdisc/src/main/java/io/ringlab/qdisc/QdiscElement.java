package io.ringlab.qdisc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.queue.api.Qdisc;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementState;
import io.ringlab.sim.api.Handover;
import io.ringlab.sim.api.Metrics;
import io.ringlab.sim.api.OutputPort;
import io.ringlab.sim.api.dto.MetricDescriptorDTO;

/**
 * The pipeline element around any {@link Qdisc}: the root qdisc of a device's TX queue, between the stack and the driver.
 * <p>
 * <b>Ports and flow.</b> Input {@value #IN} (push) receives packets from the stack: {@link #push} enqueues
 * ({@code __dev_xmit_skb}, {@code net/core/dev.c}) and, if the packet was queued, signals {@code ready()} on output
 * {@value #OUT} (pull), which is {@code __netif_schedule}: the driver downstream then pulls while its TX queue is not
 * stopped, and {@link #pull} dequeues ({@code qdisc_restart}, {@code net/sched/sch_generic.c}). The driver comes back on
 * its own when BQL or its ring wakes the queue. The kernel's bypass of an empty qdisc ({@code TCQ_F_CAN_BYPASS}) is the same
 * thing here: the packet is queued and pulled at once.
 * <p>
 * <b>Drops.</b> A buffer {@link Qdisc#enqueue} returns, and any buffer the qdisc hands to its {@link Qdisc.DropSink}, is
 * freed with {@link ElementContext#drop} on core 0 under the qdisc's {@link Qdisc#lastDropReason()} or the sink's reason.
 * The reasons a qdisc may give are registered in the constructor, so a drop costs one identity comparison per declared
 * reason and no string work; an undeclared reason fails the run (and the packet is still dropped, under the first reason).
 * <p>
 * <b>Metrics</b> (registered in the constructor, cumulative over the run): gauges {@code backlog} (packets, also sampled as
 * a series) and {@code backlogBytes} (bytes); counters {@code enqueued} (packets accepted), {@code dequeued} (packets handed
 * to the driver), {@code sentBytes} and {@code sentPackets} (what {@code bstats_update} counts at dequeue: bytes, and
 * a GSO packet as its segments) and {@code drops} (packets dropped, all reasons); gauges {@code requeues} and
 * {@code overlimits} read from the qdisc's stats (one snapshot per sample, not per packet). These are
 * {@code tc -s qdisc}'s Sent, backlog, dropped, overlimits and requeues ({@code ringlab stats --tc}). A kind may add
 * its own metrics through {@link KindMetrics} (pfifo_fast's per-band backlogs, fq_codel's {@code tc -s} extras), registered
 * after these in the constructor.
 * <p>
 * <b>Hot swap</b> ({@link Handover}). The qdisc itself is not handed over by reference: it is a class of this bundle
 * (the exporting one), so it would not outlive the bundle's update, and the successor would go on running the old
 * bundle's code; its {@link Qdisc.DropSink} also calls back into this element. Instead the element writes its queued
 * packets under {@value #PACKETS}, oldest enqueue first (a requeued packet keeps its enqueue time, so it stays first),
 * and the {@code requeues} count under {@value #REQUEUES}; a qdisc with state of its own (fq_codel's flows and CoDel,
 * pfifo_fast's bands, the counters) writes it under {@code <kind>.<name>} ({@link QdiscState}). A successor of the same
 * kind that can hold that state takes it over exactly; any other qdisc element enqueues the packets again in that order
 * at the time of the swap, each keeping its enqueue time, so that sojourn times and CoDel go on from it. A packet the
 * new qdisc refuses (a lower limit), or drops to make room, is dropped as {@value #DROP_SWAP_REFUSED}. The driver is
 * not signalled: it pulls from the new qdisc when it next runs, as it would have from the old one.
 * <p>
 * Per-packet methods allocate nothing. Not thread-safe: one engine thread, one run.
 *
 * @see AbstractQdiscFactory
 */
final class QdiscElement implements Element, Handover {

    /** Name of the push input from the stack. */
    static final String IN = "in";
    /** Name of the pull output to the driver. */
    static final String OUT = "out";
    // The metrics of every qdisc kind ({@code tc -s qdisc} names in camel case), each declared once: the descriptor
    // lists them and the element registers by them.
    static final MetricDescriptorDTO BACKLOG = new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, "backlog",
            "packets queued now (backlog p, qlen)").level("limit");
    static final MetricDescriptorDTO BACKLOG_BYTES = new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, "backlogBytes",
            "bytes queued now (backlog b)").level(null);
    static final MetricDescriptorDTO DROPS = new MetricDescriptorDTO(MetricDescriptorDTO.COUNTER, "drops",
            "packets dropped, all reasons (dropped)");
    static final MetricDescriptorDTO REQUEUES_METRIC = new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, "requeues",
            "packets put back by the driver (requeues)");
    static final MetricDescriptorDTO ENQUEUED = new MetricDescriptorDTO(MetricDescriptorDTO.COUNTER, "enqueued",
            "packets accepted");
    static final MetricDescriptorDTO DEQUEUED = new MetricDescriptorDTO(MetricDescriptorDTO.COUNTER, "dequeued",
            "packets handed to the driver, a GSO packet once");
    // bstats_update (include/net/sch_generic.h) at dequeue, qdisc_bstats_update in qdisc_dequeue_head and the kinds'
    // dequeue: bytes += qdisc_pkt_len(skb), packets += gso_segs (1 for a packet without GSO)
    static final MetricDescriptorDTO SENT_BYTES = new MetricDescriptorDTO(MetricDescriptorDTO.COUNTER, "sentBytes",
            "bytes handed to the driver (Sent N bytes; Buffer.length, without qdisc_pkt_len_init's GSO header bytes)").throughput(null);
    static final MetricDescriptorDTO SENT_PACKETS = new MetricDescriptorDTO(MetricDescriptorDTO.COUNTER, "sentPackets",
            "packets handed to the driver, a GSO packet as its segments (Sent N pkt: gso_segs)");
    static final MetricDescriptorDTO OVERLIMITS = new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, "overlimits",
            "times a shaper held a packet back (overlimits); 0 for the kinds that do not shape");
    /** The metrics of every qdisc kind, as the descriptor lists them. */
    static final List<MetricDescriptorDTO> METRICS = List.of(BACKLOG, BACKLOG_BYTES, DROPS, REQUEUES_METRIC, ENQUEUED,
            DEQUEUED, SENT_BYTES, SENT_PACKETS, OVERLIMITS);

    /**
     * Registers the metrics of one qdisc kind beyond {@link #METRICS}, once, from the element's constructor: gauges that read
     * the kind's own counters, so that nothing is added per packet.
     */
    @FunctionalInterface
    interface KindMetrics {
        /**
         * @param qdisc the element's qdisc, as the kind's provider created it
         * @param metrics the element's metrics registry
         * @throws IllegalArgumentException if the qdisc is not the class the kind's metrics read (a third-party provider of
         *             the same kind), with a {@code key=value} message
         */
        void register(Qdisc qdisc, Metrics metrics);
    }

    /** State key, shared by every qdisc kind: the queued packets, a {@code Buffer[]}, oldest enqueue first. */
    static final String PACKETS = "packets";
    /** State key, shared by every qdisc kind: the {@code requeues} metric, a {@code Long}. */
    static final String REQUEUES = "requeues";
    /** The drop reason of a handed-over packet that the new qdisc refused or dropped to make room. */
    static final String DROP_SWAP_REFUSED = "swap-qdisc-refused";

    /** The core drops are charged to: the qdisc runs in the sender's context, core 0 in Ringlab's pipelines. */
    private static final int CORE = 0;

    private final ElementContext context;
    private final Qdisc qdisc;
    private final OutputPort out;
    private final String[] reasons;
    private final int[] reasonIds;
    private final Metrics.Counter enqueued;
    private final Metrics.Counter dequeued;
    private final Metrics.Counter drops;
    private final Metrics.Counter sentBytes;
    private final Metrics.Counter sentPackets;
    /** The element type and qdisc kind, the prefix of the qdisc's own hot-swap state; null when unknown. */
    private final String kind;
    /** Requeues counted by predecessors' qdiscs that this one's counter does not include (a hot swap of another kind). */
    private long requeuesBefore;
    /** While a hot swap's import enqueues the predecessor's packets: drops then are {@link #DROP_SWAP_REFUSED}. */
    private boolean handingOver;
    /** The id of {@link #DROP_SWAP_REFUSED}, registered at the first such drop; -1 before. */
    private int swapRefusedId = -1;

    /**
     * @param context the element's context; must not be {@code null}
     * @param qdisc a new, empty qdisc owned by this element from now on; must not be {@code null}
     * @param dropReasons every drop reason the qdisc may report, at least one
     * @throws IllegalArgumentException if {@code dropReasons} is empty
     */
    QdiscElement(ElementContext context, Qdisc qdisc, List<String> dropReasons) {
        this(context, qdisc, dropReasons, null);
    }

    /**
     * @param context the element's context; must not be {@code null}
     * @param qdisc a new, empty qdisc owned by this element from now on; must not be {@code null}
     * @param dropReasons every drop reason the qdisc may report, at least one
     * @param kindMetrics the kind's own metrics, registered after the generic ones; {@code null} for none
     * @throws IllegalArgumentException if {@code dropReasons} is empty, or from {@code kindMetrics}
     */
    QdiscElement(ElementContext context, Qdisc qdisc, List<String> dropReasons, KindMetrics kindMetrics) {
        this(context, qdisc, dropReasons, kindMetrics, null);
    }

    /**
     * @param context the element's context; must not be {@code null}
     * @param qdisc a new, empty qdisc owned by this element from now on; must not be {@code null}
     * @param dropReasons every drop reason the qdisc may report, at least one
     * @param kindMetrics the kind's own metrics, registered after the generic ones; {@code null} for none
     * @param kind the element type and qdisc kind: a successor of that kind whose qdisc is a {@link QdiscState} takes the
     *        qdisc's state over exactly; {@code null} when unknown (packets are enqueued again)
     * @throws IllegalArgumentException if {@code dropReasons} is empty, or from {@code kindMetrics}
     */
    QdiscElement(ElementContext context, Qdisc qdisc, List<String> dropReasons, KindMetrics kindMetrics, String kind) {
        if (dropReasons.isEmpty()) {
            throw new IllegalArgumentException("dropReasons=[], declare every reason the qdisc may report");
        }
        this.context = context;
        this.qdisc = qdisc;
        this.kind = kind;
        this.out = context.output(OUT);
        this.reasons = dropReasons.toArray(String[]::new);
        this.reasonIds = new int[reasons.length];
        for (int i = 0; i < reasons.length; i++) {
            reasonIds[i] = context.dropReason(reasons[i]);
        }
        qdisc.dropSink(this::drop);

        Metrics metrics = context.metrics();
        metrics.gauge(BACKLOG, qdisc::backlogPackets);
        metrics.gauge(BACKLOG_BYTES, qdisc::backlogBytes);
        this.drops = metrics.counter(DROPS);
        metrics.gauge(REQUEUES_METRIC, () -> requeuesBefore + qdisc.stats().requeues);
        this.enqueued = metrics.counter(ENQUEUED);
        this.dequeued = metrics.counter(DEQUEUED);
        this.sentBytes = metrics.counter(SENT_BYTES);
        this.sentPackets = metrics.counter(SENT_PACKETS);
        metrics.gauge(OVERLIMITS, () -> qdisc.stats().overlimits);
        metrics.series(BACKLOG.name);
        if (kindMetrics != null) {
            kindMetrics.register(qdisc, metrics);
        }
    }

    /** @return the qdisc this element wraps. */
    Qdisc qdisc() {
        return qdisc;
    }

    @Override
    public void push(int inPort, Buffer buffer) {
        Buffer dropped = qdisc.enqueue(buffer, context.nowPicos());
        if (dropped != null) {
            drop(dropped, qdisc.lastDropReason());
            if (dropped == buffer) {
                return;
            }
        }
        enqueued.increment();
        out.ready();
    }

    /**
     * Enqueues a burst, then signals the device once: the device runs the qdisc once for the whole burst, as
     * {@code __qdisc_run} does when a softirq hands several packets to {@code dev_queue_xmit} before the qdisc runs.
     */
    @Override
    public void pushBatch(int inPort, Buffer[] buffers, int offset, int count) {
        boolean queued = false;
        long now = context.nowPicos();
        for (int i = offset, end = offset + count; i < end; i++) {
            Buffer buffer = buffers[i];
            Buffer dropped = qdisc.enqueue(buffer, now);
            if (dropped != null) {
                drop(dropped, qdisc.lastDropReason());
                if (dropped == buffer) {
                    continue;
                }
            }
            enqueued.increment();
            queued = true;
        }
        if (queued) {
            out.ready();
        }
    }

    @Override
    public Buffer pull(int outPort) {
        Buffer buffer = qdisc.dequeue(context.nowPicos());
        if (buffer != null) {
            dequeued.increment();
            sentBytes.add(buffer.length());
            sentPackets.add(buffer.segments());
        }
        return buffer;
    }

    @Override
    public void forEachHeld(BufferVisitor visitor) {
        qdisc.forEachQueued(visitor);
    }

    private void drop(Buffer buffer, String reason) {
        drops.increment();
        if (handingOver && swapRefusedId < 0) {
            swapRefusedId = context.dropReason(DROP_SWAP_REFUSED);
        }
        context.drop(CORE, buffer, handingOver ? swapRefusedId : reasonId(reason));
    }

    // ------------------------------------------------------------------ hot swap

    @Override
    public boolean exportState(ElementState out) {
        List<Buffer> queued = new ArrayList<>(qdisc.backlogPackets());
        qdisc.forEachQueued(queued::add);
        queued.sort(Comparator.comparingLong(Buffer::enqueuedPicos)); // stable: each FIFO keeps its order
        out.put(PACKETS, queued.toArray(Buffer[]::new));
        out.put(REQUEUES, requeuesBefore + qdisc.stats().requeues);
        if (kind != null && qdisc instanceof QdiscState state) {
            state.exportState(out, kind);
        }
        return true;
    }

    @Override
    public boolean importState(ElementState in) {
        Buffer[] packets = in.get(PACKETS, Buffer[].class);
        if (packets == null) {
            return false; // not a qdisc element's state
        }
        long requeues = in.getLong(REQUEUES, 0);
        boolean exact = kind != null && kind.equals(in.fromType()) && qdisc instanceof QdiscState state
                && state.importState(in, kind);
        if (!exact) {
            long now = context.nowPicos();
            handingOver = true;
            try {
                for (Buffer b : packets) {
                    long enqueuedAt = b.enqueuedPicos();
                    Buffer dropped = qdisc.enqueue(b, now);
                    if (dropped != null) {
                        drop(dropped, qdisc.lastDropReason());
                        if (dropped == b) {
                            continue;
                        }
                    }
                    b.enqueuedPicos(enqueuedAt); // the sojourn counts from the first enqueue
                }
            } finally {
                handingOver = false;
            }
        }
        requeuesBefore = requeues - qdisc.stats().requeues;
        return true;
    }

    private int reasonId(String reason) {
        for (int i = 0; i < reasons.length; i++) {
            if (reasons[i] == reason) {
                return reasonIds[i];
            }
        }
        for (int i = 0; i < reasons.length; i++) {
            if (reasons[i].equals(reason)) {
                return reasonIds[i];
            }
        }
        context.fail("dropReason=" + reason + ", not declared for this qdisc element; declared " + Arrays.toString(reasons));
        return reasonIds[0];
    }
}

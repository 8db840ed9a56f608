package io.ringlab.driver.netdev;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferDestructor;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.driver.api.DriverState;
import io.ringlab.driver.api.DriverSupport;
import io.ringlab.queue.api.QueueLimits;
import io.ringlab.queue.api.QueueLimitsProvider;
import io.ringlab.queue.api.TxQueue;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementState;
import io.ringlab.sim.api.Handover;
import io.ringlab.sim.api.InputPort;
import io.ringlab.sim.api.Metrics;
import io.ringlab.sim.api.OutputPort;

/**
 * The reference NIC. {@link #ready} from the qdisc is {@code netif_schedule}: the device runs the qdisc
 * ({@code qdisc_restart} in a loop) while its TX queue is not stopped, moving frames into its queue and accounting them
 * with {@code netdev_tx_sent_queue}. When the queue fills, the driver stops it ({@code netif_stop_queue}); when BQL's
 * limit is reached, BQL stops it. The link pulls frames when the wire is idle; each pull completes that frame: the skb is
 * orphaned ({@code skb_orphan}: its destructor, TCP Small Queues' {@code tcp_wfree}, runs now) and goes on to the link,
 * then {@code netdev_tx_completed_queue}, which may wake the queue and re-run the qdisc.
 * <p>
 * <b>GSO</b>: the device has no TSO, so a buffer of several segments (a GSO skb) is segmented in software when it leaves
 * the qdisc ({@code validate_xmit_skb} → {@code skb_gso_segment}, {@link ElementContext#segment}) into buffers of the
 * element's pool {@code <element>.gso}; the GSO skb is freed and each segment takes its own ring slot and its own BQL
 * accounting. Segments that do not fit before the queue stops wait in a holding list and go first at the next qdisc run
 * ({@code dev_requeue_skb} of the rest of the segment list). If the pool cannot supply the segments the GSO skb is dropped
 * ({@code gso-segment-failed}).
 * <p>
 * <b>Hot swap</b> ({@link Handover}): the successor takes the frames in the queue in order, the segments waiting in the
 * holding list, and the TX queue itself (stop bits and BQL state: limit, in-flight bytes, history), so BQL goes on exactly
 * where it was. A successor configured with BQL the other way round keeps its own queue and accounts the frames it took
 * over as sent ({@code netdev_tx_sent_queue}), so their completions balance. Reads only another {@code netdev}'s state.
 * <p>
 * Metrics: counters {@code txPackets}, {@code txBytes}; gauges {@code ringUsed} (frames queued), {@code limit} and
 * {@code inflight} (BQL, bytes; 0 when BQL is off), {@code stackStops} (BQL stops), {@code driverStops} (queue full).
 * Engine thread only.
 */
final class NetdevElement implements Element, Handover {
    private final ElementContext ctx;
    private final InputPort in;
    private final OutputPort wire;
    private TxQueue txq;
    private final Buffer[] ring;
    private int head, used;
    private boolean running;
    private final Metrics.Counter txPackets, txBytes;
    /**
     * Segments of one GSO skb: 745 = 65,536 / 88 ({@code TCP_MIN_MSS}) + 1, enough for a 64 KB skb of any MSS (45 at the
     * usual 1448).
     */
    static final int MAX_GSO_SEGS = 65536 / 88 + 1;
    /** The segments of the last GSO skb not yet in the ring ({@code dev_requeue_skb} of the rest of the list). */
    private final Buffer[] held = new Buffer[MAX_GSO_SEGS];
    private int heldHead, heldCount;
    private final BufferPool gsoPool;
    private final int dropGsoFailed;

    NetdevElement(ElementContext ctx) {
        this.ctx = ctx;
        var c = ctx.config();
        this.ring = new Buffer[(int) c.getLong("ring")];
        this.in = ctx.input("in");
        this.wire = ctx.output("wire");
        // segments live in the ring or the holding list: ring + one GSO skb's worth
        this.gsoPool = ctx.pool("fixed", "gso", ring.length + MAX_GSO_SEGS, 9018, java.util.Map.of());
        this.dropGsoFailed = ctx.dropReason("gso-segment-failed");
        int hz = (int) c.getLong("hz");
        long holdPicos = c.getPicos("bqlHoldTime");
        // sysfs hold_time goes through msecs_to_jiffies, which rounds up; so does this conversion (60 s * HZ fits a long)
        int holdJiffies = (int) ((holdPicos * hz + 999_999_999_999L) / 1_000_000_000_000L);
        QueueLimitsProvider qlp = ctx.provider(QueueLimitsProvider.class, QueueLimitsProvider.KIND, "dql");
        try {
            this.txq = qlp.createTxQueue(c.getBoolean("bql"), hz, holdJiffies, (int) c.getBytes("bqlMinLimit"),
                    (int) c.getBytes("bqlMaxLimit"), false, this::qdiscRun);
        } catch (IllegalArgumentException e) {
            // the provider names its own arguments; name this element's properties instead
            throw new IllegalArgumentException(e.getMessage().replace("minLimitBytes", "bqlMinLimit")
                    .replace("maxLimitBytes", "bqlMaxLimit").replace("holdTimeJiffies", "bqlHoldTime (jiffies)"));
        }
        Metrics m = ctx.metrics();
        txPackets = m.counter(NetdevFactory.TX_PACKETS);
        txBytes = m.counter(NetdevFactory.TX_BYTES);
        m.gauge(NetdevFactory.RING_USED, () -> used);
        m.series(NetdevFactory.RING_USED.name);
        DriverSupport.bqlMetrics(m, () -> txq);
    }

    @Override
    public void ready(int inPort) {
        qdiscRun();
    }

    /** {@code __qdisc_run}: hand frames from the qdisc to the device while the queue is not stopped. */
    private void qdiscRun() {
        if (running) {
            return; // __QDISC_STATE_RUNNING: one qdisc runner at a time
        }
        running = true;
        boolean sent = false;
        long now = ctx.nowPicos();
        while (!txq.stopped()) {
            Buffer b;
            if (heldCount > 0) {
                b = held[heldHead];
                held[heldHead++] = null;
                if (--heldCount == 0) {
                    heldHead = 0;
                }
            } else {
                b = in.pull();
                if (b == null) {
                    break;
                }
                if (b.segments() > 1) { // validate_xmit_skb: no NETIF_F_TSO, so skb_gso_segment
                    int n = ctx.segment(b, gsoPool, held);
                    if (n == 0) {
                        ctx.drop(0, b, dropGsoFailed);
                    } else {
                        b.pool().free(0, b); // consume_skb of the GSO skb; its segments carry the packets on
                        heldHead = 0;
                        heldCount = n;
                    }
                    continue;
                }
            }
            int tail = head + used++;
            ring[tail < ring.length ? tail : tail - ring.length] = b; // the ring keeps its configured size: no mask
            txq.sent(b.length(), now);
            sent = true;
            if (used == ring.length) {
                txq.stopByDriver();
            }
        }
        running = false;
        if (sent) {
            wire.ready();
        }
    }

    @Override
    public Buffer pull(int outPort) {
        if (used == 0) {
            return null;
        }
        Buffer b = ring[head];
        ring[head] = null;
        if (++head == ring.length) {
            head = 0;
        }
        used--;
        txPackets.increment();
        txBytes.add(b.length());
        // TX completion as the frame leaves: skb_orphan runs the skb's destructor now (TSQ's tcp_wfree), and the same
        // buffer goes on to the link, which frees it at the far end
        BufferDestructor destructor = b.destructor();
        if (destructor != null) {
            b.destructor(null);
            destructor.destroyed(b);
        }
        long now = ctx.nowPicos();
        txq.completed(1, b.length(), now);
        if (txq.driverStopped()) {
            txq.wakeByDriver();
        }
        return b;
    }

    @Override
    public void forEachHeld(BufferVisitor visitor) {
        for (int i = 0; i < used; i++) {
            visitor.visit(ring[(head + i) % ring.length]);
        }
        for (int i = 0; i < heldCount; i++) {
            visitor.visit(held[heldHead + i]);
        }
    }

    @Override
    public boolean exportState(ElementState out) {
        Buffer[] frames = new Buffer[used];
        for (int i = 0; i < used; i++) {
            frames[i] = ring[(head + i) % ring.length];
        }
        Buffer[] segs = new Buffer[heldCount];
        System.arraycopy(held, heldHead, segs, 0, heldCount);
        out.put("netdev.ring", frames);
        out.put("netdev.held", segs);
        out.put(DriverState.TX_QUEUE, txq);
        return true;
    }

    @Override
    public boolean importState(ElementState in) {
        if (!in.fromType().equals("netdev")) {
            return false;
        }
        Buffer[] frames = in.get("netdev.ring", Buffer[].class);
        Buffer[] segs = in.get("netdev.held", Buffer[].class);
        if (frames.length > ring.length || segs.length > held.length) {
            return false; // a smaller ring cannot take the queue over: drain instead
        }
        TxQueue old = in.get(DriverState.TX_QUEUE, TxQueue.class);
        boolean adopt = (old.limits() != null) == (txq.limits() != null);
        if (adopt) {
            try {
                old.listener(this::qdiscRun);
                txq = old;
            } catch (UnsupportedOperationException e) {
                adopt = false;
            }
        }
        long now = ctx.nowPicos();
        for (Buffer b : frames) {
            ring[(head + used++) % ring.length] = b;
            if (!adopt) {
                txq.sent(b.length(), now);
            }
        }
        if (!adopt && used == ring.length) {
            txq.stopByDriver();
        }
        System.arraycopy(segs, 0, held, 0, segs.length);
        heldHead = 0;
        heldCount = segs.length;
        if (!txq.stopped()) {
            qdiscRun(); // a queue that was running goes on: the qdisc may hold frames
        }
        return true;
    }

    /** @return the TX queue, for tests. */
    TxQueue txQueue() {
        return txq;
    }

    /** @return BQL state or null. */
    QueueLimits limits() {
        return txq.limits();
    }
}

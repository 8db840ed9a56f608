package io.ringlab.driver.stmmac;

import java.util.Map;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.driver.api.DescriptorRing;
import io.ringlab.driver.api.DriverState;
import io.ringlab.driver.api.DriverSupport;
import io.ringlab.driver.api.Napi;
import io.ringlab.driver.api.NicDriver;
import io.ringlab.driver.api.QdiscRun;
import io.ringlab.driver.api.SendRing;
import io.ringlab.driver.api.StartXmit;
import io.ringlab.queue.api.QueueLimitsProvider;
import io.ringlab.queue.api.TxQueue;
import io.ringlab.sim.api.Configuration;
import io.ringlab.sim.api.Core;
import io.ringlab.sim.api.CpuTask;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementState;
import io.ringlab.sim.api.Handover;
import io.ringlab.sim.api.InputPort;
import io.ringlab.sim.api.Metrics;
import io.ringlab.sim.api.OutputPort;
import io.ringlab.sim.api.Timer;

/**
 * The stmmac driver of v3.18/3.19 ({@code drivers/net/ethernet/stmicro/stmmac/stmmac_main.c}) with the BQL patch
 * ("net: stmmac: add BQL support", B. Galvani, Dec 2014), on one core.
 * <p>
 * <b>Transmit</b> ({@code stmmac_xmit}): the SDK's qdisc run ({@link QdiscRun}: on the sending core, 64 skbs a run,
 * then NET_TX_SOFTIRQ) hands frames over while the queue is not stopped. A frame that finds fewer than
 * {@code MAX_SKB_FRAGS + 1} free descriptors stops the queue and is refused ({@code NETDEV_TX_BUSY}, requeued). Each
 * frame takes {@code 1 + nr_frags} descriptors; {@code tx_count_frames} counts
 * them, and the frame gets the IC bit (a TX-complete interrupt) only when the count reaches {@code txCoalFrames},
 * otherwise the TX timer is re-armed ({@code mod_timer}, so under steady traffic it never fires). After posting, the queue
 * is stopped when {@code stmmac_tx_avail() <= MAX_SKB_FRAGS + 1}; BQL accounts the frame ({@code netdev_sent_queue})
 * and the DMA is kicked.
 * <p>
 * <b>GSO</b>: this MAC has no TSO, so a buffer of several segments (a GSO skb) is segmented in software as it leaves the
 * qdisc ({@code validate_xmit_skb} → {@code skb_gso_segment}, {@code ElementContext.segment}) into buffers of the driver's
 * pool {@code <element>.gso}, and the GSO skb is freed. Each segment then goes through {@code stmmac_xmit} as its own
 * frame: the stop check, {@code txCycles}, {@code 1 + nr_frags} descriptors counted in {@code tx_count_frames}, and BQL
 * with its own {@code skb->len}. Segments left when the queue stops wait in a holding list and go first at the next run
 * ({@code dev_requeue_skb} of the rest of the list); they are part of {@link #forEachHeld}. The {@code dev_tx_weight}
 * quota counts skbs taken from the qdisc, as {@code __qdisc_run} of v3.18 counts {@code qdisc_restart} calls. When the
 * pool cannot supply the segments the GSO skb is dropped ({@code gso-segment-failed}).
 * <p>
 * <b>DMA and wire</b>: the link pulls the next posted frame when the wire is idle; the driver hands it a copy (the bits on
 * the wire) and keeps the skb in its ring until {@code stmmac_tx_clean} frees it, which runs the skb's destructor (TCP
 * Small Queues' {@code tcp_wfree}). A frame with the IC bit raises the interrupt when the DMA takes it.
 * <p>
 * <b>Interrupts and NAPI</b> ({@code stmmac_dma_interrupt}, {@code stmmac_poll}): an interrupt masks the DMA interrupt and
 * schedules NAPI; the poll cleans the TX ring first (no budget), then receives up to the weight; below the weight it
 * completes and unmasks, and a status latched meanwhile (RI, an IC frame taken) interrupts again at once. Every RX
 * interrupt comes from the RIWT watchdog (use_riwt disables the interrupt in every RX descriptor): {@code riwt * 256}
 * cycles of the stmmaceth clock (the profile's {@code stmmac.csrClockHz}, clk81 on the S805) after the first frame since
 * RI was last set, or after the last frame with {@code riwtRestart = frame} (docs/models/stmmac.md).
 * <p>
 * <b>Receive</b> ({@code stmmac_rx}): a frame arriving from the reverse link is DMA'd into the RX buffer of the next
 * descriptor (the wire copy is freed); with every descriptor full the frame is dropped ({@code rx-ring-full}). The poll
 * hands received buffers up the stack and refills each descriptor with a new buffer ({@code netdev_alloc_skb_ip_align}).
 * <p>
 * <b>Completion</b> ({@code stmmac_tx_clean}, from the poll or the TX timer): frees transmitted skbs, reports them to BQL
 * ({@code netdev_completed_queue}), and wakes the queue above {@code txRing / 4} free descriptors (STMMAC_TX_THRESH).
 * <p>
 * <b>CPU</b>: one constant per transmitted frame and one per received frame, from the cost profile ({@code amlogic-s805}
 * fits them to the seed's 600 / 650 Mbit/s), charged where the kernel does the work: the qdisc run and the poll.
 * <p>
 * <b>Hot swap</b> ({@link Handover}): a successor on the same core with the same ring sizes takes over the TX ring with
 * its skbs and IC bits, the frame count toward the next IC bit, the segments not yet posted, the TX queue itself (stop
 * bits and BQL: limit, in-flight bytes, history), the RX descriptors with their buffers and received frames, the
 * interrupt mask and pending TX status, the armed TX-coalescing and RIWT timers and the pending work (the qdisc run,
 * the interrupt, the timer clean, the NAPI context with its counts and a scheduled poll), each in the place the
 * predecessor's held. Reads only another {@code stmmac}'s state.
 * <p>
 * Not modelled: TSO (this MAC had none), the cost of the segmentation itself (inside {@code txCycles}), scatter-gather
 * fragments beyond {@code Buffer.fragments()}, jumbo frames, the TX timeout watchdog, per-descriptor DMA and cache
 * costs (inside the fitted constants). Engine thread only.
 */
final class StmmacElement implements NicDriver, Handover, StartXmit {
    /** MAX_SKB_FRAGS with 4 KB pages: 65536 / 4096 + 1 ({@code include/linux/skbuff.h}). */
    static final int MAX_SKB_FRAGS = 17;
    /** Current kernels' TX ring, coalescing and RIWT ({@code common.h} DMA_DEFAULT_TX_SIZE, STMMAC_TX_FRAMES 25,
     * STMMAC_COAL_TX_TIMER 1000 us, DEF_DMA_RIWT 0xa0). */
    private static final int CURRENT_RING = 512, CURRENT_COAL_FRAMES = 25, CURRENT_RIWT = 0xa0;
    private static final long CURRENT_COAL_TIMER_PICOS = 1_000_000_000L;

    private final ElementContext ctx;
    private final int self;
    private final InputPort in;
    private final OutputPort wire;
    private final OutputPort stack;
    private final Core core;
    private final int coreIndex;
    private final Napi napi;
    private TxQueue txq;
    private final boolean current;
    private final long txCycles, rxCycles;
    private final int txCoalFrames;
    private final long txCoalTimerPicos;
    private final long riwtPicos;
    /** Whether every frame received with its interrupt disabled reloads the RIWT count (the databook's wording). */
    private final boolean riwtRestartPerFrame;

    // TX ring: frames in order, from the oldest not yet cleaned; 'done' of them have been taken by the DMA
    private final int txRing;
    private SendRing ring;
    /** Per slot of {@link #ring}: whether the frame there carries the IC bit. */
    private final boolean[] txIc;
    private int txCountFrames;

    // RX ring: rxFilled buffers from rxHead carry received frames; the other slots wait for frames (or a refill)
    private final int rxRing;
    private final Buffer[] rxBuf;
    private final DescriptorRing rxView;
    private int rxHead, rxFilled;
    /**
     * Slots without a buffer (an allocation failed), all in the part of the ring that waits for frames, since a frame is
     * never received into one. Issue 21: the refill walked the 256 slots of that part on every poll to find them, 8.6 %
     * of stmmac-bql-100m's CPU, while they are almost always none; it now walks only while some are left to try.
     */
    private int rxEmptySlots;
    private final BufferPool rxPool;

    /**
     * Segments of one GSO skb: 745 = 65,536 / 88 ({@code TCP_MIN_MSS}) + 1, enough for a 64 KB skb of any MSS (45 at the
     * usual 1448).
     */
    static final int MAX_GSO_SEGS = 65536 / 88 + 1;
    /** The qdisc run; its segments are what the qdisc hands over, GSO skbs split in software, not yet posted. */
    private final QdiscRun txRun;
    private final BufferPool gsoPool;

    private boolean irqMasked;
    private boolean txStatusPending;
    /** DMA_STATUS RI: set by the watchdog running out (or by every frame with riwt = 0), cleared by the interrupt handler. */
    private boolean riLatched;

    private final Timer txTimer, riwtTimer;
    private final CpuTask irqTask, timerCleanTask;
    private final int dropRxFull, dropNoStack;
    private final Metrics.Counter txPackets, txBytes, rxPackets, rxBytes, rxRingFull, txIrqs, rxIrqs, txTimerCleans,
            rxRefillFailures, txDescriptors, txCleanedPackets, txCleans;

    StmmacElement(ElementContext ctx) {
        this.ctx = ctx;
        this.self = ctx.index();
        Configuration c = ctx.config();
        this.current = c.getString("preset").equals("current");
        this.txRing = intOr(c, "txRing", CURRENT_RING);
        this.rxRing = intOr(c, "rxRing", CURRENT_RING);
        this.txCoalFrames = intOr(c, "txCoalFrames", CURRENT_COAL_FRAMES);
        this.txCoalTimerPicos = current && !c.isSet("txCoalTimer") ? CURRENT_COAL_TIMER_PICOS : c.getPicos("txCoalTimer");
        int riwt = intOr(c, "riwt", CURRENT_RIWT);
        long csr = c.getLong("csrClockHz");
        if (csr >= 0 && csr < 1_000_000) {
            throw new IllegalArgumentException("stmmac: csrClockHz = " + csr + " is not allowed: -1 (the profile's"
                    + " stmmac.csrClockHz) or 1000000 to 1000000000 Hz");
        }
        if (csr < 0) {
            csr = (long) ctx.costProfile().value("stmmac.csrClockHz", -1);
            if (csr <= 0) {
                throw new IllegalArgumentException("stmmac: csrClockHz is -1 (take the profile's) but profile '"
                        + ctx.costProfile().name() + "' has no stmmac.csrClockHz; set csrClockHz (1000000 to"
                        + " 1000000000 Hz, the MAC's stmmaceth clock) or add the constant to the profile");
            }
        }
        // stmmac_riwt2usec: riwt * 256 cycles of the stmmaceth clock (clk_get_rate(priv->stmmac_clk))
        this.riwtPicos = riwt * 256L * 1_000_000_000_000L / csr;
        this.riwtRestartPerFrame = c.getString("riwtRestart").equals("frame");
        this.coreIndex = (int) c.getLong("core");
        this.core = ctx.core(coreIndex);
        long tx = c.getLong("txCycles");
        long rx = c.getLong("rxCycles");
        this.txCycles = tx >= 0 ? tx : (long) ctx.costProfile().value("stmmac.txFrameCycles", 0);
        this.rxCycles = rx >= 0 ? rx : (long) ctx.costProfile().value("stmmac.rxFrameCycles", 0);
        if (txRing <= MAX_SKB_FRAGS + 1) {
            throw new IllegalArgumentException("txRing=" + txRing + " must exceed MAX_SKB_FRAGS + 1 = " + (MAX_SKB_FRAGS + 1));
        }
        this.in = ctx.input("in");
        this.wire = ctx.output("wire");
        this.stack = ctx.output("stack");

        txIc = new boolean[txRing];
        rxBuf = new Buffer[rxRing];
        rxPool = ctx.pool("fixed", "rx", rxRing * 2, 1536, Map.of());
        BufferPool wirePool = ctx.pool("fixed", "wire", 16384, 1536, Map.of());
        // segments live in the TX ring (at most one per descriptor) or the holding list
        gsoPool = ctx.pool("fixed", "gso", txRing + MAX_GSO_SEGS, 1536, Map.of());

        int hz = (int) c.getLong("hz");
        QueueLimitsProvider qlp = ctx.provider(QueueLimitsProvider.class, QueueLimitsProvider.KIND, "dql");
        // dql_init(&queue->dql, HZ): a hold time of one second; current kernels' dql_reset restores min_limit
        DriverSupport support = ctx.provider(DriverSupport.class, DriverSupport.KIND, DriverSupport.LINUX);
        this.txRun = support.qdiscRun(ctx, coreIndex, in, gsoPool, this);
        this.txq = qlp.createTxQueue(c.getBoolean("bql"), hz, hz, 0, 1_879_048_192, current, txRun::schedule);
        this.rxView = support.receiveRing(rxBuf, () -> rxFilled);
        this.napi = support.napi(ctx, coreIndex, (int) c.getLong("napiWeight"), 0, this);
        this.ring = support.sendRing(ctx, coreIndex, txRing, wirePool);

        Metrics counters = ctx.metrics();
        txPackets = counters.counter(StmmacFactory.TX_PACKETS);
        txBytes = counters.counter(StmmacFactory.TX_BYTES);
        rxPackets = counters.counter(StmmacFactory.RX_PACKETS);
        rxBytes = counters.counter(StmmacFactory.RX_BYTES);
        rxRingFull = counters.counter(StmmacFactory.RX_RING_FULL_DROPS);
        txIrqs = counters.counter(StmmacFactory.TX_IRQS);
        rxIrqs = counters.counter(StmmacFactory.RX_IRQS);
        txTimerCleans = counters.counter(StmmacFactory.TX_TIMER_CLEANS);
        rxRefillFailures = counters.counter(StmmacFactory.RX_REFILL_FAILURES);
        txDescriptors = counters.counter(StmmacFactory.TX_DESCRIPTORS);
        txCleanedPackets = counters.counter(StmmacFactory.TX_CLEANED_PACKETS);
        txCleans = counters.counter(StmmacFactory.TX_CLEANS);
        irqTask = cpu -> {
            irqMasked = true; // stmmac_dma_interrupt: disable the DMA interrupt, then __napi_schedule
            riLatched = false; // the handler writes the status back (DMA_STATUS), clearing RI
            napi.schedule();
        };
        timerCleanTask = cpu -> {
            txTimerCleans.increment();
            txClean();
        };
        txTimer = ctx.timer(now -> core.submit(Core.SOFTIRQ, timerCleanTask));
        riwtTimer = ctx.timer(now -> {
            rxIrqs.increment(); // the watchdog ran out: RI is set and the timer stops
            riLatched = true;
            raiseIrq();
        });
        dropRxFull = ctx.dropReason("rx-ring-full");
        dropNoStack = ctx.dropReason("rx-no-stack");

        Metrics m = ctx.metrics();
        m.gauge(StmmacFactory.NAPI_POLLS, napi::polls);
        m.gauge(StmmacFactory.TX_DESC_USED, () -> ring.used());
        m.gauge(StmmacFactory.TX_FRAMES_QUEUED, () -> ring.queued() - ring.sent());
        m.rate(StmmacFactory.TX_MBIT_PER_SECOND, txBytes, 8e-6);
        m.rate(StmmacFactory.RX_MBIT_PER_SECOND, rxBytes, 8e-6);
        m.series(StmmacFactory.TX_DESC_USED.name);
        DriverSupport.bqlMetrics(m, () -> txq);
    }

    private static int intOr(Configuration c, String name, int currentValue) {
        return c.getString("preset").equals("current") && !c.isSet(name) ? currentValue : (int) c.getLong(name);
    }

    @Override
    public void start() {
        // init_dma_desc_rings: fill the RX ring, reset the TX ring and BQL (netdev_reset_queue)
        for (int i = 0; i < rxRing; i++) {
            rxBuf[i] = rxPool.alloc(coreIndex, self);
            if (rxBuf[i] == null) {
                rxEmptySlots++;
            }
        }
        txq.reset(ctx.nowPicos());
    }

    // ------------------------------------------------------------------ hot swap

    @Override
    public boolean exportState(ElementState out) {
        out.put(DriverState.TX_RING, ring);
        out.put(DriverState.TX_SEGMENTS, txRun.segments());
        out.put(DriverState.QDISC_RUN, txRun);
        out.put(DriverState.TX_QUEUE, txq);
        out.put(DriverState.NAPI, napi);
        out.put(DriverState.NAPI_SCHEDULED, napi.scheduled());
        out.put("stmmac.core", coreIndex);
        out.put("stmmac.txIc", txIc.clone());
        out.put("stmmac.txCountFrames", txCountFrames);
        out.put("stmmac.rxBuf", rxBuf.clone());
        out.put("stmmac.rxHead", rxHead);
        out.put("stmmac.rxFilled", rxFilled);
        out.put("stmmac.irqMasked", irqMasked);
        out.put("stmmac.txStatusPending", txStatusPending);
        out.put("stmmac.riLatched", riLatched);
        out.put("stmmac.txTimer", txTimer);
        out.put("stmmac.riwtTimer", riwtTimer);
        out.putTask("stmmac.irqTask", irqTask);
        out.putTask("stmmac.timerCleanTask", timerCleanTask);
        return true;
    }

    @Override
    public boolean importState(ElementState in) {
        if (!in.fromType().equals("stmmac")) {
            return false;
        }
        SendRing oldRing = in.get(DriverState.TX_RING, SendRing.class);
        Buffer[] oldRx = in.get("stmmac.rxBuf", Buffer[].class);
        TxQueue oldTxq = in.get(DriverState.TX_QUEUE, TxQueue.class);
        QdiscRun oldRun = in.get(DriverState.QDISC_RUN, QdiscRun.class);
        if (oldRun == null || oldRing.size() != txRing || oldRx.length != rxRing
                || (oldTxq.limits() != null) != (txq.limits() != null)
                || in.getInt("stmmac.core", -1) != coreIndex) {
            return false; // no qdisc run, other ring sizes, BQL the other way round, or another core: drain and start afresh
        }
        try {
            oldTxq.listener(txRun::schedule);
        } catch (UnsupportedOperationException e) {
            return false;
        }
        txq = oldTxq;
        ring = oldRing;
        txRun.takeOver(oldRun); // the segments not yet posted, a pending run in its place
        System.arraycopy(in.get("stmmac.txIc", boolean[].class), 0, txIc, 0, txRing);
        txCountFrames = in.getInt("stmmac.txCountFrames", 0);
        System.arraycopy(oldRx, 0, rxBuf, 0, rxRing);
        rxHead = in.getInt("stmmac.rxHead", 0);
        rxFilled = in.getInt("stmmac.rxFilled", 0);
        rxEmptySlots = 0;
        for (Buffer b : rxBuf) {
            if (b == null) {
                rxEmptySlots++;
            }
        }
        irqMasked = in.getBoolean("stmmac.irqMasked", false);
        txStatusPending = in.getBoolean("stmmac.txStatusPending", false);
        riLatched = in.getBoolean("stmmac.riLatched", false);
        txTimer.takeOver(in.get("stmmac.txTimer", Timer.class));
        riwtTimer.takeOver(in.get("stmmac.riwtTimer", Timer.class));
        napi.takeOver(in.get(DriverState.NAPI, Napi.class));
        in.requeue("stmmac.irqTask", irqTask);
        in.requeue("stmmac.timerCleanTask", timerCleanTask);
        return true;
    }

    // ------------------------------------------------------------------ transmit

    /** {@code stmmac_tx_avail}: free descriptors, one kept empty to tell a full ring from an empty one. */
    private int txAvail() {
        return txRing - ring.used() - 1;
    }

    /** The qdisc has packets: {@code dev_queue_xmit} runs the qdisc on the sending core ({@link QdiscRun}). */
    @Override
    public void ready(int inPort) {
        txRun.ready();
    }

    /** {@code netif_xmit_frozen_or_stopped}: the driver's stop bit or BQL's. */
    @Override
    public boolean stopped() {
        return txq.stopped();
    }

    /** {@code stmmac_xmit} for one frame, on the core the qdisc runs on. */
    @Override
    public int startXmit(Core c, Buffer skb) {
        if (txAvail() < MAX_SKB_FRAGS + 1) {
            txq.stopByDriver(); // the NETDEV_TX_BUSY guard at the top of stmmac_xmit: the frame is requeued
            return NETDEV_TX_BUSY;
        }
        c.charge(self, txCycles, 1);
        int descs = 1 + skb.fragments();
        int slot = ring.post(skb, descs);
        txCountFrames += descs;
        txDescriptors.add(descs);
        if (txCoalFrames > txCountFrames) {
            txIc[slot] = false;
            txTimer.after(txCoalTimerPicos); // mod_timer: re-armed on every transmit
        } else {
            txCountFrames = 0;
            txIc[slot] = true;
        }
        if (txAvail() <= MAX_SKB_FRAGS + 1) {
            txq.stopByDriver();
        }
        txq.sent(skb.length(), ctx.nowPicos()); // [BQL patch] netdev_sent_queue, before the DMA kick
        return NETDEV_TX_OK;
    }

    /** {@code enable_dma_transmission}, once a run has posted frames. */
    @Override
    public void kick(Core c) {
        wire.ready();
    }

    /** The MAC's DMA takes the next posted frame when the wire is idle; the wire gets a copy, the skb stays until cleaned. */
    @Override
    public Buffer pull(int outPort) {
        Buffer bits = ring.toWire(); // the packet travels on the wire; the skb waits in the ring for its TX clean
        if (bits == null) {
            return null;
        }
        txPackets.increment();
        txBytes.add(bits.length());
        if (txIc[ring.lastSent()]) {
            txIrqs.increment();
            txStatusPending = true;
            raiseIrq();
        }
        return bits;
    }

    /** {@code stmmac_tx_clean}: free what the DMA has sent, tell BQL, wake the queue above a quarter of the ring. */
    private void txClean() {
        int pkts = 0;
        int bytes = 0;
        for (Buffer skb = ring.clean(); skb != null; skb = ring.clean()) {
            bytes += skb.length();
            pkts++;
            skb.pool().free(coreIndex, skb); // dev_kfree_skb: the skb's destructor (tcp_wfree) runs here
        }
        txStatusPending = false;
        txCleans.increment();
        txCleanedPackets.add(pkts);
        if (pkts > 0) {
            txq.completed(pkts, bytes, ctx.nowPicos()); // [BQL patch] netdev_completed_queue
        }
        if (txq.driverStopped() && txAvail() > txRing / 4) {
            txq.wakeByDriver(); // STMMAC_TX_THRESH
        }
    }

    // ------------------------------------------------------------------ interrupts and NAPI

    /** The DMA raises its interrupt line; while NAPI runs with the interrupt masked, the status waits. */
    private void raiseIrq() {
        if (!irqMasked) {
            core.submit(Core.HARDIRQ, irqTask);
        }
    }

    @Override
    public int poll(int budget) {
        txClean();
        int work = 0;
        while (work < budget && rxFilled > 0) {
            core.charge(self, rxCycles, 1);
            Buffer b = rxBuf[rxHead];
            Buffer fresh = rxPool.alloc(coreIndex, self); // stmmac_rx_refill: netdev_alloc_skb_ip_align
            if (fresh == null) {
                rxRefillFailures.increment();
                rxEmptySlots++;
            }
            rxBuf[rxHead] = fresh;
            if (++rxHead == rxRing) {
                rxHead = 0;
            }
            rxFilled--;
            work++;
            rxPackets.increment();
            rxBytes.add(b.length());
            if (stack.connected()) {
                stack.push(b);
            } else {
                ctx.drop(coreIndex, b, dropNoStack);
            }
        }
        refillEmptySlots();
        if (work < budget) {
            // napi_complete, then re-enable the DMA interrupt; a status raised meanwhile (RI from the watchdog, an IC
            // frame taken) interrupts again at once; frames that came during the poll wait for their watchdog
            irqMasked = false;
            if (riLatched || txStatusPending) {
                core.submit(Core.HARDIRQ, irqTask);
            }
        }
        return work;
    }

    /** Tries once more to give each slot without a buffer one, in ring order from the first slot waiting for a frame. */
    private void refillEmptySlots() {
        int left = rxEmptySlots; // each is tried once, even after a failure (the pool counts every attempt)
        for (int i = rxFilled; i < rxRing && left > 0; i++) {
            int slot = rxHead + i;
            if (slot >= rxRing) {
                slot -= rxRing;
            }
            if (rxBuf[slot] == null) {
                left--;
                rxBuf[slot] = rxPool.alloc(coreIndex, self);
                if (rxBuf[slot] != null) {
                    rxEmptySlots--;
                }
            }
        }
    }

    // ------------------------------------------------------------------ receive

    @Override
    public void push(int inPort, Buffer frame) {
        int slot = rxHead + rxFilled;
        if (slot >= rxRing) {
            slot -= rxRing;
        }
        if (rxFilled == rxRing || rxBuf[slot] == null) {
            rxRingFull.increment();
            ctx.drop(coreIndex, frame, dropRxFull); // no descriptor owned by the DMA: the MAC drops the frame
            return;
        }
        Buffer b = rxBuf[slot];
        ctx.transferPacket(frame, b); // DMA into the descriptor's buffer
        frame.pool().free(coreIndex, frame);
        rxFilled++;
        if (riwtPicos == 0) {
            rxIrqs.increment(); // no watchdog: RI with every frame
            riLatched = true;
            raiseIrq();
        } else if (!riLatched && (riwtRestartPerFrame || !riwtTimer.pending())) {
            // every descriptor has its interrupt disabled (use_riwt: RDES1[31]); the watchdog "gets triggered with the
            // programmed value after the Rx DMA completes the transfer of a frame" whose RI is not set, so each frame
            // reloads it (riwtRestart = frame) or only the first one starts it (first, the default: docs/models/stmmac.md);
            // with RI already set and not yet cleared the interrupt is asked for, and no watchdog is needed
            riwtTimer.after(riwtPicos);
        }
    }

    @Override
    public void forEachHeld(BufferVisitor visitor) {
        ring.forEachHeld(visitor);
        rxView.forEachHeld(visitor);
        txRun.segments().forEachHeld(visitor);
    }

    @Override
    public DescriptorRing txRing() {
        return ring;
    }

    @Override
    public DescriptorRing rxRing() {
        return rxView;
    }
}

package com.example.minimal;

import static io.ringlab.sim.api.dto.MetricDescriptorDTO.COUNTER;
import static io.ringlab.sim.api.dto.MetricDescriptorDTO.GAUGE;
import static io.ringlab.sim.api.dto.MetricDescriptorDTO.RATE;

import java.util.List;
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
import io.ringlab.sim.api.dto.MetricDescriptorDTO;

/**
 * The SDK's sample NIC (docs/writing-a-driver.md): one TX queue and one RX queue on one core.
 * <p>
 * <b>Transmit.</b> The qdisc's {@code ready} starts the SDK's qdisc run ({@link QdiscRun}: {@code __qdisc_run} on the
 * sending core, {@code DriverSupport.DEV_TX_WEIGHT} skbs a run, then NET_TX_SOFTIRQ), which takes packets while the TX
 * queue is not stopped, splits GSO skbs in software and hands each to this driver ({@link StartXmit}), which posts it to
 * the TX descriptor ring ({@link SendRing}, one descriptor per skb), accounts it to BQL
 * ({@code netdev_tx_sent_queue}) and stops the queue when the ring is full. The link pulls when its wire is idle: the NIC's
 * DMA hands it a copy, the skb stays in the ring, and the completion raises the interrupt.
 * <p>
 * <b>Completion.</b> The NAPI poll cleans every sent skb first, freeing it with {@code napi_consume_skb} ({@code bulkFree}:
 * deferred into the per-CPU cache of the skb's pool and freed in bulk) or {@code dev_kfree_skb}, tells BQL
 * ({@code netdev_tx_completed_queue}, which may wake the queue) and wakes a queue the driver stopped once a quarter of the
 * ring is free.
 * <p>
 * <b>Receive.</b> {@code rxRing} descriptors are posted with skbs from pool kind {@code skb}. A frame from the link takes
 * the next posted descriptor (a DMA into the skb, {@link ElementContext#transferPacket}) and raises the interrupt, or is
 * dropped by the NIC ({@code rx-no-buffer}) when none is posted. The poll hands up to the budget of received skbs to the
 * {@code stack} port, charging {@code rxCycles} each, then posts fresh skbs; under budget it completes and re-arms the
 * interrupt.
 * <p>
 * <b>Cost.</b> {@code txCycles} per sent packet (default 0, not charged: no figure to take it from) and {@code rxCycles}
 * per received packet (default: the profile's {@code mininic.rxPacketCycles}, else {@link #BORROWED_RX_CYCLES}), plus
 * whatever the pools charge.
 * <p>
 * <b>Hot swap</b> ({@link Handover}): a successor of this type on the same core with the same ring sizes and the same BQL
 * setting takes over the TX queue with its BQL state, the TX ring with its skbs, the segments not yet posted, the RX
 * descriptors with their skbs and received frames, the NAPI context, the interrupt's arming and the pending interrupt
 * and transmit tasks in their places; the RX pool is the same pool again. Otherwise the engine drains and restarts.
 * <p>
 * Metrics: counters {@code txPackets}, {@code txBytes}, {@code txCompletions}, {@code rxPackets}, {@code rxBytes},
 * {@code rxNoBufferDrops}, {@code refillFailures}, {@code irqs}; gauges {@code txQueued} (skbs in the TX ring),
 * {@code limit} and {@code inflight} (BQL, bytes; 0 without BQL), {@code napiPolls}, {@code rxMpps}. Engine thread only.
 */
final class MiniNic implements NicDriver, Handover, StartXmit {
    /** Segments of one GSO skb at most: 65,536 / 88 ({@code TCP_MIN_MSS}) + 1. */
    static final int MAX_GSO_SEGS = 65536 / 88 + 1;
    /**
     * Cycles per received packet when neither the pipeline nor the profile sets them: borrowed from the mlx5 model, whose
     * per-packet RX constant was fitted to seed 002's 12 Mpps baseline on the i7-4790K (docs/models/mlx5.md). This NIC
     * has no measurements of its own; a real model fits its constant to its device's figures and says so here.
     */
    static final long BORROWED_RX_CYCLES = 230;

    // tag::fields[]
    private final ElementContext ctx;
    private final int self; // this element's index: buffers record it as their owner, charges name it
    private final int coreIndex;
    private final Core core;
    private final long txCycles, rxCycles;
    private final boolean bulkFree;

    private final InputPort in;
    private final OutputPort wire, stack;
    private TxQueue txq; // stop bits and BQL state, from the queue-limits provider
    private SendRing txRing; // the engine's TX descriptor ring
    private final QdiscRun txRun; // the SDK's transmit loop, with software GSO in front of the ring

    private final BufferPool rxPool;
    private final Buffer[] rxSlots; // the RX descriptors' skbs
    private final DescriptorRing rxView;
    private int rxHead, rxReady, rxPosted; // first received slot; frames received; skbs posted

    private final Napi napi;
    private final CpuTask irqTask;
    private boolean irqArmed = true;

    private final int dropNoBuffer, dropNoStack;
    private final Metrics.Counter txPackets, txBytes, txCompletions, rxPackets, rxBytes, rxNoBuffer, refillFailures, irqs;
    // end::fields[]

    // tag::metrics[]
    // The metrics, each declared once, with its kind, meaning and, where the name's suffix does not give it, unit:
    // the factory's descriptor lists METRICS and the constructor registers by them.
    static final MetricDescriptorDTO TX_PACKETS = new MetricDescriptorDTO(COUNTER, "txPackets",
            "frames the NIC's DMA handed to the link");
    static final MetricDescriptorDTO TX_BYTES = new MetricDescriptorDTO(COUNTER, "txBytes",
            "their lengths, without FCS");
    static final MetricDescriptorDTO TX_COMPLETIONS = new MetricDescriptorDTO(COUNTER, "txCompletions",
            "sent skbs cleaned from the TX ring and freed");
    static final MetricDescriptorDTO TX_QUEUED = new MetricDescriptorDTO(GAUGE, "txQueued", "skbs in the TX ring now");
    static final MetricDescriptorDTO RX_PACKETS = new MetricDescriptorDTO(COUNTER, "rxPackets",
            "frames handed up the stack");
    static final MetricDescriptorDTO RX_BYTES = new MetricDescriptorDTO(COUNTER, "rxBytes",
            "their lengths, without FCS");
    static final MetricDescriptorDTO RX_MPPS = new MetricDescriptorDTO(RATE, "rxMpps",
            "rxPackets in millions per second of the measured window");
    static final MetricDescriptorDTO RX_NO_BUFFER_DROPS = new MetricDescriptorDTO(COUNTER, "rxNoBufferDrops",
            "frames the NIC dropped for want of a posted RX skb (rx-no-buffer)");
    static final MetricDescriptorDTO REFILL_FAILURES = new MetricDescriptorDTO(COUNTER, "refillFailures",
            "RX refills that found the skb pool empty");
    static final MetricDescriptorDTO IRQS = new MetricDescriptorDTO(COUNTER, "irqs", "interrupts raised");
    static final MetricDescriptorDTO NAPI_POLLS = new MetricDescriptorDTO(GAUGE, "napiPolls", "NAPI polls run");
    /** Every metric the element registers, as {@code ringlab elements} lists them. */
    static final List<MetricDescriptorDTO> METRICS = List.of(TX_PACKETS, TX_BYTES, TX_COMPLETIONS, TX_QUEUED,
            MetricDescriptorDTO.bqlLimit(), MetricDescriptorDTO.bqlInflight(), RX_PACKETS, RX_BYTES, RX_MPPS,
            RX_NO_BUFFER_DROPS, REFILL_FAILURES, IRQS, NAPI_POLLS);
    // end::metrics[]

    // tag::constructor[]
    MiniNic(ElementContext ctx) {
        this.ctx = ctx;
        this.self = ctx.index();
        Configuration c = ctx.config(); // validated against the descriptor: types, units, ranges
        this.coreIndex = (int) c.getLong("core");
        if (coreIndex >= ctx.cores()) {
            throw new IllegalArgumentException("core=" + coreIndex + " cores=" + ctx.cores());
        }
        this.core = ctx.core(coreIndex);
        int txSize = (int) c.getLong("txRing");
        int rxSize = (int) c.getLong("rxRing");
        this.bulkFree = c.getBoolean("bulkFree");
        this.txCycles = c.getLong("txCycles");
        long rx = c.getLong("rxCycles");
        this.rxCycles = rx >= 0 ? rx : (long) ctx.costProfile().value("mininic.rxPacketCycles", BORROWED_RX_CYCLES);

        // every buffer a packet will need, allocated now: the wire's copies, GSO segments, RX skbs
        BufferPool wirePool = ctx.pool("fixed", "wire", txSize + 64, 2048, Map.of());
        BufferPool gsoPool = ctx.pool("fixed", "gso", txSize + MAX_GSO_SEGS, 2048, Map.of());
        this.rxPool = ctx.pool("skb", "rx", 2 * rxSize + 256, 2048, Map.of());

        this.in = ctx.input("in");
        this.wire = ctx.output("wire");
        this.stack = ctx.output("stack");
        DriverSupport support = ctx.provider(DriverSupport.class, DriverSupport.KIND, DriverSupport.LINUX);
        this.txRun = support.qdiscRun(ctx, coreIndex, in, gsoPool, this); // calls stopped, startXmit, kick below
        this.txRing = support.sendRing(ctx, coreIndex, txSize, wirePool);
        this.rxSlots = new Buffer[rxSize];
        this.rxView = support.receiveRing(rxSlots, () -> rxPosted);
        this.napi = support.napi(ctx, coreIndex, (int) c.getLong("napiWeight"), 0, this);

        // the TX queue: BQL as lib/dynamic_queue_limits.c, HZ 250, slack hold time one second (HZ jiffies)
        QueueLimitsProvider dql = ctx.provider(QueueLimitsProvider.class, QueueLimitsProvider.KIND, "dql");
        this.txq = dql.createTxQueue(c.getBoolean("bql"), 250, 250, 0, 1_879_048_192, false, txRun::schedule);

        this.irqTask = cpu -> napi.schedule(); // the interrupt handler: napi_schedule, nothing else
        this.dropNoBuffer = ctx.dropReason("rx-no-buffer");
        this.dropNoStack = ctx.dropReason("rx-no-stack");

        Metrics m = ctx.metrics();
        txPackets = m.counter(TX_PACKETS);
        txBytes = m.counter(TX_BYTES);
        txCompletions = m.counter(TX_COMPLETIONS);
        rxPackets = m.counter(RX_PACKETS);
        rxBytes = m.counter(RX_BYTES);
        rxNoBuffer = m.counter(RX_NO_BUFFER_DROPS);
        refillFailures = m.counter(REFILL_FAILURES);
        irqs = m.counter(IRQS);
        m.gauge(TX_QUEUED, () -> txRing.queued());
        m.gauge(MetricDescriptorDTO.bqlLimit(),
                () -> txq.limits() == null ? 0 : Integer.toUnsignedLong(txq.limits().limit()));
        m.gauge(MetricDescriptorDTO.bqlInflight(),
                () -> txq.limits() == null ? 0 : Integer.toUnsignedLong(txq.limits().inflight()));
        m.gauge(NAPI_POLLS, () -> napi.polls());
        m.rate(RX_MPPS, rxPackets, 1e-6);
        m.series(MetricDescriptorDTO.bqlInflight().name);
        m.series(MetricDescriptorDTO.bqlLimit().name);
    }
    // end::constructor[]

    @Override
    public void start() {
        refill(); // the driver's open: post a skb in every RX descriptor
    }

    // ------------------------------------------------------------------ transmit

    // tag::transmit[]
    /** The qdisc has packets ({@code netif_schedule}): the SDK's qdisc run takes them, on the sending core. */
    @Override
    public void ready(int inPort) {
        txRun.ready();
    }

    /** {@code netif_xmit_frozen_or_stopped}: the run hands over nothing while the driver or BQL has stopped the queue. */
    @Override
    public boolean stopped() {
        return txq.stopped();
    }

    /** {@code ndo_start_xmit}: one skb into the ring, on the core the run executes on. */
    @Override
    public int startXmit(Core c, Buffer skb) {
        c.charge(self, txCycles, 1);
        txRing.post(skb, 1);
        txq.sent(skb.length(), ctx.nowPicos()); // netdev_tx_sent_queue: BQL may stop the queue here
        if (txRing.free() == 0) {
            txq.stopByDriver(); // netif_stop_queue: the ring is full
        }
        return NETDEV_TX_OK;
    }

    /** The doorbell, once per run that posted: the DMA fetches when the wire is idle. */
    @Override
    public void kick(Core c) {
        wire.ready();
    }

    /** The link takes the next frame: the NIC's DMA hands it a copy; the skb waits in the ring for its completion. */
    @Override
    public Buffer pull(int outPort) {
        Buffer frame = txRing.toWire();
        if (frame == null) {
            return null;
        }
        txPackets.increment();
        txBytes.add(frame.length());
        raiseIrq(); // the TX completion event
        return frame;
    }
    // end::transmit[]

    // tag::completion[]
    /** TX completion in the poll: free what the wire has sent, tell BQL, wake a queue the driver stopped. */
    private void cleanTx() {
        int packets = 0;
        int bytes = 0;
        for (Buffer skb = txRing.clean(); skb != null; skb = txRing.clean()) {
            packets++;
            bytes += skb.length();
            if (bulkFree) {
                skb.pool().consume(coreIndex, skb); // napi_consume_skb: deferred, freed in bulk
            } else {
                skb.pool().free(coreIndex, skb); // dev_kfree_skb: at once
            }
        }
        if (packets == 0) {
            return;
        }
        txCompletions.add(packets);
        txq.completed(packets, bytes, ctx.nowPicos()); // netdev_tx_completed_queue: may clear BQL's stop and wake
        if (txq.driverStopped() && txRing.free() >= txRing.size() / 4) {
            txq.wakeByDriver(); // netif_wake_queue: the listener, txRun.schedule, runs the qdisc again (NET_TX_SOFTIRQ)
        }
    }
    // end::completion[]

    // ------------------------------------------------------------------ receive

    // tag::receive[]
    /** A frame from the link: the DMA writes it into the next posted skb, or the NIC drops it. */
    @Override
    public void push(int inPort, Buffer frame) {
        if (rxReady == rxPosted) {
            rxNoBuffer.increment();
            ctx.drop(coreIndex, frame, dropNoBuffer);
            raiseIrq(); // "receive buffer unavailable": the poll refills
            return;
        }
        int slot = rxHead + rxReady;
        Buffer skb = rxSlots[slot < rxSlots.length ? slot : slot - rxSlots.length];
        ctx.transferPacket(frame, skb); // the skb carries the packet from here
        frame.pool().free(coreIndex, frame); // the wire's copy is done
        ctx.dmaWrite(skb.address(), skb.length()); // the caches drop the lines the DMA wrote
        rxReady++;
        raiseIrq();
    }

    /** The interrupt line: once until the poll completes ({@code napi_complete_done} re-arms it). */
    private void raiseIrq() {
        if (irqArmed && !napi.scheduled()) {
            irqArmed = false;
            irqs.increment();
            core.submit(Core.HARDIRQ, irqTask);
        }
    }

    /** The NAPI poll: TX completions first (they cost no budget), then up to {@code budget} received skbs. */
    @Override
    public int poll(int budget) {
        cleanTx();
        int work = 0;
        while (work < budget && rxReady > 0) {
            Buffer skb = rxSlots[rxHead];
            rxSlots[rxHead] = null;
            if (++rxHead == rxSlots.length) {
                rxHead = 0;
            }
            rxReady--;
            rxPosted--;
            work++;
            core.charge(self, rxCycles, 1);
            rxPackets.increment();
            rxBytes.add(skb.length());
            if (stack.connected()) {
                stack.push(skb); // napi_gro_receive: the skb is the stack's now
            } else {
                ctx.drop(coreIndex, skb, dropNoStack);
            }
        }
        refill();
        if (work < budget) {
            irqArmed = true; // napi_complete_done: the interrupt is enabled again
            if (rxReady > 0 || txRing.sent() > 0) {
                raiseIrq(); // events that came while it was masked
            }
        }
        return work;
    }

    /** Posts a fresh skb in every empty RX descriptor. */
    private void refill() {
        while (rxPosted < rxSlots.length) {
            Buffer skb = rxPool.alloc(coreIndex, self);
            if (skb == null) {
                refillFailures.increment(); // the next interrupt tries again
                return;
            }
            int slot = rxHead + rxPosted;
            rxSlots[slot < rxSlots.length ? slot : slot - rxSlots.length] = skb;
            rxPosted++;
        }
    }
    // end::receive[]

    // tag::held[]
    /** Every buffer this driver holds: the RX descriptors' skbs, the TX ring's skbs, the segments not yet posted. */
    @Override
    public void forEachHeld(BufferVisitor visitor) {
        rxView.forEachHeld(visitor);
        txRing.forEachHeld(visitor);
        txRun.segments().forEachHeld(visitor);
    }

    @Override
    public DescriptorRing txRing() {
        return txRing;
    }

    @Override
    public DescriptorRing rxRing() {
        return rxView;
    }
    // end::held[]

    // ------------------------------------------------------------------ hot swap

    // tag::handover[]
    @Override
    public boolean exportState(ElementState out) {
        out.put(DriverState.TX_QUEUE, txq);
        out.put(DriverState.TX_RING, txRing);
        out.put(DriverState.TX_SEGMENTS, txRun.segments());
        out.put(DriverState.QDISC_RUN, txRun);
        out.put(DriverState.NAPI, napi);
        out.put(DriverState.NAPI_SCHEDULED, napi.scheduled());
        out.put("mininic.core", coreIndex);
        out.put("mininic.rxSlots", rxSlots.clone());
        out.put("mininic.rxHead", rxHead);
        out.put("mininic.rxReady", rxReady);
        out.put("mininic.rxPosted", rxPosted);
        out.put("mininic.irqArmed", irqArmed);
        out.putTask("mininic.irqTask", irqTask);
        return true;
    }

    @Override
    public boolean importState(ElementState in) {
        if (!in.fromType().equals(MiniNicFactory.TYPE)) {
            return false; // another model's state: drain and restart
        }
        TxQueue queue = in.get(DriverState.TX_QUEUE, TxQueue.class);
        SendRing ring = in.get(DriverState.TX_RING, SendRing.class);
        Buffer[] slots = in.get("mininic.rxSlots", Buffer[].class);
        QdiscRun run = in.get(DriverState.QDISC_RUN, QdiscRun.class);
        if (run == null || ring.size() != txRing.size() || slots.length != rxSlots.length
                || in.getInt("mininic.core", -1) != coreIndex
                || (queue.limits() != null) != (txq.limits() != null)) {
            return false; // checked before any change, as the contract asks
        }
        try {
            queue.listener(txRun::schedule); // the queue's wake-up runs this instance's qdisc from now on
        } catch (UnsupportedOperationException e) {
            return false; // a queue-limits provider whose queues cannot change hands
        }
        txq = queue;
        txRing = ring;
        txRun.takeOver(run); // the segments not yet posted, a pending run in its place
        System.arraycopy(slots, 0, rxSlots, 0, slots.length);
        rxHead = in.getInt("mininic.rxHead", 0);
        rxReady = in.getInt("mininic.rxReady", 0);
        rxPosted = in.getInt("mininic.rxPosted", 0);
        irqArmed = in.getBoolean("mininic.irqArmed", true);
        napi.takeOver(in.get(DriverState.NAPI, Napi.class)); // poll counts and a scheduled poll, in its place
        in.requeue("mininic.irqTask", irqTask); // pending work waits where the old instance's waited
        return true;
    }
    // end::handover[]
}

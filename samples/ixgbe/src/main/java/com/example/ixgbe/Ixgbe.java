package com.example.ixgbe;

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
import io.ringlab.sim.api.Timer;
import io.ringlab.sim.api.dto.MetricDescriptorDTO;

/**
 * One port of an Intel ixgbe-style 10 GbE NIC (82599, {@code drivers/net/ethernet/intel/ixgbe/ixgbe_main.c}, v4.6): one
 * TX ring and one RX ring, one queue vector on one core.
 * <p>
 * <b>Transmit</b> ({@code ixgbe_xmit_frame_ring}, {@code ixgbe_tx_map}). The qdisc's {@code ready} starts the SDK's
 * qdisc run ({@link QdiscRun}: {@code __qdisc_run} on the sending core, {@code DriverSupport.DEV_TX_WEIGHT} skbs a run,
 * then NET_TX_SOFTIRQ), which takes packets while the TX queue is not stopped, splits GSO skbs in software, and hands
 * each to this driver ({@link StartXmit}), which posts it to the TX
 * descriptor ring ({@link SendRing}, {@code txRing} descriptors, default {@link #DEFAULT_TX_DESCRIPTORS}), one data
 * descriptor per skb. It accounts it to BQL ({@code netdev_tx_sent_queue}) and stops the queue when fewer than
 * {@link #DESC_NEEDED} descriptors are unused ({@code ixgbe_maybe_stop_tx(tx_ring, DESC_NEEDED)} at the end of
 * {@code ixgbe_xmit_frame_ring}). The doorbell ({@code writel(i, tx_ring->tail)} in {@code ixgbe_tx_map}) is written
 * once per batch: v4.6 skips it while {@code skb->xmit_more} is set and the queue is not stopped, and here a batch is
 * what one qdisc run hands over (counter {@code doorbells}). The link pulls when its wire is idle: the NIC's DMA hands it a
 * copy, the skb stays in the ring until its completion is cleaned.
 * <p>
 * <b>The stack's skbs.</b> A pipeline's source hands the qdisc buffers of its own pool, not skbs. So that what TX
 * completion frees is an skb head of {@code skbuff_head_cache} as in the kernel, the driver (property {@code stackSkb},
 * default true) moves each packet it is handed into an skb from pool kind {@code skb} ({@code tx}, pool metrics
 * {@code pool:<element>.tx.*}) before posting it: this stands in for the stack's {@code alloc_skb}
 * ({@code kmem_cache_alloc}), whose cost lands on the driver's account here rather than on the sender's.
 * <p>
 * <b>Completion</b> ({@code ixgbe_clean_tx_irq}, in {@code ixgbe_poll}). The NAPI poll cleans up to {@link #TX_WORK_LIMIT}
 * sent skbs ({@code q_vector->tx.work_limit}), freeing each with {@code napi_consume_skb} ({@code bulkFree}: deferred into
 * the per-CPU NAPI skb cache of the skb's pool and freed with {@code kmem_cache_free_bulk} when it fills or the softirq
 * ends) or {@code dev_kfree_skb} (one {@code kmem_cache_free} at once); tells BQL ({@code netdev_tx_completed_queue},
 * which may wake the queue) and wakes a queue the driver stopped once at least {@link #TX_WAKE_THRESHOLD} descriptors
 * are unused. When the work limit is used up the poll returns its whole budget, so NAPI polls again
 * ({@code clean_complete = false}).
 * <p>
 * <b>Receive</b> ({@code ixgbe_clean_rx_irq}). {@code rxRing} descriptors (default {@link #DEFAULT_RX_DESCRIPTORS}) are
 * posted with skbs from pool kind {@code skb} ({@code rx}), all but one at open ({@code ixgbe_desc_unused}). A frame
 * from the link takes the next posted descriptor (a DMA, {@link ElementContext#transferPacket}) and raises the
 * interrupt (subject to the throttle, below), or is dropped by the NIC ({@code rx-no-buffer}) when none is posted. The
 * poll hands up to the budget ({@code napiWeight}, default {@link #NAPI_WEIGHT}) of received skbs to the {@code stack}
 * port, charging {@code rxCycles} each, and gives descriptors back to the hardware {@link #RX_BUFFER_WRITE} at a time
 * (the refill at the top of the cleaning loop); under budget it completes and re-arms the interrupt
 * ({@code napi_complete_done}).
 * <p>
 * <b>Interrupts.</b> A TX completion or a received frame raises the queue vector's interrupt when it is armed, but not
 * sooner than {@code itrMicros} (default {@link #ITR_MICROS}) after the previous one: the EITR throttle, which lets
 * completions gather so that one poll frees many skbs.
 * <p>
 * <b>Cost.</b> {@code txCycles} per sent packet and {@code rxCycles} per received packet; -1 (the default) takes the
 * cost profile's {@code ixgbe.txPacketCycles} / {@code ixgbe.rxPacketCycles}, else {@link #FALLBACK_TX_CYCLES} (0, not
 * charged) and {@link #FALLBACK_RX_CYCLES}. No profile in Ringlab defines the {@code ixgbe.*} keys and neither fallback
 * is fitted to an ixgbe measurement. Plus whatever the pools charge (the slab's costs, {@code docs/models/slab.md}).
 * <p>
 * <b>Hot swap</b> ({@link Handover}): a successor of this type on the same core with the same ring sizes and the same BQL
 * setting takes over the TX queue with its BQL state, the TX ring with its skbs, the segments not yet posted, the RX
 * descriptors with their skbs and received frames, the NAPI context, the interrupt's arming, the throttle's last
 * interrupt and held-back interrupt, and the pending interrupt and transmit tasks in their places; the pools are the
 * same pools again. Otherwise the engine drains and restarts.
 * <p>
 * <b>Not modelled:</b> more than one queue pair and queue vector (RSS, XPS, ATR/Flow Director); the context descriptor
 * for checksum offload and TSO (every skb takes one data descriptor, GSO is done in software), so
 * {@code ixgbe_maybe_stop_tx}'s check before posting never triggers; paged skbs ({@code nr_frags}); interrupt moderation
 * beyond a fixed EITR interval ({@code itrMicros}, default {@link #ITR_MICROS}: the dynamic ITR of
 * {@code ixgbe_update_itr} / {@code ixgbe_set_itr} does not adapt it; without the throttle ({@code itrMicros = 0})
 * every completion and frame raises its interrupt while it is armed); the RX page reuse of {@code ixgbe_reuse_rx_page}
 * and {@code build_skb} (descriptors hold skbs); {@code per_ring_budget} splitting with more rings; DCB, FCoE, SR-IOV,
 * XDP, PTP; link and PHY state.
 * <p>
 * Metrics: counters {@code txPackets}, {@code txBytes}, {@code txCompletions}, {@code doorbells}, {@code txRestarts}
 * (driver wakes, {@code tx_restart_queue}), {@code rxPackets}, {@code rxBytes}, {@code rxNoBufferDrops},
 * {@code refillFailures}, {@code irqs}; gauges {@code txQueued} (skbs in the TX ring), {@code limit} and
 * {@code inflight} (BQL, bytes; 0 without BQL), {@code napiPolls}; rates {@code txMpps}, {@code rxMpps}. Engine thread
 * only: not thread-safe.
 *
 * @see IxgbeFactory
 */
final class Ixgbe implements NicDriver, Handover, StartXmit {
    /** {@code IXGBE_DEFAULT_TXD} ({@code ixgbe.h}): TX descriptors per ring. */
    static final int DEFAULT_TX_DESCRIPTORS = 512;
    /** {@code IXGBE_DEFAULT_RXD} ({@code ixgbe.h}): RX descriptors per ring. */
    static final int DEFAULT_RX_DESCRIPTORS = 512;
    /** {@code MAX_SKB_FRAGS} ({@code include/linux/skbuff.h}, 4 KiB pages): 65536 / 4096 + 1. */
    static final int MAX_SKB_FRAGS = 65536 / 4096 + 1;
    /** {@code DESC_NEEDED} ({@code ixgbe.h}): {@code MAX_SKB_FRAGS + 4}; fewer unused stops the queue. */
    static final int DESC_NEEDED = MAX_SKB_FRAGS + 4;
    /** {@code TX_WAKE_THRESHOLD} ({@code ixgbe_main.c}, before {@code ixgbe_clean_tx_irq}): {@code DESC_NEEDED * 2}. */
    static final int TX_WAKE_THRESHOLD = DESC_NEEDED * 2;
    /** {@code IXGBE_DEFAULT_TX_WORK} ({@code ixgbe.h}), set as {@code q_vector->tx.work_limit} in {@code ixgbe_sw_init}. */
    static final int TX_WORK_LIMIT = 256;
    /** {@code IXGBE_RX_BUFFER_WRITE} ({@code ixgbe.h}): RX descriptors given back to the hardware at a time. */
    static final int RX_BUFFER_WRITE = 16;
    /** The weight {@code ixgbe_alloc_q_vector} passes to {@code netif_napi_add}: 64 ({@code NAPI_POLL_WEIGHT}). */
    static final int NAPI_WEIGHT = 64;
    /**
     * The interrupt throttle interval of a queue vector serving RX and TX, in microseconds: {@code IXGBE_20K_ITR} (200,
     * in units of 0.25 us: 20,000 interrupts per second, {@code ixgbe.h}), the initial {@code q_vector->itr} that
     * {@code ixgbe_alloc_q_vector} sets with the default {@code rx_itr_setting} of 1 (dynamic ITR).
     */
    static final int ITR_MICROS = 200 / 4;
    /** Segments of one GSO skb at most: 65,536 / 88 ({@code TCP_MIN_MSS}) + 1. */
    static final int MAX_GSO_SEGS = 65536 / 88 + 1;
    /** Cycles per sent packet without {@code ixgbe.txPacketCycles}: 0, not charged (no ixgbe figure to take it from). */
    static final long FALLBACK_TX_CYCLES = 0;
    /**
     * Cycles per received packet without {@code ixgbe.rxPacketCycles}: borrowed from the mlx5 model, whose per-packet RX
     * constant was fitted to seed 002's 12 Mpps baseline on the i7-4790K (docs/models/mlx5.md), as samples/minimal-driver
     * does. Not fitted to ixgbe.
     */
    static final long FALLBACK_RX_CYCLES = 230;
    /** Bytes of each skb of the driver's pools (a 1522-byte frame fits). */
    static final int SKB_BYTES = 2048;

    private final ElementContext ctx;
    private final int self; // this element's index: buffers record it as their owner, charges name it
    private final int coreIndex;
    private final Core core;
    private final long txCycles, rxCycles;
    private final boolean bulkFree, stackSkb;

    private final InputPort in;
    private final OutputPort wire, stack;
    private TxQueue txq; // stop bits and BQL state, from the queue-limits provider
    private SendRing txRing; // the engine's TX descriptor ring
    private final QdiscRun txRun; // the SDK's transmit loop, with software GSO in front of the ring
    private final BufferPool txSkbs; // the stack's skb heads (stackSkb)

    private final BufferPool rxPool;
    private final Buffer[] rxSlots; // the RX descriptors' skbs
    private final DescriptorRing rxView;
    private int rxHead, rxReady, rxPosted; // first received slot; frames received; skbs posted

    private final Napi napi;
    private final CpuTask irqTask;
    private boolean irqArmed = true;
    private final long itrPicos; // EITR: the least time between two interrupts, 0 for none
    private final Timer itrTimer; // fires an interrupt held back by the throttle
    private long lastIrqPicos = Long.MIN_VALUE / 2; // when the last interrupt fired; far past: the first is not held

    private final int dropNoBuffer, dropNoStack;
    private final Metrics.Counter txPackets, txBytes, txCompletions, doorbells, txRestarts, rxPackets, rxBytes,
            rxNoBuffer, refillFailures, irqs;

    // The metrics, each declared once, with its kind, meaning and, where the name's suffix does not give it, unit:
    // the factory's descriptor lists METRICS and the constructor registers by them.
    static final MetricDescriptorDTO TX_PACKETS = new MetricDescriptorDTO(COUNTER, "txPackets",
            "frames the NIC's DMA handed to the link");
    static final MetricDescriptorDTO TX_BYTES = new MetricDescriptorDTO(COUNTER, "txBytes",
            "their lengths, without FCS");
    static final MetricDescriptorDTO TX_MPPS = new MetricDescriptorDTO(RATE, "txMpps",
            "txPackets in millions per second of the measured window");
    static final MetricDescriptorDTO TX_COMPLETIONS = new MetricDescriptorDTO(COUNTER, "txCompletions",
            "sent skbs cleaned from the TX ring and freed (ixgbe_clean_tx_irq)");
    static final MetricDescriptorDTO TX_QUEUED = new MetricDescriptorDTO(GAUGE, "txQueued", "skbs in the TX ring now");
    static final MetricDescriptorDTO DOORBELLS = new MetricDescriptorDTO(COUNTER, "doorbells",
            "tail register writes: one per batch, when xmit_more is clear or the queue stopped");
    static final MetricDescriptorDTO TX_RESTARTS = new MetricDescriptorDTO(COUNTER, "txRestarts",
            "times the driver woke the stopped TX queue (tx_restart_queue)");
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
    static final List<MetricDescriptorDTO> METRICS = List.of(TX_PACKETS, TX_BYTES, TX_MPPS, TX_COMPLETIONS, TX_QUEUED,
            DOORBELLS, TX_RESTARTS, MetricDescriptorDTO.bqlLimit(), MetricDescriptorDTO.bqlInflight(), RX_PACKETS,
            RX_BYTES, RX_MPPS, RX_NO_BUFFER_DROPS, REFILL_FAILURES, IRQS, NAPI_POLLS);

    Ixgbe(ElementContext ctx) {
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
        this.stackSkb = c.getBoolean("stackSkb");
        long tx = c.getLong("txCycles");
        this.txCycles = tx >= 0 ? tx : (long) ctx.costProfile().value("ixgbe.txPacketCycles", FALLBACK_TX_CYCLES);
        long rx = c.getLong("rxCycles");
        this.rxCycles = rx >= 0 ? rx : (long) ctx.costProfile().value("ixgbe.rxPacketCycles", FALLBACK_RX_CYCLES);

        // every buffer a packet will need, allocated now: the wire's copies, GSO segments, TX and RX skbs. The TX skbs:
        // the ring's, plus the heads napi_consume_skb defers (64 per core) until their bulk free.
        BufferPool wirePool = ctx.pool("fixed", "wire", txSize + 64, SKB_BYTES, Map.of());
        BufferPool gsoPool = ctx.pool("fixed", "gso", txSize + MAX_GSO_SEGS, SKB_BYTES, Map.of());
        this.txSkbs = stackSkb
                ? ctx.pool("skb", "tx", txSize + DriverSupport.DEV_TX_WEIGHT + 64 * ctx.cores(), SKB_BYTES, Map.of())
                : null;
        this.rxPool = ctx.pool("skb", "rx", 2 * rxSize + 256, SKB_BYTES, Map.of());

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

        this.irqTask = cpu -> napi.schedule(); // ixgbe_msix_clean_rings: napi_schedule_irqoff, nothing else
        this.itrPicos = c.getLong("itrMicros") * 1_000_000L;
        this.itrTimer = ctx.timer(now -> raiseIrq()); // the throttle's interval ended: the held-back interrupt fires
        this.dropNoBuffer = ctx.dropReason("rx-no-buffer");
        this.dropNoStack = ctx.dropReason("rx-no-stack");

        Metrics m = ctx.metrics();
        txPackets = m.counter(TX_PACKETS);
        txBytes = m.counter(TX_BYTES);
        txCompletions = m.counter(TX_COMPLETIONS);
        doorbells = m.counter(DOORBELLS);
        txRestarts = m.counter(TX_RESTARTS);
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
        m.rate(TX_MPPS, txPackets, 1e-6);
        m.rate(RX_MPPS, rxPackets, 1e-6);
        m.series(MetricDescriptorDTO.bqlInflight().name);
        m.series(MetricDescriptorDTO.bqlLimit().name);
    }

    @Override
    public void start() {
        refill(); // ixgbe_configure_rx_ring: ixgbe_alloc_rx_buffers(ring, ixgbe_desc_unused(ring))
    }

    /** {@code ixgbe_desc_unused}: free descriptors less the one that keeps a full ring apart from an empty one. */
    private int txUnused() {
        return txRing.free() - 1;
    }

    // ------------------------------------------------------------------ transmit

    /** The qdisc has packets ({@code netif_schedule}): the SDK's qdisc run takes them, on the sending core. */
    @Override
    public void ready(int inPort) {
        txRun.ready();
    }

    /** {@code netif_xmit_frozen_or_stopped}: the driver's stop bit or BQL's. */
    @Override
    public boolean stopped() {
        return txq.stopped();
    }

    /** {@code ixgbe_xmit_frame_ring} for one skb, on the core the qdisc runs on. */
    @Override
    public int startXmit(Core c, Buffer skb) {
        Buffer b = asSkb(c.index(), skb);
        c.charge(self, txCycles, 1);
        txRing.post(b, 1); // ixgbe_tx_map: one data descriptor
        txq.sent(b.length(), ctx.nowPicos()); // netdev_tx_sent_queue: BQL may stop the queue here
        if (txUnused() < DESC_NEEDED) {
            txq.stopByDriver(); // ixgbe_maybe_stop_tx(tx_ring, DESC_NEEDED): netif_stop_subqueue
        }
        return NETDEV_TX_OK;
    }

    /** The tail write of the batch's last skb ({@code xmit_more} clear, or the queue stopped), once a run. */
    @Override
    public void kick(Core c) {
        doorbells.increment();
        wire.ready(); // the DMA fetches when the wire is idle
    }

    /** The packet in an skb of {@code skbuff_head_cache} (the stack's {@code alloc_skb}), unless it is one already. */
    private Buffer asSkb(int cpu, Buffer buffer) {
        if (txSkbs == null || buffer.pool() == txSkbs || buffer.length() > SKB_BYTES) {
            return buffer;
        }
        Buffer skb = txSkbs.alloc(cpu, self); // alloc_skb on the sending CPU
        if (skb == null) {
            return buffer; // every head in use: the packet goes as it is (the pool counts the failure)
        }
        ctx.transferPacket(buffer, skb);
        buffer.pool().free(cpu, buffer);
        return skb;
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
        raiseIrq(); // the TX completion's interrupt (descriptor write-back, EICR)
        return frame;
    }

    /**
     * {@code ixgbe_clean_tx_irq}: frees up to {@link #TX_WORK_LIMIT} sent skbs, tells BQL, wakes a queue the driver
     * stopped.
     *
     * @return true when the work limit was not used up ({@code !!budget})
     */
    private boolean cleanTx() {
        int packets = 0;
        int bytes = 0;
        while (packets < TX_WORK_LIMIT) {
            Buffer skb = txRing.clean();
            if (skb == null) {
                break;
            }
            packets++;
            bytes += skb.length();
            if (bulkFree) {
                skb.pool().consume(coreIndex, skb); // napi_consume_skb(skb, napi_budget): deferred, freed in bulk
            } else {
                skb.pool().free(coreIndex, skb); // dev_kfree_skb_any: at once
            }
        }
        if (packets > 0) {
            txCompletions.add(packets);
            txq.completed(packets, bytes, ctx.nowPicos()); // netdev_tx_completed_queue: may clear BQL's stop and wake
            if (txq.driverStopped() && txUnused() >= TX_WAKE_THRESHOLD) {
                txq.wakeByDriver(); // netif_wake_subqueue: the listener runs the qdisc again
                txRestarts.increment(); // ++tx_ring->tx_stats.restart_queue
            }
        }
        return packets < TX_WORK_LIMIT;
    }

    // ------------------------------------------------------------------ receive

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

    /**
     * The interrupt line: once until the poll completes ({@code napi_complete_done} re-arms it), and not sooner than
     * {@code itrMicros} after the previous interrupt (the EITR interval; the event waits for it to end).
     */
    private void raiseIrq() {
        if (!irqArmed || napi.scheduled()) {
            return;
        }
        long now = ctx.nowPicos();
        if (now - lastIrqPicos < itrPicos) {
            if (!itrTimer.pending()) {
                itrTimer.at(lastIrqPicos + itrPicos);
            }
            return;
        }
        irqArmed = false;
        lastIrqPicos = now;
        irqs.increment();
        core.submit(Core.HARDIRQ, irqTask);
    }

    /** {@code ixgbe_poll}: TX completions first, then up to {@code budget} received skbs. */
    @Override
    public int poll(int budget) {
        boolean cleanComplete = cleanTx();
        int work = 0;
        while (work < budget) {
            if (rxSlots.length - 1 - rxPosted >= RX_BUFFER_WRITE) {
                refill(); // "return some buffers to hardware, one at a time is too slow"
            }
            if (rxReady == 0) {
                break; // the next descriptor has no DD bit
            }
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
        if (work == budget || !cleanComplete) {
            return budget; // "If any work not completed, return budget and keep polling"
        }
        irqArmed = true; // napi_complete_done, ixgbe_irq_enable_queues
        if (rxReady > 0 || txRing.sent() > 0) {
            raiseIrq(); // events that came while it was masked
        }
        return work;
    }

    /** {@code ixgbe_alloc_rx_buffers}: posts a fresh skb in every unused RX descriptor but the one kept empty. */
    private void refill() {
        while (rxPosted < rxSlots.length - 1) {
            Buffer skb = rxPool.alloc(coreIndex, self);
            if (skb == null) {
                refillFailures.increment(); // alloc_rx_page_failed: the next poll tries again
                return;
            }
            int slot = rxHead + rxPosted;
            rxSlots[slot < rxSlots.length ? slot : slot - rxSlots.length] = skb;
            rxPosted++;
        }
    }

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

    // ------------------------------------------------------------------ hot swap

    @Override
    public boolean exportState(ElementState out) {
        out.put(DriverState.TX_QUEUE, txq);
        out.put(DriverState.TX_RING, txRing);
        out.put(DriverState.TX_SEGMENTS, txRun.segments());
        out.put(DriverState.QDISC_RUN, txRun);
        out.put(DriverState.NAPI, napi);
        out.put(DriverState.NAPI_SCHEDULED, napi.scheduled());
        out.put("ixgbe.core", coreIndex);
        out.put("ixgbe.rxSlots", rxSlots.clone());
        out.put("ixgbe.rxHead", rxHead);
        out.put("ixgbe.rxReady", rxReady);
        out.put("ixgbe.rxPosted", rxPosted);
        out.put("ixgbe.irqArmed", irqArmed);
        out.putTask("ixgbe.irqTask", irqTask);
        out.put("ixgbe.itrTimer", itrTimer);
        out.put("ixgbe.lastIrqPicos", lastIrqPicos);
        return true;
    }

    @Override
    public boolean importState(ElementState in) {
        if (!in.fromType().equals(IxgbeFactory.TYPE)) {
            return false; // another model's state: drain and restart
        }
        TxQueue queue = in.get(DriverState.TX_QUEUE, TxQueue.class);
        SendRing ring = in.get(DriverState.TX_RING, SendRing.class);
        Buffer[] slots = in.get("ixgbe.rxSlots", Buffer[].class);
        QdiscRun run = in.get(DriverState.QDISC_RUN, QdiscRun.class);
        if (run == null || ring.size() != txRing.size() || slots.length != rxSlots.length
                || in.getInt("ixgbe.core", -1) != coreIndex
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
        rxHead = in.getInt("ixgbe.rxHead", 0);
        rxReady = in.getInt("ixgbe.rxReady", 0);
        rxPosted = in.getInt("ixgbe.rxPosted", 0);
        irqArmed = in.getBoolean("ixgbe.irqArmed", true);
        napi.takeOver(in.get(DriverState.NAPI, Napi.class)); // poll counts and a scheduled poll, in its place
        in.requeue("ixgbe.irqTask", irqTask); // pending work waits where the old instance's waited
        lastIrqPicos = in.getLong("ixgbe.lastIrqPicos", lastIrqPicos);
        itrTimer.takeOver(in.get("ixgbe.itrTimer", Timer.class)); // a held-back interrupt fires when it would have
        return true;
    }
}

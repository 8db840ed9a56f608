package io.ringlab.driver.mvneta;

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
import io.ringlab.sim.api.Configuration;
import io.ringlab.sim.api.Core;
import io.ringlab.sim.api.CpuTask;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementState;
import io.ringlab.sim.api.Handover;
import io.ringlab.sim.api.InputPort;
import io.ringlab.sim.api.KernelBuild;
import io.ringlab.sim.api.Metrics;
import io.ringlab.sim.api.OutputPort;
import io.ringlab.sim.api.Timer;

/**
 * One port of the mvneta driver of 2016 ({@code drivers/net/ethernet/marvell/mvneta.c} around v4.6, with the hardware
 * buffer manager of commit dc35a10f68d3), or of the current kernel ({@code kernel = current}); sources in
 * docs/research/mvneta-armada.md, the model in docs/models/mvneta.md.
 * <p>
 * <b>Where things are</b>: this class keeps the RX descriptor ring ({@code rxBuf}, its head and ready count), the
 * interrupts and NAPI, transmit, the register accesses, the shared {@code rx_copybreak} copy ({@link #copy}) and
 * {@code napi_gro_receive} ({@link #up}), and registers every counter and drop reason. The receive path, chosen once
 * here from {@code kernel} and {@code bm}, is an {@link RxPath} that owns the RX pools, the frame's DMA target, the
 * poll's work per descriptor, the refill and its handover keys:
 * <ul>
 * <li>{@link SwRefillV46}: v4.6 software refill ({@code bm = false}, {@code mvneta_rx_swbm}, page fragments);</li>
 * <li>{@link BufferManager}: v4.6 hardware buffer manager ({@code bm = true}, {@code mvneta_rx_hwbm}, short and long
 * pools of kind {@code hwbm});</li>
 * <li>{@link PagePoolCurrent}: the current kernel's software path ({@code kernel = current}, page_pool).</li>
 * </ul>
 * The buffer manager with {@code kernel = current} is refused.
 * <p>
 * <b>Interrupts</b>: RX coalescing ({@code MVNETA_RX_COAL_PKTS} 32, {@code MVNETA_RX_COAL_USEC} 100): an interrupt when
 * 32 frames wait or 100 µs after the first one; TX done: an interrupt per sent frame ({@code MVNETA_TXDONE_COAL_PKTS} 0
 * or 1). The interrupt schedules NAPI (weight 64, one context for the port on its core); the poll cleans TX first
 * ({@code mvneta_tx_done_gbe}: {@code dev_kfree_skb_any}, wake at {@code tx_wake_threshold}), then RX.
 * <p>
 * <b>Transmit</b> ({@code mvneta_tx}): the SDK's qdisc run ({@link QdiscRun}) runs the qdisc and the driver's transmit
 * inline on the core whose task signals (a forwarded packet inside the receiving poll; a socket's data inside the
 * sending process's system call, on that process's core), else as transmit work on the port's core, at most 64 skbs a
 * run, then NET_TX_SOFTIRQ on that core; one TX queue for all cores (the
 * driver's per-CPU queue selection is not modelled); each skb takes {@code 1 + nr_frags} descriptors of
 * {@code txRing} (532); the queue stops at {@code tx_stop_threshold} = 532 - ({@code MVNETA_MAX_TSO_SEGS} 100 x 2 +
 * {@code MAX_SKB_FRAGS} 17) = 315 used and wakes at half that, 157. A GSO skb is segmented in software (the driver's
 * software TSO is not modelled as such). No BQL (v4.6 had none).
 * <p>
 * <b>CPU</b>: {@code rxCycles} and {@code txCycles} per packet (defaults from the profile's {@code mvneta.rxPacketCycles},
 * {@code mvneta.txPacketCycles}; 0 when absent) plus what the pools charge (page fragments, DMA maps, MMIO writes, slab
 * operations, cache misses). Engine thread only.
 * <p>
 * <b>Current kernel preset</b> ({@code kernel = current}; the receive path and TX completion's page return in
 * {@link PagePoolCurrent}): rings of {@code MVNETA_MAX_RXD} 512 and {@code MVNETA_MAX_TXD} 1024 ({@code mvneta_probe}:
 * {@code rx_ring_size}, {@code tx_ring_size}); TX stop at 1024 - 217 = 807 used, wake at 403
 * ({@code mvneta_txq_sw_init}); TX completion by {@code mvneta_txq_bufs_free} with {@code dev_kfree_skb_any};
 * unchanged: {@code MVNETA_RX_COAL_PKTS} 32, {@code MVNETA_RX_COAL_USEC} 100, {@code MVNETA_TXDONE_COAL_PKTS} 0
 * ("interrupt per packet"), {@code MVNETA_MAX_TSO_SEGS} 100, the NAPI poll's order (TX done first). Not modelled in the
 * preset: BQL ({@code netdev_tx_sent_queue} in {@code mvneta_tx}, {@code netdev_tx_completed_queue} in
 * {@code mvneta_txq_bufs_free}) and the {@code xmit_more} doorbell batching.
 * <p>
 * <b>Hot swap</b> ({@link Handover}): a successor on the same core with the same receive path, ring sizes and RX pools
 * (the same pools again: the page fragments, the page_pool, or the BM's long and short pools with the buffers in the
 * device; {@link RxPath#accepts}) takes over the TX ring with its skbs, the segments not yet posted, the queue's stop
 * state, the RX descriptors with their buffers and received frames, the path's own state (the refill position of the
 * current preset), the interrupt state (pending frame count, enabled) and the coalescing timer, the NAPI context, and
 * the interrupt and transmit tasks on every core they wait on, each in the predecessor's place. Otherwise drain and
 * restart.
 */
final class MvnetaElement implements NicDriver, Handover, StartXmit {
    /** {@code MAX_SKB_FRAGS} with 4 KB pages. */
    static final int MAX_SKB_FRAGS = 17;
    /** {@code MVNETA_MAX_SKB_DESCS} = {@code MVNETA_MAX_TSO_SEGS} (100) x 2 + {@code MAX_SKB_FRAGS}. */
    static final int MAX_SKB_DESCS = 100 * 2 + MAX_SKB_FRAGS;
    /** Segments of one GSO skb at most. */
    static final int MAX_GSO_SEGS = 65536 / 88 + 1;
    /** {@code MVNETA_MAX_RXD}, {@code MVNETA_MAX_TXD}: 128 and 532 in v4.6; 512 and 1024 in current kernels. */
    static final int MAX_RXD_V4_6 = 128, MAX_TXD_V4_6 = 532, MAX_RXD_CURRENT = 512, MAX_TXD_CURRENT = 1024;
    /** {@code MVNETA_SKB_HEADROOM} = {@code ALIGN(max(NET_SKB_PAD 64, XDP_PACKET_HEADROOM 256), 8)}. */
    static final int SKB_HEADROOM_CURRENT = 256;
    /** {@code PAGE_SIZE}. */
    static final int PAGE_SIZE = 4096;
    /** {@code NET_SKB_PAD} = {@code max(32, L1_CACHE_BYTES)}: 64 with {@code ARM_L1_CACHE_SHIFT_6}. */
    static final int NET_SKB_PAD = 64;

    // read by the receive paths (RxPath), which the constructor creates once these are set
    final ElementContext ctx;
    final int self;
    final int coreIndex;
    final Core core;
    private final Napi napi;
    private final InputPort in;
    private final OutputPort wire, stack;
    final int copybreak, fragSize;
    /** {@code sizeof(struct sk_buff)} of the profile's kernel build: the copybreak pool's skb heads. */
    private final int skbHeadBytes;
    private final long rxCycles, txCycles, mmioRead, mmioWrite;
    final long dmaMap;
    private final int coalPkts;
    private final long coalPicos;
    private final boolean txDoneIrq;

    // RX ring: ready descriptors from rxHead carry frames; on the software paths every other descriptor holds a buffer
    private final int rxRing;
    final Buffer[] rxBuf;
    private final DescriptorRing rxView;
    private int rxHead, rxReady;
    /** The receive path: its pools, DMA target, per-descriptor work, refill and handover keys. */
    private final RxPath rx;
    private int irqPending;
    private boolean irqEnabled = true;
    private final Timer coalTimer;

    // TX ring
    private final int stopThreshold, wakeThreshold;
    private SendRing txq;
    private boolean txStopped;
    private final BufferPool gsoPool;
    private final QdiscRun txRun;

    private final CpuTask irqTask;
    final int dropNoDesc, dropPoolEmpty, dropRefill;
    private final int dropNoStack;
    private final Metrics.Counter rxPackets, rxBytes, rxCopies, rxIrqs, txPackets, txBytes, txIrqs, txStops, mmioReads,
            mmioWrites;
    /** Written by the receive paths only. */
    final Metrics.Counter rxRefillFailures, dmaMaps;

    MvnetaElement(ElementContext ctx) {
        this.ctx = ctx;
        this.self = ctx.index();
        Configuration c = ctx.config();
        this.coreIndex = (int) c.getLong("core");
        this.core = ctx.core(coreIndex);
        boolean bm = c.getBoolean("bm");
        boolean current = "current".equals(c.getString("kernel"));
        if (current && bm) {
            throw new IllegalArgumentException("kernel=current, bm=true: the buffer manager is modelled for kernel=v4.6"
                    + " only; allowed: kernel=v4.6 with bm=false or bm=true, kernel=current with bm=false");
        }
        long rxr = c.getLong("rxRing");
        long txr = c.getLong("txRing");
        this.rxRing = (int) (rxr >= 0 ? rxr : current ? MAX_RXD_CURRENT : MAX_RXD_V4_6);
        int txRing = (int) (txr >= 0 ? txr : current ? MAX_TXD_CURRENT : MAX_TXD_V4_6);
        if (rxRing < 2 || txRing < 1) {
            throw new IllegalArgumentException("rxRing=" + rxRing + ", txRing=" + txRing + ": rxRing must be at least 2");
        }
        this.copybreak = (int) c.getLong("rxCopybreak");
        int mtu = (int) c.getLong("mtu");
        // MVNETA_RX_PKT_SIZE(mtu) = ALIGN(mtu + MH 2 + VLAN 4 + ETH_HLEN 14 + FCS 4, 32)
        int pktSize = (mtu + 2 + 4 + 14 + 4 + 31) & ~31;
        long si = c.getLong("shinfoBytes");
        int shinfo = (int) (si >= 0 ? si : skbDataAlign(ctx, KernelBuild.SIZEOF_SKB_SHARED_INFO));
        this.skbHeadBytes = (int) kernelBuild(ctx, KernelBuild.SIZEOF_SK_BUFF);
        // v4.6: SKB_DATA_ALIGN(buf) + SKB_DATA_ALIGN(shinfo); current: build_skb(data, PAGE_SIZE), a page per frame
        this.fragSize = current ? PAGE_SIZE : ((pktSize + NET_SKB_PAD + 63) & ~63) + shinfo;
        // MVNETA_MAX_RX_BUF_SIZE = PAGE_SIZE - MVNETA_SKB_PAD, MVNETA_SKB_PAD = SKB_DATA_ALIGN(shinfo + headroom 256)
        int maxRxBuf = PAGE_SIZE - (shinfo + SKB_HEADROOM_CURRENT);
        if (current && pktSize > maxRxBuf) {
            throw new IllegalArgumentException("mtu=" + mtu + ": MVNETA_RX_PKT_SIZE " + pktSize + " exceeds"
                    + " MVNETA_MAX_RX_BUF_SIZE " + maxRxBuf + "; frames spanning descriptors are not modelled");
        }
        long rxc = c.getLong("rxCycles");
        long txc = c.getLong("txCycles");
        this.rxCycles = rxc >= 0 ? rxc : (long) ctx.costProfile().value("mvneta.rxPacketCycles", 0);
        this.txCycles = txc >= 0 ? txc : (long) ctx.costProfile().value("mvneta.txPacketCycles", 0);
        this.mmioRead = Math.round(ctx.costProfile().value("mmio.readCycles", 0));
        this.mmioWrite = Math.round(ctx.costProfile().value("mmio.writeCycles", 0));
        this.dmaMap = Math.round(ctx.costProfile().value("dma.mapCycles", 0));
        this.coalPkts = (int) c.getLong("rxCoalPkts");
        this.coalPicos = c.getPicos("rxCoalTime");
        this.txDoneIrq = true;
        this.stopThreshold = txRing - MAX_SKB_DESCS;
        this.wakeThreshold = stopThreshold / 2;
        if (stopThreshold < 1) {
            throw new IllegalArgumentException("txRing=" + txRing + " must exceed MVNETA_MAX_SKB_DESCS = " + MAX_SKB_DESCS);
        }
        this.in = ctx.input("in");
        this.wire = ctx.output("wire");
        this.stack = ctx.output("stack");
        this.rxBuf = new Buffer[rxRing];
        // the receive path's pools first, then the TX side's (the order the pools have always been created in)
        this.rx = current ? new PagePoolCurrent(this, maxRxBuf)
                : bm ? new BufferManager(this, c, pktSize, NET_SKB_PAD, shinfo) : new SwRefillV46(this);
        BufferPool wirePool = ctx.pool("fixed", "wire", txRing + 64, 2048, Map.of());
        this.gsoPool = ctx.pool("fixed", "gso", txRing + MAX_GSO_SEGS, 2048, Map.of());
        DriverSupport support = ctx.provider(DriverSupport.class, DriverSupport.KIND, DriverSupport.LINUX);
        this.rxView = support.receiveRing(rxBuf, () -> rxReady);
        this.napi = support.napi(ctx, coreIndex, (int) c.getLong("napiWeight"), 0, this);
        this.txRun = support.qdiscRun(ctx, coreIndex, in, gsoPool, this);
        this.txq = support.sendRing(ctx, coreIndex, txRing, wirePool);
        this.coalTimer = ctx.timer(now -> raiseIrq());
        this.irqTask = cpu -> isr();
        this.dropNoDesc = ctx.dropReason("rx-no-descriptor");
        this.dropPoolEmpty = ctx.dropReason("bm-pool-empty");
        this.dropRefill = ctx.dropReason("rx-refill-failed");
        this.dropNoStack = ctx.dropReason("rx-no-stack");
        Metrics m = ctx.metrics();
        rxPackets = m.counter(MvnetaFactory.RX_PACKETS);
        rxBytes = m.counter(MvnetaFactory.RX_BYTES);
        rxCopies = m.counter(MvnetaFactory.RX_COPYBREAKS);
        rxRefillFailures = m.counter(MvnetaFactory.RX_REFILL_FAILURES);
        rxIrqs = m.counter(MvnetaFactory.RX_IRQS);
        txPackets = m.counter(MvnetaFactory.TX_PACKETS);
        txBytes = m.counter(MvnetaFactory.TX_BYTES);
        txIrqs = m.counter(MvnetaFactory.TX_IRQS);
        txStops = m.counter(MvnetaFactory.TX_QUEUE_STOPS);
        mmioReads = m.counter(MvnetaFactory.MMIO_READS);
        mmioWrites = m.counter(MvnetaFactory.MMIO_WRITES);
        dmaMaps = m.counter(MvnetaFactory.DMA_MAPS);
        m.gauge(MvnetaFactory.NAPI_POLLS, napi::polls);
        m.gauge(MvnetaFactory.RX_READY, () -> rxReady);
        m.gauge(MvnetaFactory.TX_DESC_USED, () -> txq.used());
        m.gauge(MvnetaFactory.FRAG_SIZE, () -> fragSize);
        m.gauge(MvnetaFactory.RX_REFILL_PENDING, rx::refillPending);
        m.series(MvnetaFactory.RX_READY.name);
        m.series(MvnetaFactory.TX_DESC_USED.name);
    }

    @Override
    public void start() {
        rx.fill();
    }

    /** @return the pool of {@code rx_copybreak} skbs (kind {@code skb}), for a v4.6 receive path to create once */
    BufferPool newCopyPool() {
        return ctx.pool("skb", "copy", rxRing + 256, copybreak, Map.of("headBytes", skbHeadBytes));
    }

    /**
     * @param ctx the element's context
     * @param key a {@link KernelBuild} size
     * @return {@code SKB_DATA_ALIGN} of that size as the profile states the kernel build ({@code SMP_CACHE_BYTES})
     */
    private static int skbDataAlign(ElementContext ctx, String key) {
        int cache = (int) kernelBuild(ctx, KernelBuild.SMP_CACHE_BYTES);
        if (cache < 8 || Integer.bitCount(cache) != 1) {
            throw new IllegalArgumentException(ctx.name() + ": profile " + ctx.costProfile().name() + ": "
                    + KernelBuild.SMP_CACHE_BYTES + "=" + cache + ", allowed a power of two of at least 8");
        }
        return ((int) kernelBuild(ctx, key) + cache - 1) & -cache;
    }

    private static double kernelBuild(ElementContext ctx, String key) {
        if (!ctx.costProfile().has(key)) {
            throw new IllegalArgumentException(ctx.name() + ": profile " + ctx.costProfile().name() + " does not state "
                    + key + ", from which mvneta sizes its buffers (frag_size) and its copybreak skb heads; add it with its"
                    + " source (docs/models/mvneta.md)");
        }
        return ctx.costProfile().value(key);
    }

    // ------------------------------------------------------------------ hot swap

    @Override
    public boolean exportState(ElementState out) {
        out.put(DriverState.TX_RING, txq);
        out.put(DriverState.TX_SEGMENTS, txRun.segments());
        out.put(DriverState.QDISC_RUN, txRun); // its pending runs: on the port's core, or on the core that rescheduled
        out.put(DriverState.NAPI, napi);
        out.put(DriverState.NAPI_SCHEDULED, napi.scheduled());
        out.put("mvneta.core", coreIndex);
        rx.exportState(out);
        out.put("mvneta.rxBuf", rxBuf.clone());
        out.put("mvneta.rxHead", rxHead);
        out.put("mvneta.rxReady", rxReady);
        out.put("mvneta.irqPending", irqPending);
        out.put("mvneta.irqEnabled", irqEnabled);
        out.put("mvneta.txStopped", txStopped);
        out.put("mvneta.coalTimer", coalTimer);
        out.putTask("mvneta.irqTask", irqTask);
        return true;
    }

    @Override
    public boolean importState(ElementState in) {
        if (!in.fromType().equals("mvneta") || !rx.accepts(in)) {
            return false; // another receive path (the descriptors mean something else), or other RX pools
        }
        SendRing ring = in.get(DriverState.TX_RING, SendRing.class);
        Buffer[] rxOld = in.get("mvneta.rxBuf", Buffer[].class);
        QdiscRun oldRun = in.get(DriverState.QDISC_RUN, QdiscRun.class);
        if (oldRun == null || ring.size() != txq.size() || rxOld.length != rxRing
                || in.getInt("mvneta.core", -1) != coreIndex) {
            return false; // other ring sizes or another core
        }
        txq = ring;
        txRun.takeOver(oldRun); // the segments not yet posted, pending runs in their places on every core
        System.arraycopy(rxOld, 0, rxBuf, 0, rxRing);
        rxHead = in.getInt("mvneta.rxHead", 0);
        rxReady = in.getInt("mvneta.rxReady", 0);
        rx.importState(in);
        irqPending = in.getInt("mvneta.irqPending", 0);
        irqEnabled = in.getBoolean("mvneta.irqEnabled", true);
        txStopped = in.getBoolean("mvneta.txStopped", false);
        coalTimer.takeOver(in.get("mvneta.coalTimer", Timer.class));
        napi.takeOver(in.get(DriverState.NAPI, Napi.class));
        in.requeue("mvneta.irqTask", irqTask);
        return true;
    }

    // ------------------------------------------------------------------ receive

    /** A frame from the wire. */
    @Override
    public void push(int inPort, Buffer frame) {
        if (rxReady == rxRing) {
            ctx.drop(coreIndex, frame, dropNoDesc);
            return;
        }
        int slot = rxHead + rxReady;
        if (slot >= rxRing) {
            slot -= rxRing;
        }
        Buffer b = rx.dmaTarget(slot, frame); // the descriptor's buffer, or the BM's for this size
        if (b == null) {
            return; // dropped by the path: no buffer in the descriptor, or the BM pool empty
        }
        ctx.transferPacket(frame, b);
        frame.pool().free(coreIndex, frame);
        ctx.dmaWrite(b.address(), b.length());
        rxReady++;
        if (irqEnabled) {
            if (++irqPending >= coalPkts) {
                raiseIrq();
            } else if (!coalTimer.pending()) {
                coalTimer.after(coalPicos);
            }
        }
    }

    /** {@code mvneta_isr}: disable the per-CPU interrupt and schedule NAPI. */
    private void isr() {
        write(); // disable_percpu_irq: the interrupt controller's register
        irqPending = 0;
        coalTimer.cancel();
        napi.schedule();
    }

    private void raiseIrq() {
        if (irqEnabled) {
            irqEnabled = false;
            rxIrqs.increment();
            core.submit(Core.HARDIRQ, irqTask);
        }
    }

    @Override
    public int poll(int budget) {
        read(); // mvneta_poll: MVNETA_INTR_NEW_CAUSE
        txDoneClean();
        int done = 0;
        while (done < budget && rxReady > 0) {
            Buffer b = rxBuf[rxHead];
            int slot = rxHead;
            if (++rxHead == rxRing) {
                rxHead = 0;
            }
            rxReady--;
            done++;
            core.charge(self, rxCycles, 1);
            rxPackets.increment();
            rxBytes.add(b.length());
            rx.receive(slot, b);
        }
        int refilled = rx.refillAfterPoll(); // the current kernel's mvneta_rx_refill_queue; 0 on the v4.6 paths
        if (done > 0 || refilled > 0) {
            write(); // mvneta_rxq_desc_num_update: the descriptors processed (and, software refill, refilled)
        }
        if (done < budget) {
            write(); // enable_percpu_irq
            irqEnabled = true; // napi_complete, enable_percpu_irq
            if (rxReady > 0 || txq.sent() > 0) {
                raiseIrq();
            }
        }
        return done;
    }

    /**
     * rx_copybreak (v4.6 paths): a new small skb from {@code copyPool} gets the frame; the caller keeps or returns the
     * buffer.
     */
    void copy(Buffer b, BufferPool copyPool) {
        rxCopies.increment();
        Buffer skb = copyPool.alloc(coreIndex, self);
        if (skb == null) {
            ctx.recycle(b, dropRefill);
            return;
        }
        ctx.transferPacket(b, skb);
        skb.length(b.length());
        core.touch(self, b.address(), b.length(), false); // the memcpy reads the frame
        ctx.recycle(b, dropRefill); // clears the buffer for reuse (it no longer carries a packet)
        up(skb);
    }

    /** {@code napi_gro_receive}, or a drop ({@code rx-no-stack}) when nothing is connected to {@code stack}. */
    void up(Buffer skb) {
        if (stack.connected()) {
            stack.push(skb); // napi_gro_receive
        } else {
            ctx.drop(coreIndex, skb, dropNoStack);
        }
    }

    // ------------------------------------------------------------------ transmit

    /**
     * The qdisc has packets: {@code dev_queue_xmit} runs the qdisc and {@code mvneta_tx} on the sending CPU
     * ({@link QdiscRun}): inside the receiving poll for a forwarded packet or the kernel's own reply, inside the sending
     * process's system call for a socket's data.
     */
    @Override
    public void ready(int inPort) {
        txRun.ready();
    }

    /** The queue's stop bit, or a ring with no descriptor left. */
    @Override
    public boolean stopped() {
        return txStopped || txq.queued() >= txq.size();
    }

    /** {@code mvneta_tx} for one skb on core {@code c}; the queue stops at {@code tx_stop_threshold}. */
    @Override
    public int startXmit(Core c, Buffer skb) {
        c.charge(self, txCycles, 1); // mvneta_tx
        write(c); // mvneta_txq_pend_desc_add: the doorbell, one register write per skb (no xmit_more batching)
        int descs = 1 + skb.fragments();
        txq.post(skb, descs);
        if (txq.used() >= stopThreshold) {
            txStopped = true; // netif_tx_stop_queue at tx_stop_threshold
            txStops.increment();
        }
        return NETDEV_TX_OK;
    }

    /** The NIC's DMA fetches when the wire is idle (the doorbell itself is written per skb, above). */
    @Override
    public void kick(Core c) {
        wire.ready();
    }

    @Override
    public Buffer pull(int outPort) {
        Buffer bits = txq.toWire();
        if (bits == null) {
            return null;
        }
        txPackets.increment();
        txBytes.add(bits.length());
        if (txDoneIrq) {
            txIrqs.increment();
            raiseIrq(); // MVNETA_TXDONE_COAL_PKTS: an interrupt per sent frame (while NAPI is not already running)
        }
        return bits;
    }

    /** {@code mvneta_tx_done_gbe} / {@code mvneta_txq_done}: frees what was sent and wakes the queue at half the stop. */
    private void txDoneClean() {
        if (txq.sent() > 0) {
            read(); // mvneta_txq_sent_desc_num_get: MVNETA_TXQ_STATUS_REG
            write(); // mvneta_txq_sent_desc_dec
        }
        for (Buffer skb = txq.clean(); skb != null; skb = txq.clean()) {
            skb.pool().free(coreIndex, skb); // dev_kfree_skb_any
        }
        if (txStopped && txq.used() <= wakeThreshold) {
            txStopped = false; // netif_tx_wake_queue: __netif_schedule raises NET_TX_SOFTIRQ on this core
            txRun.schedule();
        }
    }

    /** A register read: strongly ordered on the Armada 38x (its I/O space is mapped MT_UNCACHED). */
    private void read() {
        core.charge(self, mmioRead, 0);
        mmioReads.increment();
    }

    /** A register write from the port's core, strongly ordered likewise. */
    private void write() {
        write(core);
    }

    private void write(Core c) {
        c.charge(self, mmioWrite, 0);
        mmioWrites.increment();
    }

    /** @return the receive path chosen at construction (for the same-package tests) */
    RxPath rxPath() {
        return rx;
    }

    // ------------------------------------------------------------------ accounting

    @Override
    public void forEachHeld(BufferVisitor visitor) {
        rxView.forEachHeld(visitor);
        txq.forEachHeld(visitor);
        txRun.segments().forEachHeld(visitor);
    }

    @Override
    public DescriptorRing txRing() {
        return txq;
    }

    @Override
    public DescriptorRing rxRing() {
        return rxView;
    }
}

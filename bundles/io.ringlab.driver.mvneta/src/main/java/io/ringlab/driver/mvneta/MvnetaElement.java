package io.ringlab.driver.mvneta;

import java.util.Map;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.buffer.api.HardwareBufferPool;
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
import io.ringlab.sim.api.Metrics;
import io.ringlab.sim.api.OutputPort;
import io.ringlab.sim.api.Timer;

/**
 * One port of the mvneta driver of 2016 ({@code drivers/net/ethernet/marvell/mvneta.c} around v4.6, with the hardware
 * buffer manager of commit dc35a10f68d3); sources in docs/research/mvneta-armada.md, the model in docs/models/mvneta.md.
 * <p>
 * <b>Receive, software refill</b> ({@code bm = false}, {@code mvneta_rx_swbm}): {@code rxRing} (128) descriptors, each
 * holding a buffer of {@code frag_size} from pool kind {@code pagefrag} ({@code netdev_alloc_frag}). A frame takes the
 * next free descriptor (DMA into its buffer) or is dropped ({@code rx-no-descriptor}). In the poll: a frame of at most
 * {@code rxCopybreak} (256) bytes is copied into a new small skb (pool kind {@code skb}) and the buffer stays; a larger
 * one first gets a replacement ({@code mvneta_rx_refill}; failing that the frame is dropped and the buffer kept) and then
 * goes up the stack itself ({@code build_skb}).
 * <p>
 * <b>Receive, buffer manager</b> ({@code bm = true}, {@code mvneta_rx_hwbm}): the device takes a buffer for each frame
 * from the short pool (frames up to {@code shortPktSize}, 256) or the long one (pools of kind {@code hwbm}, 2048 buffers
 * each, {@code MVNETA_BM_POOL_CAP_DEF}), or drops it when that pool is empty ({@code bm-pool-empty}); the descriptor
 * ring only carries completions. In the poll: a copybreak frame is copied and its buffer returned ({@code put_bp}); a
 * larger one gets {@code hwbm_pool_refill} first (failing that the buffer is returned and the frame dropped) and is then
 * detached from the pool and goes up the stack.
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
 * <b>Current kernel preset</b> ({@code kernel = current}): the software path of {@code mvneta.c} as of v6.12 (read at
 * torvalds/linux 002c6ca75289, whose RX and TX paths match v6.12's; see docs/models/mvneta.md "Current kernel preset"):
 * <ul>
 * <li>rings: {@code MVNETA_MAX_RXD} 512 and {@code MVNETA_MAX_TXD} 1024 ({@code mvneta_probe}: {@code rx_ring_size},
 * {@code tx_ring_size}); TX stop at 1024 - 217 = 807 used, wake at 403 ({@code mvneta_txq_sw_init});</li>
 * <li>a page_pool per RX queue ({@code mvneta_create_page_pool}: order 0, {@code PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV},
 * {@code pool_size} = the RX ring, {@code offset} = {@code rx_offset_correction} = {@code MVNETA_SKB_HEADROOM} =
 * {@code ALIGN(max(NET_SKB_PAD, XDP_PACKET_HEADROOM 256), 8)} = 256, {@code max_len} = {@code MVNETA_MAX_RX_BUF_SIZE} =
 * {@code PAGE_SIZE - SKB_DATA_ALIGN(sizeof(skb_shared_info) + 256)}, no {@code .napi}); pool kind {@code pagepool};</li>
 * <li>RX ({@code mvneta_rx_swbm}): every frame, whatever its size, goes up in its page ({@code mvneta_swbm_rx_frame},
 * {@code build_skb(data, PAGE_SIZE)}, {@code skb_mark_for_recycle}, {@code napi_gro_receive}): no {@code rx_copybreak}
 * (the variable remains, used only by {@code mvneta_rx_hwbm}); the descriptor is left empty ({@code refill_num++}) and
 * at the end of the poll {@code mvneta_rx_refill_queue} refills up to 64 of them with {@code page_pool_alloc_pages}; a
 * descriptor still empty is not given back to the device, so frames that reach it are dropped
 * ({@code rx-no-descriptor});</li>
 * <li>TX completion: {@code mvneta_txq_bufs_free} frees with {@code dev_kfree_skb_any} (not {@code napi_consume_skb});
 * a page of the pool comes back through {@code napi_pp_put_page} → {@code page_pool_put_full_netmem(.., false)}, not
 * NAPI-local (no {@code .napi}), so into the ptr_ring;</li>
 * <li>unchanged: {@code MVNETA_RX_COAL_PKTS} 32, {@code MVNETA_RX_COAL_USEC} 100, {@code MVNETA_TXDONE_COAL_PKTS} 0
 * ("interrupt per packet"), {@code MVNETA_MAX_TSO_SEGS} 100, the NAPI poll's order (TX done first).</li>
 * </ul>
 * Not modelled in the preset: BQL ({@code netdev_tx_sent_queue} in {@code mvneta_tx}, {@code netdev_tx_completed_queue}
 * in {@code mvneta_txq_bufs_free}) and the {@code xmit_more} doorbell batching, XDP, frames spanning descriptors (an MTU
 * whose {@code MVNETA_RX_PKT_SIZE} exceeds {@code MVNETA_MAX_RX_BUF_SIZE} is refused), the skb head of
 * {@code build_skb} (as in the v4.6 model, the buffer is the skb). The buffer manager with {@code kernel = current} is
 * refused.
 * <p>
 * <b>Hot swap</b> ({@link Handover}): a successor on the same core with the same receive path ({@code bm}, {@code
 * kernel}), ring sizes and RX pools (the same pools again: the page fragments, the page_pool, or the BM's long and
 * short pools with the buffers in the device) takes over the TX ring with its skbs, the segments not yet posted, the
 * queue's stop state, the RX descriptors with their buffers and received frames, the refill position of the current
 * preset, the interrupt state (pending frame count, enabled) and the coalescing timer, the NAPI context, and the
 * interrupt and transmit tasks on every core they wait on, each in the predecessor's place. Otherwise drain and
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
    /** The 64-descriptor limit of {@code mvneta_rx_refill_queue}'s loop. */
    static final int REFILL_MAX = 64;
    /** Page frames the stack, qdiscs and other devices' TX rings may hold besides the pool's own: an assumed bound. */
    static final int PAGES_OUTSIDE = 2048;

    private final ElementContext ctx;
    private final int self;
    private final int coreIndex;
    private final Core core;
    private final Napi napi;
    private final InputPort in;
    private final OutputPort wire, stack;
    private final boolean bm;
    private final boolean current;
    private final int copybreak, shortPktSize, fragSize;
    private final long rxCycles, txCycles, mmioRead, mmioWrite, dmaMap;
    private final int coalPkts;
    private final long coalPicos;
    private final boolean txDoneIrq;

    // RX ring: ready descriptors from rxHead carry frames; in software mode every descriptor holds a buffer
    private final int rxRing;
    private final Buffer[] rxBuf;
    private final DescriptorRing rxView;
    private int rxHead, rxReady;
    private final BufferPool fragPool, copyPool, pagePool;
    private int refillNum, firstToRefill; // current: descriptors left empty by the poll, the first of them
    private final HardwareBufferPool longPool, shortPool;
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
    private final int dropNoDesc, dropPoolEmpty, dropRefill, dropNoStack;
    private final Metrics.Counter rxPackets, rxBytes, rxCopies, rxRefillFailures, rxIrqs, txPackets, txBytes, txIrqs,
            txStops, mmioReads, mmioWrites, dmaMaps;

    MvnetaElement(ElementContext ctx) {
        this.ctx = ctx;
        this.self = ctx.index();
        Configuration c = ctx.config();
        this.coreIndex = (int) c.getLong("core");
        this.core = ctx.core(coreIndex);
        this.bm = c.getBoolean("bm");
        this.current = "current".equals(c.getString("kernel"));
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
        this.shortPktSize = (int) c.getLong("shortPktSize");
        int mtu = (int) c.getLong("mtu");
        // MVNETA_RX_PKT_SIZE(mtu) = ALIGN(mtu + MH 2 + VLAN 4 + ETH_HLEN 14 + FCS 4, 32)
        int pktSize = (mtu + 2 + 4 + 14 + 4 + 31) & ~31;
        int headroom = 64; // NET_SKB_PAD = max(32, L1_CACHE_BYTES), 64 with ARM_L1_CACHE_SHIFT_6
        int shinfo = (int) c.getLong("shinfoBytes");
        // v4.6: SKB_DATA_ALIGN(buf) + SKB_DATA_ALIGN(shinfo); current: build_skb(data, PAGE_SIZE), a page per frame
        this.fragSize = current ? PAGE_SIZE : ((pktSize + headroom + 63) & ~63) + shinfo;
        // MVNETA_MAX_RX_BUF_SIZE = PAGE_SIZE - MVNETA_SKB_PAD, MVNETA_SKB_PAD = SKB_DATA_ALIGN(shinfo + headroom 256)
        int maxRxBuf = PAGE_SIZE - (shinfo + SKB_HEADROOM_CURRENT);
        if (current && pktSize > maxRxBuf) {
            throw new IllegalArgumentException("mtu=" + mtu + ": MVNETA_RX_PKT_SIZE " + pktSize + " exceeds"
                    + " MVNETA_MAX_RX_BUF_SIZE " + maxRxBuf + "; frames spanning descriptors are not modelled");
        }
        long rx = c.getLong("rxCycles");
        long tx = c.getLong("txCycles");
        this.rxCycles = rx >= 0 ? rx : (long) ctx.costProfile().value("mvneta.rxPacketCycles", 0);
        this.txCycles = tx >= 0 ? tx : (long) ctx.costProfile().value("mvneta.txPacketCycles", 0);
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
        int longCap = (int) c.getLong("longPoolSize");
        int shortCap = (int) c.getLong("shortPoolSize");
        Map<String, Object> bmSettings = Map.of("headroom", headroom, "shinfoBytes", shinfo);
        if (current) {
            this.longPool = null;
            this.shortPool = null;
            this.fragPool = null;
            // mvneta_create_page_pool: pool_size = the ring, offset = rx_offset_correction, max_len; frames: the ring's
            // pages, the cache's, the ptr_ring's, and those outside the pool (assumed bound)
            this.pagePool = ctx.pool("pagepool", "rx", 2 * rxRing + 128 + PAGES_OUTSIDE, maxRxBuf,
                    Map.of("poolSize", rxRing, "offset", SKB_HEADROOM_CURRENT));
        } else if (bm) {
            this.pagePool = null;
            this.longPool = (HardwareBufferPool) ctx.pool("hwbm", "long", longCap, pktSize, bmSettings);
            this.shortPool = (HardwareBufferPool) ctx.pool("hwbm", "short", shortCap, shortPktSize, bmSettings);
            this.fragPool = null;
        } else {
            this.pagePool = null;
            this.longPool = null;
            this.shortPool = null;
            // the ring's buffers and those the stack holds
            this.fragPool = ctx.pool("pagefrag", "rx", 2 * rxRing + 256, fragSize, Map.of());
        }
        this.copyPool = current ? null : ctx.pool("skb", "copy", rxRing + 256, copybreak, Map.of());
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
        m.gauge(MvnetaFactory.RX_REFILL_PENDING, () -> refillNum);
        m.series(MvnetaFactory.RX_READY.name);
        m.series(MvnetaFactory.TX_DESC_USED.name);
    }

    @Override
    public void start() {
        if (bm) {
            // mvneta_bm_pool_use: fill each pool with hwbm_pool_add(pool, size)
            longPool.add(coreIndex, longPool.size());
            shortPool.add(coreIndex, shortPool.size());
        } else {
            BufferPool fill = current ? pagePool : fragPool;
            for (int i = 0; i < rxRing; i++) { // mvneta_rxq_fill
                rxBuf[i] = fill.alloc(coreIndex, self);
            }
        }
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
        out.put("mvneta.bm", bm);
        out.put("mvneta.current", current);
        out.put("mvneta.rxPool", rxPool());
        if (bm) {
            out.put("mvneta.shortPool", shortPool);
        }
        out.put("mvneta.rxBuf", rxBuf.clone());
        out.put("mvneta.rxHead", rxHead);
        out.put("mvneta.rxReady", rxReady);
        out.put("mvneta.refillNum", refillNum);
        out.put("mvneta.firstToRefill", firstToRefill);
        out.put("mvneta.irqPending", irqPending);
        out.put("mvneta.irqEnabled", irqEnabled);
        out.put("mvneta.txStopped", txStopped);
        out.put("mvneta.coalTimer", coalTimer);
        out.putTask("mvneta.irqTask", irqTask);
        return true;
    }

    @Override
    public boolean importState(ElementState in) {
        if (!in.fromType().equals("mvneta") || in.getBoolean("mvneta.bm", false) != bm
                || in.getBoolean("mvneta.current", false) != current) {
            return false; // another receive path: the descriptors mean something else
        }
        SendRing ring = in.get(DriverState.TX_RING, SendRing.class);
        Buffer[] rx = in.get("mvneta.rxBuf", Buffer[].class);
        QdiscRun oldRun = in.get(DriverState.QDISC_RUN, QdiscRun.class);
        if (oldRun == null || ring.size() != txq.size() || rx.length != rxRing || in.getInt("mvneta.core", -1) != coreIndex
                || in.get("mvneta.rxPool", BufferPool.class) != rxPool()
                || (bm && in.get("mvneta.shortPool", BufferPool.class) != shortPool)) {
            return false; // other ring sizes, another core, or other RX pools (an unfilled BM pool would drop every frame)
        }
        txq = ring;
        txRun.takeOver(oldRun); // the segments not yet posted, pending runs in their places on every core
        System.arraycopy(rx, 0, rxBuf, 0, rxRing);
        rxHead = in.getInt("mvneta.rxHead", 0);
        rxReady = in.getInt("mvneta.rxReady", 0);
        refillNum = in.getInt("mvneta.refillNum", 0);
        firstToRefill = in.getInt("mvneta.firstToRefill", 0);
        irqPending = in.getInt("mvneta.irqPending", 0);
        irqEnabled = in.getBoolean("mvneta.irqEnabled", true);
        txStopped = in.getBoolean("mvneta.txStopped", false);
        coalTimer.takeOver(in.get("mvneta.coalTimer", Timer.class));
        napi.takeOver(in.get(DriverState.NAPI, Napi.class));
        in.requeue("mvneta.irqTask", irqTask);
        return true;
    }

    /** @return the pool the RX descriptors' buffers come from: the page_pool, the long BM pool, or the page fragments */
    private BufferPool rxPool() {
        return current ? pagePool : bm ? longPool : fragPool;
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
        Buffer b;
        if (bm) {
            HardwareBufferPool pool = frame.length() <= shortPktSize ? shortPool : longPool;
            b = pool.alloc(coreIndex, self); // the BM hands the RX DMA a buffer of the pool for this size
            if (b == null) {
                ctx.drop(coreIndex, frame, dropPoolEmpty);
                return;
            }
            rxBuf[slot] = b;
        } else {
            b = rxBuf[slot];
            if (b == null) { // a refill failed earlier: the descriptor has no buffer
                ctx.drop(coreIndex, frame, dropNoDesc);
                return;
            }
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
            if (current) {
                rxBuf[slot] = null; // mvneta_swbm_rx_frame: buf_phys_addr = 0; refill_num++
                refillNum++;
                up(b); // mvneta_swbm_build_skb: build_skb around the page, skb_mark_for_recycle
            } else if (bm) {
                rxBuf[slot] = null;
                receiveBm(b);
            } else {
                receiveSw(slot, b);
            }
        }
        int refilled = current ? refillQueue() : 0;
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

    /** {@code mvneta_rx_swbm} for one descriptor. */
    private void receiveSw(int slot, Buffer b) {
        if (b.length() <= copybreak) {
            copy(b);
            return; // the buffer stays in its descriptor
        }
        Buffer fresh = fragPool.alloc(coreIndex, self); // mvneta_rx_refill: netdev_alloc_frag + dma_map
        if (fresh == null) {
            rxRefillFailures.increment();
            ctx.recycle(b, dropRefill); // the frame is dropped, the buffer stays in the descriptor
            return;
        }
        core.charge(self, dmaMap, 0); // dma_map_single of the new buffer (arm_coherent_dma_ops: no cache work)
        dmaMaps.increment();
        rxBuf[slot] = fresh;
        up(b); // build_skb around the old buffer (dma_unmap_single: no unmap hook with the coherent ops)
    }

    /**
     * {@code mvneta_rx_refill_queue} (current): up to 64 of the descriptors the poll left empty get a page from the
     * page_pool ({@code mvneta_rx_refill}); the first failure stops the loop ({@code refill_error}).
     *
     * @return the descriptors refilled
     */
    private int refillQueue() {
        int i = 0;
        int slot = firstToRefill;
        for (; i < refillNum && i < REFILL_MAX; i++) {
            if (rxBuf[slot] == null) {
                Buffer page = pagePool.alloc(coreIndex, self); // page_pool_alloc_pages(GFP_ATOMIC)
                if (page == null) {
                    rxRefillFailures.increment();
                    break;
                }
                rxBuf[slot] = page;
            }
            if (++slot == rxRing) {
                slot = 0;
            }
        }
        refillNum -= i;
        firstToRefill = slot;
        return i;
    }

    /** {@code mvneta_rx_hwbm} for one completion. */
    private void receiveBm(Buffer b) {
        HardwareBufferPool pool = (HardwareBufferPool) b.pool();
        if (b.length() <= copybreak) {
            copy(b);
            pool.free(coreIndex, b); // mvneta_bm_pool_put_bp: the same buffer back
            return;
        }
        if (!pool.refill(coreIndex)) { // hwbm_pool_refill
            rxRefillFailures.increment();
            ctx.drop(coreIndex, b, dropRefill); // put_bp of the old buffer, the frame dropped
            return;
        }
        pool.detach(b);
        up(b);
    }

    /** rx_copybreak: a new small skb gets the frame; the caller keeps or returns the buffer. */
    private void copy(Buffer b) {
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

    private void up(Buffer skb) {
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

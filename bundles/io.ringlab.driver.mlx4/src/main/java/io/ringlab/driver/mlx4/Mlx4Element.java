package io.ringlab.driver.mlx4;

import java.util.Arrays;
import java.util.Map;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferDestructor;
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
import io.ringlab.sim.api.Metrics;
import io.ringlab.sim.api.OutputPort;

/**
 * One RX ring and one TX ring of the mlx4_en driver of early 2016 (Mellanox ConnectX-3,
 * {@code drivers/net/ethernet/mellanox/mlx4/en_rx.c} and {@code en_tx.c}, v4.5/v4.6, with Brouer's March 2016 patch
 * "mlx4: use napi_consume_skb API to get bulk free operations") on one core; the model is in docs/models/mlx4.md.
 * <p>
 * <b>Receive ring.</b> {@code rxRing} descriptors ({@code MLX4_EN_DEF_RX_RING_SIZE} 1024), each posted with one page
 * fragment ({@code mlx4_en_alloc_frags}; one fragment per descriptor for MTUs up to 1518: {@code mlx4_en_calc_rx_buf}
 * gives {@code frag_size = min(mtu + ETH_HLEN + VLAN_HLEN, FRAG_SZ0 = 1536)} and {@code frag_stride =
 * ALIGN(frag_size, SMP_CACHE_BYTES)}, 1536 for MTU 1500). Fragments are carved by the ring's own page allocator
 * ({@code ring->page_alloc}): an order-3 page ({@code MLX4_EN_ALLOC_PREFER_ORDER = PAGE_ALLOC_COSTLY_ORDER}, 32 KB) is
 * taken with {@code alloc_pages} and {@code dma_map_page} once and given {@code page_size / frag_stride} references at
 * once ({@code mlx4_alloc_pages}: "Not doing get_page() for each frag is a big win"), 21 for MTU 1500; the offset advances
 * one stride per fragment, and a new page is taken when the next fragment would not fit. Each fragment handed out holds
 * one reference; the page goes back to the page allocator when the last one is dropped ({@code put_page}). That
 * bookkeeping is this element's own ({@code rxPagesAllocated}, {@code rxPagesFreed}, {@code rxPagesInUse},
 * {@code rxFragsAllocated}, {@code rxFragsFreed}); pages allocated are about packets / 21.
 * <p>
 * A frame from the wire takes the next posted descriptor: the NIC writes it by DMA into the descriptor's fragment
 * ({@code ElementContext.dmaWrite} at the fragment's address). The frame is carried until the poll by a per-descriptor
 * record of the element's pool {@code <element>.desc} (kind {@code fixed}, allocated once at start and never freed: it
 * stands for the descriptor, not for memory the kernel allocates). With no posted descriptor left the NIC drops the frame
 * ({@code rx-no-descriptor}).
 * <p>
 * <b>RX NAPI</b> ({@code mlx4_en_poll_rx_cq} → {@code mlx4_en_process_rx_cq}, budget {@code napiWeight} 64; its own NAPI
 * context, as mlx4 has one per RX CQ and one per TX CQ). A completion while the RX CQ is armed raises the interrupt
 * ({@code mlx4_en_rx_irq}: {@code napi_schedule}). For each completion up to the budget: {@code rxCycles}, then the skb:
 * <ul>
 * <li>{@code gro = true} (the default: every netdev has {@code NETIF_F_GRO}): {@code napi_get_frags} allocates the skb
 * head ({@code napi_alloc_skb}, pool {@code <element>.rx} of kind {@code skb}, setting {@code allocBulk}) and
 * {@code mlx4_en_complete_rx_desc} moves the fragment into it ({@code nr_frags} 1: the page reference goes with the skb,
 * dropped when the skb is freed, through the skb's destructor), then {@code napi_gro_frags} hands it up ({@code stack});</li>
 * <li>{@code gro = false}: {@code mlx4_en_rx_skb} allocates the skb with {@code netdev_alloc_skb(SMALL_PACKET_SIZE)} (the
 * same pool: its head is a {@code kmem_cache_alloc} of the same {@code skbuff_head_cache}); a frame of at most
 * {@code SMALL_PACKET_SIZE} (256) bytes is copied and its fragment dropped at once ({@code mlx4_en_free_frag}), a larger one
 * takes the fragment as above.</li>
 * </ul>
 * Either way the descriptor gets a new fragment: {@code mlx4_en_refill_rx_buffers} after the loop refills every consumed
 * descriptor (the 2016 driver never reuses a fragment in place; the page recycling of v4.8's XDP work came later). A poll
 * under budget completes NAPI and re-arms the CQ.
 * <p>
 * <b>Transmit</b> (ports {@code in} and {@code wire}, both optional). The SDK's qdisc run ({@link QdiscRun}) calls
 * {@code mlx4_en_xmit} per skb: at once inside the task that signals, on its core (a forwarded packet's
 * {@code dev_queue_xmit} within the receiving poll), else as transmit work on the ring's core; at most
 * {@code dev_tx_weight} = 64 a run, then NET_TX_SOFTIRQ. The ring is {@code txRing} TXBBs of 64 bytes
 * ({@code MLX4_EN_DEF_TX_RING_SIZE} 512); an skb of at most {@code inlineThold} bytes (104, {@code MAX_INLINE}) is copied
 * inline into its descriptor ({@code inline_size}: {@code ALIGN(len + CTRL_SIZE + 4, 16)} if that fits 64 bytes, else
 * {@code ALIGN(len + CTRL_SIZE + 8, 16)}), others take {@code CTRL_SIZE + (nr_frags + 1) * DS_SIZE}; rounded up to TXBBs
 * (a 64-byte frame: 2). Before each skb, a ring with more than {@code txRing - HEADROOM (33) - MAX_DESC_TXBBS (8)} TXBBs
 * in use stops the queue. A GSO skb is segmented in software (no TSO in the model). {@code txCycles} per sent skb.
 * <p>
 * <b>TX completion</b> ({@code mlx4_en_poll_tx_cq} → {@code mlx4_en_process_tx_cq}, its own NAPI context): each frame the
 * wire takes is a completion, which raises the TX CQ's interrupt when armed. A poll cleans at most
 * {@code txWorkLimit} (256, {@code MLX4_EN_DEFAULT_TX_WORK}, {@code priv->tx_work_limit}) completions, freeing each skb
 * with {@code napi_consume_skb} ({@code bulkFree = true}: deferred into the per-CPU NAPI cache of the skb's pool, freed
 * 64 at a time, or at the end of the softirq) or {@code dev_kfree_skb} ({@code false}: one {@code kmem_cache_free} at
 * once), then wakes a stopped queue. A poll that cleaned the limit polls again; otherwise it completes and re-arms the CQ.
 * <p>
 * <b>Cost.</b> {@code rxCycles} per received packet (default: the profile's {@code mlx4.rxPacketCycles}, else
 * {@link #BORROWED_RX_CYCLES}, 241, borrowed from the mlx5 fit), {@code txCycles} per sent skb (default: the profile's
 * {@code mlx4.txPacketCycles}, else 0, as mlx5), the profile's {@code pagefrag.pageAllocCycles} per order-3 page
 * ({@code alloc_pages} + {@code dma_map_page}; 0 when the profile has none), and whatever the skb pool charges (the slab
 * model's operations and cache misses). A packet this element received and then sends counts once for
 * {@code cpuNanosPerPacket}. Packet data, CQEs and the driver's code are not touched through the cache model (see mlx5).
 * <p>
 * <b>Hot swap</b> ({@link Handover}): a successor on the same core with the same ring sizes and MTU takes over the TX
 * ring with its skbs and the segments not yet posted, the queue's stop state and the TX CQ's arming, the RX descriptors
 * (their records, received frames and fragments), the RX CQ's arming, the page allocator whole (its pages where they
 * are mapped, their references, the free list, the page being carved and its offset, the counts), the page references
 * of the RX skbs up the stack (their destructors become the successor's), both NAPI contexts, and the interrupt and
 * transmit tasks, each in the predecessor's place. Otherwise drain and restart.
 * <p>
 * Counters: see {@link Mlx4Factory}. Not modelled: interrupt moderation (CQ coalescing), RSS, several rings, LRO/TSO,
 * checksums, the BlueFlame doorbell, jumbo frames (several fragments per descriptor). Engine thread only.
 */
final class Mlx4Element implements NicDriver, Handover, StartXmit {
    /**
     * Cycles per received packet outside the allocator, <b>borrowed</b> from the mlx5 model's fit (docs/models/mlx5.md:
     * 241 cycles, fitted to seed 002's 12 Mpps on the generic-x86-4ghz profile). No mlx4 figure of that kind is published;
     * the two drivers' RX loops of early 2016 did the same work per packet (CQE parsing, DMA sync, skb setup), so the
     * same constant is used rather than an invented one.
     */
    static final long BORROWED_RX_CYCLES = 241;
    /** {@code MLX4_EN_DEF_RX_RING_SIZE} ({@code mlx4_en.h}): 1024 RX descriptors. */
    static final int DEFAULT_RX_RING = 1024;
    /** {@code MLX4_EN_DEF_TX_RING_SIZE} ({@code mlx4_en.h}, v4.x until the TX default was raised): 512 TXBBs. */
    static final int DEFAULT_TX_RING = 512;
    /** {@code MLX4_EN_DEFAULT_TX_WORK} ({@code mlx4_en.h}): {@code priv->tx_work_limit}, completions one TX poll cleans. */
    static final int DEFAULT_TX_WORK = 256;
    /** {@code TXBB_SIZE} ({@code mlx4_en.h}): bytes of one TX basic block. */
    static final int TXBB_SIZE = 64;
    /** {@code HEADROOM} = 2048 / {@code TXBB_SIZE} + 1 ({@code mlx4_en.h}): TXBBs kept free for the HW prefetch. */
    static final int HEADROOM = 2048 / TXBB_SIZE + 1;
    /** {@code MAX_DESC_TXBBS} = {@code MAX_DESC_SIZE} 512 / {@code TXBB_SIZE} ({@code mlx4_en.h}). */
    static final int MAX_DESC_TXBBS = 512 / TXBB_SIZE;
    /** {@code CTRL_SIZE} = sizeof(struct mlx4_wqe_ctrl_seg) = 16; {@code DS_SIZE} = sizeof(struct mlx4_wqe_data_seg) = 16. */
    static final int CTRL_SIZE = 16, DS_SIZE = 16;
    /** sizeof(struct mlx4_wqe_inline_seg) = 4; {@code MLX4_INLINE_ALIGN} = 64 ({@code include/linux/mlx4/qp.h}). */
    static final int INLINE_SEG = 4, INLINE_ALIGN = 64;
    /** {@code MAX_INLINE} = 104 ({@code mlx4_en.h}, "128 - 16 - 4 - 4"): the default of module parameter inline_thold. */
    static final int MAX_INLINE = 104;
    /** {@code SMALL_PACKET_SIZE} = 256 - {@code NET_IP_ALIGN} (0 on x86) ({@code mlx4_en.h}): the copy limit of mlx4_en_rx_skb. */
    static final int SMALL_PACKET_SIZE = 256;
    /** {@code FRAG_SZ0} = 1536 - {@code NET_IP_ALIGN} ({@code mlx4_en.h}): the first fragment's size at most. */
    static final int FRAG_SZ0 = 1536;
    /** {@code ETH_HLEN} 14 + {@code VLAN_HLEN} 4: what {@code mlx4_en_calc_rx_buf} adds to the MTU. */
    static final int L2_OVERHEAD = 14 + 4;
    /** {@code SMP_CACHE_BYTES} on x86-64: the fragment stride's alignment. */
    static final int SMP_CACHE_BYTES = 64;
    /** {@code PAGE_SIZE << MLX4_EN_ALLOC_PREFER_ORDER}, {@code PAGE_ALLOC_COSTLY_ORDER} = 3: 32 KB per RX page. */
    static final int PAGE_BYTES = 4096 << 3;
    /** Segments of one GSO skb at most: 65,536 / 88 ({@code TCP_MIN_MSS}) + 1. */
    static final int MAX_GSO_SEGS = 65536 / 88 + 1;

    private static final int NONE = -1;

    private final ElementContext ctx;
    private final int self;
    private final Core core;
    private final int coreIndex;
    private final OutputPort stack;
    private final BufferPool skbPool;
    private final boolean gro;
    private final long rxCycles, txCycles, pageAllocCycles;
    private final int fragSize, fragStride, fragsPerPage;

    // RX ring: carrier[i] is descriptor i's record; descPage/descOffset its fragment (NONE: not posted)
    private final int rxRing;
    private final Buffer[] carrier;
    private final DescriptorRing rxView;
    private final int[] descPage, descOffset;
    private final BufferPool descPool;
    private int head, ready, posted;
    private boolean rxArmed = true;

    // the ring's page allocator (ring->page_alloc): pages of PAGE_BYTES, references per page
    private long pageBase;
    private final int[] pageRefs;
    private final int[] freePages;
    private int freePageCount;
    private int curPage = NONE, curOffset;
    private final PageRef[] pageRef;
    private long pagesAllocated, pagesFreed, fragsAllocated, fragsFreed, pageFailures;

    // transmit
    private final InputPort in;
    private final OutputPort wire;
    private SendRing sq;
    private final int txRing, stopLevel, txWorkLimit, inlineThold;
    private final boolean bulkFree;
    private boolean txStopped, txArmed = true;
    private final BufferPool gsoPool;
    private final QdiscRun txRun;

    private final Napi rxNapi, txNapi;
    private final CpuTask rxIrqTask, txIrqTask;
    private final int dropNoDesc, dropNoSkb, dropNoStack, dropOversize;
    private final Metrics.Counter rxPackets, rxBytes, nicDrops, rxIrqs, txIrqs, refillFailures, rxCopies, skbFailures,
            txPackets, txBytes, txCompletions, txStops, txWakes, txBbsPosted;

    Mlx4Element(ElementContext ctx) {
        this.ctx = ctx;
        this.self = ctx.index();
        Configuration c = ctx.config();
        this.coreIndex = (int) c.getLong("core");
        this.core = ctx.core(coreIndex);
        this.rxRing = (int) c.getLong("rxRing");
        this.txRing = (int) c.getLong("txRing");
        int budget = (int) c.getLong("napiWeight");
        this.gro = c.getBoolean("gro");
        this.bulkFree = c.getBoolean("bulkFree");
        this.txWorkLimit = (int) c.getLong("txWorkLimit");
        this.inlineThold = (int) c.getLong("inlineThold");
        int mtu = (int) c.getLong("mtu");
        int effMtu = mtu + L2_OVERHEAD; // mlx4_en_calc_rx_buf
        if (effMtu > FRAG_SZ0) {
            throw new IllegalArgumentException("mtu=" + mtu + ": the model has one fragment per descriptor, so mtu + "
                    + L2_OVERHEAD + " must be at most FRAG_SZ0 = " + FRAG_SZ0 + " (mtu up to " + (FRAG_SZ0 - L2_OVERHEAD) + ")");
        }
        this.fragSize = effMtu;
        this.fragStride = (fragSize + SMP_CACHE_BYTES - 1) & -SMP_CACHE_BYTES;
        this.fragsPerPage = PAGE_BYTES / fragStride;
        this.stopLevel = txRing - HEADROOM - MAX_DESC_TXBBS;
        if (stopLevel < 1) {
            throw new IllegalArgumentException("txRing=" + txRing + " TXBBs must exceed HEADROOM + MAX_DESC_TXBBS = "
                    + (HEADROOM + MAX_DESC_TXBBS));
        }
        long rx = c.getLong("rxCycles");
        long tx = c.getLong("txCycles");
        this.rxCycles = rx >= 0 ? rx : (long) ctx.costProfile().value("mlx4.rxPacketCycles", BORROWED_RX_CYCLES);
        this.txCycles = tx >= 0 ? tx : (long) ctx.costProfile().value("mlx4.txPacketCycles", 0);
        this.pageAllocCycles = (long) ctx.costProfile().value("pagefrag.pageAllocCycles", 0);
        int allocBulk = (int) c.getLong("allocBulk");
        // skbs alive: those the stack, the qdisc and the TX ring hold, the per-CPU NAPI cache (64), and slack
        int skbCapacity = 2 * rxRing + txRing + 256;
        this.skbPool = ctx.pool("skb", "rx", skbCapacity, 2048, Map.of("allocBulk", allocBulk));
        this.descPool = ctx.pool("fixed", "desc", rxRing, fragSize, Map.of());
        this.carrier = new Buffer[rxRing];
        this.descPage = new int[rxRing];
        this.descOffset = new int[rxRing];
        Arrays.fill(descPage, NONE);
        // a page lives while one of its fragments does: the ring's and the skbs' at most, plus the one being carved
        int maxPages = rxRing + skbCapacity + 2;
        this.pageBase = ctx.memory((long) maxPages * PAGE_BYTES);
        this.pageRefs = new int[maxPages];
        this.freePages = new int[maxPages];
        this.pageRef = new PageRef[maxPages];
        for (int p = 0; p < maxPages; p++) {
            pageRef[p] = new PageRef(p);
            freePages[freePageCount++] = maxPages - 1 - p; // page 0 on top: handed out first
        }
        this.stack = ctx.output("stack");
        this.in = ctx.input("in");
        this.wire = ctx.output("wire");
        // connections are made after the elements, so the send side's pools exist whether or not it is used
        BufferPool wirePool = ctx.pool("fixed", "wire", txRing + 64, 2048, Map.of());
        this.gsoPool = ctx.pool("fixed", "gso", txRing + MAX_GSO_SEGS, 2048, Map.of());
        DriverSupport support = ctx.provider(DriverSupport.class, DriverSupport.KIND, DriverSupport.LINUX);
        this.rxView = support.receiveRing(carrier, () -> posted);
        this.rxNapi = support.napi(ctx, coreIndex, budget, 0, this);
        this.txNapi = support.napi(ctx, coreIndex, budget, 0, this::pollTx);
        this.txRun = support.qdiscRun(ctx, coreIndex, in, gsoPool, this);
        this.sq = support.sendRing(ctx, coreIndex, txRing, wirePool);
        this.rxIrqTask = cpu -> rxNapi.schedule(); // mlx4_en_rx_irq: napi_schedule_irqoff
        this.txIrqTask = cpu -> txNapi.schedule(); // mlx4_en_tx_irq: napi_schedule_irqoff
        this.dropNoDesc = ctx.dropReason("rx-no-descriptor");
        this.dropNoSkb = ctx.dropReason("rx-skb-alloc-failed");
        this.dropNoStack = ctx.dropReason("rx-no-stack");
        this.dropOversize = ctx.dropReason("rx-oversize");
        Metrics m = ctx.metrics();
        rxPackets = m.counter(Mlx4Factory.RX_PACKETS);
        rxBytes = m.counter(Mlx4Factory.RX_BYTES);
        nicDrops = m.counter(Mlx4Factory.RX_NO_DESCRIPTOR_DROPS);
        rxIrqs = m.counter(Mlx4Factory.RX_IRQS);
        txIrqs = m.counter(Mlx4Factory.TX_IRQS);
        refillFailures = m.counter(Mlx4Factory.REFILL_FAILURES);
        rxCopies = m.counter(Mlx4Factory.RX_COPIES);
        skbFailures = m.counter(Mlx4Factory.SKB_ALLOC_FAILURES);
        txPackets = m.counter(Mlx4Factory.TX_PACKETS);
        txBytes = m.counter(Mlx4Factory.TX_BYTES);
        txCompletions = m.counter(Mlx4Factory.TX_COMPLETIONS);
        txStops = m.counter(Mlx4Factory.TX_QUEUE_STOPS);
        txWakes = m.counter(Mlx4Factory.TX_QUEUE_WAKES);
        txBbsPosted = m.counter(Mlx4Factory.TX_BBS_POSTED);
        registerGauges(m);
    }

    /** The gauges, rates and series over the rings, the pages and the fragments (declared in {@link Mlx4Factory}). */
    private void registerGauges(Metrics m) {
        m.gauge(Mlx4Factory.NAPI_POLLS, rxNapi::polls);
        m.gauge(Mlx4Factory.TX_NAPI_POLLS, txNapi::polls);
        m.gauge(Mlx4Factory.POSTED_DESCRIPTORS, () -> posted);
        m.gauge(Mlx4Factory.TX_QUEUED, () -> sq.queued());
        m.gauge(Mlx4Factory.TX_BBS_USED, () -> sq.used());
        m.gauge(Mlx4Factory.RX_PAGES_ALLOCATED, () -> pagesAllocated);
        m.gauge(Mlx4Factory.RX_PAGES_FREED, () -> pagesFreed);
        m.gauge(Mlx4Factory.RX_PAGES_IN_USE, () -> pagesAllocated - pagesFreed);
        m.gauge(Mlx4Factory.RX_PAGE_FAILURES, () -> pageFailures);
        m.gauge(Mlx4Factory.RX_FRAGS_ALLOCATED, () -> fragsAllocated);
        m.gauge(Mlx4Factory.RX_FRAGS_FREED, () -> fragsFreed);
        m.gauge(Mlx4Factory.RX_FRAG_STRIDE, () -> fragStride);
        m.gauge(Mlx4Factory.RX_FRAGS_PER_PAGE, () -> fragsPerPage);
        m.rate(Mlx4Factory.RX_MPPS, rxPackets, 1e-6);
        m.rate(Mlx4Factory.TX_MPPS, txPackets, 1e-6);
        m.series(Mlx4Factory.RX_MPPS.name);
        m.series(Mlx4Factory.TX_MPPS.name);
        m.series(Mlx4Factory.POSTED_DESCRIPTORS.name);
        m.series(Mlx4Factory.TX_BBS_USED.name);
    }

    @Override
    public void start() {
        for (int i = 0; i < rxRing; i++) { // the descriptors' records, the ring's for the whole run
            carrier[i] = descPool.alloc(coreIndex, self);
        }
        refill(); // mlx4_en_activate_rx_rings: mlx4_en_init_allocator, then mlx4_en_fill_rx_buffers
    }

    // ------------------------------------------------------------------ hot swap

    @Override
    public boolean exportState(ElementState out) {
        out.put(DriverState.TX_RING, sq);
        out.put(DriverState.TX_SEGMENTS, txRun.segments());
        out.put(DriverState.QDISC_RUN, txRun);
        out.put(DriverState.NAPI, rxNapi);
        out.put(DriverState.NAPI_SCHEDULED, rxNapi.scheduled());
        out.put("mlx4.txNapi", txNapi);
        out.put("mlx4.core", coreIndex);
        out.put("mlx4.fragStride", fragStride);
        out.put("mlx4.carrier", carrier.clone());
        out.put("mlx4.descPage", descPage.clone());
        out.put("mlx4.descOffset", descOffset.clone());
        out.put("mlx4.head", head);
        out.put("mlx4.ready", ready);
        out.put("mlx4.posted", posted);
        out.put("mlx4.rxArmed", rxArmed);
        out.put("mlx4.pageBase", pageBase);
        out.put("mlx4.pageRefs", pageRefs.clone());
        out.put("mlx4.freePages", Arrays.copyOf(freePages, freePageCount));
        out.put("mlx4.curPage", curPage);
        out.put("mlx4.curOffset", curOffset);
        out.put("mlx4.pageCounts", new long[] {pagesAllocated, pagesFreed, fragsAllocated, fragsFreed, pageFailures});
        out.putDestructors("mlx4.pageRef", pageRef); // the page references of RX skbs up the stack, by page
        out.put("mlx4.txStopped", txStopped);
        out.put("mlx4.txArmed", txArmed);
        out.putTask("mlx4.rxIrqTask", rxIrqTask);
        out.putTask("mlx4.txIrqTask", txIrqTask);
        return true;
    }

    @Override
    public boolean importState(ElementState in) {
        if (!in.fromType().equals("mlx4")) {
            return false;
        }
        SendRing ring = in.get(DriverState.TX_RING, SendRing.class);
        Buffer[] records = in.get("mlx4.carrier", Buffer[].class);
        int[] refs = in.get("mlx4.pageRefs", int[].class);
        QdiscRun oldRun = in.get(DriverState.QDISC_RUN, QdiscRun.class);
        if (oldRun == null || ring.size() != txRing || records.length != rxRing || refs.length != pageRefs.length
                || in.getInt("mlx4.fragStride", 0) != fragStride || in.getInt("mlx4.core", -1) != coreIndex) {
            return false; // other ring sizes, another MTU (the pages are carved otherwise), or another core
        }
        sq = ring;
        txRun.takeOver(oldRun); // the segments not yet posted, a pending run in its place
        System.arraycopy(records, 0, carrier, 0, rxRing);
        System.arraycopy(in.get("mlx4.descPage", int[].class), 0, descPage, 0, rxRing);
        System.arraycopy(in.get("mlx4.descOffset", int[].class), 0, descOffset, 0, rxRing);
        head = in.getInt("mlx4.head", 0);
        ready = in.getInt("mlx4.ready", 0);
        posted = in.getInt("mlx4.posted", 0);
        rxArmed = in.getBoolean("mlx4.rxArmed", true);
        pageBase = in.getLong("mlx4.pageBase", pageBase); // the pages stay where the predecessor mapped them
        System.arraycopy(refs, 0, pageRefs, 0, refs.length);
        int[] free = in.get("mlx4.freePages", int[].class);
        System.arraycopy(free, 0, freePages, 0, free.length);
        freePageCount = free.length;
        curPage = in.getInt("mlx4.curPage", NONE);
        curOffset = in.getInt("mlx4.curOffset", 0);
        long[] counts = in.get("mlx4.pageCounts", long[].class);
        pagesAllocated = counts[0];
        pagesFreed = counts[1];
        fragsAllocated = counts[2];
        fragsFreed = counts[3];
        pageFailures = counts[4];
        in.replaceDestructors("mlx4.pageRef", pageRef);
        txStopped = in.getBoolean("mlx4.txStopped", false);
        txArmed = in.getBoolean("mlx4.txArmed", true);
        rxNapi.takeOver(in.get(DriverState.NAPI, Napi.class));
        txNapi.takeOver(in.get("mlx4.txNapi", Napi.class));
        in.requeue("mlx4.rxIrqTask", rxIrqTask);
        in.requeue("mlx4.txIrqTask", txIrqTask);
        return true;
    }

    // ------------------------------------------------------------------ the ring's page allocator

    /** {@code mlx4_alloc_pages}: an order-3 page, DMA-mapped, with a reference for each fragment it will hold. */
    private int newPage() {
        if (freePageCount == 0) {
            pageFailures++;
            return NONE;
        }
        int p = freePages[--freePageCount];
        pageRefs[p] = fragsPerPage; // page_ref_add(page, page_size / frag_stride - 1) on top of alloc_pages' own
        pagesAllocated++;
        if (pageAllocCycles > 0 && core.running()) {
            core.charge(self, pageAllocCycles, 0);
        }
        return p;
    }

    /**
     * {@code mlx4_en_alloc_frags} for one descriptor: hands it the fragment at the ring allocator's offset, and moves the
     * allocator on by a stride, or to a new page when the next fragment would not fit; a page that cannot be had fails
     * the call before anything is handed.
     */
    private boolean allocFrag(int slot) {
        if (curPage == NONE) { // mlx4_en_init_allocator
            curPage = newPage();
            curOffset = 0;
            if (curPage == NONE) {
                return false;
            }
        }
        int nextPage = curPage;
        int next = curOffset + fragStride;
        if (next + fragStride > PAGE_BYTES) {
            nextPage = newPage();
            next = 0;
            if (nextPage == NONE) {
                return false;
            }
        }
        descPage[slot] = curPage;
        descOffset[slot] = curOffset;
        fragsAllocated++;
        curPage = nextPage;
        curOffset = next;
        return true;
    }

    /** {@code put_page} of one fragment's reference; the last one returns the page to the page allocator. */
    private void putFrag(int page) {
        fragsFreed++;
        if (--pageRefs[page] == 0) {
            freePages[freePageCount++] = page;
            pagesFreed++;
        }
    }

    /** The reference an skb holds on its fragment's page, dropped when the skb is freed ({@code skb_release_data}). */
    private final class PageRef implements BufferDestructor {
        private final int page;

        PageRef(int page) {
            this.page = page;
        }

        @Override
        public void destroyed(Buffer buffer) {
            putFrag(page);
        }
    }

    /** {@code mlx4_en_refill_rx_buffers}: a fragment for every consumed descriptor, until one cannot be had. */
    private void refill() {
        while (posted < rxRing) {
            int slot = head + posted;
            if (slot >= rxRing) {
                slot -= rxRing;
            }
            if (!allocFrag(slot)) {
                refillFailures.increment();
                return;
            }
            posted++;
        }
    }

    // ------------------------------------------------------------------ receive

    /** A frame from the wire: the NIC writes it into the next posted descriptor's fragment, or drops it. */
    @Override
    public void push(int inPort, Buffer frame) {
        if (frame.length() > fragSize) {
            ctx.drop(coreIndex, frame, dropOversize);
            return;
        }
        if (ready == posted) {
            nicDrops.increment();
            ctx.drop(coreIndex, frame, dropNoDesc);
            return;
        }
        int slot = head + ready;
        if (slot >= rxRing) {
            slot -= rxRing;
        }
        Buffer d = carrier[slot];
        ctx.transferPacket(frame, d);
        frame.pool().free(coreIndex, frame);
        ctx.dmaWrite(pageBase + (long) descPage[slot] * PAGE_BYTES + descOffset[slot], d.length());
        ready++;
        if (rxArmed && !rxNapi.scheduled()) {
            rxArmed = false;
            rxIrqs.increment();
            core.submit(Core.HARDIRQ, rxIrqTask);
        }
    }

    /** {@code mlx4_en_poll_rx_cq} → {@code mlx4_en_process_rx_cq}. */
    @Override
    public int poll(int budget) {
        int polled = 0;
        while (polled < budget && ready > 0) {
            int slot = head;
            Buffer d = carrier[slot];
            int page = descPage[slot];
            descPage[slot] = NONE; // the fragment leaves the descriptor (to the skb, or back to its page)
            if (++head == rxRing) {
                head = 0;
            }
            ready--;
            posted--;
            polled++;
            core.charge(self, rxCycles, 1);
            rxPackets.increment();
            int length = d.length();
            rxBytes.add(length);
            Buffer skb = skbPool.alloc(coreIndex, self); // napi_get_frags (napi_alloc_skb) or netdev_alloc_skb
            if (skb == null) {
                skbFailures.increment();
                ctx.recycle(d, dropNoSkb); // goto next: the frame is lost
                putFrag(page); // mlx4_en_free_frag
                continue;
            }
            ctx.transferPacket(d, skb);
            if (!gro && length <= SMALL_PACKET_SIZE) {
                rxCopies.increment(); // mlx4_en_rx_skb: skb_copy_to_linear_data
                putFrag(page); // mlx4_en_free_frag at "next:"
            } else {
                skb.fragments(1); // mlx4_en_complete_rx_desc: the page reference moves into the skb
                skb.destructor(pageRef[page]);
            }
            if (stack.connected()) {
                stack.push(skb); // napi_gro_frags, or napi_gro_receive
            } else {
                ctx.drop(coreIndex, skb, dropNoStack);
            }
        }
        refill();
        if (polled == budget) {
            return budget;
        }
        rxArmed = true; // napi_complete_done, mlx4_en_arm_cq
        if (ready > 0) {
            rxArmed = false;
            rxIrqs.increment();
            core.submit(Core.HARDIRQ, rxIrqTask);
        }
        return polled;
    }

    // ------------------------------------------------------------------ transmit

    /** The qdisc has packets: {@code dev_queue_xmit} runs the qdisc on the sending core ({@link QdiscRun}). */
    @Override
    public void ready(int inPort) {
        txRun.ready();
    }

    /**
     * The queue's stop bit; before each skb, a ring with no room for the largest descriptor stops the queue
     * ({@code netif_tx_stop_queue}, counted in {@code txQueueStops}).
     */
    @Override
    public boolean stopped() {
        if (!txStopped && sq.used() > stopLevel) {
            txStopped = true;
            txStops.increment();
        }
        return txStopped;
    }

    /** {@code mlx4_en_xmit} for one skb, on the core the qdisc runs on. */
    @Override
    public int startXmit(Core c, Buffer skb) {
        // a packet this element received was counted there; count others here
        c.charge(self, txCycles, skb.pool() == skbPool ? 0 : 1);
        int bbs = txbbs(skb);
        sq.post(skb, bbs);
        txBbsPosted.add(bbs);
        return NETDEV_TX_OK;
    }

    /** The doorbell, once a run has posted skbs. */
    @Override
    public void kick(Core c) {
        wire.ready();
    }

    /** {@code get_real_size} / {@code inline_size} rounded up to TXBBs ({@code nr_txbb} in {@code mlx4_en_xmit}). */
    private int txbbs(Buffer skb) {
        int len = skb.length();
        int frags = skb.fragments();
        int real;
        if (inlineThold > 0 && len <= inlineThold && frags <= 1) { // is_inline
            real = len + CTRL_SIZE + INLINE_SEG <= INLINE_ALIGN
                    ? (len + CTRL_SIZE + INLINE_SEG + 15) & -16
                    : (len + CTRL_SIZE + 2 * INLINE_SEG + 15) & -16;
        } else {
            real = CTRL_SIZE + (frags + 1) * DS_SIZE;
        }
        return (real + TXBB_SIZE - 1) / TXBB_SIZE;
    }

    /** The NIC's DMA takes the next posted frame when the wire is idle; its completion raises the TX CQ's interrupt. */
    @Override
    public Buffer pull(int outPort) {
        Buffer bits = sq.toWire();
        if (bits == null) {
            return null;
        }
        txPackets.increment();
        txBytes.add(bits.length());
        if (txArmed && !txNapi.scheduled()) {
            txArmed = false;
            txIrqs.increment();
            core.submit(Core.HARDIRQ, txIrqTask);
        }
        return bits;
    }

    /**
     * {@code mlx4_en_poll_tx_cq} → {@code mlx4_en_process_tx_cq}: frees up to {@code txWorkLimit} sent skbs with
     * {@code napi_consume_skb} or {@code dev_kfree_skb}, wakes a stopped queue; polls again if it cleaned the limit.
     */
    int pollTx(int budget) {
        int done = 0;
        while (sq.sent() > 0 && done < txWorkLimit) {
            Buffer skb = sq.clean();
            done++;
            if (bulkFree) {
                skb.pool().consume(coreIndex, skb); // napi_consume_skb(skb, napi_budget)
            } else {
                skb.pool().free(coreIndex, skb); // dev_kfree_skb (dev_consume_skb_any before March 2016)
            }
        }
        txCompletions.add(done);
        if (txStopped && done > 0) {
            txStopped = false; // netif_tx_wake_queue: __netif_schedule raises NET_TX_SOFTIRQ on this core
            txWakes.increment();
            txRun.schedule();
        }
        if (done == txWorkLimit) {
            return budget; // !clean_complete
        }
        txArmed = true; // napi_complete, mlx4_en_arm_cq
        if (sq.sent() > 0) {
            txArmed = false;
            txIrqs.increment();
            core.submit(Core.HARDIRQ, txIrqTask);
        }
        return 0;
    }

    @Override
    public void forEachHeld(BufferVisitor visitor) {
        rxView.forEachHeld(visitor);
        sq.forEachHeld(visitor);
        txRun.segments().forEachHeld(visitor);
    }

    @Override
    public DescriptorRing txRing() {
        return sq;
    }

    @Override
    public DescriptorRing rxRing() {
        return rxView;
    }
}

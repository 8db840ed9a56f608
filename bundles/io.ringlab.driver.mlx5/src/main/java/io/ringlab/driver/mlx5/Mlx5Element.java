package io.ringlab.driver.mlx5;

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
import io.ringlab.sim.api.Metrics;
import io.ringlab.sim.api.OutputPort;

/**
 * The receive side of the mlx5e driver of early 2016 ({@code drivers/net/ethernet/mellanox/mlx5/core/en_rx.c}, v4.5,
 * with Brouer's March 2016 bulk-alloc series), one RX queue on one core.
 * <p>
 * <b>Ring.</b> {@code rxRing} receive WQEs ({@code MLX5E_PARAMS_DEFAULT_LOG_RQ_SIZE} 0xa: 1024), each posted with an skb
 * from pool kind {@code skb} ({@code napi_alloc_skb}; pool {@code <element>.rx}, settings {@code allocBulk}). A frame from
 * the wire takes the next posted WQE: the NIC writes it by DMA into the skb's data ({@code ElementContext.dmaWrite}) and
 * a completion (CQE) becomes ready. With no posted WQE left the NIC drops the frame ({@code rx-no-wqe}, the
 * {@code rx_out_of_buffer} counter); those are not packets the driver processed.
 * <p>
 * <b>Interrupt and NAPI.</b> A completion while NAPI is idle and the CQ armed raises the interrupt (hard-IRQ work,
 * {@code napi_schedule}). The poll ({@code mlx5e_poll_rx_cq}, budget {@code napiWeight} = 64) takes up to the budget of
 * ready completions; for each it charges {@code rxCycles} (the rest of the per-packet RX path: CQE parsing, DMA unmap,
 * skb setup, the drop decision; fitted, see below) and then either drops the skb at once ({@code earlyDrop}, as the seed's
 * drop test did) or hands it to {@code stack}. Then {@code mlx5e_post_rx_wqes} re-posts every empty WQE with a fresh skb.
 * With {@code bulkHint} the poll first tells the pool how many skbs it will ask for
 * ({@link BufferPool#hint}: the ready completions, at most the budget), as mlx5 did first with the 2016 hint API. A poll
 * under budget completes NAPI and re-arms the CQ.
 * <p>
 * <b>Early drop</b> ({@code earlyDrop}): {@code kfree_skb} frees the skb head at once ({@code kmem_cache_free});
 * {@code napi_consume_skb} defers it into the per-CPU NAPI cache (pool kind {@code skb}), from which the refill may take
 * it straight back without reaching the allocator. Either way the packet counts as dropped ({@code early-drop}).
 * <p>
 * <b>Cost.</b> {@code rxCycles} per packet (default: the profile's {@code mlx5.rxPacketCycles}, else
 * {@link #FITTED_RX_CYCLES}) plus whatever the skb pool charges (the slab model's operations and cache misses). Packet
 * data and CQE cache misses are not charged separately: the 2016 driver prefetched them (the seed's "RX loop cache-miss
 * avoidance") and what remains is inside the fitted constant. The RX path's own code is not fetched through the model's
 * L1i: the sources give no footprint for it (the allocator's bulk functions are fetched, by the slab model).
 * <p>
 * <b>Transmit</b> (ports {@code in} and {@code wire}, both optional): the SDK's qdisc run ({@link QdiscRun}: on the
 * sending core, 64 skbs a run, then NET_TX_SOFTIRQ) calls {@code mlx5e_xmit} per packet ({@code txCycles} each,
 * default 0: only the allocator's work on completion is charged), which posts skbs to the send queue ({@code txRing},
 * {@code MLX5E_PARAMS_DEFAULT_LOG_SQ_SIZE} 0xa: 1024) and
 * stops when it is full. A GSO skb is segmented in software ({@code ElementContext.segment}; the model has no TSO). The
 * wire takes the posted frames in order (the NIC's DMA); each one taken becomes a TX completion, which raises the
 * interrupt as a receive completion does. The NAPI poll cleans TX completions first ({@code mlx5e_poll_tx_cq}, at most
 * {@code MLX5E_TX_CQ_POLL_BUDGET} = 128 per poll), freeing each skb with {@code napi_consume_skb} ({@code bulkFree},
 * deferred into the per-CPU NAPI cache of the skb's pool and freed in bulk; commit "mlx5: use napi_consume_skb API to
 * get bulk free operations", March 2016) or {@code dev_kfree_skb} (at once), then wakes a stopped queue.
 * <p>
 * <b>Hot swap</b> ({@link Handover}): a successor on the same core with the same ring sizes takes over the RQ's WQEs
 * with their skbs and received frames, the send queue with its skbs and the segments not yet posted, the stop state,
 * the CQ's arming, the NAPI context, and the interrupt and transmit tasks, each in the predecessor's place; the skb
 * pool is the same pool again, with its occupancy, its per-CPU caches and bulk-allocation state. Otherwise drain and
 * restart.
 * <p>
 * Not modelled: TSO, LRO, striding RQ, checksum offload, multiple queues, the TX inline header and doorbell costs (in
 * {@code txCycles}). Engine thread only.
 */
final class Mlx5Element implements NicDriver, Handover, StartXmit {
    /**
     * The code a packet runs through, fetched through the model's L1i: x86-64 function sizes from kernel stack traces
     * ({@code function+off/size}) of the builds nearest to 2016 that the research found, docs/research/kernel-code-sizes.md
     * (4.11-rc2 for the poll functions, 4.16/4.18 for the RX loop and the skb functions). Whole functions are fetched,
     * an upper bound: cold branches never are. Per packet: the RX loop and the CQE handling, the skb's free (per
     * {@code earlyDrop}), the refill's WQE and skb allocation. The allocator's bulk functions are the slab model's own.
     */
    static final String[] PACKET_CODE = {"mlx5e_poll_rx_cq", "mlx5e_handle_rx_cqe", "mlx5e_alloc_rx_wqe",
        "__napi_alloc_skb", "__build_skb"};
    static final int[] PACKET_CODE_BYTES = {2336, 208, 304, 240, 208};
    /** {@code kfree_skb}, {@code __kfree_skb}, {@code skb_release_all}, {@code skb_release_data}: 128 + 32 + 48 + 224. */
    static final int KFREE_CODE_BYTES = 432;
    /** {@code napi_consume_skb} (4.16: 256), {@code skb_release_all}, {@code skb_release_data}: 256 + 48 + 224. */
    static final int CONSUME_CODE_BYTES = 528;
    /** Per poll: {@code net_rx_action}, {@code mlx5e_napi_poll}, {@code mlx5e_poll_tx_cq}, {@code mlx5e_post_rx_wqes}. */
    static final String[] POLL_CODE = {"net_rx_action", "mlx5e_napi_poll", "mlx5e_poll_tx_cq", "mlx5e_post_rx_wqes"};
    static final int[] POLL_CODE_BYTES = {928, 1104, 1248, 192};
    /** Per interrupt: {@code do_IRQ}, {@code irq_exit}, {@code __do_softirq}, {@code mlx5e_completion_event}. */
    static final String[] IRQ_CODE = {"do_IRQ", "irq_exit", "__do_softirq", "mlx5e_completion_event"};
    static final int[] IRQ_CODE_BYTES = {208, 192, 674, 64};

    private final long[] packetCode, pollCode, irqCode;
    private final long freeCode;
    private final int freeCodeBytes;
    /**
     * Cycles per received packet outside the allocator, fitted: {@code allocBulk = 8}, no hint, {@code kfree_skb} early
     * drop on the {@code generic-x86-4ghz} profile (the i7-4790K at 4 GHz) must give the seed's 12 Mpps baseline, i.e.
     * 333.3 cycles per packet in all; the model's allocator and cache costs take the rest (docs/models/mlx5.md).
     */
    static final long FITTED_RX_CYCLES = 241;
    /** {@code MLX5E_PARAMS_DEFAULT_LOG_RQ_SIZE} 0xa ({@code en.h}, 2016): 1024 receive WQEs. */
    static final int DEFAULT_RX_RING = 1024;
    /** {@code MLX5E_TX_CQ_POLL_BUDGET} ({@code en.h}, 2016): TX completions one poll cleans at most. */
    static final int TX_CQ_POLL_BUDGET = 128;
    /** Segments of one GSO skb at most: 65,536 / 88 ({@code TCP_MIN_MSS}) + 1. */
    static final int MAX_GSO_SEGS = 65536 / 88 + 1;

    private static final int DROP_OFF = 0, DROP_KFREE = 1, DROP_CONSUME = 2;

    private final ElementContext ctx;
    private final int self;
    private final Core core;
    private final int coreIndex;
    private final Napi napi;
    private final OutputPort stack;
    private final BufferPool pool;
    private final int budget;
    private final boolean hint;
    private final int earlyDrop;
    private final long rxCycles;

    private final int rxRing;
    private final Buffer[] wqe;
    private final DescriptorRing rxView;
    private int head, ready, posted;
    private boolean armed = true;

    // transmit: the send queue (one descriptor per skb here)
    private final InputPort in;
    private final OutputPort wire;
    private SendRing sq;
    private boolean txStopped;
    private final boolean bulkFree;
    private final long txCycles;
    private final BufferPool gsoPool;
    private final QdiscRun txRun;
    private final Metrics.Counter txPackets, txBytes, txCompletions, txStops;

    private final CpuTask irqTask;
    private final int dropNoWqe, dropEarly, dropNoStack;
    private final Metrics.Counter rxPackets, rxBytes, nicDrops, irqs, refillFailures;

    Mlx5Element(ElementContext ctx) {
        this.ctx = ctx;
        this.self = ctx.index();
        Configuration c = ctx.config();
        this.coreIndex = (int) c.getLong("core");
        this.core = ctx.core(coreIndex);
        this.rxRing = (int) c.getLong("rxRing");
        this.budget = (int) c.getLong("napiWeight");
        this.hint = c.getBoolean("bulkHint");
        this.earlyDrop = switch (c.getString("earlyDrop")) {
            case "kfree_skb" -> DROP_KFREE;
            case "napi_consume_skb" -> DROP_CONSUME;
            default -> DROP_OFF;
        };
        long rx = c.getLong("rxCycles");
        this.rxCycles = rx >= 0 ? rx : (long) ctx.costProfile().value("mlx5.rxPacketCycles", FITTED_RX_CYCLES);
        int allocBulk = (int) c.getLong("allocBulk");
        // the ring's skbs, the per-CPU NAPI cache (64) and what the stack may hold
        this.pool = ctx.pool("skb", "rx", 2 * rxRing + 256, 2048, Map.of("allocBulk", allocBulk));
        this.stack = ctx.output("stack");
        this.wqe = new Buffer[rxRing];
        this.in = ctx.input("in");
        this.wire = ctx.output("wire");
        int txRing = (int) c.getLong("txRing");
        this.bulkFree = c.getBoolean("bulkFree");
        this.txCycles = c.getLong("txCycles");
        // connections are made after the elements, so the send side's pools exist whether or not it is used
        BufferPool wirePool = ctx.pool("fixed", "wire", txRing + 64, 2048, Map.of());
        this.gsoPool = ctx.pool("fixed", "gso", txRing + MAX_GSO_SEGS, 2048, Map.of());
        DriverSupport support = ctx.provider(DriverSupport.class, DriverSupport.KIND, DriverSupport.LINUX);
        this.rxView = support.receiveRing(wqe, () -> posted);
        this.napi = support.napi(ctx, coreIndex, budget, 0, this);
        this.txRun = support.qdiscRun(ctx, coreIndex, in, gsoPool, this);
        this.sq = support.sendRing(ctx, coreIndex, txRing, wirePool);
        this.packetCode = code(PACKET_CODE, PACKET_CODE_BYTES);
        this.pollCode = code(POLL_CODE, POLL_CODE_BYTES);
        this.irqCode = code(IRQ_CODE, IRQ_CODE_BYTES);
        this.irqTask = cpu -> {
            fetch(irqCode, IRQ_CODE_BYTES);
            napi.schedule(); // mlx5e_completion_event: napi_schedule
        };
        boolean consume = earlyDrop == DROP_CONSUME;
        this.freeCodeBytes = consume ? CONSUME_CODE_BYTES : KFREE_CODE_BYTES;
        this.freeCode = ctx.code(consume ? "napi_consume_skb" : "kfree_skb", freeCodeBytes);
        this.dropNoWqe = ctx.dropReason("rx-no-wqe");
        this.dropEarly = ctx.dropReason("early-drop");
        this.dropNoStack = ctx.dropReason("rx-no-stack");
        Metrics m = ctx.metrics();
        rxPackets = m.counter(Mlx5Factory.RX_PACKETS);
        rxBytes = m.counter(Mlx5Factory.RX_BYTES);
        nicDrops = m.counter(Mlx5Factory.RX_NO_WQE_DROPS);
        irqs = m.counter(Mlx5Factory.IRQS);
        refillFailures = m.counter(Mlx5Factory.REFILL_FAILURES);
        txPackets = m.counter(Mlx5Factory.TX_PACKETS);
        txBytes = m.counter(Mlx5Factory.TX_BYTES);
        txCompletions = m.counter(Mlx5Factory.TX_COMPLETIONS);
        txStops = m.counter(Mlx5Factory.TX_QUEUE_STOPS);
        m.gauge(Mlx5Factory.TX_QUEUED, () -> sq.queued());
        m.rate(Mlx5Factory.TX_MPPS, txPackets, 1e-6);
        m.gauge(Mlx5Factory.NAPI_POLLS, napi::polls);
        m.gauge(Mlx5Factory.POSTED_WQES, () -> posted);
        m.rate(Mlx5Factory.RX_MPPS, rxPackets, 1e-6);
        m.series(Mlx5Factory.RX_MPPS.name);
        m.series(Mlx5Factory.POSTED_WQES.name);
        m.gauge(Mlx5Factory.NS_PER_PACKET, () -> {
            long n = rxPackets.get();
            long now = ctx.nowPicos();
            return n == 0 ? 0 : now / 1000.0 / n;
        });
    }

    @Override
    public void start() {
        postWqes(); // mlx5e_open_rq: fill the ring
    }

    // ------------------------------------------------------------------ hot swap

    @Override
    public boolean exportState(ElementState out) {
        out.put(DriverState.TX_RING, sq);
        out.put(DriverState.TX_SEGMENTS, txRun.segments());
        out.put(DriverState.QDISC_RUN, txRun);
        out.put(DriverState.NAPI, napi);
        out.put(DriverState.NAPI_SCHEDULED, napi.scheduled());
        out.put("mlx5.core", coreIndex);
        out.put("mlx5.wqe", wqe.clone());
        out.put("mlx5.head", head);
        out.put("mlx5.ready", ready);
        out.put("mlx5.posted", posted);
        out.put("mlx5.armed", armed);
        out.put("mlx5.txStopped", txStopped);
        out.putTask("mlx5.irqTask", irqTask);
        return true;
    }

    @Override
    public boolean importState(ElementState in) {
        if (!in.fromType().equals("mlx5")) {
            return false;
        }
        SendRing ring = in.get(DriverState.TX_RING, SendRing.class);
        Buffer[] rq = in.get("mlx5.wqe", Buffer[].class);
        QdiscRun oldRun = in.get(DriverState.QDISC_RUN, QdiscRun.class);
        if (oldRun == null || ring.size() != sq.size() || rq.length != rxRing || in.getInt("mlx5.core", -1) != coreIndex) {
            return false; // other ring sizes or another core: drain and start afresh
        }
        sq = ring;
        txRun.takeOver(oldRun); // the segments not yet posted, a pending run in its place
        System.arraycopy(rq, 0, wqe, 0, rxRing);
        head = in.getInt("mlx5.head", 0);
        ready = in.getInt("mlx5.ready", 0);
        posted = in.getInt("mlx5.posted", 0);
        armed = in.getBoolean("mlx5.armed", true);
        txStopped = in.getBoolean("mlx5.txStopped", false);
        napi.takeOver(in.get(DriverState.NAPI, Napi.class));
        in.requeue("mlx5.irqTask", irqTask);
        return true;
    }

    /** {@code mlx5e_post_rx_wqes}: an skb for every empty WQE ({@code napi_alloc_skb}). */
    private void postWqes() {
        while (posted < rxRing) {
            Buffer b = pool.alloc(coreIndex, self);
            if (b == null) {
                refillFailures.increment();
                return;
            }
            int slot = head + posted;
            wqe[slot >= rxRing ? slot - rxRing : slot] = b;
            posted++;
        }
    }

    // ------------------------------------------------------------------ transmit

    /** The qdisc has packets: {@code dev_queue_xmit} runs the qdisc on the sending core ({@link QdiscRun}). */
    @Override
    public void ready(int inPort) {
        txRun.ready();
    }

    /** The queue's stop bit, or a full send queue. */
    @Override
    public boolean stopped() {
        return txStopped || sq.queued() >= sq.size();
    }

    /** {@code mlx5e_xmit} for one skb, on the core the qdisc runs on; a full send queue stops the queue. */
    @Override
    public int startXmit(Core c, Buffer skb) {
        c.charge(self, txCycles, 1); // with txCycles 0 it still counts the packet for cpuNanosPerPacket
        sq.post(skb, 1);
        if (sq.queued() == sq.size()) {
            txStopped = true; // netif_tx_stop_queue
            txStops.increment();
        }
        return NETDEV_TX_OK;
    }

    /** The doorbell, once a run has posted skbs. */
    @Override
    public void kick(Core c) {
        wire.ready();
    }

    /** The NIC's DMA takes the next posted frame when the wire is idle; the skb waits for its completion. */
    @Override
    public Buffer pull(int outPort) {
        Buffer bits = sq.toWire();
        if (bits == null) {
            return null;
        }
        txPackets.increment();
        txBytes.add(bits.length());
        if (armed && !napi.scheduled()) { // the TX completion's event
            armed = false;
            irqs.increment();
            core.submit(Core.HARDIRQ, irqTask);
        }
        return bits;
    }

    /** {@code mlx5e_poll_tx_cq}: frees up to 128 sent skbs; {@code true} if completions are left for the next poll. */
    private boolean pollTx() {
        int n = 0;
        while (sq.sent() > 0 && n < TX_CQ_POLL_BUDGET) {
            Buffer skb = sq.clean();
            n++;
            if (bulkFree) {
                skb.pool().consume(coreIndex, skb); // napi_consume_skb(skb, napi_budget)
            } else {
                skb.pool().free(coreIndex, skb); // dev_kfree_skb
            }
        }
        txCompletions.add(n);
        if (txStopped && n > 0) {
            txStopped = false; // netif_tx_wake_queue: __netif_schedule raises NET_TX_SOFTIRQ on this core
            txRun.schedule();
        }
        return sq.sent() > 0;
    }

    // ------------------------------------------------------------------ receive

    /**
     * A burst from the wire: each frame in order, as {@link #push} takes it. The same as the interface's default; here the
     * call of {@code push} is this class's own, which the JIT inlines, where the default's call site is shared by every
     * element type and dispatches through the interface (mlx5-bulk-drop pushes 148.8 M frames per simulated second here,
     * 92 % of them dropped for want of a WQE).
     */
    @Override
    public void pushBatch(int inPort, Buffer[] frames, int offset, int count) {
        for (int i = offset, end = offset + count; i < end; i++) {
            push(inPort, frames[i]);
        }
    }

    /** A frame from the wire: the NIC takes the next posted WQE or drops it. */
    @Override
    public void push(int inPort, Buffer frame) {
        if (ready == posted) {
            nicDrops.increment();
            ctx.drop(coreIndex, frame, dropNoWqe);
            return;
        }
        int slot = head + ready;
        Buffer b = wqe[slot >= rxRing ? slot - rxRing : slot];
        ctx.transferPacket(frame, b);
        frame.pool().free(coreIndex, frame);
        ctx.dmaWrite(b.address(), b.length());
        ready++;
        if (armed && !napi.scheduled()) {
            armed = false;
            irqs.increment();
            core.submit(Core.HARDIRQ, irqTask);
        }
    }

    @Override
    public int poll(int weight) {
        fetch(pollCode, POLL_CODE_BYTES);
        boolean txBusy = pollTx();
        if (hint) {
            pool.hint(coreIndex, Math.min(ready, weight)); // the SKBs this poll will ask for
        }
        int work = 0;
        while (work < weight && ready > 0) {
            Buffer b = wqe[head];
            wqe[head] = null;
            if (++head == rxRing) {
                head = 0;
            }
            ready--;
            posted--;
            work++;
            core.charge(self, rxCycles, 1);
            fetch(packetCode, PACKET_CODE_BYTES);
            if (earlyDrop != DROP_OFF) {
                core.touch(self, freeCode, freeCodeBytes, true);
            }
            rxPackets.increment();
            rxBytes.add(b.length());
            switch (earlyDrop) {
                case DROP_KFREE -> ctx.drop(coreIndex, b, dropEarly);
                case DROP_CONSUME -> {
                    ctx.recycle(b, dropEarly); // counted as dropped; the buffer stays ours until consumed
                    pool.consume(coreIndex, b);
                }
                default -> {
                    if (stack.connected()) {
                        stack.push(b);
                    } else {
                        ctx.drop(coreIndex, b, dropNoStack);
                    }
                }
            }
        }
        postWqes();
        if (txBusy || posted < rxRing) {
            return weight; // mlx5e_napi_poll: a busy TX CQ or an RQ not refilled (post_rx_wqes) keeps the poll going
        }
        if (work < weight) {
            armed = true; // napi_complete_done, mlx5e_cq_arm
            if (ready > 0 || sq.sent() > 0) {
                armed = false;
                irqs.increment();
                core.submit(Core.HARDIRQ, irqTask);
            }
        }
        return work;
    }

    private long[] code(String[] names, int[] bytes) {
        long[] addresses = new long[names.length];
        for (int i = 0; i < names.length; i++) {
            addresses[i] = ctx.code(names[i], bytes[i]);
        }
        return addresses;
    }

    /** Fetches functions' code through the L1i of the element's core. */
    private void fetch(long[] addresses, int[] bytes) {
        for (int i = 0; i < addresses.length; i++) {
            core.touch(self, addresses[i], bytes[i], true);
        }
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

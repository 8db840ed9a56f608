package io.ringlab.driver.mvneta;

import java.util.Map;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.HardwareBufferPool;
import io.ringlab.sim.api.Configuration;
import io.ringlab.sim.api.ElementState;

/**
 * <b>Receive, buffer manager</b> of v4.6 ({@code bm = true}, {@code mvneta_rx_hwbm}, commit dc35a10f68d3): the device
 * takes a buffer for each frame from the short pool (frames up to {@code shortPktSize}, 256, {@code
 * MVNETA_BM_SHORT_PKT_SIZE}) or the long one (pools of kind {@code hwbm}, {@code longPoolSize} and {@code
 * shortPoolSize} 2048 buffers each, {@code MVNETA_BM_POOL_CAP_DEF}), or drops it when that pool is empty ({@code
 * bm-pool-empty}); the descriptor ring only carries completions. In the poll: a copybreak frame is copied and its
 * buffer returned ({@code mvneta_bm_pool_put_bp}); a larger one gets {@code hwbm_pool_refill} first (failing that the
 * buffer is returned and the frame dropped, {@code rx-refill-failed}, {@code rxRefillFailures}) and is then detached
 * from the pool and goes up the stack.
 * <p>
 * Handover: the long and short pools again (the same pools, with the buffers in the device). Not thread-safe: engine
 * thread only.
 */
final class BufferManager extends RxPath {
    /** Handover key: the short pool, which must be the same again too. */
    private static final String SHORT_POOL_KEY = "mvneta.shortPool";

    private final int shortPktSize;
    private final HardwareBufferPool longPool, shortPool;
    private final BufferPool copyPool;

    /**
     * Creates the long pool (buffers of {@code MVNETA_RX_PKT_SIZE(mtu)}), the short pool and the copybreak skbs.
     *
     * @param pktSize {@code MVNETA_RX_PKT_SIZE(mtu)}, bytes
     * @param headroom {@code NET_SKB_PAD}, bytes
     * @param shinfo {@code SKB_DATA_ALIGN(sizeof(struct skb_shared_info))}, bytes
     */
    BufferManager(MvnetaElement port, Configuration c, int pktSize, int headroom, int shinfo) {
        super(port);
        this.shortPktSize = (int) c.getLong("shortPktSize");
        int longCap = (int) c.getLong("longPoolSize");
        int shortCap = (int) c.getLong("shortPoolSize");
        Map<String, Object> settings = Map.of("headroom", headroom, "shinfoBytes", shinfo);
        this.longPool = (HardwareBufferPool) ctx.pool("hwbm", "long", longCap, pktSize, settings);
        this.shortPool = (HardwareBufferPool) ctx.pool("hwbm", "short", shortCap, shortPktSize, settings);
        this.copyPool = port.newCopyPool();
    }

    @Override
    String name() {
        return "mvneta_rx_hwbm v4.6";
    }

    @Override
    void fill() {
        // mvneta_bm_pool_use: fill each pool with hwbm_pool_add(pool, size)
        longPool.add(coreIndex, longPool.size());
        shortPool.add(coreIndex, shortPool.size());
    }

    @Override
    Buffer dmaTarget(int slot, Buffer frame) {
        HardwareBufferPool pool = frame.length() <= shortPktSize ? shortPool : longPool;
        Buffer b = pool.alloc(coreIndex, self); // the BM hands the RX DMA a buffer of the pool for this size
        if (b == null) {
            ctx.drop(coreIndex, frame, port.dropPoolEmpty);
            return null;
        }
        rxBuf[slot] = b;
        return b;
    }

    /** {@code mvneta_rx_hwbm} for one completion. */
    @Override
    void receive(int slot, Buffer b) {
        rxBuf[slot] = null;
        HardwareBufferPool pool = (HardwareBufferPool) b.pool();
        if (b.length() <= port.copybreak) {
            port.copy(b, copyPool);
            pool.free(coreIndex, b); // mvneta_bm_pool_put_bp: the same buffer back
            return;
        }
        if (!pool.refill(coreIndex)) { // hwbm_pool_refill
            port.rxRefillFailures.increment();
            ctx.drop(coreIndex, b, port.dropRefill); // put_bp of the old buffer, the frame dropped
            return;
        }
        pool.detach(b);
        port.up(b);
    }

    @Override
    BufferPool ringPool() {
        return longPool;
    }

    @Override
    void exportState(ElementState out) {
        super.exportState(out);
        out.put(SHORT_POOL_KEY, shortPool);
    }

    @Override
    boolean accepts(ElementState in) {
        return super.accepts(in) && in.get(SHORT_POOL_KEY, BufferPool.class) == shortPool;
    }
}

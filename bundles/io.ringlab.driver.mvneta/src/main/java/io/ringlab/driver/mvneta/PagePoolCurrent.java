package io.ringlab.driver.mvneta;

import java.util.Map;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.sim.api.ElementState;

/**
 * <b>Receive of the current kernel preset</b> ({@code kernel = current}): the software path of {@code mvneta.c} as of
 * v6.12 (read at torvalds/linux 002c6ca75289, whose RX and TX paths match v6.12's; see docs/models/mvneta.md "Current
 * kernel preset"):
 * <ul>
 * <li>a page_pool per RX queue ({@code mvneta_create_page_pool}: order 0, {@code PP_FLAG_DMA_MAP |
 * PP_FLAG_DMA_SYNC_DEV}, {@code pool_size} = the RX ring, {@code offset} = {@code rx_offset_correction} = {@code
 * MVNETA_SKB_HEADROOM} = {@code ALIGN(max(NET_SKB_PAD, XDP_PACKET_HEADROOM 256), 8)} = 256, {@code max_len} = {@code
 * MVNETA_MAX_RX_BUF_SIZE} = {@code PAGE_SIZE - SKB_DATA_ALIGN(sizeof(skb_shared_info) + 256)}, no {@code .napi}); pool
 * kind {@code pagepool};</li>
 * <li>RX ({@code mvneta_rx_swbm}): every frame, whatever its size, goes up in its page ({@code mvneta_swbm_rx_frame},
 * {@code build_skb(data, PAGE_SIZE)}, {@code skb_mark_for_recycle}, {@code napi_gro_receive}): no {@code rx_copybreak}
 * (the variable remains, used only by {@code mvneta_rx_hwbm}); the descriptor is left empty ({@code refill_num++}) and
 * at the end of the poll {@code mvneta_rx_refill_queue} refills up to 64 of them with {@code page_pool_alloc_pages}; a
 * descriptor still empty is not given back to the device, so frames that reach it are dropped
 * ({@code rx-no-descriptor});</li>
 * <li>TX completion: {@code mvneta_txq_bufs_free} frees with {@code dev_kfree_skb_any} (not {@code napi_consume_skb});
 * a page of the pool comes back through {@code napi_pp_put_page} → {@code page_pool_put_full_netmem(.., false)}, not
 * NAPI-local (no {@code .napi}), so into the ptr_ring (the pool's free; the element's TX clean is the same for every
 * path).</li>
 * </ul>
 * Not modelled: XDP, frames spanning descriptors (the element refuses an MTU whose {@code MVNETA_RX_PKT_SIZE} exceeds
 * {@code MVNETA_MAX_RX_BUF_SIZE}), the skb head of {@code build_skb} (as in the v4.6 model, the buffer is the skb).
 * <p>
 * Handover: the page_pool again (the same pool), the descriptors left empty and the first of them. Not thread-safe:
 * engine thread only.
 */
final class PagePoolCurrent extends RxPath {
    /** The 64-descriptor limit of {@code mvneta_rx_refill_queue}'s loop. */
    static final int REFILL_MAX = 64;
    /** Page frames the stack, qdiscs and other devices' TX rings may hold besides the pool's own: an assumed bound. */
    static final int PAGES_OUTSIDE = 2048;
    private static final String REFILL_NUM_KEY = "mvneta.refillNum", FIRST_TO_REFILL_KEY = "mvneta.firstToRefill";

    private final BufferPool pagePool;
    /** Descriptors the poll left empty ({@code refill_num}), the first of them ({@code first_to_refill}). */
    private int refillNum, firstToRefill;

    /**
     * Creates the page_pool.
     *
     * @param maxRxBuf {@code MVNETA_MAX_RX_BUF_SIZE}, bytes
     */
    PagePoolCurrent(MvnetaElement port, int maxRxBuf) {
        super(port);
        // mvneta_create_page_pool: pool_size = the ring, offset = rx_offset_correction, max_len; frames: the ring's
        // pages, the cache's, the ptr_ring's, and those outside the pool (assumed bound)
        this.pagePool = ctx.pool("pagepool", "rx", 2 * rxRing + 128 + PAGES_OUTSIDE, maxRxBuf,
                Map.of("poolSize", rxRing, "offset", MvnetaElement.SKB_HEADROOM_CURRENT));
    }

    @Override
    String name() {
        return "mvneta_rx_swbm current";
    }

    @Override
    void fill() {
        fillDescriptors(pagePool);
    }

    @Override
    Buffer dmaTarget(int slot, Buffer frame) {
        return descriptorBuffer(slot, frame);
    }

    @Override
    void receive(int slot, Buffer b) {
        rxBuf[slot] = null; // mvneta_swbm_rx_frame: buf_phys_addr = 0; refill_num++
        refillNum++;
        port.up(b); // mvneta_swbm_build_skb: build_skb around the page, skb_mark_for_recycle
    }

    /**
     * {@code mvneta_rx_refill_queue}: up to 64 of the descriptors the poll left empty get a page from the page_pool
     * ({@code mvneta_rx_refill}); the first failure stops the loop ({@code refill_error}).
     */
    @Override
    int refillAfterPoll() {
        int i = 0;
        int slot = firstToRefill;
        for (; i < refillNum && i < REFILL_MAX; i++) {
            if (rxBuf[slot] == null) {
                Buffer page = pagePool.alloc(coreIndex, self); // page_pool_alloc_pages(GFP_ATOMIC)
                if (page == null) {
                    port.rxRefillFailures.increment();
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

    @Override
    int refillPending() {
        return refillNum;
    }

    @Override
    BufferPool ringPool() {
        return pagePool;
    }

    @Override
    void exportState(ElementState out) {
        super.exportState(out);
        out.put(REFILL_NUM_KEY, refillNum);
        out.put(FIRST_TO_REFILL_KEY, firstToRefill);
    }

    @Override
    void importState(ElementState in) {
        refillNum = in.getInt(REFILL_NUM_KEY, 0);
        firstToRefill = in.getInt(FIRST_TO_REFILL_KEY, 0);
    }
}

package io.ringlab.pool.hwbm;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.LiveValues;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.buffer.api.PoolContext;
import io.ringlab.buffer.api.dto.PoolStatsDTO;

/**
 * Pool kind {@code "pagepool"}: the kernel's page_pool ({@code net/core/page_pool.c}, {@code include/net/page_pool/}) as
 * of v6.12, order-0 pages with {@code PP_FLAG_DMA_MAP}, one page per buffer (the one-frame-per-page mode that mvneta,
 * and XDP drivers generally, use; no {@code page_pool_alloc_frag}).
 * <p>
 * <b>Memory.</b> {@code capacity} page frames of 4 KB, each at its own simulated address ({@link PoolContext#memory}),
 * each with one buffer record whose data starts {@code offset} bytes into the page ({@code pp.offset}, the driver's
 * headroom). A frame is in exactly one place: the page allocator (LIFO, as the per-CPU page lists hand back the page
 * freed last), the pool's alloc cache, its ptr_ring, or handed out (the driver's RX ring, the stack, another device's TX
 * ring). The page allocator is the pool's own: {@code capacity} bounds the pages the pool can take from it.
 * <p>
 * <b>Allocation</b> ({@link #alloc} = {@code page_pool_alloc_pages}): the fast path pops the alloc cache
 * ({@code alloc.cache[PP_ALLOC_CACHE_SIZE]}, 128; stat {@code fast}). An empty cache is refilled from the ptr_ring
 * ({@code page_pool_refill_alloc_cache}: up to {@code PP_ALLOC_CACHE_REFILL} 64 entries; stat {@code refill}; an empty ring
 * counts {@code empty}). Failing that, the slow path ({@code __page_pool_alloc_pages_slow}) takes up to 64 pages from the
 * page allocator at once ({@code alloc_pages_bulk}), DMA-maps each ({@code page_pool_dma_map}, once in the page's life
 * with the pool; {@code dma.mapCycles}), counts each in {@code pages_state_hold_cnt}, and returns the last (stat
 * {@code slow}). Each page the allocator gives costs {@code pagepool.pageAllocCycles}. With no page left the call fails
 * ({@code null}, {@code allocFailures}). The NUMA check of the refill never fails here (one node: {@code waive} stays 0),
 * and order 0 never takes {@code __page_pool_alloc_page_order} ({@code slow_high_order} stays 0).
 * <p>
 * <b>Recycling.</b> {@code page_pool_put_unrefed_netmem(pool, netmem, -1, allow_direct)}: with {@code allow_direct} the
 * page goes into the alloc cache if it has room (stat {@code cached}; else {@code cache_full}); otherwise into the
 * ptr_ring of {@code poolSize} entries ({@code ring}); a full ring sends the page back to the page allocator, DMA
 * unmapped ({@code ring_full}; {@code page_pool_return_page}: {@code dma.unmapCycles}, {@code pagepool.pageFreeCycles},
 * {@code pages_state_release_cnt}). {@code released_refcnt} (a page whose refcount is not 1, or pfmemalloc) never
 * happens here: nothing else takes page references.
 * <p>
 * Which frees are direct, in v6.12: an skb freed anywhere ({@code skb_release_data} → {@code skb_pp_recycle} →
 * {@code napi_pp_put_page}) calls {@code page_pool_put_full_netmem(pp, netmem, false)}, so the page is direct only if
 * {@code page_pool_napi_local(pool)}: in softirq and either the pool is per-CPU for this CPU ({@code pool->cpuid},
 * {@code page_pool_create_percpu}) or {@code pool->p.napi} is set and its {@code list_owner} is this CPU. A driver's own
 * {@code page_pool_put_full_page(pool, page, true)} / {@code page_pool_recycle_direct} (XDP_DROP, RX error paths) is
 * direct by the caller's word. Here:
 * <ul>
 * <li>{@link #free} is a free whose context the pool cannot see (process context, another CPU, a softirq): treated as
 * not NAPI-local, so it goes to the ring. Exact for a pool without {@code napiCore} (mvneta: its
 * {@code page_pool_params} set no {@code .napi}), where no skb free is direct;</li>
 * <li>{@link #consume} is a free in softirq on {@code core} ({@code napi_consume_skb}'s contract): direct when
 * {@code napiCore} equals {@code core}.</li>
 * </ul>
 * Not modelled: the DMA syncs ({@code PP_FLAG_DMA_SYNC_DEV}; free with coherent DMA, as on the Armada 38x), the ring's
 * producer and consumer locks and the struct page writes (not charged), page_pool fragments, memory providers, the
 * release of in-flight pages after {@code page_pool_destroy}.
 * <p>
 * Allocation-free after construction. Not thread-safe: one run's engine thread.
 */
final class PagePool implements BufferPool {
    static final String KIND = "pagepool";
    /** {@code PAGE_SIZE}: order-0 pages only. */
    static final int PAGE_BYTES = 4096;
    /** {@code PP_ALLOC_CACHE_SIZE} ({@code include/net/page_pool/types.h}). */
    static final int PP_ALLOC_CACHE_SIZE = 128;
    /** {@code PP_ALLOC_CACHE_REFILL} ({@code include/net/page_pool/types.h}); also the slow path's bulk. */
    static final int PP_ALLOC_CACHE_REFILL = 64;
    /** {@code page_pool_init}: {@code ring_qsize = min(pool_size, 16384)}, 1024 when {@code pool_size} is 0. */
    static final int MAX_RING = 16384, DEFAULT_RING = 1024;

    private final String name;
    private final PoolContext context;
    private final int offset;
    private final int napiCore;
    private final Buffer[] records;
    private final int firstId;
    private final long base;
    private final int[] cache = new int[PP_ALLOC_CACHE_SIZE];
    private int cacheCount;
    private final int[] ring;
    private int ringHead, ringCount;
    private final int[] allocator;
    private int allocatorCount;
    private final long pageAllocCycles, pageFreeCycles, dmaMapCycles, dmaUnmapCycles;
    private int inUse;
    private long highWater, allocs, frees, failures, doubleFrees;
    // page_pool_stats
    private long fast, slow, empty, refill, cached, cacheFull, ringed, ringFull;
    private long holdCnt, releaseCnt, dmaMaps, dmaUnmaps, directFrees, teardownReleased;

    /**
     * @param capacity page frames the page allocator can give the pool, at least 1
     * @param bufferBytes each buffer's data capacity, {@code offset + bufferBytes <= 4096}
     * @param poolSize the ptr_ring's entries ({@code pool_size}), 1 to 16384
     * @param offset bytes from the page's start to the buffer's data ({@code pp.offset})
     * @param napiCore the core of the NAPI context given in {@code pp.napi}, or -1 for none
     */
    PagePool(PoolContext context, String name, int capacity, int bufferBytes, int poolSize, int offset, int napiCore) {
        this.name = name;
        this.context = context;
        this.offset = offset;
        this.napiCore = napiCore;
        this.records = Pools.records(context, this, name, capacity, bufferBytes);
        this.firstId = records[0].id();
        this.base = context.memory((long) capacity * PAGE_BYTES);
        for (int i = 0; i < capacity; i++) {
            context.place(records[i], base + (long) i * PAGE_BYTES + offset);
        }
        this.ring = new int[poolSize];
        this.allocator = new int[capacity];
        for (int i = capacity - 1; i >= 0; i--) {
            allocator[allocatorCount++] = i; // page 0 on top
        }
        this.pageAllocCycles = Pools.cycles(context, "pagepool.pageAllocCycles");
        this.pageFreeCycles = Pools.cycles(context, "pagepool.pageFreeCycles");
        this.dmaMapCycles = Pools.cycles(context, "dma.mapCycles");
        this.dmaUnmapCycles = Pools.cycles(context, "dma.unmapCycles");
    }

    @Override public String name() { return name; }
    @Override public String kind() { return KIND; }
    @Override public int capacity() { return records.length; }
    /** @return pages the pool can hand out now: alloc cache, ptr_ring and the page allocator's remaining frames */
    @Override public int available() { return cacheCount + ringCount + allocatorCount; }
    @Override public int inUse() { return inUse; }

    /** {@code page_pool_alloc_pages}. */
    @Override
    public Buffer alloc(int core, int owner) {
        int i;
        if (cacheCount > 0) {
            fast++;
            i = cache[--cacheCount];
        } else if (ringCount > 0) { // page_pool_refill_alloc_cache
            do {
                int p = ring[ringHead];
                if (++ringHead == ring.length) {
                    ringHead = 0;
                }
                ringCount--;
                cache[cacheCount++] = p;
            } while (cacheCount < PP_ALLOC_CACHE_REFILL && ringCount > 0);
            refill++;
            i = cache[--cacheCount];
        } else {
            empty++; // __ptr_ring_empty: the quicker fallback
            i = slowPath(core, owner);
            if (i < 0) {
                failures++;
                return null;
            }
        }
        Buffer b = records[i];
        context.onAlloc(b, owner);
        allocs++;
        if (++inUse > highWater) {
            highWater = inUse;
        }
        return b;
    }

    /** {@code __page_pool_alloc_pages_slow}: a bulk of up to 64 pages, each DMA mapped; returns the last or -1. */
    private int slowPath(int core, int owner) {
        int n = Math.min(PP_ALLOC_CACHE_REFILL, allocatorCount);
        if (n == 0) {
            return -1; // alloc_pages_bulk gave nothing
        }
        for (int k = 0; k < n; k++) {
            int p = allocator[--allocatorCount];
            cache[cacheCount++] = p;
            holdCnt++; // pages_state_hold_cnt
            dmaMaps++; // page_pool_dma_map: once in the page's life with the pool
        }
        context.charge(core, owner, n * (pageAllocCycles + dmaMapCycles));
        slow++;
        return cache[--cacheCount];
    }

    /** {@code napi_pp_put_page} from a context the pool cannot see: not NAPI-local, the ptr_ring. */
    @Override
    public void free(int core, Buffer buffer) {
        put(core, buffer, false);
    }

    /** A free in softirq on {@code core}: direct when the pool's NAPI context ({@code napiCore}) is on that core. */
    @Override
    public void consume(int core, Buffer buffer) {
        put(core, buffer, core == napiCore);
    }

    /** {@code page_pool_put_unrefed_netmem(pool, netmem, -1, allowDirect)}. */
    private void put(int core, Buffer buffer, boolean allowDirect) {
        int element = buffer.owner();
        if (buffer.pool() != this || !context.onFree(buffer)) {
            doubleFrees++;
            return;
        }
        int i = buffer.id() - firstId;
        frees++;
        inUse--;
        if (allowDirect) {
            directFrees++;
            if (cacheCount < PP_ALLOC_CACHE_SIZE) { // page_pool_recycle_in_cache
                cache[cacheCount++] = i;
                cached++;
                return;
            }
            cacheFull++;
        }
        if (ringCount < ring.length) { // page_pool_recycle_in_ring
            int slot = ringHead + ringCount;
            ring[slot >= ring.length ? slot - ring.length : slot] = i;
            ringCount++;
            ringed++;
            return;
        }
        ringFull++;
        release(core, element, i);
    }

    /** {@code page_pool_return_page}: DMA unmap, {@code pages_state_release_cnt}, {@code put_page}. */
    private void release(int core, int element, int i) {
        dmaUnmaps++;
        releaseCnt++;
        allocator[allocatorCount++] = i;
        context.charge(core, element, dmaUnmapCycles + pageFreeCycles);
    }

    /** {@code page_pool_destroy}: the alloc cache and the ptr_ring go back to the page allocator, unmapped. */
    @Override
    public void close() {
        while (cacheCount > 0) {
            release(0, -1, cache[--cacheCount]);
            teardownReleased++;
        }
        while (ringCount > 0) {
            int p = ring[ringHead];
            if (++ringHead == ring.length) {
                ringHead = 0;
            }
            ringCount--;
            release(0, -1, p);
            teardownReleased++;
        }
    }

    @Override
    public void forEachInUse(BufferVisitor visitor) {
        for (Buffer b : records) {
            if (b.allocated()) {
                visitor.visit(b);
            }
        }
    }

    /** @return pages the pool holds from the page allocator: {@code pages_state_hold_cnt - pages_state_release_cnt} */
    long pagesHeld() {
        return holdCnt - releaseCnt;
    }

    @Override
    public void liveValues(LiveValues values) {
        values.add("allocFailures", () -> failures);
        values.add("allocSlow", () -> slow);
        values.add("recycleRingFull", () -> ringFull);
        values.add("pagesHeld", this::pagesHeld);
    }

    /** {@inheritDoc} {@code allocFailures} counts them. */
    @Override
    public void countAllocFailures(int missing) {
        failures += missing;
    }

    @Override
    public PoolStatsDTO stats() {
        PoolStatsDTO s = new PoolStatsDTO();
        s.name = name;
        s.kind = KIND;
        s.capacity = records.length;
        s.available = available();
        s.inUse = inUse;
        s.highWaterMark = highWater;
        s.allocs = allocs;
        s.frees = frees;
        s.allocFailures = failures;
        s.doubleFrees = doubleFrees;
        // page_pool_stats, with the kernel's names (rx_pp_alloc_fast, ...)
        s.counters.put("allocFast", fast);
        s.counters.put("allocSlow", slow);
        s.counters.put("allocSlowHighOrder", 0L);
        s.counters.put("allocEmpty", empty);
        s.counters.put("allocRefill", refill);
        s.counters.put("allocWaive", 0L);
        s.counters.put("recycleCached", cached);
        s.counters.put("recycleCacheFull", cacheFull);
        s.counters.put("recycleRing", ringed);
        s.counters.put("recycleRingFull", ringFull);
        s.counters.put("recycleReleasedRefcnt", 0L);
        // pages: held = inFlight + inCache + inRing; held + inAllocator = capacity
        s.counters.put("pagesHoldCnt", holdCnt);
        s.counters.put("pagesReleaseCnt", releaseCnt);
        s.gauges.put("pagesHeld", pagesHeld());
        s.gauges.put("pagesInFlight", (long) inUse);
        s.gauges.put("pagesInCache", (long) cacheCount);
        s.gauges.put("pagesInRing", (long) ringCount);
        s.gauges.put("pagesInAllocator", (long) allocatorCount);
        s.gauges.put("poolSize", (long) ring.length);
        s.gauges.put("offset", (long) offset);
        s.counters.put("dmaMaps", dmaMaps);
        s.counters.put("dmaUnmaps", dmaUnmaps);
        s.counters.put("directFrees", directFrees);
        s.counters.put("teardownReleased", teardownReleased);
        return s;
    }
}

package io.ringlab.pool.slab;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.LiveValues;
import io.ringlab.buffer.api.PoolContext;
import io.ringlab.buffer.api.dto.PoolStatsDTO;

/**
 * Pool kind {@code "skb"}: SKBs as a NAPI driver gets and frees them ({@code net/core/skbuff.c}). Each buffer is an skb;
 * its head ({@code struct sk_buff}) is an object of the {@code skbuff_head_cache} slab ({@link SlabCache}), reached
 * through the per-CPU NAPI skb cache ({@code struct napi_alloc_cache}: {@code skb_cache[64]}, {@code skb_count}). The
 * data area is not modelled as an allocation (the page-fragment cache costs the same in every variant). Setting
 * {@code allocBulk} chooses the kernel:
 * <ul>
 * <li>{@code 0}: v4.6 to v5.11 as merged. {@code napi_alloc_skb} allocates the head with one {@code kmem_cache_alloc};
 * {@code napi_consume_skb} ({@link #consume}) defers the head into the cache and frees all 64 with one
 * {@code kmem_cache_free_bulk} when it is full ({@code _kfree_skb_defer}), and the rest at the end of the softirq
 * ({@link #flush}, {@code __kfree_skb_flush}).</li>
 * <li>{@code 8}: the 2015/2016 RFC (not merged). The same deferral, and {@code napi_alloc_skb} pops its head from the
 * cache, refilling an empty cache with {@code kmem_cache_alloc_bulk} of 8, or, after a driver's {@link #hint}, of the
 * number of SKBs the driver still expects in this poll (at most 64); heads freed in the same softirq are reused directly.</li>
 * <li>{@code 16}: v5.12 and later ({@code napi_skb_cache_get}, {@code napi_skb_cache_put}): an empty cache is refilled
 * with a bulk of 16 ({@code NAPI_SKB_CACHE_BULK}); a full one frees its upper half, 32 ({@code NAPI_SKB_CACHE_HALF});
 * there is no flush at the end of the softirq and no hint.</li>
 * </ul>
 * {@link #free} is {@code kfree_skb} / {@code dev_kfree_skb}: one {@code kmem_cache_free} at once. The kernel's
 * {@code napi_consume_skb} frees fclones (TCP's own skbs) at once; here a buffer always returns to the pool it came from,
 * and TCP's buffers come from the TCP element's own pool, so they never reach this cache. Costs: those of the slab
 * ({@link SlabCosts}); the cache's own push and pop (a few instructions) are not charged.
 * <p>
 * Allocation-free after construction. Not thread-safe: one run's engine thread.
 */
final class SkbPool extends ObjectPool {
    /** The kind name. */
    static final String KIND = "skb";
    /** {@code NAPI_SKB_CACHE_SIZE} ({@code net/core/skbuff.c}): heads a CPU's cache holds. */
    static final int CACHE_SIZE = 64;
    /** {@code NAPI_SKB_CACHE_BULK} and {@code NAPI_SKB_CACHE_HALF} (v5.12+). */
    static final int CACHE_BULK = 16, CACHE_HALF = 32;
    /** {@code BULK_ALLOC_SIZE} of the 2015 RFC ("net: bulk alloc and reuse of SKBs in NAPI context"). */
    static final int RFC_BULK = 8;

    private final int allocBulk;
    private final int[] skbCache;
    private final int[] skbCount;
    private final int[] hintLeft;
    private long cacheHits, refills, hintedRefills, deferred, fullFlushes, softirqFlushes;

    /**
     * @param allocBulk 0, 8 or 16 (checked by the provider)
     */
    SkbPool(PoolContext context, String name, int capacity, int bufferBytes, SlabGeometry headGeometry, SlabCosts costs,
            boolean detached, int allocBulk) {
        super(context, name, capacity, bufferBytes, headGeometry, costs, detached);
        this.allocBulk = allocBulk;
        int cores = context.cores();
        this.skbCache = new int[cores * CACHE_SIZE];
        this.skbCount = new int[cores];
        this.hintLeft = new int[cores];
    }

    @Override public String kind() { return KIND; }

    /** {@code napi_alloc_skb}'s head. */
    @Override
    public Buffer alloc(int core, int owner) {
        slab.element = owner;
        int i;
        if (allocBulk == 0) {
            i = slab.alloc(core);
        } else {
            if (skbCount[core] == 0) {
                refill(core);
            } else {
                cacheHits++;
            }
            i = skbCount[core] > 0 ? skbCache[core * CACHE_SIZE + --skbCount[core]] : -1;
            if (hintLeft[core] > 0) {
                hintLeft[core]--;
            }
        }
        context.charge(core, owner, slab.takeCycles());
        if (i < 0) {
            failures++;
            return null;
        }
        return handOut(i, owner);
    }

    /** Refills the core's empty cache with one bulk: 16 (v5.12), or 8 or the driver's hint (the RFC). */
    private void refill(int core) {
        int n = allocBulk;
        if (allocBulk == RFC_BULK && hintLeft[core] > 0) {
            n = Math.min(hintLeft[core], CACHE_SIZE);
            hintedRefills++;
        }
        refills++;
        skbCount[core] = slab.allocBulk(core, skbCache, core * CACHE_SIZE, n);
    }

    /** {@code napi_consume_skb}: the head is deferred into the core's cache; a full cache is freed in bulk. */
    @Override
    public void consume(int core, Buffer buffer) {
        slab.element = buffer.owner();
        int i = accept(buffer);
        if (i < 0) {
            return;
        }
        deferred++;
        if (allocBulk != CACHE_BULK) { // v4.6 _kfree_skb_defer: prefetchw(skb), "SLUB writes into objects when freeing"
            slab.prefetchObject(core, i); // (v5.12's napi_skb_cache_put has none)
        }
        if (skbCount[core] == CACHE_SIZE) { // only after a hinted refill of 64: make room first
            flushFull(core);
        }
        skbCache[core * CACHE_SIZE + skbCount[core]++] = i;
        if (skbCount[core] == CACHE_SIZE) {
            flushFull(core);
        }
    }

    private void flushFull(int core) {
        int base = core * CACHE_SIZE;
        fullFlushes++;
        if (allocBulk == CACHE_BULK) { // napi_skb_cache_put: free the upper half
            slab.freeBulk(core, skbCache, base + CACHE_HALF, CACHE_HALF);
            skbCount[core] = CACHE_HALF;
        } else { // _kfree_skb_defer
            slab.freeBulk(core, skbCache, base, CACHE_SIZE);
            skbCount[core] = 0;
        }
        context.charge(core, slab.element, slab.takeCycles());
    }

    /** {@code __kfree_skb_flush} at the end of {@code net_rx_action} (not in v5.12+, which keeps its cache). */
    @Override
    public void flush(int core) {
        hintLeft[core] = 0;
        if (allocBulk == CACHE_BULK || skbCount[core] == 0) {
            return;
        }
        softirqFlushes++;
        slab.element = -1; // the NAPI poll that just ended
        slab.freeBulk(core, skbCache, core * CACHE_SIZE, skbCount[core]);
        skbCount[core] = 0;
        context.charge(core, -1, slab.takeCycles());
    }

    /** The 2016 RFC's bulk hint: the next refill on this core asks for the SKBs the driver still expects. */
    @Override
    public void hint(int core, int count) {
        if (allocBulk == RFC_BULK) {
            hintLeft[core] = Math.max(0, count);
        }
    }

    @Override
    public void liveValues(LiveValues values) {
        values.add("allocFailures", () -> failures);
        values.add("napiCacheHits", () -> cacheHits);
        values.add("napiCacheRefills", () -> refills);
        slab.liveValues(values, "slab", false);
    }

    /** {@inheritDoc} {@code allocFailures} counts them. */
    @Override
    public void countAllocFailures(int missing) {
        failures += missing;
    }

    @Override
    public PoolStatsDTO stats() {
        PoolStatsDTO s = stats("slab");
        s.gauges.put("allocBulk", (long) allocBulk); // a setting
        s.counters.put("napiCacheHits", cacheHits);
        s.counters.put("napiCacheRefills", refills);
        s.counters.put("napiHintedRefills", hintedRefills);
        s.counters.put("napiDeferredFrees", deferred);
        s.counters.put("napiFullCacheFlushes", fullFlushes);
        s.counters.put("napiSoftirqFlushes", softirqFlushes);
        int cached = 0;
        for (int c : skbCount) {
            cached += c;
        }
        s.gauges.put("napiCachedHeads", (long) cached);
        return s;
    }
}

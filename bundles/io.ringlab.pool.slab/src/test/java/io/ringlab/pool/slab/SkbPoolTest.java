package io.ringlab.pool.slab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.dto.PoolStatsDTO;

/** The per-CPU NAPI skb cache in its three kernels: deferral and flushes, bulk refill, the hint. */
class SkbPoolTest {
    private static final int OWNER = 3;

    private static BufferPool pool(FakeContext ctx, int allocBulk) {
        return new SkbPoolProvider().create(ctx, "eth0.rx", 1024, 2048, Map.of("allocBulk", allocBulk));
    }

    private static long counter(BufferPool p, String name) {
        PoolStatsDTO s = p.stats();
        assertEquals(s.allocs - s.frees, s.inUse, "allocs - frees = inUse");
        Long v = s.counters.containsKey(name) ? s.counters.get(name) : s.gauges.get(name); // a counter or a level
        assertTrue(v != null, name + " in " + s.counters.keySet() + " or " + s.gauges.keySet());
        return v;
    }

    private static Buffer[] take(BufferPool p, int n) {
        Buffer[] b = new Buffer[n];
        for (int i = 0; i < n; i++) {
            b[i] = p.alloc(0, OWNER);
        }
        return b;
    }

    /**
     * v4.6 _kfree_skb_defer ends with prefetchw(skb) ("SLUB writes into objects when freeing", net/core/skbuff.c), so a
     * deferred head's line is on its way before kmem_cache_free_bulk stores into it; v5.12's napi_skb_cache_put has none.
     */
    @Test
    void aDeferredHeadIsPrefetchedForWritingExceptInV512() {
        for (int allocBulk : new int[] {0, 8, 16}) {
            FakeContext ctx = new FakeContext(1);
            BufferPool p = pool(ctx, allocBulk);
            Buffer b = p.alloc(0, OWNER);
            ctx.touches.clear();
            p.consume(0, b);
            assertEquals(allocBulk == 16 ? 0 : 1, ctx.touches.size(), "allocBulk " + allocBulk + ": " + ctx.touches);
            if (allocBulk != 16) {
                assertTrue(ctx.touches.get(0).startsWith("prefetch "), ctx.touches.toString());
            }
        }
    }

    @Test
    void theHeadsComeFromAHardwareAlignedSlabOfSkbuffHeads() {
        BufferPool p = pool(new FakeContext(1), 0);
        assertEquals(16, counter(p, "slabObjectsPerSlab"), "232 -> 256 bytes; 12 objects wanted on 1 CPU: one 4 KB page");
    }

    @Test
    void withoutBulkAllocEachHeadIsOneKmemCacheAllocAndConsumedHeadsAreFreedSixtyFourAtATime() {
        FakeContext ctx = new FakeContext(1);
        BufferPool p = pool(ctx, 0);
        Buffer[] b = take(p, 100);
        assertEquals(0, counter(p, "slabBulkAllocCalls"));
        assertEquals(100, counter(p, "slabFastAllocs") + counter(p, "slabSlowAllocs"));
        for (int i = 0; i < 70; i++) {
            p.consume(0, b[i]);
        }
        assertEquals(1, counter(p, "napiFullCacheFlushes"));
        assertEquals(1, counter(p, "slabBulkFreeCalls"), "64 heads in one kmem_cache_free_bulk");
        assertEquals(6, counter(p, "napiCachedHeads"));
        p.alloc(0, OWNER);
        assertEquals(6, counter(p, "napiCachedHeads"), "v4.6 allocates from the slab, not from the deferred heads");
        assertEquals(0, counter(p, "napiCacheHits"));
        p.flush(0);
        assertEquals(1, counter(p, "napiSoftirqFlushes"));
        assertEquals(2, counter(p, "slabBulkFreeCalls"));
        assertEquals(0, counter(p, "napiCachedHeads"));
        p.free(0, b[70]);
        assertEquals(2, counter(p, "slabBulkFreeCalls"), "kfree_skb frees at once, one object");
        assertEquals(71, p.stats().frees);
    }

    @Test
    void theRfcRefillsEightAtATimeAndReusesHeadsFreedInTheSameSoftirq() {
        FakeContext ctx = new FakeContext(1);
        BufferPool p = pool(ctx, 8);
        Buffer[] b = take(p, 17);
        assertEquals(3, counter(p, "slabBulkAllocCalls"), "17 heads: bulks of 8 at the 1st, 9th and 17th");
        assertEquals(14, counter(p, "napiCacheHits"));
        p.consume(0, b[16]);
        long calls = counter(p, "slabBulkAllocCalls");
        assertSame(b[16], p.alloc(0, OWNER), "the head just consumed comes back from the cache");
        assertEquals(calls, counter(p, "slabBulkAllocCalls"), "without reaching the allocator");
        p.flush(0);
        assertEquals(0, counter(p, "napiCachedHeads"), "the softirq's end frees what the cache holds");
    }

    @Test
    void theHintTurnsEightBulkCallsIntoOne() {
        for (boolean hinted : new boolean[] {false, true}) {
            FakeContext ctx = new FakeContext(1);
            BufferPool p = pool(ctx, 8);
            p.alloc(0, OWNER); // the first slab
            p.flush(0);
            long before = counter(p, "slabBulkAllocCalls");
            if (hinted) {
                p.hint(0, 64); // 64 descriptors ready, a budget of 64
            }
            take(p, 64);
            assertEquals(hinted ? 1 : 8, counter(p, "slabBulkAllocCalls") - before, "hinted=" + hinted);
            assertEquals(hinted ? 1 : 0, counter(p, "napiHintedRefills"));
        }
    }

    @Test
    void v512RefillsSixteenAndFreesTheUpperHalfOfAFullCache() {
        FakeContext ctx = new FakeContext(1);
        BufferPool p = pool(ctx, 16);
        p.hint(0, 64);
        Buffer[] b = take(p, 80);
        assertEquals(5, counter(p, "slabBulkAllocCalls"), "80 heads in bulks of 16; no hint in v5.12");
        for (Buffer x : b) {
            p.consume(0, x);
        }
        // 64 pushed: the upper 32 freed, 32 kept; 16 more: 48
        assertEquals(1, counter(p, "napiFullCacheFlushes"));
        assertEquals(48, counter(p, "napiCachedHeads"));
        p.flush(0);
        assertEquals(48, counter(p, "napiCachedHeads"), "no __kfree_skb_flush since v5.12: the cache is kept");
        take(p, 48);
        assertEquals(5, counter(p, "slabBulkAllocCalls"), "the kept heads serve the next 48 allocations");
    }

    @Test
    void aDoubleConsumeIsRefused() {
        FakeContext ctx = new FakeContext(1);
        BufferPool p = pool(ctx, 8);
        Buffer x = p.alloc(0, OWNER);
        p.consume(0, x);
        p.consume(0, x);
        assertEquals(1, p.stats().doubleFrees);
        assertEquals(1, counter(p, "napiDeferredFrees"));
    }

    @Test
    void onlyTheThreeKernelsAllocBulkValuesAreAccepted() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> pool(new FakeContext(1), 4));
        assertTrue(e.getMessage().contains("allocBulk=4") && e.getMessage().contains("0 (no bulk alloc")
                && e.getMessage().contains("8 (the 2015/2016 RFC)") && e.getMessage().contains("16 (v5.12+"), e.getMessage());
    }
}

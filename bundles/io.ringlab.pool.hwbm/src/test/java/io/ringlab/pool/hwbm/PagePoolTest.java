package io.ringlab.pool.hwbm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.dto.PoolStatsDTO;
import io.ringlab.pool.slab.FakeContext;

/** page_pool (v6.12): alloc cache, ptr_ring refill of 64, slow path of 64 mapped pages, direct and ring recycling. */
class PagePoolTest {
    private static BufferPool pool(FakeContext ctx, int pages, Map<String, Object> settings) {
        return new PagePoolProvider().create(ctx, "eth0.rx", pages, 3584, settings);
    }

    private static long counter(BufferPool p, String name) {
        PoolStatsDTO s = p.stats();
        Long v = s.counters.containsKey(name) ? s.counters.get(name) : s.gauges.get(name); // a counter or a level
        assertNotNull(v, name);
        return v;
    }

    /** held = in flight + cache + ring; held + allocator = capacity; allocs - frees = inUse; inUse + available = capacity. */
    private static void assertConserved(BufferPool p) {
        long held = counter(p, "pagesHeld");
        assertEquals(held, counter(p, "pagesInFlight") + counter(p, "pagesInCache") + counter(p, "pagesInRing"));
        assertEquals(p.capacity(), held + counter(p, "pagesInAllocator"));
        assertEquals(p.stats().allocs - p.stats().frees, p.inUse());
        assertEquals(p.capacity(), p.inUse() + p.available());
    }

    @Test
    void theFirstAllocationTakesABulkOf64MappedPagesFromThePageAllocator() {
        FakeContext ctx = new FakeContext(1);
        ctx.profile.put("dma.mapCycles", 20.0);
        ctx.profile.put("pagepool.pageAllocCycles", 100.0);
        BufferPool p = pool(ctx, 1024, Map.of("poolSize", 512, "offset", 256));
        Buffer b = p.alloc(0, 1);
        assertEquals(1, counter(p, "allocSlow"));
        assertEquals(1, counter(p, "allocEmpty"), "the ptr_ring was empty first");
        assertEquals(64, counter(p, "dmaMaps"));
        assertEquals(64, counter(p, "pagesHeld"));
        assertEquals(63, counter(p, "pagesInCache"));
        assertEquals(64 * 120, ctx.cycles[0]);
        assertEquals(256, (b.address() - (1L << 32)) % 4096, "the data starts pp.offset into its own page");
        for (int i = 0; i < 63; i++) {
            p.alloc(0, 1);
        }
        assertEquals(63, counter(p, "allocFast"));
        assertEquals(1, counter(p, "allocSlow"));
        assertConserved(p);
    }

    @Test
    void pagesFreedToTheRingComeBackInRefillsOf64AndTheWorkingSetStaysSmall() {
        FakeContext ctx = new FakeContext(1);
        BufferPool p = pool(ctx, 4096, Map.of("poolSize", 512));
        ArrayDeque<Buffer> ringOfDriver = new ArrayDeque<>();
        for (int i = 0; i < 512; i++) { // mvneta_rxq_fill
            ringOfDriver.add(p.alloc(0, 1));
        }
        Set<Long> pages = new HashSet<>();
        Buffer[] stack = new Buffer[64];
        for (int poll = 0; poll < 1000; poll++) { // 64 frames go up, the poll refills 64 descriptors, the stack frees later
            for (int k = 0; k < 64; k++) {
                stack[k] = ringOfDriver.poll();
                pages.add(stack[k].address());
            }
            for (int k = 0; k < 64; k++) {
                ringOfDriver.add(p.alloc(0, 1)); // mvneta_rx_refill_queue
            }
            for (Buffer b : stack) {
                p.free(0, b); // napi_pp_put_page, not NAPI-local
            }
        }
        assertEquals(8 + 1, counter(p, "allocSlow"), "the ring's 512 plus one bulk while the ptr_ring is first empty");
        assertEquals(64_000, counter(p, "recycleRing"), "no free is direct without pp.napi");
        assertEquals(0, counter(p, "recycleRingFull"));
        assertEquals(999, counter(p, "allocRefill"), "one refill of 64 per poll after the first");
        assertEquals(512 + 64, pages.size(), "the working set of 64,000 frames");
        assertEquals(counter(p, "pagesHeld"), counter(p, "dmaMaps"), "each page mapped once");
        assertConserved(p);
    }

    @Test
    void directRecyclingInTheNapiContextKeepsPagesInTheAllocCache() {
        FakeContext ctx = new FakeContext(2);
        BufferPool p = pool(ctx, 1024, Map.of("poolSize", 256, "napiCore", 0));
        Set<Long> pages = new HashSet<>();
        for (int n = 0; n < 10_000; n++) {
            Buffer b = p.alloc(0, 1);
            pages.add(b.address());
            p.consume(0, b); // napi_consume_skb on the pool's NAPI core
        }
        assertEquals(1, counter(p, "allocSlow"));
        assertEquals(10_000, counter(p, "recycleCached"));
        assertEquals(1, pages.size(), "LIFO: the same page every time");
        Buffer other = p.alloc(0, 1);
        p.consume(1, other); // another core's softirq: not NAPI-local
        assertEquals(1, counter(p, "recycleRing"));
        assertConserved(p);
    }

    @Test
    void aFullCacheSpillsIntoTheRingAndAFullRingReleasesPagesUnmapped() {
        FakeContext ctx = new FakeContext(1);
        ctx.profile.put("dma.unmapCycles", 7.0);
        BufferPool p = pool(ctx, 1024, Map.of("poolSize", 100, "napiCore", 0));
        Buffer[] held = new Buffer[400];
        p.allocBulk(0, 1, held, 0, 400);
        for (Buffer b : held) {
            p.consume(0, b);
        }
        // 7 bulks of 64 = 448 pages: 48 stay in the cache, which takes 80 more (PP_ALLOC_CACHE_SIZE 128)
        assertEquals(7, counter(p, "allocSlow"));
        assertEquals(80, counter(p, "recycleCached"));
        assertEquals(400 - 80, counter(p, "recycleCacheFull"));
        assertEquals(100, counter(p, "recycleRing"), "poolSize");
        assertEquals(400 - 80 - 100, counter(p, "recycleRingFull"));
        assertEquals(220, counter(p, "pagesReleaseCnt"));
        assertEquals(220, counter(p, "dmaUnmaps"));
        assertEquals(220 * 7, ctx.cycles[0], "dma.unmapCycles per released page");
        assertEquals(448 - 220, counter(p, "pagesHeld"));
        assertConserved(p);
        p.close(); // page_pool_destroy
        assertEquals(0, counter(p, "pagesHeld"));
        assertConserved(p);
    }

    @Test
    void anExhaustedPageAllocatorFailsTheAllocationAndARecycledPageServesTheNext() {
        FakeContext ctx = new FakeContext(1);
        BufferPool p = pool(ctx, 100, Map.of("poolSize", 64));
        Buffer[] all = new Buffer[100];
        assertEquals(100, p.allocBulk(0, 1, all, 0, 100));
        assertEquals(2, counter(p, "allocSlow"), "a bulk of 64, then the 36 left");
        assertNull(p.alloc(0, 1));
        assertEquals(1, p.stats().allocFailures);
        p.free(0, all[7]);
        assertEquals(all[7], p.alloc(0, 1), "refilled from the ptr_ring");
        assertEquals(1, counter(p, "allocRefill"));
        assertConserved(p);
    }

    @Test
    void doubleFreesAreRefusedAndBadSettingsNamed() {
        FakeContext ctx = new FakeContext(1);
        BufferPool p = pool(ctx, 10, Map.of());
        Buffer b = p.alloc(0, 1);
        p.free(0, b);
        p.free(0, b);
        assertEquals(1, p.stats().doubleFrees);
        assertEquals(1, counter(p, "recycleRing"));
        assertConserved(p);
        assertThrows(IllegalArgumentException.class, () -> pool(ctx, 10, Map.of("poolSize", 20000)));
        assertThrows(IllegalArgumentException.class, () -> pool(ctx, 10, Map.of("offset", 1024)));
        assertThrows(IllegalArgumentException.class, () -> pool(ctx, 10, Map.of("napiCore", 3)));
        assertThrows(IllegalArgumentException.class, () -> pool(ctx, 10, Map.of("order", 1)));
    }
}

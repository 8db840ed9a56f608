package io.ringlab.pool.slab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.dto.PoolStatsDTO;

/** The SLUB mechanism: fast and slow paths, the partial list, remote frees, bulk calls and the detached freelist. */
class SlabPoolTest {
    private static final int OWNER = 7;

    private static SlabPool pool(FakeContext ctx, int capacity, Map<String, Object> settings) {
        return (SlabPool) new SlabPoolProvider().create(ctx, "test.slab", capacity, 256, settings);
    }

    private static long counter(SlabPool p, String name) {
        PoolStatsDTO s = p.stats();
        assertEquals(s.allocs - s.frees, s.inUse, "allocs - frees = inUse");
        assertEquals(s.capacity, s.inUse + s.available, "inUse + available = capacity");
        return s.counters.containsKey(name) ? s.counters.get(name) : s.gauges.get(name); // a counter or a level
    }

    @Test
    void theFirstAllocationBuildsASlabAndTheRestComeFromThePerCpuFreelist() {
        FakeContext ctx = new FakeContext(2);
        SlabPool p = pool(ctx, 64, Map.of());
        Buffer a = p.alloc(0, OWNER);
        assertEquals(1, counter(p, "slowAllocs"));
        assertEquals(1, counter(p, "newSlabs"));
        assertEquals(16, counter(p, "objectsPerSlab"));
        assertEquals(SlabCosts.ALLOC + SlabCosts.SLOW_ALLOC + SlabCosts.NEW_SLAB, ctx.cycles[0]);
        Buffer b = p.alloc(0, OWNER);
        assertEquals(1, counter(p, "fastAllocs"));
        assertEquals(SlabCosts.ALLOC + SlabCosts.SLOW_ALLOC + SlabCosts.NEW_SLAB + SlabCosts.ALLOC, ctx.cycles[0]);
        assertEquals(OWNER, b.owner());
        p.free(0, b);
        assertEquals(1, counter(p, "fastFrees"), "an object of the core's CPU slab");
        assertSame(b, p.alloc(0, OWNER), "the per-CPU freelist is LIFO: the object just freed comes back, cache-hot");
        assertTrue(a.allocated());
    }

    @Test
    void aSlabOfSixteenServesSixteenThenTheNextComesFromANewSlab() {
        FakeContext ctx = new FakeContext(1);
        SlabPool p = pool(ctx, 64, Map.of());
        for (int i = 0; i < 17; i++) {
            p.alloc(0, OWNER);
        }
        assertEquals(2, counter(p, "newSlabs"));
        assertEquals(15, counter(p, "fastAllocs"));
        assertEquals(2, counter(p, "slabs"));
    }

    @Test
    void whenEverySlabIsInUseTheAllocationFails() {
        FakeContext ctx = new FakeContext(1);
        SlabPool p = pool(ctx, 20, Map.of()); // a full slab of 16 and a last one of 4
        for (int i = 0; i < 20; i++) {
            assertTrue(p.alloc(0, OWNER) != null);
        }
        assertNull(p.alloc(0, OWNER));
        assertEquals(1, p.stats().allocFailures);
        assertEquals(0, p.available());
    }

    @Test
    void objectsFreedByAnotherCoreGoBackToTheirPageAndTheOwnerTakesThemInItsSlowPath() {
        FakeContext ctx = new FakeContext(2);
        SlabPool p = pool(ctx, 64, Map.of());
        Buffer[] held = new Buffer[16];
        for (int i = 0; i < 16; i++) {
            held[i] = p.alloc(0, OWNER); // core 0's CPU slab is now empty
        }
        p.free(1, held[3]); // core 1 has no CPU slab: a remote free onto core 0's page
        assertEquals(1, counter(p, "slowFrees"));
        assertEquals(SlabCosts.FREE + SlabCosts.SLOW_FREE, ctx.cycles[1], "charged to the core that frees");
        assertSame(held[3], p.alloc(0, OWNER), "___slab_alloc takes the page's freelist before any other slab");
        assertEquals(1, counter(p, "remoteFreesTaken"));
        assertEquals(1, counter(p, "newSlabs"));
    }

    @Test
    void aFullSlabThatGetsAnObjectBackJoinsThePartialListAndIsUsedBeforeANewSlab() {
        FakeContext ctx = new FakeContext(1);
        SlabPool p = pool(ctx, 64, Map.of());
        Buffer[] first = new Buffer[16];
        for (int i = 0; i < 16; i++) {
            first[i] = p.alloc(0, OWNER);
        }
        p.alloc(0, OWNER); // slab 1 retired full, slab 2 is the CPU slab
        p.free(0, first[0]);
        assertEquals(1, counter(p, "partialSlabs"));
        for (int i = 0; i < 15; i++) {
            p.alloc(0, OWNER); // the rest of slab 2
        }
        assertSame(first[0], p.alloc(0, OWNER), "get_partial before new_slab");
        assertEquals(1, counter(p, "partialSlabsTaken"));
        assertEquals(2, counter(p, "newSlabs"));
    }

    @Test
    void anEmptySlabGoesBackToThePageAllocatorOnlyWhenThePartialListHoldsMinPartial() {
        FakeContext ctx = new FakeContext(1);
        SlabPool p = pool(ctx, 16 * 5, Map.of("minPartial", 2));
        Buffer[] all = new Buffer[80];
        for (int i = 0; i < 80; i++) {
            all[i] = p.alloc(0, OWNER); // five slabs; the fifth is the CPU slab
        }
        // empty slabs 1 to 4 one after the other. __slab_free discards an empty slab when nr_partial, which counts the
        // slab itself, is at least min_partial: slab 1 empties alone on the list and stays; slabs 2, 3 and 4 each find
        // two on the list (slab 1 and themselves) and go back to the page allocator
        for (int s = 0; s < 4; s++) {
            for (int i = 0; i < 16; i++) {
                p.free(0, all[s * 16 + i]);
            }
        }
        assertEquals(1, counter(p, "partialSlabs"));
        assertEquals(3, counter(p, "slabsFreed"));
        assertEquals(2, counter(p, "slabs"), "the CPU slab and one empty partial slab");
    }

    @Test
    void bulkAllocationIsAllOrNothing() {
        FakeContext ctx = new FakeContext(1);
        SlabPool p = pool(ctx, 20, Map.of());
        Buffer[] dst = new Buffer[21];
        assertEquals(0, p.allocBulk(0, OWNER, dst, 0, 21));
        assertEquals(0, p.inUse());
        assertEquals(21, p.stats().allocFailures);
        for (Buffer b : dst) {
            assertNull(b);
        }
        assertEquals(20, p.allocBulk(0, OWNER, dst, 1, 20), "what the failed call took went back");
        assertEquals(20, p.inUse());
    }

    @Test
    void aBulkChargesOneCallAndEachObject() {
        FakeContext ctx = new FakeContext(1);
        SlabPool p = pool(ctx, 64, Map.of());
        Buffer[] b = new Buffer[8];
        p.allocBulk(0, OWNER, b, 0, 8); // builds the first slab
        long before = ctx.cycles[0];
        p.freeBulk(0, b, 0, 8);
        assertEquals(SlabCosts.BULK_CALL + 8 * SlabCosts.BULK_FREE_OBJECT, ctx.cycles[0] - before, "all on the CPU slab");
        before = ctx.cycles[0];
        p.allocBulk(0, OWNER, b, 0, 8);
        assertEquals(SlabCosts.BULK_CALL + 8 * SlabCosts.BULK_ALLOC_OBJECT, ctx.cycles[0] - before);
        assertEquals(8 + 7, counter(p, "fastAllocs"));
    }

    /** Four slabs' objects freed in one bulk by a core with no CPU slab: one slow path per page, or per object. */
    @Test
    void theDetachedFreelistTakesOneSlowPathPerPage() {
        for (String mode : new String[] {"detached", "simple"}) {
            FakeContext ctx = new FakeContext(2);
            SlabPool p = pool(ctx, 64, Map.of("bulkFree", mode));
            Buffer[] b = new Buffer[64];
            assertEquals(64, p.allocBulk(0, OWNER, b, 0, 64));
            p.freeBulk(1, b, 0, 64);
            assertEquals(mode.equals("detached") ? 4 : 64, counter(p, "slowFrees"), mode);
            assertEquals(0, p.inUse());
        }
    }

    @Test
    void theDetachedFreelistLooksAheadAtMostThreeObjectsOfAnotherPage() {
        FakeContext ctx = new FakeContext(2);
        SlabPool p = pool(ctx, 32, Map.of());
        Buffer[] a = new Buffer[16];
        Buffer[] b = new Buffer[16];
        p.allocBulk(0, OWNER, a, 0, 16);
        p.allocBulk(0, OWNER, b, 0, 16);
        Buffer[] mixed = {a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3]};
        p.freeBulk(1, mixed, 0, mixed.length);
        // from b[3]: a[3] miss, b[2], a[2] miss, b[1], a[1] miss: stop -> {b3, b2, b1}; then {a3, a2, a1, a0}; then {b0}
        assertEquals(3, counter(p, "slowFrees"));
        assertEquals(24, p.inUse());
    }

    @Test
    void aDoubleFreeIsRefusedAndCountedAndTheObjectIsFreedOnce() {
        FakeContext ctx = new FakeContext(1);
        SlabPool p = pool(ctx, 32, Map.of());
        Buffer x = p.alloc(0, OWNER);
        Buffer y = p.alloc(0, OWNER);
        p.free(0, x);
        p.free(0, x);
        assertEquals(1, p.stats().doubleFrees);
        p.freeBulk(0, new Buffer[] {y, y}, 0, 2);
        assertEquals(2, p.stats().doubleFrees);
        assertEquals(0, p.inUse());
        Buffer[] all = new Buffer[32];
        assertEquals(32, p.allocBulk(0, OWNER, all, 0, 32), "every object is back exactly once");
        assertEquals(32, java.util.Arrays.stream(all).distinct().count());
    }

    @Test
    void eachObjectsFirstLineAndEachBulkFunctionsCodeGoThroughTheCaches() {
        FakeContext ctx = new FakeContext(1);
        SlabPool p = pool(ctx, 64, Map.of());
        Buffer[] b = new Buffer[3];
        p.allocBulk(0, OWNER, b, 0, 3);
        long allocBulk = ctx.functions.get("kmem_cache_alloc_bulk");
        long base = 1L << 32;
        // slab 0's objects are handed out from its first: 0, 256, 512 bytes into the slab
        assertEquals(java.util.List.of("code " + allocBulk + " 273", "data " + base + " 1", "data " + (base + 256) + " 1",
                "data " + (base + 512) + " 1"), ctx.touches);
        ctx.touches.clear();
        p.freeBulk(0, b, 0, 3);
        assertEquals("code " + ctx.functions.get("kmem_cache_free_bulk") + " 455", ctx.touches.get(0));
        assertEquals(java.util.List.of("prefetch " + (base + 512) + " 1", "prefetch " + (base + 256) + " 1",
                "prefetch " + base + " 1"), ctx.touches.subList(1, ctx.touches.size()),
                "the detached freelist stores each free pointer without waiting (the CPU slab: no locked instruction)");
    }

    /**
     * slab_alloc_node (v4.6 mm/slub.c): the fast path loads the object's free pointer (a demand load) and then
     * prefetch_freepointer(s, next_object), the line of the object the next allocation returns; kmem_cache_alloc_bulk's
     * loop walks the freelist with plain loads and no prefetch (the previous test).
     */
    @Test
    void theFastPathPrefetchesTheNextObjectsFreePointer() {
        FakeContext ctx = new FakeContext(1);
        SlabPool p = pool(ctx, 64, Map.of());
        p.alloc(0, OWNER); // the slow path: a new slab, no prefetch
        long base = 1L << 32;
        assertEquals(java.util.List.of("data " + base + " 1"), ctx.touches);
        ctx.touches.clear();
        p.alloc(0, OWNER);
        assertEquals(java.util.List.of("data " + (base + 256) + " 1", "prefetch " + (base + 512) + " 1"), ctx.touches);
        ctx.touches.clear();
        p.alloc(0, OWNER);
        assertEquals("data " + (base + 512) + " 1", ctx.touches.get(0), "the line the previous allocation prefetched");
    }

    /**
     * __slab_free ends in cmpxchg_double_slab, a locked cmpxchg16b, which waits for the stores before it: a bulk free's
     * group of another slab stores its free pointers without waiting, then fences; a single free of such an object is
     * a demand access.
     */
    @Test
    void aFreeToAnotherSlabWaitsForItsStoresAndOneToTheCpuSlabDoesNot() {
        FakeContext ctx = new FakeContext(1);
        SlabPool p = pool(ctx, 64, Map.of());
        Buffer[] first = new Buffer[16];
        p.allocBulk(0, OWNER, first, 0, 16); // all of slab 0
        Buffer next = p.alloc(0, OWNER); // slab 1 is now the CPU slab
        ctx.touches.clear();
        p.freeBulk(0, first, 0, 2);
        assertEquals(4, ctx.touches.size(), ctx.touches.toString());
        assertTrue(ctx.touches.get(1).startsWith("prefetch ") && ctx.touches.get(2).startsWith("prefetch "));
        assertEquals("fence", ctx.touches.get(3), "__slab_free's locked cmpxchg");
        ctx.touches.clear();
        p.free(0, first[2]);
        assertEquals(1, ctx.touches.size());
        assertTrue(ctx.touches.get(0).startsWith("data "), "a single __slab_free: the store and the locked op, waited for");
        ctx.touches.clear();
        p.free(0, next);
        assertTrue(ctx.touches.get(0).startsWith("prefetch "), "the CPU slab's fast free: a store nothing waits for");
    }

    @Test
    void badSettingsNameTheSettingAndWhatIsAllowed() {
        FakeContext ctx = new FakeContext(1);
        SlabPoolProvider provider = new SlabPoolProvider();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> provider.create(ctx, "eth0.rx", 8, 256, Map.of("bulkFree", "lazy")));
        assertTrue(e.getMessage().contains("bulkFree=lazy") && e.getMessage().contains("detached or simple"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> provider.create(ctx, "eth0.rx", 8, 256, Map.of("align", 48)));
        assertTrue(e.getMessage().contains("align=48"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> provider.create(ctx, "eth0.rx", 8, 256, Map.of("colour", 1)));
        assertTrue(e.getMessage().contains("unknown setting colour"), e.getMessage());
        ctx.profile.put("slab.slowFreeCycles", -1.0);
        e = assertThrows(IllegalArgumentException.class, () -> provider.create(ctx, "eth0.rx", 8, 256, Map.of()));
        assertTrue(e.getMessage().contains("slab.slowFreeCycles"), e.getMessage());
    }
}

package io.ringlab.pool.slab;

import io.ringlab.buffer.api.PoolContext;

/**
 * The cycles a slab operation costs, read from the run's cost profile (keys {@code slab.*}) with the defaults below. The
 * defaults come from the published slab_bulk_test figures, measured on an Intel i7-4790K at 4 GHz (linux-mm, "SLUB bulk
 * alloc and free", June 2015: research notes F6; "slub: initial bulk free implementation", commit fbd02630c6e3: F7);
 * a profile of another CPU overrides them with its own sources. docs/models/slab.md shows the fit and its residuals.
 *
 * @param alloc {@code slab.allocCycles}: a single {@code kmem_cache_alloc} fast path
 * @param free {@code slab.freeCycles}: a single {@code kmem_cache_free} fast path
 * @param bulkCall {@code slab.bulkCallCycles}: one bulk call's fixed part (IRQ off/on, call, tid)
 * @param bulkAllocObject {@code slab.bulkAllocObjectCycles}: each object of a bulk alloc from the per-CPU freelist
 * @param bulkFreeObject {@code slab.bulkFreeObjectCycles}: each object of a bulk free
 * @param slowAlloc {@code slab.slowAllocCycles}: one {@code ___slab_alloc} (a new per-CPU freelist)
 * @param slowFree {@code slab.slowFreeCycles}: one {@code __slab_free} (a locked cmpxchg_double on a page)
 * @param newSlab {@code slab.newSlabCycles}: one slab from the page allocator ({@code new_slab})
 */
record SlabCosts(long alloc, long free, long bulkCall, long bulkAllocObject, long bulkFreeObject, long slowAlloc,
        long slowFree, long newSlab) {

    /**
     * F6: single {@code kmem_cache_alloc} + {@code kmem_cache_free} fast paths, 42 cycles together; the split between
     * the two is not published and is assumed even.
     */
    static final long ALLOC = 21, FREE = 21;
    /**
     * Fitted to F6's bulk rows 1, 2, 4, 8, 16 and 30 (44, 28, 19.2, 18.3, 18.6 and 18.3 cycles per object for an alloc
     * bulk plus a free bulk): per object {@code 2 * call / n + object} with least squares on the relative error gives 12.2
     * cycles per call and 15.9 per object (alloc and free), rounded to 12 and 8 + 8. The IRQ-off section alone is 7 of the
     * 12 ({@code local_irq_disable} + {@code enable}, F7's commit).
     */
    static final long BULK_CALL = 12, BULK_ALLOC_OBJECT = 8, BULK_FREE_OBJECT = 8;
    /**
     * From F7 (the first bulk free, free side alone): 17 cycles per object in bulks of 8, which stay on the CPU slab, and
     * 53.6 in bulks of 64, of which 62 objects take {@code __slab_free}: (53.6 - 17) * 64 / 62 = 37.8 more per slow free.
     */
    static final long SLOW_FREE = 38;
    /**
     * Fitted to F6's bulk rows of 32 and 64 (66 and 63.6 cycles per object, alloc + free) given the others: in that
     * benchmark a slab holds 31 objects (docs/models/slab.md), so a round of 32 takes one {@code ___slab_alloc} and 31 slow
     * frees, a round of 64 two and 62; both rows give {@code slowAlloc + 31 * slowFree} of about 1543 cycles (1576 and
     * 1510), so {@code slowAlloc} = 1543 - 31 * 38 = 365.
     */
    static final long SLOW_ALLOC = 365;
    /**
     * Assumed, not published with the figures above: a slab from the page allocator (an order-0..3 page, its
     * {@code struct page} set up and the freelist built). It only matters while a cache grows.
     */
    static final long NEW_SLAB = 400;

    /**
     * @param context the run's pool context, whose profile may override each default
     * @return the costs
     */
    static SlabCosts from(PoolContext context) {
        return new SlabCosts(
                cycles(context, "slab.allocCycles", ALLOC),
                cycles(context, "slab.freeCycles", FREE),
                cycles(context, "slab.bulkCallCycles", BULK_CALL),
                cycles(context, "slab.bulkAllocObjectCycles", BULK_ALLOC_OBJECT),
                cycles(context, "slab.bulkFreeObjectCycles", BULK_FREE_OBJECT),
                cycles(context, "slab.slowAllocCycles", SLOW_ALLOC),
                cycles(context, "slab.slowFreeCycles", SLOW_FREE),
                cycles(context, "slab.newSlabCycles", NEW_SLAB));
    }

    private static long cycles(PoolContext context, String key, long fallback) {
        double v = context.profileValue(key, fallback);
        if (!(v >= 0) || v > 1e9) {
            throw new IllegalArgumentException("cost profile: " + key + "=" + v + ", allowed 0 to 1e9 cycles");
        }
        return Math.round(v);
    }
}

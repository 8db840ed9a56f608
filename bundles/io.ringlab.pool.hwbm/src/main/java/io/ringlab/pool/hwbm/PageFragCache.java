package io.ringlab.pool.hwbm;

import io.ringlab.buffer.api.PoolContext;

/**
 * The kernel's page-fragment allocator ({@code page_frag_alloc} / {@code netdev_alloc_frag}, {@code mm/page_alloc.c} and
 * {@code net/core/skbuff.c}, 2016): each core carves fragments from its own page of {@code pageBytes}
 * ({@code PAGE_FRAG_CACHE_MAX_SIZE} = 32 KB, an order-3 page), from the top down. When the page has no room left for the
 * next fragment, the core looks at the page's references: if every fragment it gave out has been freed
 * ({@code page_ref_sub_and_test} with the bias), it reuses the same page from the top, so memory that was just used is
 * used again; otherwise it lets the page go (the last fragment freed returns it) and takes a new one from the page
 * allocator. A fragment freed ({@code skb_free_frag}, {@code put_page}) only drops a reference.
 * <p>
 * Pages come from a fixed set reserved in the run's memory ({@code pages}); with none free an allocation fails. Costs:
 * {@code pagefrag.allocCycles} per fragment, {@code pagefrag.pageAllocCycles} per new page, {@code pagefrag.freeCycles}
 * per fragment freed (profile keys, 0 when absent). Allocation-free after construction. Not thread-safe.
 */
final class PageFragCache {
    private static final int NONE = -1;

    private final PoolContext context;
    private final int pageBytes;
    private final long base;
    private final int[] outstanding;
    private final boolean[] current;
    private final int[] freePages;
    private int freeCount;
    private final int[] cpuPage;
    private final int[] cpuOffset;
    private final long allocCycles, pageAllocCycles, freeCycles;
    long fragments, pageReuses, newPages, pagesReleased, failures, fragmentFrees;

    /**
     * @param pages physical pages available, at least 1
     * @param pageBytes bytes per page
     * @param cores the CPUs, each with its own current page
     */
    PageFragCache(PoolContext context, int pages, int pageBytes, int cores) {
        this.context = context;
        this.pageBytes = pageBytes;
        this.base = context.memory((long) pages * pageBytes);
        this.outstanding = new int[pages];
        this.current = new boolean[pages];
        this.freePages = new int[pages];
        for (int p = pages - 1; p >= 0; p--) {
            freePages[freeCount++] = p;
        }
        this.cpuPage = new int[cores];
        java.util.Arrays.fill(cpuPage, NONE);
        this.cpuOffset = new int[cores];
        this.allocCycles = cost("pagefrag.allocCycles");
        this.pageAllocCycles = cost("pagefrag.pageAllocCycles");
        this.freeCycles = cost("pagefrag.freeCycles");
    }

    private long cost(String key) {
        double v = context.profileValue(key, 0);
        if (!(v >= 0) || v > 1e9) {
            throw new IllegalArgumentException("cost profile: " + key + "=" + v + ", allowed 0 to 1e9 cycles");
        }
        return Math.round(v);
    }

    /**
     * {@code page_frag_alloc(nc, fragsz)}.
     *
     * @param element the element charged
     * @return the fragment's address, or -1 when no page is free
     */
    long alloc(int core, int element, int fragsz) {
        if (fragsz > pageBytes) {
            throw new IllegalArgumentException("a fragment of " + fragsz + " bytes does not fit a page of " + pageBytes);
        }
        long spent = allocCycles;
        int p = cpuPage[core];
        if (p == NONE || cpuOffset[core] < fragsz) {
            if (p != NONE && outstanding[p] == 0) {
                pageReuses++; // every fragment came back: carve the same page again
            } else {
                if (p != NONE) {
                    current[p] = false;
                    if (outstanding[p] == 0) {
                        release(p);
                    }
                }
                if (freeCount == 0) {
                    cpuPage[core] = NONE;
                    failures++;
                    context.charge(core, element, spent);
                    return -1;
                }
                p = freePages[--freeCount];
                current[p] = true;
                cpuPage[core] = p;
                newPages++;
                spent += pageAllocCycles;
            }
            cpuOffset[core] = pageBytes;
        }
        cpuOffset[core] -= fragsz;
        outstanding[p]++;
        fragments++;
        context.charge(core, element, spent);
        return base + (long) p * pageBytes + cpuOffset[core];
    }

    /** {@code skb_free_frag}: drops the fragment's reference; a page no core carves from goes back when none remain. */
    void free(int core, int element, long address) {
        int p = (int) ((address - base) / pageBytes);
        outstanding[p]--;
        fragmentFrees++;
        context.charge(core, element, freeCycles);
        if (outstanding[p] == 0 && !current[p]) {
            release(p);
        }
    }

    private void release(int p) {
        freePages[freeCount++] = p;
        pagesReleased++;
    }

    /** @return pages holding fragments or being carved */
    int pagesInUse() {
        return outstanding.length - freeCount;
    }

    void counters(java.util.Map<String, Long> out) {
        out.put("fragPages", (long) outstanding.length);
        out.put("fragPagesInUse", (long) pagesInUse());
        out.put("fragAllocs", fragments);
        out.put("fragFrees", fragmentFrees);
        out.put("fragPageReuses", pageReuses);
        out.put("fragNewPages", newPages);
        out.put("fragPagesReleased", pagesReleased);
        out.put("fragFailures", failures);
    }
}

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
 * One instance per run is shared by every pool that allocates with {@code netdev_alloc_frag} ({@link #of}): the kernel's
 * per-CPU {@code netdev_alloc_cache}, so a short-pool fragment and a long-pool buffer may share a page, as they do in the
 * kernel. Pages come from a set reserved in the run's memory, to which each pool adds what it needs
 * ({@link #addPages}); with none free an allocation fails. Costs: {@code pagefrag.allocCycles} per fragment,
 * {@code pagefrag.pageAllocCycles} per new page, {@code pagefrag.freeCycles} per fragment freed (profile keys, 0 when
 * absent). Allocation-free after construction. Not thread-safe.
 */
final class PageFragCache {
    private static final int NONE = -1;

    /** Pages the reserved address range holds at most: 2^16 pages of 32 KB, 2 GB of simulated address space. */
    static final int MAX_PAGES = 1 << 16;
    /** The shared object's key: the kernel's per-CPU page-fragment cache behind {@code netdev_alloc_frag}. */
    static final String KEY = "netdev_alloc_cache";

    private final PoolContext context;
    private final int pageBytes;
    private final long base;
    private int[] outstanding;
    private boolean[] current;
    private int[] freePages;
    private int pages;
    private int freeCount;
    private final int[] cpuPage;
    private final int[] cpuOffset;
    private final long allocCycles, pageAllocCycles, freeCycles;
    long fragments, pageReuses, newPages, pagesReleased, failures, fragmentFrees;

    /**
     * The run's cache, created by the first pool that asks, with {@code pages} more pages for the caller.
     *
     * @param pageBytes bytes per page; every pool of the run must use the same
     * @param pages pages the caller adds, at least 1
     */
    static PageFragCache of(PoolContext context, int pageBytes, int pages) {
        PageFragCache c = context.shared(KEY, PageFragCache.class, () -> new PageFragCache(context, pageBytes,
                context.cores()));
        if (c.pageBytes != pageBytes) {
            throw new IllegalArgumentException("pageBytes=" + pageBytes + ", but the run's page-fragment cache uses "
                    + c.pageBytes + "-byte pages (one PAGE_FRAG_CACHE_MAX_SIZE per kernel)");
        }
        c.addPages(pages);
        return c;
    }

    /**
     * @param pageBytes bytes per page
     * @param cores the CPUs, each with its own current page
     */
    PageFragCache(PoolContext context, int pageBytes, int cores) {
        this.context = context;
        this.pageBytes = pageBytes;
        this.base = context.memory((long) MAX_PAGES * pageBytes);
        this.outstanding = new int[0];
        this.current = new boolean[0];
        this.freePages = new int[0];
        this.cpuPage = new int[cores];
        java.util.Arrays.fill(cpuPage, NONE);
        this.cpuOffset = new int[cores];
        this.allocCycles = Pools.cycles(context, "pagefrag.allocCycles");
        this.pageAllocCycles = Pools.cycles(context, "pagefrag.pageAllocCycles");
        this.freeCycles = Pools.cycles(context, "pagefrag.freeCycles");
    }

    /** Adds pages to the page allocator's side (while pools are created, never per packet). */
    void addPages(int n) {
        if (n < 1 || pages + n > MAX_PAGES) {
            throw new IllegalArgumentException("pages=" + n + ": the run's page-fragment cache holds 1 to " + MAX_PAGES
                    + " pages in all, " + pages + " already");
        }
        int total = pages + n;
        outstanding = java.util.Arrays.copyOf(outstanding, total);
        current = java.util.Arrays.copyOf(current, total);
        freePages = java.util.Arrays.copyOf(freePages, total);
        // the new pages go under the free ones, the lowest on top of them, so earlier pages are handed out first
        System.arraycopy(freePages, 0, freePages, n, freeCount);
        for (int k = 0; k < n; k++) {
            freePages[k] = total - 1 - k;
        }
        freeCount += n;
        pages = total;
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

    /** Adds the fragment cache's counters to {@code out} and its levels (pages, pages in use) to {@code levels}. */
    void counters(java.util.Map<String, Long> out, java.util.Map<String, Long> levels) {
        levels.put("fragPages", (long) outstanding.length);
        levels.put("fragPagesInUse", (long) pagesInUse());
        out.put("fragAllocs", fragments);
        out.put("fragFrees", fragmentFrees);
        out.put("fragPageReuses", pageReuses);
        out.put("fragNewPages", newPages);
        out.put("fragPagesReleased", pagesReleased);
        out.put("fragFailures", failures);
    }
}

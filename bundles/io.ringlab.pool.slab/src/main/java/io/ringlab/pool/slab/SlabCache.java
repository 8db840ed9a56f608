package io.ringlab.pool.slab;

import java.util.Arrays;
import java.util.Map;

/**
 * The SLUB mechanism on object indexes ({@code mm/slub.c}): slab pages of {@link SlabGeometry#objectsPerSlab} objects,
 * per-CPU freelists of the CPU slab, the node's partial list, the page allocator's free slabs, the fast and slow paths, and
 * bulk allocation and free (detached freelist or the first implementation's per-object slow path). Object {@code i} lies
 * in slab {@code i / objectsPerSlab}. Pool facades ({@link SlabPool}, {@link SkbPool}) map their buffers to indexes and
 * keep ownership; this class keeps the allocator's state and adds the cycles of every operation to {@link #cycles()},
 * which the facade charges and clears per call. See {@code docs/models/slab.md}.
 * <p>
 * Allocation-free after construction. Not thread-safe.
 */
final class SlabCache {
    private static final int NONE = -1;
    private static final byte FREE_PAGE = 0, CPU_SLAB = 1, PARTIAL = 2, FULL = 3;
    /** {@code build_detached_freelist}: objects of other slabs tolerated while looking for more of the same slab. */
    private static final int LOOKAHEAD = 3;

    private final SlabCosts costs;
    private final boolean detached;
    private final int perSlab;
    private final int minPartial;

    private final byte[] pageState;
    private final int[] pageObjects;
    private final int[] pageFree;
    private final int[] pageFreeCount;
    private final int[] prev, next;
    private int partialHead = NONE, partialTail = NONE, nrPartial;
    private final int[] freePages;
    private int freePageCount;
    private final int[] cpuPage;
    private final int[] cpuFree;
    private final int[] cpuFreeCount;

    /**
     * Code sizes of SLUB's bulk functions in bytes, x86-64, 2015: {@code kmem_cache_alloc_bulk} 273 (bloat-o-meter in
     * "[PATCH] slab/slub: adjust kmem_cache_alloc_bulk API", J. D. Brouer, linux-mm, 13 Nov 2015) and
     * {@code kmem_cache_free_bulk} 455 (bloat-o-meter in "Re: [MM PATCH V4.1 5/6] slub: support for bulk free with SLUB
     * freelists", J. D. Brouer, linux-mm, 2 Oct 2015, with the WARN_ON kept). The single-object fast paths' sizes for that
     * kernel are not published, so their code is not fetched through the model's i-cache.
     */
    static final int ALLOC_BULK_CODE = 273, FREE_BULK_CODE = 455;

    private final io.ringlab.buffer.api.PoolContext memory;
    private final long objectsBase;
    private final int slabBytes, objectBytes;
    private final long allocBulkCode, freeBulkCode;
    private final long[] touches, misses;

    /** The element charged for the operation under way (set by the facade): its caller. */
    int element = -1;
    private long spent;
    private long fastAllocs, slowAllocs, partialTaken, remoteTaken, newSlabs, slabsFreed, fastFrees, slowFrees;
    private long bulkAllocCalls, bulkFreeCalls, cycles;

    /**
     * @param objects the objects, at least 1
     * @param geometry objects per slab and {@code min_partial}
     * @param costs cycle costs
     * @param detached {@code true} for the detached-freelist bulk free, {@code false} for the first implementation's
     * @param cores the CPUs, at least 1
     */
    SlabCache(io.ringlab.buffer.api.PoolContext context, int objects, SlabGeometry geometry, SlabCosts costs,
            boolean detached, int cores) {
        this.memory = context;
        this.costs = costs;
        this.detached = detached;
        this.perSlab = geometry.objectsPerSlab();
        this.minPartial = geometry.minPartial();
        int pages = (objects + perSlab - 1) / perSlab;
        this.pageState = new byte[pages];
        this.pageObjects = new int[pages];
        this.pageFree = new int[pages * perSlab];
        this.pageFreeCount = new int[pages];
        this.prev = new int[pages];
        this.next = new int[pages];
        this.freePages = new int[pages];
        for (int p = pages - 1; p >= 0; p--) {
            pageObjects[p] = Math.min(perSlab, objects - p * perSlab);
            freePages[freePageCount++] = p; // slab 0 on top
        }
        this.slabBytes = SlabGeometry.PAGE_SIZE << geometry.order();
        this.objectBytes = geometry.size();
        this.objectsBase = context.memory((long) pages * slabBytes);
        this.allocBulkCode = context.code("kmem_cache_alloc_bulk", ALLOC_BULK_CODE);
        this.freeBulkCode = context.code("kmem_cache_free_bulk", FREE_BULK_CODE);
        this.touches = new long[cores];
        this.misses = new long[cores];
        this.cpuPage = new int[cores];
        Arrays.fill(cpuPage, NONE);
        this.cpuFree = new int[cores * perSlab];
        this.cpuFreeCount = new int[cores];
    }

    /** @return the cycles spent since the last call, which clears them. */
    long takeCycles() {
        long s = spent;
        spent = 0;
        cycles += s;
        return s;
    }

    /**
     * {@code kmem_cache_alloc}.
     *
     * @return an object index, or -1 when every slab is in use
     */
    int alloc(int core) {
        spent += costs.alloc();
        boolean fast = cpuFreeCount[core] > 0;
        if (fast) {
            fastAllocs++;
        } else if (!refill(core)) {
            return NONE;
        }
        int i = cpuFree[core * perSlab + --cpuFreeCount[core]];
        touchObject(core, i); // get_freepointer_safe(s, object): a demand load
        if (fast && cpuFreeCount[core] > 0) { // slab_alloc_node: prefetch_freepointer(s, next_object)
            memory.prefetch(core, element, address(cpuFree[core * perSlab + cpuFreeCount[core] - 1]), 1);
        }
        return i;
    }

    /** Object {@code i}'s first byte, where its free pointer is ({@code s->offset} 0: no constructor, RCU or poisoning). */
    private long address(int i) {
        return objectsBase + (long) (i / perSlab) * slabBytes + (long) (i % perSlab) * objectBytes;
    }

    /**
     * The object's first line: SLUB reads (alloc) or writes (free) the free pointer stored there, and waits for it (a load,
     * or a store a locked instruction follows).
     */
    private void touchObject(int core, int i) {
        touches[core]++;
        misses[core] += memory.touch(core, element, address(i), 1, false);
    }

    /**
     * A store of the free pointer that nothing waits for (the store buffer holds it while its line is fetched): the
     * fast free's {@code set_freepointer} before the unlocked {@code this_cpu_cmpxchg_double}, and each object of a
     * detached freelist. Not counted in the pool's touches.
     */
    private void storeObject(int core, int i) {
        memory.prefetch(core, element, address(i), 1);
    }

    /** {@code prefetchw(skb)} of {@code _kfree_skb_defer}: object {@code i}'s first line, for the free that follows. */
    void prefetchObject(int core, int i) {
        memory.prefetch(core, element, address(i), 1);
    }

    /** @return touches of objects on each core */
    long[] objectTouches() {
        return touches;
    }

    /** @return touches of objects on each core that missed level 1 */
    long[] objectMisses() {
        return misses;
    }

    /**
     * {@code kmem_cache_alloc_bulk}: all or nothing.
     *
     * @return {@code count}, with the indexes in {@code dst[offset..]}, or 0 (nothing taken)
     */
    int allocBulk(int core, int[] dst, int offset, int count) {
        if (count <= 0) {
            return 0;
        }
        bulkAllocCalls++;
        spent += costs.bulkCall();
        memory.touch(core, element, allocBulkCode, ALLOC_BULK_CODE, true);
        int n = 0;
        while (n < count) {
            if (cpuFreeCount[core] > 0) {
                fastAllocs++;
            } else if (!refill(core)) {
                break;
            }
            int i = cpuFree[core * perSlab + --cpuFreeCount[core]];
            touchObject(core, i);
            dst[offset + n++] = i;
            spent += costs.bulkAllocObject();
        }
        if (n < count) { // the kernel frees what it took, one by one (__kmem_cache_free_bulk), and fails the call
            for (int k = offset; k < offset + n; k++) {
                free(core, dst[k]);
            }
            return 0;
        }
        return n;
    }

    /** {@code kmem_cache_free} of object {@code i}. */
    void free(int core, int i) {
        spent += costs.free();
        put(core, i);
    }

    /**
     * {@code kmem_cache_free_bulk}. Overwrites {@code src[offset..offset+count)} with -1 as it goes (the kernel's NULLs
     * in the array mark processed objects).
     */
    void freeBulk(int core, int[] src, int offset, int count) {
        if (count <= 0) {
            return;
        }
        bulkFreeCalls++;
        spent += costs.bulkCall() + (long) count * costs.bulkFreeObject();
        memory.touch(core, element, freeBulkCode, FREE_BULK_CODE, true);
        releaseAll(core, src, offset, count);
    }

    private void releaseAll(int core, int[] src, int offset, int count) {
        if (!detached) {
            for (int k = offset, end = offset + count; k < end; k++) {
                put(core, src[k]);
                src[k] = NONE;
            }
            return;
        }
        int end = offset + count;
        while (true) { // build_detached_freelist, from the last unprocessed object backwards
            int j = end - 1;
            while (j >= offset && src[j] == NONE) {
                j--;
            }
            if (j < offset) {
                return;
            }
            end = j;
            int p = src[j] / perSlab;
            boolean fast = cpuPage[core] == p;
            int lookahead = LOOKAHEAD;
            int n = 0;
            for (int k = j; k >= offset; k--) {
                int i = src[k];
                if (i == NONE) {
                    continue;
                }
                if (i / perSlab == p) {
                    storeObject(core, i); // set_freepointer(df->s, object, df->freelist)
                    if (fast) {
                        cpuFree[core * perSlab + cpuFreeCount[core]++] = i;
                    } else {
                        pageFree[p * perSlab + pageFreeCount[p]++] = i;
                    }
                    src[k] = NONE;
                    n++;
                } else if (--lookahead == 0) {
                    break;
                }
            }
            if (fast) {
                fastFrees += n; // this_cpu_cmpxchg_double: not locked
            } else {
                memory.fence(core, element); // __slab_free's cmpxchg_double_slab: lock cmpxchg16b waits for the stores
                slowFree(p);
            }
        }
    }

    /** One object back ({@code kmem_cache_free}): onto the CPU slab's freelist, or through {@code __slab_free}. */
    private void put(int core, int i) {
        int p = i / perSlab;
        if (cpuPage[core] == p) { // do_slab_free: set_freepointer, then the unlocked this_cpu_cmpxchg_double
            storeObject(core, i);
            cpuFree[core * perSlab + cpuFreeCount[core]++] = i;
            fastFrees++;
        } else { // __slab_free: set_freepointer, then cmpxchg_double_slab (locked), which waits for the store
            touchObject(core, i);
            pageFree[p * perSlab + pageFreeCount[p]++] = i;
            slowFree(p);
        }
    }

    /** {@code ___slab_alloc}: refills the core's empty per-CPU freelist; {@code false} when every slab is in use. */
    private boolean refill(int core) {
        slowAllocs++;
        spent += costs.slowAlloc();
        int p = cpuPage[core];
        if (p != NONE) {
            if (pageFreeCount[p] > 0) { // objects other cores freed into our CPU slab
                remoteTaken++;
                freeze(core, p);
                return true;
            }
            pageState[p] = FULL; // deactivate_slab: a full slab is on no list
            cpuPage[core] = NONE;
        }
        if (partialHead != NONE) { // get_partial
            p = partialHead;
            unlinkPartial(p);
            partialTaken++;
            freeze(core, p);
            return true;
        }
        if (freePageCount > 0) { // new_slab
            p = freePages[--freePageCount];
            int base = p * perSlab;
            for (int k = pageObjects[p] - 1; k >= 0; k--) {
                pageFree[base + pageFreeCount[p]++] = base + k; // the slab's first object on top
            }
            newSlabs++;
            spent += costs.newSlab();
            freeze(core, p);
            return true;
        }
        return false;
    }

    /** Makes slab {@code p} the core's CPU slab and moves its page freelist to the per-CPU freelist. */
    private void freeze(int core, int p) {
        pageState[p] = CPU_SLAB;
        cpuPage[core] = p;
        int base = p * perSlab;
        int c = core * perSlab + cpuFreeCount[core];
        for (int k = 0, n = pageFreeCount[p]; k < n; k++) {
            cpuFree[c + k] = pageFree[base + k];
        }
        cpuFreeCount[core] += pageFreeCount[p];
        pageFreeCount[p] = 0;
    }

    /** {@code __slab_free} of objects already on slab {@code p}'s page freelist: list moves, an empty slab's discard. */
    private void slowFree(int p) {
        slowFrees++;
        spent += costs.slowFree();
        if (pageState[p] == CPU_SLAB) {
            return; // some core's CPU slab: it takes them back in ___slab_alloc
        }
        // an empty slab goes back to the page allocator if the partial list, counting the slab if it is on it, holds at
        // least min_partial slabs (n->nr_partial >= s->min_partial); a full slab that got objects back joins the tail
        if (pageFreeCount[p] == pageObjects[p] && nrPartial >= minPartial) {
            if (pageState[p] == PARTIAL) {
                unlinkPartial(p);
            }
            pageState[p] = FREE_PAGE;
            pageFreeCount[p] = 0;
            freePages[freePageCount++] = p;
            slabsFreed++;
        } else if (pageState[p] == FULL) {
            pageState[p] = PARTIAL;
            linkPartialTail(p);
        }
    }

    private void linkPartialTail(int p) {
        prev[p] = partialTail;
        next[p] = NONE;
        if (partialTail == NONE) {
            partialHead = p;
        } else {
            next[partialTail] = p;
        }
        partialTail = p;
        nrPartial++;
    }

    private void unlinkPartial(int p) {
        if (prev[p] == NONE) {
            partialHead = next[p];
        } else {
            next[prev[p]] = next[p];
        }
        if (next[p] == NONE) {
            partialTail = prev[p];
        } else {
            prev[next[p]] = prev[p];
        }
        nrPartial--;
    }

    /**
     * Names the slab's counters a run samples over time, each as {@code prefix + name}.
     *
     * @param values where they go
     * @param prefix before each name: {@code "slab"} in a pool whose own counters come first, or nothing
     * @param fastPaths whether the fast paths' counters are named too (the skb kind samples only the slow ones)
     */
    void liveValues(io.ringlab.buffer.api.LiveValues values, String prefix, boolean fastPaths) {
        if (fastPaths) {
            values.add(name(prefix, "fastAllocs"), () -> fastAllocs);
        }
        values.add(name(prefix, "slowAllocs"), () -> slowAllocs);
        if (fastPaths) {
            values.add(name(prefix, "fastFrees"), () -> fastFrees);
        }
        values.add(name(prefix, "slowFrees"), () -> slowFrees);
    }

    private static String name(String prefix, String name) {
        return prefix.isEmpty() ? name : prefix + Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }

    /** @return objects per slab */
    int objectsPerSlab() {
        return perSlab;
    }

    /**
     * Adds this cache's counters to {@code out}: {@code fastAllocs}, ... as they are for an empty prefix, otherwise the
     * prefix followed by the capitalised name ({@code slabFastAllocs}).
     */
    void counters(Map<String, Long> out, String prefix) {
        put(out, prefix, "fastAllocs", fastAllocs);
        put(out, prefix, "slowAllocs", slowAllocs);
        put(out, prefix, "remoteFreesTaken", remoteTaken);
        put(out, prefix, "partialSlabsTaken", partialTaken);
        put(out, prefix, "newSlabs", newSlabs);
        put(out, prefix, "slabsFreed", slabsFreed);
        put(out, prefix, "fastFrees", fastFrees);
        put(out, prefix, "slowFrees", slowFrees);
        put(out, prefix, "bulkAllocCalls", bulkAllocCalls);
        put(out, prefix, "bulkFreeCalls", bulkFreeCalls);
        put(out, prefix, "cycles", cycles);
    }

    /** Adds this cache's levels to {@code out}, named as {@link #counters} names: slabs, partial slabs, objects per slab. */
    void gauges(Map<String, Long> out, String prefix) {
        put(out, prefix, "slabs", pageState.length - freePageCount);
        put(out, prefix, "partialSlabs", nrPartial);
        put(out, prefix, "objectsPerSlab", perSlab);
    }

    private static void put(Map<String, Long> out, String prefix, String name, long value) {
        out.put(prefix.isEmpty() ? name : prefix + Character.toUpperCase(name.charAt(0)) + name.substring(1), value);
    }
}

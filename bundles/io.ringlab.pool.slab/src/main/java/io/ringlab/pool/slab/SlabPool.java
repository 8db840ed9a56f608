package io.ringlab.pool.slab;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.buffer.api.PoolContext;
import io.ringlab.buffer.api.dto.PoolStatsDTO;

/**
 * Pool kind {@code "slab"}: a SLUB {@code kmem_cache} ({@code mm/slub.c}) holding {@code capacity} objects in slab pages of
 * {@link SlabGeometry#objectsPerSlab} objects each. See {@code docs/models/slab.md} for the mechanism and the sources of
 * every constant.
 * <ul>
 * <li><b>Per-CPU freelist</b> ({@code c->freelist}): the free objects of the core's CPU slab ({@code c->page}). An
 * allocation pops from it (fast path, {@code slab.allocCycles}); a free of an object of the core's CPU slab pushes onto it
 * (fast path, {@code slab.freeCycles}). Both are LIFO, as SLUB's freelists are.</li>
 * <li><b>Allocation slow path</b> ({@code ___slab_alloc}, {@code slab.slowAllocCycles}) when the per-CPU freelist is
 * empty: take the objects other cores freed into the CPU slab's page freelist; otherwise retire the CPU slab (full, on no
 * list) and take the first slab of the node's partial list ({@code get_partial}); otherwise a new slab from the page
 * allocator ({@code new_slab}, {@code slab.newSlabCycles}); otherwise, every slab being in use, the allocation fails.</li>
 * <li><b>Free slow path</b> ({@code __slab_free}, {@code slab.slowFreeCycles}) for an object of another page: onto that
 * page's freelist; a page that was full goes to the tail of the partial list; a page that becomes empty while the partial
 * list holds at least {@code min_partial} slabs is given back to the page allocator ({@code discard_slab}). A page that is
 * another core's CPU slab only gets the object on its page freelist (a remote free).</li>
 * <li><b>Bulk</b> ({@code kmem_cache_alloc_bulk}, {@code kmem_cache_free_bulk}): one IRQ-off section per call
 * ({@code slab.bulkCallCycles}) and {@code slab.bulkAllocObjectCycles} / {@code slab.bulkFreeObjectCycles} per object;
 * allocation is all or nothing (a partial set is freed and the call returns 0). Bulk free with {@code bulkFree =
 * detached} (the default; "slub: optimize bulk slowpath free by detached freelist", 2015) groups the array's objects by
 * page as {@code build_detached_freelist} does (from the last object backwards, up to 3 misses of look-ahead) and frees
 * each group with one fast push or one slow path; with {@code bulkFree = simple} (the first implementation, commit
 * fbd02630c6e3) every object of another page takes its own slow path.</li>
 * </ul>
 * Simplifications, stated in the model page: one NUMA node, no per-CPU partial lists ({@code CONFIG_SLUB_CPU_PARTIAL}), no
 * debugging or poisoning, and cycles charged per call to the calling element's task. Counters in {@link #stats()}.
 * <p>
 * Allocation-free on every path after construction. Not thread-safe: one run's engine thread.
 */
final class SlabPool implements BufferPool {
    /** The kind name. */
    static final String KIND = "slab";

    private static final int NONE = -1;
    private static final byte FREE_PAGE = 0, CPU_SLAB = 1, PARTIAL = 2, FULL = 3;
    /** {@code build_detached_freelist}: objects of other pages tolerated while looking for more of the same page. */
    private static final int LOOKAHEAD = 3;

    private final String name;
    private final PoolContext context;
    private final SlabCosts costs;
    private final boolean detached;
    private final int perSlab;
    private final int minPartial;
    private final Buffer[] objects;
    private final int firstId;

    // pages: state, owning core while a CPU slab, page freelist (a LIFO stack of object indexes in its own slice)
    private final byte[] pageState;
    private final int[] pageCpu;
    private final int[] pageObjects;
    private final int[] pageFree;
    private final int[] pageFreeCount;
    // the node's partial list, doubly linked through the pages
    private final int[] prev, next;
    private int partialHead = NONE, partialTail = NONE, nrPartial;
    // slabs not in use (the page allocator's side)
    private final int[] freePages;
    private int freePageCount;
    // per CPU: c->page and c->freelist
    private final int[] cpuPage;
    private final int[] cpuFree;
    private final int[] cpuFreeCount;
    // detached freelist scratch: per-object stamp of the bulk call that grouped it
    private final int[] grouped;
    private int epoch = 0;

    private int inUse;
    private long allocs, frees, failures, doubleFrees, highWater;
    private long fastAllocs, slowAllocs, partialTaken, remoteTaken, newSlabs, slabsFreed, fastFrees, slowFrees;
    private long bulkAllocCalls, bulkFreeCalls, cycles;

    /**
     * @param context the run's pool context
     * @param name the pool's name
     * @param capacity objects, at least 1
     * @param bufferBytes object size, at least 1
     * @param geometry objects per slab and {@code min_partial}
     * @param costs cycle costs
     * @param detached {@code true} for the detached-freelist bulk free, {@code false} for the first implementation's
     */
    SlabPool(PoolContext context, String name, int capacity, int bufferBytes, SlabGeometry geometry, SlabCosts costs,
            boolean detached) {
        this.name = name;
        this.context = context;
        this.costs = costs;
        this.detached = detached;
        this.perSlab = geometry.objectsPerSlab();
        this.minPartial = geometry.minPartial();
        int pages = (capacity + perSlab - 1) / perSlab;
        this.objects = new Buffer[capacity];
        for (int i = 0; i < capacity; i++) {
            objects[i] = context.newBuffer(this, bufferBytes);
        }
        this.firstId = objects[0].id();
        for (int i = 1; i < capacity; i++) {
            if (objects[i].id() != firstId + i) {
                throw new IllegalStateException("pool " + name + ": buffer ids are not dense (" + objects[i].id()
                        + " at object " + i + ", first " + firstId + ")");
            }
        }
        this.pageState = new byte[pages];
        this.pageCpu = new int[pages];
        this.pageObjects = new int[pages];
        this.pageFree = new int[pages * perSlab];
        this.pageFreeCount = new int[pages];
        this.prev = new int[pages];
        this.next = new int[pages];
        this.freePages = new int[pages];
        for (int p = pages - 1; p >= 0; p--) {
            pageObjects[p] = Math.min(perSlab, capacity - p * perSlab);
            pageCpu[p] = NONE;
            freePages[freePageCount++] = p; // page 0 on top
        }
        int cores = context.cores();
        this.cpuPage = new int[cores];
        java.util.Arrays.fill(cpuPage, NONE);
        this.cpuFree = new int[cores * perSlab];
        this.cpuFreeCount = new int[cores];
        this.grouped = new int[capacity];
    }

    @Override public String name() { return name; }
    @Override public String kind() { return KIND; }
    @Override public int capacity() { return objects.length; }
    @Override public int available() { return objects.length - inUse; }
    @Override public int inUse() { return inUse; }

    @Override
    public Buffer alloc(int core, int owner) {
        long spent = costs.alloc();
        Buffer b = null;
        if (cpuFreeCount[core] > 0) {
            fastAllocs++;
        } else {
            spent += refill(core);
        }
        if (cpuFreeCount[core] > 0) {
            b = take(core, owner);
            allocs++;
        } else {
            failures++;
        }
        charge(core, spent);
        return b;
    }

    @Override
    public int allocBulk(int core, int owner, Buffer[] dst, int offset, int count) {
        if (count <= 0) {
            return 0;
        }
        bulkAllocCalls++;
        long spent = costs.bulkCall();
        int n = 0;
        while (n < count) {
            if (cpuFreeCount[core] == 0) {
                spent += refill(core);
                if (cpuFreeCount[core] == 0) {
                    break;
                }
            } else {
                fastAllocs++;
            }
            dst[offset + n++] = take(core, owner);
            spent += costs.bulkAllocObject();
        }
        if (n < count) { // all or nothing: kmem_cache_alloc_bulk frees what it took and fails the call
            allocs += n;
            spent += freeAll(core, dst, offset, n);
            for (int i = 0; i < n; i++) {
                dst[offset + i] = null;
            }
            failures += count;
            charge(core, spent);
            return 0;
        }
        allocs += n;
        charge(core, spent);
        return n;
    }

    @Override
    public void free(int core, Buffer buffer) {
        long spent = costs.free();
        if (accept(buffer)) {
            int i = buffer.id() - firstId;
            int p = i / perSlab;
            if (cpuPage[core] == p) {
                cpuFree[core * perSlab + cpuFreeCount[core]++] = i;
                fastFrees++;
            } else {
                pageFree[p * perSlab + pageFreeCount[p]++] = i;
                spent += slowFree(p, 1);
            }
            frees++;
            inUse--;
        }
        charge(core, spent);
    }

    @Override
    public void freeBulk(int core, Buffer[] src, int offset, int count) {
        if (count <= 0) {
            return;
        }
        bulkFreeCalls++;
        long spent = costs.bulkCall() + (long) count * costs.bulkFreeObject();
        spent += freeAll(core, src, offset, count);
        charge(core, spent);
    }

    /** Frees {@code src[offset..offset+count)} as a bulk does; returns the slow-path cycles. */
    private long freeAll(int core, Buffer[] src, int offset, int count) {
        long spent = 0;
        int pending = nextEpoch();
        int done = pending + 1;
        // validate first: accepted objects are marked pending; a refused one (a double free) is left unmarked, so only
        // the accepted occurrence of an object named twice is pushed
        for (int k = offset, end = offset + count; k < end; k++) {
            Buffer b = src[k];
            if (accept(b)) {
                grouped[b.id() - firstId] = pending;
                frees++;
                inUse--;
            }
        }
        if (!detached) {
            for (int k = offset, end = offset + count; k < end; k++) {
                Buffer b = src[k];
                if (b.pool() != this || grouped[b.id() - firstId] != pending) {
                    continue;
                }
                int i = b.id() - firstId;
                grouped[i] = done;
                int p = i / perSlab;
                if (cpuPage[core] == p) {
                    cpuFree[core * perSlab + cpuFreeCount[core]++] = i;
                    fastFrees++;
                } else {
                    pageFree[p * perSlab + pageFreeCount[p]++] = i;
                    spent += slowFree(p, 1);
                }
            }
            return spent;
        }
        // build_detached_freelist: from the last object backwards, gather the objects of its page
        int end = offset + count;
        while (true) {
            int j = end - 1;
            while (j >= offset && (src[j].pool() != this || grouped[src[j].id() - firstId] != pending)) {
                j--;
            }
            if (j < offset) {
                return spent;
            }
            end = j;
            int first = src[j].id() - firstId;
            int p = first / perSlab;
            boolean fast = cpuPage[core] == p;
            int n = 0;
            int lookahead = LOOKAHEAD;
            for (int k = j; k >= offset; k--) {
                Buffer b = src[k];
                if (b.pool() != this) {
                    continue;
                }
                int i = b.id() - firstId;
                if (grouped[i] != pending) {
                    continue;
                }
                if (i / perSlab == p) {
                    grouped[i] = done;
                    if (fast) {
                        cpuFree[core * perSlab + cpuFreeCount[core]++] = i;
                    } else {
                        pageFree[p * perSlab + pageFreeCount[p]++] = i;
                    }
                    n++;
                } else if (--lookahead == 0) {
                    break;
                }
            }
            if (fast) {
                fastFrees += n;
            } else {
                spent += slowFree(p, n);
            }
        }
    }

    /** Accepts a buffer for freeing: it must be this pool's and allocated; otherwise a double free is recorded. */
    private boolean accept(Buffer b) {
        if (b.pool() != this || !context.onFree(b)) {
            doubleFrees++;
            return false;
        }
        return true;
    }

    /** Pops the per-CPU freelist's top object and hands it out. */
    private Buffer take(int core, int owner) {
        int i = cpuFree[core * perSlab + --cpuFreeCount[core]];
        Buffer b = objects[i];
        context.onAlloc(b, owner);
        inUse++;
        if (inUse > highWater) {
            highWater = inUse;
        }
        return b;
    }

    /**
     * {@code ___slab_alloc}: refills the core's empty per-CPU freelist from its CPU slab's page freelist, the partial list
     * or a new slab. Leaves it empty when every slab is in use.
     *
     * @return the cycles spent
     */
    private long refill(int core) {
        slowAllocs++;
        long spent = costs.slowAlloc();
        int p = cpuPage[core];
        if (p != NONE) {
            if (pageFreeCount[p] > 0) { // objects other cores freed into our CPU slab
                remoteTaken++;
                freeze(core, p);
                return spent;
            }
            pageState[p] = FULL; // deactivate_slab: a full page is on no list
            pageCpu[p] = NONE;
            cpuPage[core] = NONE;
        }
        if (partialHead != NONE) { // get_partial
            p = partialHead;
            unlinkPartial(p);
            partialTaken++;
            freeze(core, p);
            return spent;
        }
        if (freePageCount > 0) { // new_slab
            p = freePages[--freePageCount];
            int base = p * perSlab;
            for (int k = pageObjects[p] - 1; k >= 0; k--) {
                pageFree[base + pageFreeCount[p]++] = base + k; // the first object on top
            }
            newSlabs++;
            freeze(core, p);
            return spent + costs.newSlab();
        }
        return spent;
    }

    /** Makes page {@code p} the core's CPU slab and moves its page freelist to the per-CPU freelist. */
    private void freeze(int core, int p) {
        pageState[p] = CPU_SLAB;
        pageCpu[p] = core;
        cpuPage[core] = p;
        int base = p * perSlab;
        int c = core * perSlab + cpuFreeCount[core];
        for (int k = 0, n = pageFreeCount[p]; k < n; k++) {
            cpuFree[c + k] = pageFree[base + k];
        }
        cpuFreeCount[core] += pageFreeCount[p];
        pageFreeCount[p] = 0;
    }

    /**
     * {@code __slab_free} of {@code n} objects already pushed on page {@code p}'s freelist: list moves and the discard of
     * an empty slab.
     *
     * @return the cycles spent
     */
    private long slowFree(int p, int n) {
        slowFrees++;
        long spent = costs.slowFree();
        if (pageState[p] == CPU_SLAB) {
            return spent; // another core's CPU slab: it takes them back in ___slab_alloc
        }
        // an empty slab goes back to the page allocator if the partial list (counting it if it is on it) holds at least
        // min_partial slabs; otherwise a full slab that got objects back joins the partial list's tail
        if (pageFreeCount[p] == pageObjects[p] && nrPartial >= minPartial) { // slab_empty: discard_slab
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
        return spent;
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

    /** @return this bulk call's "pending" mark; "done" is one more. Marks of earlier calls are smaller. */
    private int nextEpoch() {
        epoch += 2;
        if (epoch <= 0 || epoch == Integer.MAX_VALUE) { // after 2^30 bulk calls: clear rather than reuse an old mark
            java.util.Arrays.fill(grouped, 0);
            epoch = 2;
        }
        return epoch;
    }

    private void charge(int core, long spent) {
        cycles += spent;
        context.charge(core, spent);
    }

    @Override
    public void forEachInUse(BufferVisitor visitor) {
        for (Buffer b : objects) {
            if (b.allocated()) {
                visitor.visit(b);
            }
        }
    }

    /** @return the slabs of this cache now in use: CPU slabs, partial and full ones. */
    int slabs() {
        return pageState.length - freePageCount;
    }

    /** @return the node partial list's length. */
    int partialSlabs() {
        return nrPartial;
    }

    @Override
    public PoolStatsDTO stats() {
        PoolStatsDTO s = new PoolStatsDTO();
        s.name = name;
        s.kind = KIND;
        s.capacity = objects.length;
        s.available = objects.length - inUse;
        s.inUse = inUse;
        s.highWaterMark = highWater;
        s.allocs = allocs;
        s.frees = frees;
        s.allocFailures = failures;
        s.doubleFrees = doubleFrees;
        s.counters.put("fastAllocs", fastAllocs);
        s.counters.put("slowAllocs", slowAllocs);
        s.counters.put("remoteFreesTaken", remoteTaken);
        s.counters.put("partialSlabsTaken", partialTaken);
        s.counters.put("newSlabs", newSlabs);
        s.counters.put("slabsFreed", slabsFreed);
        s.counters.put("fastFrees", fastFrees);
        s.counters.put("slowFrees", slowFrees);
        s.counters.put("bulkAllocCalls", bulkAllocCalls);
        s.counters.put("bulkFreeCalls", bulkFreeCalls);
        s.counters.put("slabs", (long) slabs());
        s.counters.put("partialSlabs", (long) nrPartial);
        s.counters.put("objectsPerSlab", (long) perSlab);
        s.counters.put("cycles", cycles);
        return s;
    }
}

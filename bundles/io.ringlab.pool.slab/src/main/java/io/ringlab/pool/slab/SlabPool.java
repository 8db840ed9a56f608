package io.ringlab.pool.slab;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.buffer.api.PoolContext;
import io.ringlab.buffer.api.dto.PoolStatsDTO;

/**
 * Pool kind {@code "slab"}: a SLUB {@code kmem_cache} of {@code capacity} objects ({@link SlabCache}); each buffer is one
 * object. Every call charges its cycles to the calling core through {@link PoolContext#charge}. A free of a buffer that is
 * not allocated, or not this pool's, is refused and counted as a double free; an object named twice in one bulk free is
 * freed once. See {@code docs/models/slab.md}.
 * <p>
 * Allocation-free after construction. Not thread-safe: one run's engine thread.
 */
final class SlabPool implements BufferPool {
    /** The kind name. */
    static final String KIND = "slab";

    private final String name;
    private final PoolContext context;
    private final SlabCache cache;
    private final Buffer[] objects;
    private final int firstId;
    private final int[] scratch;
    private int inUse;
    private long allocs, frees, failures, doubleFrees, highWater;

    SlabPool(PoolContext context, String name, int capacity, int bufferBytes, SlabGeometry geometry, SlabCosts costs,
            boolean detached) {
        this.name = name;
        this.context = context;
        this.objects = PoolBuffers.create(context, this, name, capacity, bufferBytes);
        this.firstId = objects[0].id();
        this.cache = new SlabCache(context, capacity, geometry, costs, detached, context.cores());
        this.scratch = new int[capacity];
    }

    @Override public String name() { return name; }
    @Override public String kind() { return KIND; }
    @Override public int capacity() { return objects.length; }
    @Override public int available() { return objects.length - inUse; }
    @Override public int inUse() { return inUse; }

    @Override
    public Buffer alloc(int core, int owner) {
        cache.element = owner;
        int i = cache.alloc(core);
        context.charge(core, owner, cache.takeCycles());
        if (i < 0) {
            failures++;
            return null;
        }
        return handOut(i, owner);
    }

    @Override
    public int allocBulk(int core, int owner, Buffer[] dst, int offset, int count) {
        if (count <= 0) {
            return 0;
        }
        cache.element = owner;
        int n = count <= scratch.length ? cache.allocBulk(core, scratch, 0, count) : 0;
        context.charge(core, owner, cache.takeCycles());
        if (n == 0) {
            failures += count;
            return 0;
        }
        for (int k = 0; k < n; k++) {
            dst[offset + k] = handOut(scratch[k], owner);
        }
        return n;
    }

    private Buffer handOut(int i, int owner) {
        Buffer b = objects[i];
        context.onAlloc(b, owner);
        allocs++;
        if (++inUse > highWater) {
            highWater = inUse;
        }
        return b;
    }

    /** @return the buffer's object index, or -1 (counted as a double free) when it may not be freed here */
    private int accept(Buffer b) {
        if (b.pool() != this || !context.onFree(b)) {
            doubleFrees++;
            return -1;
        }
        frees++;
        inUse--;
        return b.id() - firstId;
    }

    @Override
    public void free(int core, Buffer buffer) {
        int element = buffer.owner(); // the element that frees it holds it
        int i = accept(buffer);
        if (i >= 0) {
            cache.element = element;
            cache.free(core, i);
            context.charge(core, element, cache.takeCycles());
        }
    }

    @Override
    public void freeBulk(int core, Buffer[] src, int offset, int count) {
        int element = count > 0 ? src[offset].owner() : -1;
        int n = 0;
        for (int k = offset, end = offset + count; k < end; k++) {
            int i = accept(src[k]);
            if (i >= 0) {
                scratch[n++] = i;
            }
        }
        cache.element = element;
        cache.freeBulk(core, scratch, 0, n);
        context.charge(core, element, cache.takeCycles());
    }

    /** @return per core, the touches of objects that hit level 1 */
    static long[] hits(SlabCache cache) {
        long[] t = cache.objectTouches();
        long[] m = cache.objectMisses();
        long[] h = new long[t.length];
        for (int c = 0; c < t.length; c++) {
            h[c] = t[c] - m[c];
        }
        return h;
    }

    @Override
    public void forEachInUse(BufferVisitor visitor) {
        for (Buffer b : objects) {
            if (b.allocated()) {
                visitor.visit(b);
            }
        }
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
        cache.counters(s.counters, "");
        s.cacheHits = hits(cache);
        s.cacheMisses = cache.objectMisses().clone();
        return s;
    }
}

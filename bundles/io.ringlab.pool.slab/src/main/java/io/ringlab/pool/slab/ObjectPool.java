package io.ringlab.pool.slab;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.buffer.api.PoolContext;
import io.ringlab.buffer.api.dto.PoolStatsDTO;

/**
 * What the two kinds' facades share: {@code capacity} buffers whose object index is {@code buffer.id() - first id}, the
 * ownership bookkeeping through the {@link PoolContext} (hand-out, refused double frees), the slab behind them
 * ({@link SlabCache}), the immediate free, and the statistics. Subclasses decide which slab operations an allocation
 * or a deferred free runs. Not thread-safe.
 */
abstract class ObjectPool implements BufferPool {
    final String name;
    final PoolContext context;
    final Buffer[] objects;
    final int firstId;
    /** The slab of the objects (SlabPool's objects, SkbPool's heads). */
    final SlabCache slab;
    int inUse;
    long allocs, frees, failures, doubleFrees, highWater;

    ObjectPool(PoolContext context, String name, int capacity, int bufferBytes, SlabGeometry geometry, SlabCosts costs,
            boolean detached) {
        this.name = name;
        this.context = context;
        this.objects = new Buffer[capacity];
        for (int i = 0; i < capacity; i++) {
            objects[i] = context.newBuffer(this, bufferBytes);
            if (objects[i].id() != objects[0].id() + i) {
                throw new IllegalStateException("pool " + name + ": buffer ids are not consecutive (" + objects[i].id()
                        + " for object " + i + ", the first " + objects[0].id() + ")");
            }
        }
        this.firstId = objects[0].id();
        this.slab = new SlabCache(context, capacity, geometry, costs, detached, context.cores());
    }

    @Override public final String name() { return name; }
    @Override public final int capacity() { return objects.length; }
    @Override public final int available() { return objects.length - inUse; }
    @Override public final int inUse() { return inUse; }

    /** Gives object {@code i} to {@code owner}. */
    final Buffer handOut(int i, int owner) {
        Buffer b = objects[i];
        context.onAlloc(b, owner);
        allocs++;
        if (++inUse > highWater) {
            highWater = inUse;
        }
        return b;
    }

    /** @return the buffer's object index, or -1 (counted as a double free) when it may not be freed here */
    final int accept(Buffer b) {
        if (b.pool() != this || !context.onFree(b)) {
            doubleFrees++;
            return -1;
        }
        frees++;
        inUse--;
        return b.id() - firstId;
    }

    /** {@code kmem_cache_free} at once ({@code kfree_skb} for an skb head), charged to the element that holds it. */
    @Override
    public final void free(int core, Buffer buffer) {
        int element = buffer.owner();
        int i = accept(buffer);
        if (i >= 0) {
            slab.element = element;
            slab.free(core, i);
            context.charge(core, element, slab.takeCycles());
        }
    }

    @Override
    public final void forEachInUse(BufferVisitor visitor) {
        for (Buffer b : objects) {
            if (b.allocated()) {
                visitor.visit(b);
            }
        }
    }

    /** The statistics every pool has, the slab's counters under {@code prefix}, and its objects' cache hits and misses. */
    final PoolStatsDTO stats(String prefix) {
        SlabCache cache = slab;
        PoolStatsDTO s = new PoolStatsDTO();
        s.name = name;
        s.kind = kind();
        s.capacity = objects.length;
        s.available = objects.length - inUse;
        s.inUse = inUse;
        s.highWaterMark = highWater;
        s.allocs = allocs;
        s.frees = frees;
        s.allocFailures = failures;
        s.doubleFrees = doubleFrees;
        cache.counters(s.counters, prefix);
        cache.gauges(s.gauges, prefix);
        long[] touches = cache.objectTouches();
        s.cacheMisses = cache.objectMisses().clone();
        s.cacheHits = new long[touches.length];
        for (int c = 0; c < touches.length; c++) {
            s.cacheHits[c] = touches[c] - s.cacheMisses[c];
        }
        return s;
    }
}

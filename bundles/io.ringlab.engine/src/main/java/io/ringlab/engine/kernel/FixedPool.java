package io.ringlab.engine.kernel;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.buffer.api.PoolContext;
import io.ringlab.buffer.api.dto.PoolStatsDTO;

/**
 * Pool kind {@code "fixed"}: a preallocated set of buffers with a LIFO free stack and no cost model. It is what a traffic
 * source or a test uses when the allocator is not the subject; the allocator models (kind {@code "slab"}, {@code "hwbm"})
 * live in their own bundles.
 * <p>
 * Counter identities: {@code allocs - frees == inUse}, {@code inUse + available == capacity}. Not thread-safe.
 */
public final class FixedPool implements BufferPool {
    /** The kind name. */
    public static final String KIND = "fixed";

    private final String name;
    private final PoolContext context;
    private final Buffer[] all;
    private final Buffer[] free;
    private int top;
    private long allocs, frees, failures, doubleFrees, highWater;

    /**
     * @param context the run's pool context
     * @param name the pool's name
     * @param capacity buffers, at least 1
     * @param bufferBytes bytes per buffer, at least 1
     */
    public FixedPool(PoolContext context, String name, int capacity, int bufferBytes) {
        if (capacity < 1 || bufferBytes < 1) {
            throw new IllegalArgumentException("pool " + name + ": capacity=" + capacity + ", bufferBytes=" + bufferBytes
                    + "; both must be at least 1");
        }
        this.name = name;
        this.context = context;
        this.all = new Buffer[capacity];
        this.free = new Buffer[capacity];
        for (int i = 0; i < capacity; i++) {
            all[i] = context.newBuffer(this, bufferBytes);
            free[capacity - 1 - i] = all[i];
        }
        top = capacity;
    }

    @Override public String name() { return name; }
    @Override public String kind() { return KIND; }
    @Override public int capacity() { return all.length; }
    @Override public int available() { return top; }
    @Override public int inUse() { return all.length - top; }

    @Override
    public Buffer alloc(int core, int owner) {
        if (top == 0) {
            failures++;
            return null;
        }
        Buffer b = free[--top];
        free[top] = null;
        context.onAlloc(b, owner);
        allocs++;
        long used = all.length - top;
        if (used > highWater) {
            highWater = used;
        }
        return b;
    }

    /** {@inheritDoc} {@code allocFailures} counts them. */
    @Override
    public void countAllocFailures(int missing) {
        failures += missing;
    }

    @Override
    public void free(int core, Buffer buffer) {
        if (buffer.pool() != this || !context.onFree(buffer)) {
            doubleFrees++;
            return;
        }
        free[top++] = buffer;
        frees++;
    }

    @Override
    public void forEachInUse(BufferVisitor visitor) {
        for (Buffer b : all) {
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
        s.capacity = all.length;
        s.available = top;
        s.inUse = all.length - top;
        s.highWaterMark = highWater;
        s.allocs = allocs;
        s.frees = frees;
        s.allocFailures = failures;
        s.doubleFrees = doubleFrees;
        return s;
    }
}

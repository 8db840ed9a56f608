package io.ringlab.conformance;

import java.util.Map;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.BufferPoolProvider;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.buffer.api.PoolContext;
import io.ringlab.buffer.api.dto.PoolStatsDTO;

/**
 * Pool kind {@value #KIND} for the kit's own tests: a LIFO of preallocated buffers, as the engine's {@code fixed}. With
 * {@link Fault#NONE} it keeps the pool contract; each other fault breaks one part of it.
 */
final class FixturePool implements BufferPoolProvider {
    static final String KIND = "fixture-pool";

    /** What is wrong with the pool. */
    enum Fault {
        /** Nothing. */
        NONE,
        /** Every 4th buffer freed is counted and marked free but never put back on the free list. */
        LEAKS,
        /** A free does not look at {@code PoolContext.onFree}: a buffer freed twice goes on the free list twice. */
        ACCEPTS_DOUBLE_FREE
    }

    private final Fault fault;

    FixturePool(Fault fault) {
        this.fault = fault;
    }

    @Override
    public BufferPool create(PoolContext context, String name, int capacity, int bufferBytes, Map<String, Object> settings) {
        return new Pool(context, name, capacity, bufferBytes, fault);
    }

    private static final class Pool implements BufferPool {
        private final PoolContext context;
        private final String name;
        private final Fault fault;
        private final Buffer[] all;
        private final Buffer[] free;
        private int top;
        private long allocs, frees, failures, doubleFrees, highWater;

        Pool(PoolContext context, String name, int capacity, int bufferBytes, Fault fault) {
            this.context = context;
            this.name = name;
            this.fault = fault;
            this.all = new Buffer[capacity];
            this.free = new Buffer[capacity * 2]; // room for what a taken-back double free pushes
            for (int i = 0; i < capacity; i++) {
                all[i] = context.newBuffer(this, bufferBytes);
                free[top++] = all[i];
            }
        }

        @Override public String name() { return name; }
        @Override public String kind() { return KIND; }
        @Override public int capacity() { return all.length; }
        @Override public int available() { return top; }
        @Override public int inUse() { return (int) (allocs - frees); }

        @Override
        public Buffer alloc(int core, int owner) {
            if (top == 0) {
                failures++;
                return null;
            }
            Buffer b = free[--top];
            context.onAlloc(b, owner);
            allocs++;
            highWater = Math.max(highWater, allocs - frees);
            return b;
        }

        @Override
        public int allocBulk(int core, int owner, Buffer[] dst, int offset, int count) {
            int n = 0;
            while (n < count && top > 0) {
                dst[offset + n++] = alloc(core, owner);
            }
            failures += count - n;
            return n;
        }

        @Override
        public void free(int core, Buffer buffer) {
            boolean valid = buffer.pool() == this && context.onFree(buffer);
            if (!valid && fault != Fault.ACCEPTS_DOUBLE_FREE) {
                doubleFrees++;
                return;
            }
            frees++;
            if (fault == Fault.LEAKS && frees % 4 == 0) {
                return; // lost
            }
            free[top++] = buffer;
        }

        @Override
        public void freeBulk(int core, Buffer[] src, int offset, int count) {
            for (int i = offset; i < offset + count; i++) {
                free(core, src[i]);
            }
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
            s.inUse = inUse();
            s.highWaterMark = highWater;
            s.allocs = allocs;
            s.frees = frees;
            s.allocFailures = failures;
            s.doubleFrees = doubleFrees;
            return s;
        }
    }
}

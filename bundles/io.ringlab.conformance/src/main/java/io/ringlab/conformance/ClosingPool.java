package io.ringlab.conformance;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.buffer.api.LiveValues;
import io.ringlab.buffer.api.dto.PoolStatsDTO;

/**
 * A pool under test as the engine sees it: every call passed on unchanged, and the engine's {@link #close()} at the end of
 * the run recorded with what it threw (the engine itself skips a pool that throws there). The pool's buffers still name
 * the pool itself ({@code Buffer.pool()}), so frees through a buffer reach it directly.
 */
final class ClosingPool implements BufferPool {
    private final BufferPool pool;
    /** How often the engine closed the pool. */
    int closes;
    /** What its close threw, or {@code null}. */
    RuntimeException closeFailure;

    ClosingPool(BufferPool pool) {
        this.pool = pool;
    }

    @Override
    public void close() {
        closes++;
        try {
            pool.close();
        } catch (RuntimeException e) {
            closeFailure = e;
            throw e;
        }
    }

    @Override public String name() { return pool.name(); }
    @Override public String kind() { return pool.kind(); }
    @Override public int capacity() { return pool.capacity(); }
    @Override public int available() { return pool.available(); }
    @Override public int inUse() { return pool.inUse(); }
    @Override public Buffer alloc(int core, int owner) { return pool.alloc(core, owner); }
    @Override public int allocBulk(int core, int owner, Buffer[] dst, int offset, int count) {
        return pool.allocBulk(core, owner, dst, offset, count);
    }
    @Override public void countAllocFailures(int missing) { pool.countAllocFailures(missing); }
    @Override public void free(int core, Buffer buffer) { pool.free(core, buffer); }
    @Override public void freeBulk(int core, Buffer[] src, int offset, int count) { pool.freeBulk(core, src, offset, count); }
    @Override public void consume(int core, Buffer buffer) { pool.consume(core, buffer); }
    @Override public void flush(int core) { pool.flush(core); }
    @Override public void hint(int core, int count) { pool.hint(core, count); }
    @Override public void forEachInUse(BufferVisitor visitor) { pool.forEachInUse(visitor); }
    @Override public PoolStatsDTO stats() { return pool.stats(); }
    @Override public void liveValues(LiveValues values) { pool.liveValues(values); }
}

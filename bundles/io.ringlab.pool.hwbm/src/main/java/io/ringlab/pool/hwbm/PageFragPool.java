package io.ringlab.pool.hwbm;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.LiveValues;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.buffer.api.PoolContext;
import io.ringlab.buffer.api.dto.PoolStatsDTO;

/**
 * Pool kind {@code "pagefrag"}: buffers as a driver's software refill gets them, {@code netdev_alloc_frag(frag_size)}
 * then {@code build_skb} ({@link PageFragCache}): each allocation places a buffer record at a fragment carved from the
 * core's current page, and freeing it ({@code skb_free_frag}) drops the page's reference. Records are LIFO; {@code
 * bufferBytes} is the fragment size. Allocation-free after construction. Not thread-safe.
 */
final class PageFragPool implements BufferPool {
    static final String KIND = "pagefrag";

    private final String name;
    private final PoolContext context;
    private final PageFragCache frags;
    private final int fragSize;
    private final Buffer[] records;
    private final int firstId;
    private final int[] free;
    private int freeCount;
    private long allocs, frees, failures, doubleFrees, highWater;

    PageFragPool(PoolContext context, String name, int capacity, int fragSize, int pages, int pageBytes) {
        this.name = name;
        this.context = context;
        this.fragSize = fragSize;
        this.frags = PageFragCache.of(context, pageBytes, pages);
        this.records = Pools.records(context, this, name, capacity, fragSize);
        this.free = new int[capacity];
        for (int i = capacity - 1; i >= 0; i--) {
            free[freeCount++] = i;
        }
        this.firstId = records[0].id();
    }

    @Override public String name() { return name; }
    @Override public String kind() { return KIND; }
    @Override public int capacity() { return records.length; }
    @Override public int available() { return freeCount; }
    @Override public int inUse() { return records.length - freeCount; }

    @Override
    public Buffer alloc(int core, int owner) {
        if (freeCount == 0) {
            failures++;
            return null;
        }
        long a = frags.alloc(core, owner, fragSize);
        if (a < 0) {
            failures++;
            return null;
        }
        Buffer b = records[free[--freeCount]];
        context.place(b, a);
        context.onAlloc(b, owner);
        allocs++;
        if (records.length - freeCount > highWater) {
            highWater = records.length - freeCount;
        }
        return b;
    }

    @Override
    public void free(int core, Buffer buffer) {
        int element = buffer.owner();
        if (buffer.pool() != this || !context.onFree(buffer)) {
            doubleFrees++;
            return;
        }
        frags.free(core, element, buffer.address());
        free[freeCount++] = buffer.id() - firstId;
        frees++;
    }

    @Override
    public void forEachInUse(BufferVisitor visitor) {
        for (Buffer b : records) {
            if (b.allocated()) {
                visitor.visit(b);
            }
        }
    }

    @Override
    public void liveValues(LiveValues values) {
        values.add("allocFailures", () -> failures);
        values.add("fragPagesInUse", frags::pagesInUse);
    }

    /** {@inheritDoc} {@code allocFailures} counts them. */
    @Override
    public void countAllocFailures(int missing) {
        failures += missing;
    }

    @Override
    public PoolStatsDTO stats() {
        PoolStatsDTO s = new PoolStatsDTO();
        s.name = name;
        s.kind = KIND;
        s.capacity = records.length;
        s.available = freeCount;
        s.inUse = records.length - freeCount;
        s.highWaterMark = highWater;
        s.allocs = allocs;
        s.frees = frees;
        s.allocFailures = failures;
        s.doubleFrees = doubleFrees;
        frags.counters(s.counters, s.gauges);
        return s;
    }
}

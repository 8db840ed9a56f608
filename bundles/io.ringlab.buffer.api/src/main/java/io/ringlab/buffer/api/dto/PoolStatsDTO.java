package io.ringlab.buffer.api.dto;

/**
 * Statistics of one buffer pool at one moment. Identities: {@code allocs - frees == inUse},
 * {@code inUse + available == capacity}. Counters ({@link #allocs}, {@link #frees}, {@link #allocFailures},
 * {@link #doubleFrees}, the cache hits and misses, {@link #counters}) only grow during a run: a run with a warm-up
 * reports their increase over the measured window. Levels ({@link #capacity}, {@link #available}, {@link #inUse},
 * {@link #gauges}) are reported as they are at the end, {@link #highWaterMark} over the whole run.
 * <p>
 * Not thread-safe; a snapshot.
 */
public class PoolStatsDTO {
    /** The pool's name. */
    public String name;
    /** The pool kind. */
    public String kind;
    /** Buffers the pool can hand out at once. */
    public long capacity;
    /** Buffers free now. */
    public long available;
    /** Buffers allocated now. */
    public long inUse;
    /** Highest {@link #inUse} seen. */
    public long highWaterMark;
    /** Successful allocations (each buffer of a bulk counts). */
    public long allocs;
    /** Frees (each buffer of a bulk counts). */
    public long frees;
    /** Buffers asked for and not given (pool empty). */
    public long allocFailures;
    /** Frees refused because the buffer was not allocated or not from this pool. */
    public long doubleFrees;
    /** Per-core cache hits, indexed by core; empty for a pool with no per-core cache. */
    public long[] cacheHits = new long[0];
    /** Per-core cache misses, indexed by core; empty for a pool with no per-core cache. */
    public long[] cacheMisses = new long[0];
    /**
     * Counters of the pool kind's own mechanism, by name (for a slab: {@code fastAllocs}, {@code slowAllocs},
     * {@code newSlabs}, ...), documented by the kind; published as the pool's metrics. Each only grows during a run (a
     * level, a size or a setting belongs in {@link #gauges}: a warm-up subtracts a counter's value at its end). Never
     * {@code null}.
     */
    public java.util.Map<String, Long> counters = new java.util.TreeMap<>();
    /**
     * Levels of the pool kind's own mechanism, by name (for a slab: {@code slabs}, {@code partialSlabs}; sizes such as
     * {@code objectsPerSlab}; settings such as the skb cache's {@code allocBulk}), documented by the kind; published as
     * the pool's metrics with their value at the end.
     * Never {@code null}.
     *
     * @since 1.2
     */
    public java.util.Map<String, Long> gauges = new java.util.TreeMap<>();
}

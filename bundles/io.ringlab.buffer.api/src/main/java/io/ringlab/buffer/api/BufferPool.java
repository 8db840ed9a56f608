package io.ringlab.buffer.api;

import org.osgi.annotation.versioning.ConsumerType;

import io.ringlab.buffer.api.dto.PoolStatsDTO;

/**
 * A pool of packet buffers: the software slab, a hardware buffer manager, or a third-party kind.
 * <p>
 * Pools are created per run by a {@link BufferPoolProvider} and preallocate their buffers; allocation and free are the
 * per-packet hot path and must not allocate, box or throw: failures are return values and counters. Each call names the
 * simulated core it runs on, so that per-CPU caches and the cost of the call land on the right core.
 * <p>
 * Counter identities that every implementation keeps: {@code allocs - frees = inUse}; {@code inUse + available = capacity}
 * for a pool of fixed capacity; {@code allocFailures} counts calls (single) or missing objects (bulk) that got nothing.
 * <p>
 * Not thread-safe: called only from its run's engine thread.
 */
@ConsumerType
public interface BufferPool {

    /** @return the pool's name, unique within its run (for example {@code "eth0.rx"}); never {@code null}. */
    String name();

    /** @return the pool kind, the {@link BufferPoolProvider#KIND} of its provider; never {@code null}. */
    String kind();

    /** @return the number of buffers the pool can hand out at once. */
    int capacity();

    /** @return the buffers that can be allocated now. */
    int available();

    /** @return the buffers allocated and not yet freed. */
    int inUse();

    /**
     * Allocates one buffer on a core.
     *
     * @param core the simulated core index making the call, 0 to cores - 1
     * @param owner the index of the element that will hold the buffer
     * @return a buffer with length 0 and fresh metadata, or {@code null} when the pool is empty (counted as an alloc failure)
     */
    Buffer alloc(int core, int owner);

    /**
     * Allocates up to {@code count} buffers into {@code dst[offset..offset+count)}. A kind that models
     * {@code kmem_cache_alloc_bulk} exactly returns either {@code count} or 0 (the kernel frees a partial set and fails the
     * call); other kinds may fill partially. The kind's documentation says which.
     * <p>
     * The default calls {@link #alloc} until it has {@code count} or one returns {@code null}, and then
     * {@link #countAllocFailures} with the buffers still missing besides that one (which its {@code alloc} counted), so
     * that {@code allocFailures} counts every missing buffer: a kind with no bulk path of its own fills partially.
     *
     * @param core the simulated core index
     * @param owner the index of the element that will hold the buffers
     * @param dst the caller's array; must not be {@code null}
     * @param offset first index to fill
     * @param count how many to allocate, at least 0
     * @return the number allocated, 0 to {@code count}; the slots after that are left as they were
     */
    default int allocBulk(int core, int owner, Buffer[] dst, int offset, int count) {
        int n = 0;
        while (n < count) {
            Buffer b = alloc(core, owner);
            if (b == null) {
                countAllocFailures(count - n - 1);
                break;
            }
            dst[offset + n++] = b;
        }
        return n;
    }

    /**
     * Counts allocation failures that no {@link #alloc} call counted: the default {@link #allocBulk} gives it the buffers
     * a bulk call still missed after the {@code alloc} that returned {@code null}. A kind that uses the default
     * {@code allocBulk} adds them to its {@code allocFailures}; the default counts nothing, so that such a kind's bulk
     * failures count calls.
     *
     * @param missing buffers missing, at least 0
     * @since 1.2
     */
    default void countAllocFailures(int missing) {
    }

    /**
     * Returns a buffer to this pool. Freeing a buffer that is not allocated, or that belongs to another pool, is a double
     * free: it is not applied and is reported to the run's invariant checker with the freeing element.
     *
     * @param core the simulated core index
     * @param buffer the buffer; must not be {@code null}
     */
    void free(int core, Buffer buffer);

    /**
     * Returns {@code count} buffers from {@code src[offset..]} to this pool, like {@code kmem_cache_free_bulk}. The
     * default frees them one at a time with {@link #free}.
     *
     * @param core the simulated core index
     * @param src the buffers; must not be {@code null}
     * @param offset first index
     * @param count how many
     */
    default void freeBulk(int core, Buffer[] src, int offset, int count) {
        for (int k = offset, end = offset + count; k < end; k++) {
            free(core, src[k]);
        }
    }

    /**
     * Frees a buffer from NAPI context, like {@code napi_consume_skb(skb, budget)} in a driver's TX completion or RX
     * drop: a pool with a per-CPU NAPI cache may defer it and free in bulk later ({@link #flush}). The default frees at
     * once. Double frees are refused as by {@link #free}.
     *
     * @param core the simulated core index
     * @param buffer the buffer; must not be {@code null}
     */
    default void consume(int core, Buffer buffer) {
        free(core, buffer);
    }

    /**
     * The end of a softirq on {@code core} ({@code __kfree_skb_flush} at the end of {@code net_rx_action}): a pool that
     * deferred frees gives them back now. The engine calls it for every pool after each NAPI poll; the default does
     * nothing.
     *
     * @param core the simulated core index
     */
    default void flush(int core) {
    }

    /**
     * The caller expects to allocate about {@code count} buffers on {@code core} soon (the 2016 bulk-alloc hint: a
     * driver's ready RX descriptors, at most its NAPI budget). A pool that refills a per-CPU cache in bulk may size its
     * next refill from it; the default ignores it.
     *
     * @param core the simulated core index
     * @param count buffers expected, at least 0
     */
    default void hint(int core, int count) {
    }

    /**
     * Calls the visitor for each buffer of this pool that is currently allocated.
     *
     * @param visitor the visitor; must not be {@code null}
     */
    void forEachInUse(BufferVisitor visitor);

    /** @return a snapshot of the pool's statistics; never {@code null}. */
    PoolStatsDTO stats();

    /**
     * Names the values a run samples over time for live views (allocation failures, fast and slow paths, pages held,
     * ...), besides the occupancy every pool has: one {@link LiveValues#add} each, with the reader the engine calls at
     * every sample. Called once when the run starts. The default adds what {@link #liveCounters()} names, read by
     * {@link #liveCounter(int)}: none unless a kind written against 1.1 overrides those.
     *
     * @param values where the values go; never {@code null}
     * @since 1.2
     */
    default void liveValues(LiveValues values) {
        String[] names = liveCounters();
        for (int i = 0; i < names.length; i++) {
            int k = i;
            values.add(names[i], () -> liveCounter(k));
        }
    }

    /**
     * The counters a run samples over time, by name, as {@link #liveValues} reads them by default.
     *
     * @return the counters' names, as in {@link PoolStatsDTO#counters}; never {@code null}
     * @deprecated since 1.2: implement {@link #liveValues}, which names each value beside its reader
     */
    @Deprecated(since = "1.2")
    default String[] liveCounters() {
        return new String[0];
    }

    /**
     * Reads one counter of {@link #liveCounters()}; called on the engine thread at every sample, so it must not allocate.
     *
     * @param index an index into {@link #liveCounters()}
     * @return its value now
     * @deprecated since 1.2: implement {@link #liveValues}
     */
    @Deprecated(since = "1.2")
    default double liveCounter(int index) {
        return 0;
    }

    /** Releases whatever the pool holds at the end of a run (teardown accounting is part of {@link #stats()}). */
    default void close() {
    }
}

package io.ringlab.buffer.api;

import org.osgi.annotation.versioning.ProviderType;

/**
 * What the engine gives a pool when it is created: buffer records, the run's core count, and the place to report misuse.
 * <p>
 * Not thread-safe: use it on the run's engine thread, during {@link BufferPoolProvider#create} and afterwards.
 */
@ProviderType
public interface PoolContext {

    /**
     * Creates a buffer record that belongs to {@code pool}. Call it while creating the pool, never per packet.
     *
     * @param pool the owning pool; must not be {@code null}
     * @param capacityBytes the data capacity in bytes, at least 1
     * @return a free buffer record; never {@code null}
     */
    Buffer newBuffer(BufferPool pool, int capacityBytes);

    /**
     * Marks a buffer allocated and gives it to an owner, resetting its metadata. Pools call it on every successful
     * allocation so that ownership and the in-use state are tracked the same way for every pool kind.
     *
     * @param buffer the buffer being handed out
     * @param owner the element index that receives it
     */
    void onAlloc(Buffer buffer, int owner);

    /**
     * Marks a buffer free. Returns {@code false}, and records a double free against the buffer's last owner and the
     * calling pool, when the buffer was not allocated; the pool must then not take it back.
     *
     * @param buffer the buffer being returned
     * @return {@code true} if the free is valid
     */
    boolean onFree(Buffer buffer);

    /** @return the number of simulated cores in the run, at least 1. */
    int cores();

    /**
     * Records a warning, as the kernel's {@code pr_warn} / {@code WARN}: the run reports each distinct message with how
     * often it came (summary and JSON {@code warnings}). Not for the hot path: for refusals and misuse.
     *
     * @param message what happened, naming the pool
     */
    void warn(String message);

    /**
     * Charges allocator work to the task running on {@code core}, on the account of {@code element}, and advances that
     * task's clock, as {@code Core.charge} does. A pool charges an allocation to its {@code owner} and a free to the
     * buffer's owner, the element that frees it; {@code -1} means the element whose event or NAPI poll is running (a
     * flush at the end of a softirq). While the run is being built the work costs nothing.
     *
     * @param core the core index the pool was called with
     * @param element the element index to charge, or -1 for the running one
     * @param cycles cycles spent, at least 0
     */
    void charge(int core, int element, long cycles);

    /**
     * A constant of the run's cost profile, so a pool kind takes its costs from the profile of the machine being
     * modelled (each profile constant carries its source).
     *
     * @param key the constant's name, for example {@code "slab.allocCycles"}
     * @param fallback the value when the profile does not define it
     * @return the profile's value or the fallback
     */
    double profileValue(String key, double fallback);

    /**
     * A run-wide object that every pool asking for the same key shares, created by the first one: the kernel's per-CPU
     * caches that all callers use, such as {@code netdev_alloc_cache} behind {@code netdev_alloc_frag}. Call it while
     * the pool is created.
     *
     * @param key what the object is, for example {@code "netdev_alloc_cache"}
     * @param type its class; a later call with the same key must ask for the same class
     * @param create makes it, on the first call
     * @param <T> its type
     * @return the run's object for the key
     * @throws IllegalArgumentException if the key is shared with another type
     */
    <T> T shared(String key, Class<T> type, java.util.function.Supplier<? extends T> create);

    /**
     * Places a buffer's data area at {@code address} for its current allocation: a pool that carves buffers out of
     * shared pages ({@code page_frag_alloc}) moves them, so that the cache model sees the memory the kernel reuses.
     *
     * @param buffer a buffer of the calling pool
     * @param address an address inside a range the pool reserved with {@link #memory}
     */
    void place(Buffer buffer, long address);

    /**
     * Reserves simulated memory for the pool's own structures (slab pages, object heads), for {@link #touch}.
     *
     * @param bytes the size, at least 1
     * @return the base address, page-aligned, distinct from every other reservation of the run
     */
    long memory(long bytes);

    /**
     * The address of a kernel function's code, shared by the whole run ({@code kmem_cache_alloc_bulk} is one function
     * whoever calls it).
     *
     * @param function the function's name
     * @param bytes its code size, at least 1; the same name must always come with the same size
     * @return its first byte's address
     */
    long code(String function, int bytes);

    /**
     * Touches memory through the caches of {@code core}, charging the stall of the lines that miss the level-1 cache as
     * {@link #charge} does. Costs nothing without a cache model in the profile.
     *
     * @param core the core index the pool was called with
     * @param element the element index to charge, or -1 for the running one
     * @param address the first byte ({@link #memory}, {@link #code}, {@link Buffer#address()})
     * @param bytes bytes touched, at least 1
     * @param code {@code true} for instruction fetches, {@code false} for data
     * @return the lines that missed the level-1 cache
     */
    int touch(int core, int element, long address, int bytes, boolean code);

    /**
     * Starts bringing memory into the level-1 data cache of {@code core} without waiting for it: a software prefetch
     * ({@code prefetch}, {@code prefetchw}), or a store whose read-for-ownership the store buffer hides. A later
     * {@link #touch} of the line waits only for what is left of its fill. Charges only the wait for a free line-fill
     * buffer when every one is busy. Costs nothing without a cache model that models fill buffers
     * ({@code cache.l1dFillBuffers}).
     *
     * @param core the core index the pool was called with
     * @param element the element index to charge, or -1 for the running one
     * @param address the first byte
     * @param bytes bytes, at least 1
     */
    void prefetch(int core, int element, long address, int bytes);

    /**
     * A locked instruction ({@code lock cmpxchg}, {@code mfence}): the core waits until every fill it has outstanding,
     * stores' included, has arrived, and the wait is charged. Costs nothing without a cache model that models fill
     * buffers.
     *
     * @param core the core index the pool was called with
     * @param element the element index to charge, or -1 for the running one
     */
    void fence(int core, int element);
}

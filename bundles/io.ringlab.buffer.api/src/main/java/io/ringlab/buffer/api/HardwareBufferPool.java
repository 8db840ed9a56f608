package io.ringlab.buffer.api;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * A pool whose free buffers a device holds: a hardware buffer manager with the kernel's hwbm API
 * ({@code include/net/hwbm.h}, {@code net/core/hwbm.c}), such as Marvell's BM behind mvneta.
 * <p>
 * The {@link BufferPool} operations take the device's view: {@link #alloc} is the hardware taking a buffer for a received
 * frame (no CPU work; {@code null}, counted, when its pool is empty); {@link #free} of such a buffer is the driver
 * returning it ({@code put_bp}: one MMIO write). The driver's own operations are below. A buffer the driver
 * {@link #detach}es after a successful {@link #refill} becomes the stack's; freeing it then gives its memory back
 * ({@code skb_free_frag}), not to the device. {@link #available()} is what the device holds now.
 * <p>
 * Not thread-safe: called only from its run's engine thread.
 */
@ConsumerType
public interface HardwareBufferPool extends BufferPool {

    /** @return {@code size}: the buffers the pool may hold ({@code struct hwbm_pool}). */
    int size();

    /** @return {@code buf_num}: the buffers added to the pool and not yet taken back at teardown. */
    int bufNum();

    /** @return {@code frag_size}: the bytes of memory behind each buffer, shared info included. */
    int fragSize();

    /**
     * {@code hwbm_pool_add(pool, count)}: fills the pool with new buffers. Refuses, with a counter and a run warning, as
     * the kernel does: a full pool returns {@link #bufNum()} ("already filled"); more than fits returns 0; a count
     * that would overflow {@code buf_num} returns 0. Otherwise adds buffers until one cannot be built and returns how
     * many it added; {@code buf_num} grows by that.
     *
     * @param core the core the driver runs on
     * @param count buffers to add
     * @return as above
     */
    int add(int core, int count);

    /**
     * {@code hwbm_pool_refill}: builds one new buffer (memory, then the pool's construct step: DMA map and hand it to the
     * device) without changing {@code buf_num}. A driver calls it for each received buffer it keeps.
     *
     * @param core the core the driver runs on
     * @return {@code true}, or {@code false} (counted) when there is no memory for one
     */
    boolean refill(int core);

    /**
     * The driver keeps a buffer the device handed it: it becomes the stack's ({@code build_skb} around it), and freeing
     * it later returns its memory, not the buffer to the device.
     *
     * @param buffer a buffer of this pool that the device handed out and the driver holds
     * @throws IllegalStateException if the buffer is not one the device handed out
     */
    void detach(Buffer buffer);
}

package io.ringlab.buffer.api;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Called when a buffer is freed, like the kernel's {@code skb->destructor}: TCP Small Queues releases a socket's
 * {@code sk_wmem_alloc} in {@code tcp_wfree} when the driver frees the skb after transmission. Called on the engine
 * thread, once per allocation, before the buffer goes back to its pool; it must not free or keep the buffer.
 */
@ConsumerType
@FunctionalInterface
public interface BufferDestructor {
    /** @param buffer the buffer being freed, still carrying its metadata. */
    void destroyed(Buffer buffer);

    /**
     * The protocol's GSO hook ({@code gso_segment}, e.g. {@code tcp_gso_segment} in {@code net/ipv4/tcp_offload.c}): the
     * engine has split {@code gso} into {@code count} segments that each carry this destructor, with lengths, sequence
     * numbers and a share of {@code gso}'s truesize (the shares sum to it). An owner that accounts memory as the kernel
     * does overrides this to give each segment the truesize {@code skb_segment} allocates for it (and its fragments), and
     * adds the difference between their sum and {@code gso.truesize()} to its own accounting ({@code sum_truesize}); each
     * segment's {@link #destroyed} later subtracts that segment's truesize. Called on the engine thread before {@code gso}
     * loses its truesize and destructor; it must not keep the array. The default keeps the shares.
     *
     * @param gso the GSO buffer, still carrying its truesize
     * @param segments the segments, in order, in {@code segments[0..count)}
     * @param count how many
     */
    default void segmented(Buffer gso, Buffer[] segments, int count) {
    }
}

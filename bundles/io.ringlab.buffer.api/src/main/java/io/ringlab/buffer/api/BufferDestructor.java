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
}

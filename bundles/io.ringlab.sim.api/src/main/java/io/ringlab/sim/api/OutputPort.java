package io.ringlab.sim.api;

import org.osgi.annotation.versioning.ProviderType;

import io.ringlab.buffer.api.Buffer;

/**
 * An element's output. Pushing transfers ownership of the buffer to the element downstream and calls it at once, on the
 * same stack: the engine only updates the buffer's owner. Not thread-safe.
 */
@ProviderType
public interface OutputPort {

    /** @return the port's name. */
    String name();

    /** @return {@code true} if a connection leaves this port; pushing into an unconnected port is an error. */
    boolean connected();

    /** @param buffer the packet to hand downstream (push output). */
    void push(Buffer buffer);

    /**
     * Hands a burst downstream as one call.
     *
     * @param buffers the packets in {@code buffers[offset..offset+count)}
     * @param offset first index
     * @param count number of packets
     */
    void pushBatch(Buffer[] buffers, int offset, int count);

    /** Tells the element downstream of a pull output that packets are ready (the kernel's {@code netif_schedule}). */
    void ready();
}

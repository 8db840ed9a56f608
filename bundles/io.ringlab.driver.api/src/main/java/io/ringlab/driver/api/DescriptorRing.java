package io.ringlab.driver.api;

import org.osgi.annotation.versioning.ConsumerType;

import io.ringlab.buffer.api.BufferVisitor;

/**
 * A descriptor ring as a driver models it: a fixed number of descriptors (the real hardware's size, which need not be a
 * power of two), some holding buffers. Identity: {@code used() + free() == size()}.
 * <p>
 * Not thread-safe.
 */
@ConsumerType
public interface DescriptorRing {

    /** @return the number of descriptors. */
    int size();

    /** @return descriptors owned by hardware or awaiting cleanup. */
    int used();

    /** @return {@code size() - used()}. */
    default int free() {
        return size() - used();
    }

    /** @param visitor called for each buffer the ring holds. */
    void forEachHeld(BufferVisitor visitor);
}

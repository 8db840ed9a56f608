package io.ringlab.buffer.api;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Receives buffers from a walk over a ring, a queue or a pool (the invariant checker counts packets in flight this way,
 * independently of the counters).
 */
@ConsumerType
@FunctionalInterface
public interface BufferVisitor {
    /** @param buffer a buffer held by the structure being walked; never {@code null}. */
    void visit(Buffer buffer);
}

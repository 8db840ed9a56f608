package io.ringlab.engine.kernel;

import io.ringlab.buffer.api.BufferDestructor;
import io.ringlab.buffer.api.BufferPool;

/**
 * The fields of a {@link PacketBuffer} that every packet uses, on every element it passes: a superclass, because the JVM
 * lays out a superclass's fields before its subclass's, so these share the record's first two cache lines, and the TCP
 * fields (in {@link PacketBuffer}) lie after them.
 */
abstract class PacketBufferHead {
    final int id;
    final BufferPool pool;
    final int capacity;
    int owner = -1;
    /**
     * The element that allocated the packet (its first owner), kept when its metadata moves to another buffer
     * ({@code copyMetadataFrom}: a driver's RX copy, a GSO segment): a capture tells a flow's two directions by it.
     */
    int origin = -1;
    /** The owner when the buffer was last freed, for double-free reports. */
    int lastOwner = -1;
    boolean allocated;
    int length;
    int headroom;
    int truesize;
    long packetId = -1;
    int flow;
    int priority;
    int tos;
    int protocol;
    int segments = 1;
    long createdPicos = -1;
    long enqueuedPicos = -1;
    long stampPicos = -1;
    BufferDestructor destructor;
    long address;
    /** A TCP field of the {@link PacketBuffer} was written since its last reset (or by its copyMetadataFrom). */
    boolean tcpWritten;

    PacketBufferHead(int id, BufferPool pool, int capacity, long address) {
        this.id = id;
        this.pool = pool;
        this.capacity = capacity;
        this.address = address;
    }
}

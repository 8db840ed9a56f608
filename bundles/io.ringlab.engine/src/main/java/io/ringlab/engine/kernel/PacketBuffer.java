package io.ringlab.engine.kernel;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferDestructor;
import io.ringlab.buffer.api.BufferPool;

/**
 * The engine's only {@link Buffer} implementation: a plain record of fields, created when its pool is created and recycled
 * for the rest of the run. Final, so that buffer accesses on the hot path are monomorphic and inline.
 */
final class PacketBuffer implements Buffer {
    private final int id;
    private final BufferPool pool;
    private final int capacity;
    int owner = -1;
    /** The owner when the buffer was last freed, for double-free reports. */
    int lastOwner = -1;
    boolean allocated;
    private int length;
    private int headroom;
    private int truesize;
    long packetId = -1;
    private int flow;
    private int priority;
    private int tos;
    private int protocol;
    private long seq;
    private long ack;
    private int flags;
    private int segments = 1;
    private int fragments;
    long createdPicos = -1;
    private long enqueuedPicos = -1;
    private long stampPicos = -1;
    private BufferDestructor destructor;

    private long address;

    PacketBuffer(int id, BufferPool pool, int capacity, long address) {
        this.id = id;
        this.pool = pool;
        this.capacity = capacity;
        this.address = address;
    }

    /** Clears the metadata for a fresh allocation. */
    void reset() {
        length = 0;
        headroom = 0;
        truesize = capacity;
        packetId = -1;
        flow = 0;
        priority = 0;
        tos = 0;
        protocol = PROTO_RAW;
        seq = 0;
        ack = 0;
        flags = 0;
        segments = 1;
        fragments = 0;
        createdPicos = -1;
        enqueuedPicos = -1;
        stampPicos = -1;
        destructor = null;
    }

    @Override public int id() { return id; }
    @Override public BufferPool pool() { return pool; }
    @Override public int capacityBytes() { return capacity; }
    @Override public long address() { return address; }

    void place(long a) {
        address = a;
    }
    @Override public int length() { return length; }
    @Override public void length(int bytes) { length = bytes; }
    @Override public int headroom() { return headroom; }
    @Override public void headroom(int bytes) { headroom = bytes; }
    @Override public int truesize() { return truesize; }
    @Override public void truesize(int bytes) { truesize = bytes; }
    @Override public long packetId() { return packetId; }
    @Override public int flow() { return flow; }
    @Override public void flow(int f) { flow = f; }
    @Override public int priority() { return priority; }
    @Override public void priority(int p) { priority = p; }
    @Override public int tos() { return tos; }
    @Override public void tos(int t) { tos = t; }
    @Override public int protocol() { return protocol; }
    @Override public void protocol(int p) { protocol = p; }
    @Override public long seq() { return seq; }
    @Override public void seq(long s) { seq = s; }
    @Override public long ack() { return ack; }
    @Override public void ack(long a) { ack = a; }
    @Override public int flags() { return flags; }
    @Override public void flags(int f) { flags = f; }
    @Override public int segments() { return segments; }
    @Override public void segments(int s) { segments = s; }
    @Override public int fragments() { return fragments; }
    @Override public void fragments(int f) { fragments = f; }
    @Override public long createdPicos() { return createdPicos; }
    @Override public long enqueuedPicos() { return enqueuedPicos; }
    @Override public void enqueuedPicos(long p) { enqueuedPicos = p; }
    @Override public long stampPicos() { return stampPicos; }
    @Override public void stampPicos(long p) { stampPicos = p; }
    @Override public int owner() { return owner; }
    @Override public boolean allocated() { return allocated; }
    @Override public BufferDestructor destructor() { return destructor; }
    @Override public void destructor(BufferDestructor d) { destructor = d; }

    @Override
    public void copyMetadataFrom(Buffer o) {
        length = Math.min(o.length(), capacity);
        headroom = o.headroom();
        truesize = o.truesize();
        packetId = o.packetId();
        flow = o.flow();
        priority = o.priority();
        tos = o.tos();
        protocol = o.protocol();
        seq = o.seq();
        ack = o.ack();
        flags = o.flags();
        segments = o.segments();
        fragments = o.fragments();
        createdPicos = o.createdPicos();
        enqueuedPicos = o.enqueuedPicos();
        stampPicos = o.stampPicos();
    }

    @Override
    public String toString() {
        return "buffer id=" + id + " pool=" + pool.name() + " packet=" + packetId + " owner=" + owner;
    }
}

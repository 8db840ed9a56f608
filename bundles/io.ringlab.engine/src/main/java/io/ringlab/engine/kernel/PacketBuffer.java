package io.ringlab.engine.kernel;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferDestructor;
import io.ringlab.buffer.api.BufferPool;

/**
 * The engine's only {@link Buffer} implementation: a plain record of fields, created when its pool is created and recycled
 * for the rest of the run. Final, so that buffer accesses on the hot path are monomorphic and inline.
 * <p>
 * The record is laid out in three parts, as the JVM lays out a superclass's fields before its subclass's: the fields
 * every packet uses ({@link PacketBufferHead}, about 120 bytes), then those every TCP segment uses
 * ({@link PacketBufferTcp}), then the SACK blocks (here), 248 bytes in all. The TCP fields are written only by TCP and
 * cleared on allocation only when something wrote them since ({@code tcpWritten}), so a packet that is not TCP never
 * touches their lines, and an allocation makes 12 stores fewer (issue 21: mlx5-bulk-drop allocates 148.8 M frames per
 * simulated second; line rate's buffers cycle through a 1,000-packet qdisc and a 1,024-slot ring).
 */
final class PacketBuffer extends PacketBufferTcp implements Buffer {
    // four SACK blocks as fields, not an array: one object per buffer, no indirection on the ACK path; last in the
    // record, after the fields every TCP segment uses (PacketBufferTcp), as only an ACK with SACK blocks reads them
    private long sackStart0, sackEnd0, sackStart1, sackEnd1, sackStart2, sackEnd2, sackStart3, sackEnd3;
    PacketBuffer(int id, BufferPool pool, int capacity, long address) {
        super(id, pool, capacity, address);
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
        segments = 1;
        createdPicos = -1;
        enqueuedPicos = -1;
        stampPicos = -1;
        destructor = null;
        if (tcpWritten) { // else each is 0 already: as constructed, or as the last reset left it
            seq = 0;
            ack = 0;
            flags = 0;
            fragments = 0;
            tcpHeaderBytes = 0;
            tcpWindow = 0;
            tcpOptions = 0;
            tcpMss = 0;
            tcpWscale = 0;
            tsVal = 0;
            tsEcr = 0;
            sackBlocks = 0; // the blocks' edges are not read beyond sackBlocks
            tcpWritten = false;
        }
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
    @Override public void seq(long s) { tcpWritten = true; seq = s; }
    @Override public long ack() { return ack; }
    @Override public void ack(long a) { tcpWritten = true; ack = a; }
    @Override public int flags() { return flags; }
    @Override public void flags(int f) { tcpWritten = true; flags = f; }
    @Override public int segments() { return segments; }
    @Override public void segments(int s) { segments = s; }
    @Override public int fragments() { return fragments; }
    @Override public void fragments(int f) { tcpWritten = true; fragments = f; }
    @Override public int tcpHeaderBytes() { return tcpHeaderBytes; }
    @Override public void tcpHeaderBytes(int b) { tcpWritten = true; tcpHeaderBytes = b; }
    @Override public int tcpWindow() { return tcpWindow; }
    @Override public void tcpWindow(int w) { tcpWritten = true; tcpWindow = w; }
    @Override public int tcpOptions() { return tcpOptions; }
    @Override public void tcpOptions(int o) { tcpWritten = true; tcpOptions = o; }
    @Override public int tcpMssOption() { return tcpMss; }
    @Override public void tcpMssOption(int m) { tcpWritten = true; tcpMss = m; }
    @Override public int tcpWscaleOption() { return tcpWscale; }
    @Override public void tcpWscaleOption(int w) { tcpWritten = true; tcpWscale = w; }
    @Override public long tsVal() { return tsVal; }
    @Override public void tsVal(long v) { tcpWritten = true; tsVal = v; }
    @Override public long tsEcr() { return tsEcr; }
    @Override public void tsEcr(long e) { tcpWritten = true; tsEcr = e; }
    @Override public int sackBlocks() { return sackBlocks; }
    @Override public void sackBlocks(int n) { tcpWritten = true; sackBlocks = n; }

    @Override
    public long sackStart(int i) {
        return switch (i) {
            case 0 -> sackStart0;
            case 1 -> sackStart1;
            case 2 -> sackStart2;
            case 3 -> sackStart3;
            default -> throw new IndexOutOfBoundsException("SACK block " + i + " of " + MAX_SACK_BLOCKS);
        };
    }

    @Override
    public long sackEnd(int i) {
        return switch (i) {
            case 0 -> sackEnd0;
            case 1 -> sackEnd1;
            case 2 -> sackEnd2;
            case 3 -> sackEnd3;
            default -> throw new IndexOutOfBoundsException("SACK block " + i + " of " + MAX_SACK_BLOCKS);
        };
    }

    @Override
    public void sackBlock(int i, long start, long end) {
        tcpWritten = true;
        switch (i) {
            case 0 -> { sackStart0 = start; sackEnd0 = end; }
            case 1 -> { sackStart1 = start; sackEnd1 = end; }
            case 2 -> { sackStart2 = start; sackEnd2 = end; }
            case 3 -> { sackStart3 = start; sackEnd3 = end; }
            default -> throw new IndexOutOfBoundsException("SACK block " + i + " of " + MAX_SACK_BLOCKS);
        }
    }

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
        if (o instanceof PacketBuffer p) {
            origin = p.origin;
        }
        tcpWritten = true;
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
        tcpHeaderBytes = o.tcpHeaderBytes();
        tcpWindow = o.tcpWindow();
        tcpOptions = o.tcpOptions();
        tcpMss = o.tcpMssOption();
        tcpWscale = o.tcpWscaleOption();
        tsVal = o.tsVal();
        tsEcr = o.tsEcr();
        sackBlocks = o.sackBlocks();
        for (int i = 0; i < sackBlocks; i++) {
            sackBlock(i, o.sackStart(i), o.sackEnd(i));
        }
        createdPicos = o.createdPicos();
        enqueuedPicos = o.enqueuedPicos();
        stampPicos = o.stampPicos();
    }

    @Override
    public String toString() {
        return "buffer id=" + id + " pool=" + pool.name() + " packet=" + packetId + " owner=" + owner;
    }
}

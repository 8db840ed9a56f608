package io.ringlab.qdisc;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;

/**
 * A plain-field {@link Buffer} for unit tests. It belongs to no pool ({@link #pool()} is {@code null}): the qdisc never
 * frees buffers, so nothing here needs one.
 */
final class TestBuffer implements Buffer {
    private final int id;
    private final int capacityBytes;
    private int length;
    private int headroom;
    private int truesize;
    private long packetId;
    private int flow;
    private int priority;
    private int tos;
    private int protocol;
    private long seq;
    private long ack;
    private int flags;
    private int segments = 1;
    private int fragments;
    private long createdPicos;
    private long enqueuedPicos = -1;
    private long stampPicos = -1;

    /**
     * @param id the buffer's id, also used as its packet id
     * @param length the frame length in bytes
     */
    TestBuffer(int id, int length) {
        this.id = id;
        this.packetId = id;
        this.capacityBytes = Math.max(length, 2048);
        this.length = length;
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public BufferPool pool() {
        return null;
    }

    @Override
    public int capacityBytes() {
        return capacityBytes;
    }

    @Override
    public long address() {
        return (long) id() << 12;
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public void length(int bytes) {
        this.length = bytes;
    }

    @Override
    public int headroom() {
        return headroom;
    }

    @Override
    public void headroom(int bytes) {
        this.headroom = bytes;
    }

    @Override
    public int truesize() {
        return truesize;
    }

    @Override
    public void truesize(int bytes) {
        this.truesize = bytes;
    }

    @Override
    public long packetId() {
        return packetId;
    }

    @Override
    public int flow() {
        return flow;
    }

    @Override
    public void flow(int flow) {
        this.flow = flow;
    }

    @Override
    public int priority() {
        return priority;
    }

    @Override
    public void priority(int priority) {
        this.priority = priority;
    }

    @Override
    public int tos() {
        return tos;
    }

    @Override
    public void tos(int tos) {
        this.tos = tos;
    }

    @Override
    public int protocol() {
        return protocol;
    }

    @Override
    public void protocol(int protocol) {
        this.protocol = protocol;
    }

    @Override
    public long seq() {
        return seq;
    }

    @Override
    public void seq(long seq) {
        this.seq = seq;
    }

    @Override
    public long ack() {
        return ack;
    }

    @Override
    public void ack(long ack) {
        this.ack = ack;
    }

    @Override
    public int flags() {
        return flags;
    }

    @Override
    public void flags(int flags) {
        this.flags = flags;
    }

    @Override
    public int segments() {
        return segments;
    }

    @Override
    public void segments(int segments) {
        this.segments = segments;
    }

    @Override
    public int fragments() {
        return fragments;
    }

    @Override
    public void fragments(int fragments) {
        this.fragments = fragments;
    }

    @Override
    public long createdPicos() {
        return createdPicos;
    }

    @Override
    public long enqueuedPicos() {
        return enqueuedPicos;
    }

    @Override
    public void enqueuedPicos(long picos) {
        this.enqueuedPicos = picos;
    }

    @Override
    public long stampPicos() {
        return stampPicos;
    }

    @Override
    public void stampPicos(long picos) {
        this.stampPicos = picos;
    }

    @Override
    public int owner() {
        return -1;
    }

    @Override
    public boolean allocated() {
        return true;
    }

    // the TCP header's fields (buffer.api 1.2): plain storage, the qdiscs do not read them
    private int tcpHeaderBytes, tcpWindow, tcpOptions, tcpMss, tcpWscale, sackBlocks;
    private long tsVal, tsEcr;
    private final long[] sack = new long[2 * MAX_SACK_BLOCKS];

    @Override public int tcpHeaderBytes() { return tcpHeaderBytes; }
    @Override public void tcpHeaderBytes(int b) { tcpHeaderBytes = b; }
    @Override public int tcpWindow() { return tcpWindow; }
    @Override public void tcpWindow(int w) { tcpWindow = w; }
    @Override public int tcpOptions() { return tcpOptions; }
    @Override public void tcpOptions(int o) { tcpOptions = o; }
    @Override public int tcpMssOption() { return tcpMss; }
    @Override public void tcpMssOption(int m) { tcpMss = m; }
    @Override public int tcpWscaleOption() { return tcpWscale; }
    @Override public void tcpWscaleOption(int w) { tcpWscale = w; }
    @Override public long tsVal() { return tsVal; }
    @Override public void tsVal(long v) { tsVal = v; }
    @Override public long tsEcr() { return tsEcr; }
    @Override public void tsEcr(long e) { tsEcr = e; }
    @Override public int sackBlocks() { return sackBlocks; }
    @Override public void sackBlocks(int n) { sackBlocks = n; }
    @Override public long sackStart(int i) { return sack[2 * i]; }
    @Override public long sackEnd(int i) { return sack[2 * i + 1]; }
    @Override public void sackBlock(int i, long start, long end) { sack[2 * i] = start; sack[2 * i + 1] = end; }

    @Override
    public void copyMetadataFrom(Buffer other) {
        length = other.length();
        headroom = other.headroom();
        truesize = other.truesize();
        packetId = other.packetId();
        flow = other.flow();
        priority = other.priority();
        tos = other.tos();
        protocol = other.protocol();
        seq = other.seq();
        ack = other.ack();
        flags = other.flags();
        segments = other.segments();
        fragments = other.fragments();
        createdPicos = other.createdPicos();
        enqueuedPicos = other.enqueuedPicos();
        stampPicos = other.stampPicos();
    }

    @Override
    public String toString() {
        return "TestBuffer[id=" + id + ", length=" + length + "]";
    }

    private io.ringlab.buffer.api.BufferDestructor destructor;

    @Override
    public io.ringlab.buffer.api.BufferDestructor destructor() {
        return destructor;
    }

    @Override
    public void destructor(io.ringlab.buffer.api.BufferDestructor d) {
        destructor = d;
    }
}

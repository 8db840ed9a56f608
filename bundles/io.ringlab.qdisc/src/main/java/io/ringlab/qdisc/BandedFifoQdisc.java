package io.ringlab.qdisc;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.queue.api.Qdisc;
import io.ringlab.queue.api.dto.QdiscStatsDTO;
import io.ringlab.sim.api.ElementState;

/**
 * The mechanism pfifo and pfifo_fast share: strict-priority FIFO bands ({@link PacketFifo}, band 0 served first), a limit
 * on the total queue length in packets with tail drop ({@link Qdisc#DROP_OVERLIMIT}, before enqueue, never of a queued
 * packet), requeue at the head of the packet's band ({@code dev_requeue_skb}, counting in {@code qlen}), and the counters.
 * A subclass says how many bands there are and which band a packet goes to.
 * <p>
 * Each band has {@code limit + 1} slots: a band may hold every packet, plus one requeued while an enqueue refilled the
 * qdisc. Counters (since creation): {@code enqueued}, {@code dequeued}, {@code requeues}, {@code drops}; identity
 * {@code enqueued + requeues - dequeued = backlogPackets}. The {@link Qdisc.DropSink} is kept but never called.
 * <p>
 * Hot swap ({@link QdiscState}): the bands' packets in order, the counters and the last drop reason; a successor of the
 * same class takes them whatever its limit, if each band fits its ring.
 * <p>
 * Not thread-safe: one engine thread.
 */
abstract class BandedFifoQdisc implements Qdisc, QdiscState {
    private final int limit;
    private final PacketFifo[] bands;
    private int qlen;
    private long backlogBytes;

    private long enqueued;
    private long dequeued;
    private long requeues;
    private long overlimitDrops;
    private String lastDropReason;
    private DropSink dropSink;

    /**
     * @param limit the limit on the total queue length in packets, 1 to {@link PfifoQdisc#MAX_LIMIT}
     * @param bandCount bands, at least 1
     * @throws IllegalArgumentException with a {@code key=value} message when the limit is out of range
     */
    BandedFifoQdisc(int limit, int bandCount) {
        if (limit < 1 || limit > PfifoQdisc.MAX_LIMIT) {
            throw new IllegalArgumentException("limit=" + limit + ", allowed 1 to " + PfifoQdisc.MAX_LIMIT + " packets");
        }
        this.limit = limit;
        this.bands = new PacketFifo[bandCount];
        for (int band = 0; band < bandCount; band++) {
            bands[band] = new PacketFifo(limit + 1);
        }
    }

    /** @return the band of a packet, 0 to bands - 1. */
    abstract int bandOf(Buffer buffer);

    /** @return the limit on the total queue length in packets. */
    int limit() {
        return limit;
    }

    /** Tail drop when the total {@code qlen >= limit}; sets {@link Buffer#enqueuedPicos(long)}. */
    @Override
    public Buffer enqueue(Buffer buffer, long nowPicos) {
        if (qlen >= limit) {
            overlimitDrops++;
            lastDropReason = DROP_OVERLIMIT;
            return buffer;
        }
        buffer.enqueuedPicos(nowPicos);
        bands[bandOf(buffer)].addLast(buffer);
        qlen++;
        backlogBytes += buffer.length();
        enqueued++;
        return null;
    }

    /** The head of the first non-empty band; a requeued packet comes first in its band. */
    @Override
    public Buffer dequeue(long nowPicos) {
        for (PacketFifo fifo : bands) {
            Buffer buffer = fifo.pollFirst();
            if (buffer != null) {
                qlen--;
                backlogBytes -= buffer.length();
                dequeued++;
                return buffer;
            }
        }
        return null;
    }

    /** @return the head of the first non-empty band, or {@code null}. */
    @Override
    public Buffer peek() {
        for (PacketFifo fifo : bands) {
            Buffer buffer = fifo.peekFirst();
            if (buffer != null) {
                return buffer;
            }
        }
        return null;
    }

    /**
     * Puts the packet back at the head of its band and counts a requeue; it keeps its {@link Buffer#enqueuedPicos()}.
     *
     * @throws IllegalStateException if the band's ring is full, which only happens when the caller requeues a packet it did
     *             not just dequeue (the spare slot is for the last dequeued packet)
     */
    @Override
    public void requeue(Buffer buffer) {
        int band = bandOf(buffer);
        if (!bands[band].addFirst(buffer)) {
            throw new IllegalStateException("requeue into a full ring: " + (bands.length > 1 ? "band=" + band + ", " : "")
                    + "backlogPackets=" + qlen + ", limit=" + limit + ", requeue only the packet last dequeued");
        }
        qlen++;
        backlogBytes += buffer.length();
        requeues++;
    }

    @Override
    public int backlogPackets() {
        return qlen;
    }

    @Override
    public long backlogBytes() {
        return backlogBytes;
    }

    /** @return packets queued in a band now. */
    int backlogPackets(int band) {
        return bands[band].size();
    }

    /** @return bytes queued in a band now. */
    long backlogBytes(int band) {
        return bands[band].bytes();
    }

    /** @return {@link Qdisc#DROP_OVERLIMIT} after the first drop, {@code null} before. */
    @Override
    public String lastDropReason() {
        return lastDropReason;
    }

    /** Kept for the contract; these qdiscs drop only before enqueue and never call it. */
    @Override
    public void dropSink(DropSink sink) {
        this.dropSink = sink;
    }

    /** @return the sink set by {@link #dropSink(DropSink)}, or {@code null}. */
    DropSink dropSink() {
        return dropSink;
    }

    /** Visits the queued packets band by band, each from head to tail: the order in which they would leave. */
    @Override
    public void forEachQueued(BufferVisitor visitor) {
        for (PacketFifo fifo : bands) {
            fifo.forEach(visitor);
        }
    }

    /** @return a new snapshot; {@code dropsByReason} always holds {@link Qdisc#DROP_OVERLIMIT}, 0 before any drop. */
    @Override
    public QdiscStatsDTO stats() {
        QdiscStatsDTO stats = new QdiscStatsDTO();
        stats.enqueued = enqueued;
        stats.dequeued = dequeued;
        stats.requeues = requeues;
        stats.drops = overlimitDrops;
        stats.dropsByReason.put(DROP_OVERLIMIT, overlimitDrops);
        stats.backlogPackets = qlen;
        stats.backlogBytes = backlogBytes;
        return stats;
    }

    /** Writes {@code <kind>.bandLengths}, {@code <kind>.bandPackets} (band by band, head first), the counters. */
    @Override
    public void exportState(ElementState out, String kind) {
        int[] lengths = new int[bands.length];
        Buffer[] packets = new Buffer[qlen];
        int[] n = {0};
        for (int band = 0; band < bands.length; band++) {
            lengths[band] = bands[band].size();
            bands[band].forEach(b -> packets[n[0]++] = b);
        }
        out.put(kind + ".qdiscClass", getClass().getName());
        out.put(kind + ".bandLengths", lengths);
        out.put(kind + ".bandPackets", packets);
        out.put(kind + ".counters", new long[] {enqueued, dequeued, requeues, overlimitDrops});
        if (lastDropReason != null) {
            out.put(kind + ".lastDropReason", lastDropReason);
        }
    }

    @Override
    public boolean importState(ElementState in, String kind) {
        int[] lengths = in.get(kind + ".bandLengths", int[].class);
        Buffer[] packets = in.get(kind + ".bandPackets", Buffer[].class);
        long[] counters = in.get(kind + ".counters", long[].class);
        if (!getClass().getName().equals(in.get(kind + ".qdiscClass", String.class)) || lengths == null
                || lengths.length != bands.length || packets == null || counters == null || qlen != 0) {
            return false;
        }
        for (int length : lengths) {
            if (length > limit + 1) {
                return false; // the band's ring has limit + 1 slots
            }
        }
        int k = 0;
        for (int band = 0; band < bands.length; band++) {
            for (int i = 0; i < lengths[band]; i++) {
                Buffer b = packets[k++];
                bands[band].addLast(b);
                qlen++;
                backlogBytes += b.length();
            }
        }
        enqueued = counters[0];
        dequeued = counters[1];
        requeues = counters[2];
        overlimitDrops = counters[3];
        lastDropReason = in.get(kind + ".lastDropReason", String.class);
        return true;
    }
}

package io.ringlab.qdisc;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferVisitor;

/**
 * A FIFO of packets in a preallocated ring, with its byte count: the {@code sk_buff_head} of one pfifo or of one
 * pfifo_fast band ({@code __qdisc_enqueue_tail}, {@code __qdisc_dequeue_head}, and the head insertion of a requeue).
 * The capacity is fixed at construction; nothing here allocates, boxes or throws except {@link #addFirst} on a full ring.
 * <p>
 * Not thread-safe: one engine thread.
 */
final class PacketFifo {
    private final Buffer[] ring;
    private int head;
    private int size;
    private long bytes;

    /** @param capacity the most packets held at once, at least 1 */
    PacketFifo(int capacity) {
        ring = new Buffer[capacity];
    }

    /** @return packets held. */
    int size() {
        return size;
    }

    /** @return the packets' bytes ({@code Buffer.length()}). */
    long bytes() {
        return bytes;
    }

    /** @return {@code true} when the ring has no free slot. */
    boolean full() {
        return size == ring.length;
    }

    /** Appends at the tail; the caller checked the limit, so the ring has room. */
    void addLast(Buffer b) {
        int tail = head + size;
        ring[tail >= ring.length ? tail - ring.length : tail] = b;
        size++;
        bytes += b.length();
    }

    /**
     * Puts a packet back at the head (a requeue).
     *
     * @return {@code false}, changing nothing, when the ring is full
     */
    boolean addFirst(Buffer b) {
        if (size == ring.length) {
            return false;
        }
        head = head == 0 ? ring.length - 1 : head - 1;
        ring[head] = b;
        size++;
        bytes += b.length();
        return true;
    }

    /** @return the head, removed, or {@code null} when empty. */
    Buffer pollFirst() {
        if (size == 0) {
            return null;
        }
        Buffer b = ring[head];
        ring[head] = null;
        head = head + 1 == ring.length ? 0 : head + 1;
        size--;
        bytes -= b.length();
        return b;
    }

    /** @return the head, or {@code null} when empty. */
    Buffer peekFirst() {
        return size == 0 ? null : ring[head];
    }

    /** Visits the packets from head to tail. */
    void forEach(BufferVisitor visitor) {
        int index = head;
        for (int i = 0; i < size; i++) {
            visitor.visit(ring[index]);
            index = index + 1 == ring.length ? 0 : index + 1;
        }
    }
}

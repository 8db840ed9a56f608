package io.ringlab.conformance;

import java.util.Map;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.queue.api.Qdisc;
import io.ringlab.queue.api.QdiscProvider;
import io.ringlab.queue.api.dto.QdiscStatsDTO;

/**
 * Qdisc kind {@value #KIND} for the kit's own tests: a tail-drop FIFO of {@code limit} packets, as pfifo. With
 * {@link Fault#NONE} it keeps the qdisc contract; each other fault breaks one part of it.
 */
final class FixtureQdisc implements QdiscProvider {
    static final String KIND = "fixture-qdisc";

    /** What is wrong with the qdisc. */
    enum Fault {
        /** Nothing. */
        NONE,
        /** It hands out the newest packet first (a stack), while it promises first in, first out. */
        LIFO,
        /** A requeue puts the packet back but forgets its bytes in the byte backlog. */
        REQUEUE_FORGETS_BYTES
    }

    private final Fault fault;

    FixtureQdisc(Fault fault) {
        this.fault = fault;
    }

    @Override
    public Qdisc create(Map<String, Object> settings) {
        return new Fifo(((Number) settings.getOrDefault("limit", 1000)).intValue(), fault);
    }

    private static final class Fifo implements Qdisc {
        private final Buffer[] ring;
        private final Fault fault;
        private int head, count;
        private long bytes, enqueued, dequeued, requeues, drops;

        Fifo(int limit, Fault fault) {
            this.ring = new Buffer[limit];
            this.fault = fault;
        }

        private int slot(int i) {
            return (head + i) % ring.length;
        }

        @Override
        public Buffer enqueue(Buffer buffer, long nowPicos) {
            if (count == ring.length) {
                drops++;
                return buffer;
            }
            ring[slot(count++)] = buffer;
            bytes += buffer.length();
            enqueued++;
            return null;
        }

        @Override
        public Buffer dequeue(long nowPicos) {
            Buffer b = peek();
            if (b == null) {
                return null;
            }
            if (fault == Fault.LIFO) {
                ring[slot(count - 1)] = null;
            } else {
                ring[head] = null;
                head = slot(1);
            }
            count--;
            bytes -= b.length();
            dequeued++;
            return b;
        }

        @Override
        public Buffer peek() {
            return count == 0 ? null : ring[fault == Fault.LIFO ? slot(count - 1) : head];
        }

        @Override
        public void requeue(Buffer buffer) {
            if (fault == Fault.LIFO) {
                ring[slot(count)] = buffer;
            } else {
                head = (head + ring.length - 1) % ring.length;
                ring[head] = buffer;
            }
            count++;
            if (fault != Fault.REQUEUE_FORGETS_BYTES) {
                bytes += buffer.length();
            }
            requeues++;
        }

        @Override public int backlogPackets() { return count; }
        @Override public long backlogBytes() { return bytes; }
        @Override public String lastDropReason() { return drops == 0 ? null : DROP_OVERLIMIT; }
        @Override public void dropSink(DropSink sink) { }

        @Override
        public void forEachQueued(BufferVisitor visitor) {
            for (int i = 0; i < count; i++) {
                visitor.visit(ring[slot(i)]);
            }
        }

        @Override
        public QdiscStatsDTO stats() {
            QdiscStatsDTO s = new QdiscStatsDTO();
            s.enqueued = enqueued;
            s.dequeued = dequeued;
            s.requeues = requeues;
            s.drops = drops;
            s.dropsByReason.put(DROP_OVERLIMIT, drops);
            s.backlogPackets = count;
            s.backlogBytes = bytes;
            return s;
        }
    }
}

package io.ringlab.qdisc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.queue.api.Qdisc;
import io.ringlab.queue.api.dto.QdiscStatsDTO;

/** Checks {@link PfifoQdisc} against {@code net/sched/sch_fifo.c} and {@code dev_requeue_skb}. */
class PfifoQdiscTest {

    private static List<Integer> queuedIds(Qdisc q) {
        List<Integer> ids = new ArrayList<>();
        q.forEachQueued(b -> ids.add(b.id()));
        return ids;
    }

    /** The identity of {@link PfifoQdisc}: a requeued packet leaves twice, so requeues add to the backlog. */
    private static void assertIdentities(Qdisc q) {
        QdiscStatsDTO s = q.stats();
        assertEquals(s.backlogPackets, s.enqueued + s.requeues - s.dequeued, "enqueued + requeues - dequeued = backlog");
        assertEquals(s.drops, s.dropsByReason.values().stream().mapToLong(Long::longValue).sum(), "drops by reason");
        assertEquals(q.backlogPackets(), s.backlogPackets, "backlogPackets");
        assertEquals(q.backlogBytes(), s.backlogBytes, "backlogBytes");
        long[] bytes = {0};
        int[] packets = {0};
        q.forEachQueued(b -> {
            bytes[0] += b.length();
            packets[0]++;
        });
        assertEquals(s.backlogPackets, packets[0], "walk finds the backlog");
        assertEquals(s.backlogBytes, bytes[0], "walk finds the byte backlog");
    }

    @Test
    void shouldDequeueInFifoOrderAndStampEnqueueTime() {
        PfifoQdisc q = new PfifoQdisc(10);
        for (int i = 0; i < 5; i++) {
            assertNull(q.enqueue(new TestBuffer(i, 100 + i), 1000L * i), "accepted below the limit");
        }
        assertEquals(List.of(0, 1, 2, 3, 4), queuedIds(q), "forEachQueued from head to tail");
        assertEquals(0, q.peek().id(), "peek shows the head");
        assertEquals(5, q.backlogPackets(), "qlen");
        for (int i = 0; i < 5; i++) {
            Buffer b = q.dequeue(99_000);
            assertEquals(i, b.id(), "FIFO order");
            assertEquals(1000L * i, b.enqueuedPicos(), "enqueue time stamped");
        }
        assertNull(q.dequeue(0), "empty");
        assertNull(q.peek(), "empty peek");
        assertIdentities(q);
    }

    @Test
    void shouldTailDropAtLimitAndReturnTheDroppedBuffer() {
        PfifoQdisc q = new PfifoQdisc(3);
        for (int i = 0; i < 3; i++) {
            q.enqueue(new TestBuffer(i, 1000), 0);
        }
        assertNull(q.lastDropReason(), "no drop yet");
        TestBuffer late = new TestBuffer(9, 1500);
        assertSame(late, q.enqueue(late, 5), "qlen == limit: the arriving packet is dropped");
        assertSame(Qdisc.DROP_OVERLIMIT, q.lastDropReason(), "reason qdisc-overlimit");
        assertEquals(-1L, late.enqueuedPicos(), "a dropped packet was never queued");
        assertEquals(List.of(0, 1, 2), queuedIds(q), "tail drop leaves the queue as it was");
        assertEquals(3000L, q.backlogBytes(), "bytes");

        QdiscStatsDTO s = q.stats();
        assertEquals(1L, s.drops, "drops");
        assertEquals(Map.of(Qdisc.DROP_OVERLIMIT, 1L), s.dropsByReason, "drops by reason");
        assertEquals(3L, s.enqueued, "a drop is not an enqueue");
        assertIdentities(q);

        q.dequeue(6);
        assertNull(q.enqueue(late, 7), "room again");
        assertEquals(List.of(1, 2, 9), queuedIds(q), "queued at the tail");
        assertIdentities(q);
    }

    @Test
    void shouldRequeueAtTheHeadAndCountIt() {
        PfifoQdisc q = new PfifoQdisc(10);
        q.enqueue(new TestBuffer(1, 100), 10);
        q.enqueue(new TestBuffer(2, 200), 20);
        Buffer first = q.dequeue(30);
        assertEquals(1, q.backlogPackets(), "one left");

        q.requeue(first);
        assertEquals(List.of(1, 2), queuedIds(q), "back at the head");
        assertEquals(300L, q.backlogBytes(), "bytes count again");
        assertEquals(10L, first.enqueuedPicos(), "requeue keeps the enqueue time");
        assertSame(first, q.peek(), "peek sees the requeued packet");
        QdiscStatsDTO s = q.stats();
        assertEquals(1L, s.requeues, "requeues");
        assertEquals(2L, s.enqueued, "a requeue is not an enqueue");
        assertIdentities(q);

        assertSame(first, q.dequeue(40), "the requeued packet leaves first");
        assertEquals(2, q.dequeue(40).id(), "then the rest");
        s = q.stats();
        assertEquals(3L, s.dequeued, "a requeued packet counts again when dequeued again");
        assertIdentities(q);
    }

    @Test
    void shouldCountRequeuedPacketInQlenLikeDevRequeueSkb() {
        PfifoQdisc q = new PfifoQdisc(2);
        q.enqueue(new TestBuffer(1, 100), 0);
        q.enqueue(new TestBuffer(2, 100), 0);
        Buffer head = q.dequeue(0);
        assertNull(q.enqueue(new TestBuffer(3, 100), 0), "refilled while the driver held the head");

        q.requeue(head);
        assertEquals(3, q.backlogPackets(), "qlen = limit + 1, as q->q.qlen++ in dev_requeue_skb");
        TestBuffer refused = new TestBuffer(4, 100);
        assertSame(refused, q.enqueue(refused, 0), "the requeued packet counts against the limit");
        assertEquals(List.of(1, 2, 3), queuedIds(q), "order");
        assertIdentities(q);

        IllegalStateException e = assertThrows(IllegalStateException.class, () -> q.requeue(new TestBuffer(5, 100)));
        assertEquals("requeue into a full ring: backlogPackets=3, limit=2, requeue only the packet last dequeued",
                e.getMessage());
        assertEquals(List.of(1, 2, 3), queuedIds(q), "unchanged");
    }

    @Test
    void shouldKeepOrderAndBytesWhileTheRingWrapsManyTimes() {
        PfifoQdisc q = new PfifoQdisc(7);
        int next = 0;
        int expected = 0;
        long bytes = 0;
        for (int round = 0; round < 50; round++) {
            int in = 1 + round % 7;
            for (int i = 0; i < in && q.backlogPackets() < 7; i++) {
                q.enqueue(new TestBuffer(next, 60 + next % 1400), round);
                bytes += 60 + next % 1400;
                next++;
            }
            int outCount = 1 + (round * 3) % 7;
            for (int i = 0; i < outCount; i++) {
                Buffer b = q.dequeue(round);
                if (b == null) {
                    break;
                }
                if (i == 0 && round % 5 == 0) {
                    q.requeue(b);
                    b = q.dequeue(round);
                }
                assertEquals(expected++, b.id(), "FIFO order across wraps, round " + round);
                bytes -= b.length();
            }
            assertEquals(bytes, q.backlogBytes(), "backlog bytes, round " + round);
            assertIdentities(q);
        }
    }

    @Test
    void shouldAllocateNothingOnTheHotPath() {
        PfifoQdisc q = new PfifoQdisc(16);
        TestBuffer[] buffers = new TestBuffer[100];
        for (int i = 0; i < buffers.length; i++) {
            buffers[i] = new TestBuffer(i, 1514);
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        // warm up past interpretation and compilation, which allocate on this thread once; then take the least of a few
        // measurements: one allocation per call would show as megabytes in every one of them
        long sink = 0;
        for (int i = 0; i < 3; i++) {
            sink += exercise(q, buffers);
        }
        long allocated = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            sink += exercise(q, buffers);
            allocated = Math.min(allocated, threads.getCurrentThreadAllocatedBytes() - before);
        }
        assertEquals(0L, allocated, "bytes allocated by 100,000 enqueues with dequeues, requeues and drops");
        assertEquals(8 * (100_000L / 2 - 16), sink, "half the enqueues dropped: the queue stays full");
    }

    /** 100,000 enqueues into a 16-packet queue drained at half the rate, with requeues; returns the drops. */
    private static long exercise(PfifoQdisc q, TestBuffer[] buffers) {
        long drops = 0;
        for (int i = 0; i < 100_000; i++) {
            if (q.enqueue(buffers[i % buffers.length], i) != null) {
                drops++;
            }
            if (i % 2 == 0) {
                Buffer b = q.dequeue(i);
                if (i % 6 == 0) {
                    q.requeue(b);
                    q.dequeue(i);
                }
            }
        }
        int drained = 0;
        for (Buffer b = q.dequeue(0); b != null; b = q.dequeue(0)) {
            drained++;
        }
        assertEquals(16, drained, "drained the full queue");
        return drops;
    }

    @Test
    void shouldKeepTheDropSinkWithoutCallingIt() {
        PfifoQdisc q = new PfifoQdisc(1);
        List<Buffer> sunk = new ArrayList<>();
        Qdisc.DropSink sink = (b, reason) -> sunk.add(b);
        q.dropSink(sink);
        q.enqueue(new TestBuffer(1, 100), 0);
        q.enqueue(new TestBuffer(2, 100), 0);
        assertSame(sink, q.dropSink(), "kept");
        assertEquals(List.of(), sunk, "pfifo returns its drops from enqueue");
    }
}

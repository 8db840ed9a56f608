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

/**
 * Checks {@link PfifoFastQdisc} against {@code pfifo_fast_enqueue} and {@code pfifo_fast_dequeue}
 * ({@code net/sched/sch_generic.c}).
 */
class PfifoFastQdiscTest {

    private static TestBuffer packet(int id, int priority, int length) {
        TestBuffer b = new TestBuffer(id, length);
        b.priority(priority);
        return b;
    }

    private static List<Integer> queuedIds(Qdisc q) {
        List<Integer> ids = new ArrayList<>();
        q.forEachQueued(b -> ids.add(b.id()));
        return ids;
    }

    private static void assertIdentities(PfifoFastQdisc q) {
        QdiscStatsDTO s = q.stats();
        assertEquals(s.backlogPackets, s.enqueued + s.requeues - s.dequeued, "enqueued + requeues - dequeued = backlog");
        assertEquals(s.drops, s.dropsByReason.values().stream().mapToLong(Long::longValue).sum(), "drops by reason");
        assertEquals(q.backlogPackets(), q.backlogPackets(0) + q.backlogPackets(1) + q.backlogPackets(2), "bands sum to qlen");
        assertEquals(q.backlogBytes(), q.backlogBytes(0) + q.backlogBytes(1) + q.backlogBytes(2), "band bytes sum");
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
    void shouldMapAllSixteenPrioritiesToTheKernelsBands() {
        int[] expected = {1, 2, 2, 2, 1, 2, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1}; // prio2band, net/sched/sch_generic.c
        for (int priority = 0; priority <= 15; priority++) {
            assertEquals(expected[priority], PfifoFastQdisc.band(priority), "priority " + priority);
            PfifoFastQdisc q = new PfifoFastQdisc(10);
            q.enqueue(packet(priority, priority, 100), 0);
            assertEquals(1, q.backlogPackets(expected[priority]), "priority " + priority + " queued in its band");
            assertEquals(100, q.backlogBytes(expected[priority]), "bytes in its band");
        }
        // skb->priority & TC_PRIO_MAX: a larger priority (a classid such as 0x10006) uses its low four bits
        assertEquals(0, PfifoFastQdisc.band(0x10006), "0x10006 & 15 = 6: band 0");
        assertEquals(2, PfifoFastQdisc.band(17), "17 & 15 = 1: band 2");
    }

    @Test
    void shouldServeBandZeroFirstThenOneThenTwoEachInFifoOrder() {
        PfifoFastQdisc q = new PfifoFastQdisc(100);
        int[] priorities = {0, 1, 6, 2, 7, 4, 3, 6, 0}; // bands 1, 2, 0, 2, 0, 1, 2, 0, 1
        for (int i = 0; i < priorities.length; i++) {
            assertNull(q.enqueue(packet(i, priorities[i], 100 + i), 1000L * i), "accepted");
        }
        assertEquals(List.of(2, 4, 7, 0, 5, 8, 1, 3, 6), queuedIds(q), "the walk in leaving order");
        assertEquals(2, q.peek().id(), "peek shows the head of band 0");
        List<Integer> out = new ArrayList<>();
        for (Buffer b = q.dequeue(99_000); b != null; b = q.dequeue(99_000)) {
            out.add(b.id());
            assertEquals(1000L * b.id(), b.enqueuedPicos(), "enqueue time stamped");
        }
        assertEquals(List.of(2, 4, 7, 0, 5, 8, 1, 3, 6), out, "band 0, then 1, then 2; FIFO within a band");
        assertNull(q.peek(), "empty");
        assertIdentities(q);

        // strict priority: a band-0 arrival overtakes a waiting band-2 backlog
        q.enqueue(packet(20, 1, 100), 0);
        q.enqueue(packet(21, 1, 100), 0);
        assertEquals(20, q.dequeue(0).id(), "band 2 head");
        q.enqueue(packet(22, 7, 100), 0);
        assertEquals(22, q.dequeue(0).id(), "band 0 first");
        assertEquals(21, q.dequeue(0).id(), "then the rest of band 2");
    }

    @Test
    void shouldTailDropWhenTheTotalOfAllBandsReachesTheLimit() {
        PfifoFastQdisc q = new PfifoFastQdisc(4);
        q.enqueue(packet(0, 1, 100), 0); // band 2
        q.enqueue(packet(1, 1, 100), 0); // band 2
        q.enqueue(packet(2, 0, 100), 0); // band 1
        q.enqueue(packet(3, 0, 100), 0); // band 1
        assertNull(q.lastDropReason(), "no drop yet");
        TestBuffer urgent = packet(4, 6, 1500);
        assertSame(urgent, q.enqueue(urgent, 5), "qlen 4 >= limit 4: even an empty band 0 is refused (a total limit)");
        assertSame(Qdisc.DROP_OVERLIMIT, q.lastDropReason(), "reason qdisc-overlimit");
        assertEquals(-1L, urgent.enqueuedPicos(), "not stamped");
        assertEquals(0, q.backlogPackets(0), "band 0 still empty");
        QdiscStatsDTO s = q.stats();
        assertEquals(1L, s.drops, "drops");
        assertEquals(Map.of(Qdisc.DROP_OVERLIMIT, 1L), s.dropsByReason, "by reason");
        assertEquals(4L, s.enqueued, "a drop is not an enqueue");
        assertIdentities(q);

        q.dequeue(6);
        assertNull(q.enqueue(urgent, 7), "room again");
        assertEquals(4, q.dequeue(8).id(), "and it leaves first");
        assertIdentities(q);
    }

    @Test
    void shouldRequeueAtTheHeadOfItsBandAndCountInQlen() {
        PfifoFastQdisc q = new PfifoFastQdisc(3);
        q.enqueue(packet(1, 0, 100), 10); // band 1
        q.enqueue(packet(2, 0, 200), 20); // band 1
        q.enqueue(packet(3, 2, 300), 30); // band 2
        Buffer head = q.dequeue(40);
        assertEquals(1, head.id(), "band 1 head");
        assertNull(q.enqueue(packet(4, 1, 400), 50), "refilled while the driver held the head");

        q.requeue(head);
        assertEquals(4, q.backlogPackets(), "qlen = limit + 1: the requeued packet counts, as q->q.qlen++ in dev_requeue_skb");
        assertEquals(List.of(1, 2, 3, 4), queuedIds(q), "back at the head of band 1");
        assertEquals(300L, q.backlogBytes(1), "band 1 bytes");
        TestBuffer refused = packet(5, 6, 100);
        assertSame(refused, q.enqueue(refused, 60), "the requeued packet counts against the limit");
        assertSame(head, q.dequeue(70), "the requeued packet leaves first");
        assertEquals(10L, head.enqueuedPicos(), "and keeps its enqueue time");
        QdiscStatsDTO s = q.stats();
        assertEquals(1L, s.requeues, "requeues");
        assertEquals(2L, s.dequeued, "a requeued packet counts again when dequeued again");
        assertIdentities(q);

        // a band-0 packet that arrives between the dequeue and the requeue leaves before it (the kernel's gso_skb would not)
        PfifoFastQdisc r = new PfifoFastQdisc(10);
        r.enqueue(packet(1, 0, 100), 0);
        Buffer b = r.dequeue(0);
        r.enqueue(packet(2, 6, 100), 0);
        r.requeue(b);
        assertEquals(2, r.dequeue(0).id(), "band 0 first");
        assertSame(b, r.dequeue(0), "then the requeued band-1 packet");

        PfifoFastQdisc full = new PfifoFastQdisc(1);
        full.enqueue(packet(1, 0, 100), 0);
        Buffer x = full.dequeue(0);
        full.enqueue(packet(2, 0, 100), 0);
        full.requeue(x);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> full.requeue(packet(3, 0, 100)));
        assertEquals("requeue into a full ring: band=1, backlogPackets=2, limit=1, requeue only the packet last dequeued",
                e.getMessage());
    }

    @Test
    void shouldKeepOrderAndBytesWhileTheRingsWrapManyTimes() {
        PfifoFastQdisc q = new PfifoFastQdisc(7);
        List<List<Integer>> bands = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        int next = 0;
        for (int round = 0; round < 60; round++) {
            for (int i = 0; i < 1 + round % 5; i++) {
                int priority = (next * 7) % 16;
                if (q.enqueue(packet(next, priority, 60 + next % 1400), round) == null) {
                    bands.get(PfifoFastQdisc.band(priority)).add(next);
                }
                next++;
            }
            for (int i = 0; i < 1 + (round * 3) % 6; i++) {
                Buffer b = q.dequeue(round);
                if (b == null) {
                    break;
                }
                List<Integer> band = bands.stream().filter(l -> !l.isEmpty()).findFirst().orElseThrow();
                assertEquals(band.remove(0), b.id(), "strict priority, FIFO per band, round " + round);
            }
            assertIdentities(q);
        }
    }

    @Test
    void shouldAllocateNothingOnTheHotPath() {
        PfifoFastQdisc q = new PfifoFastQdisc(16);
        TestBuffer[] buffers = new TestBuffer[100];
        for (int i = 0; i < buffers.length; i++) {
            buffers[i] = packet(i, i % 16, 1514);
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long drops = 0;
        for (int i = 0; i < 3; i++) {
            drops += exercise(q, buffers);
        }
        long allocated = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            drops += exercise(q, buffers);
            allocated = Math.min(allocated, threads.getCurrentThreadAllocatedBytes() - before);
        }
        assertEquals(0L, allocated, "bytes allocated by 100,000 enqueues with dequeues, requeues and drops");
        assertEquals(8 * (100_000L / 2 - 16), drops, "half the enqueues dropped: the queue stays full");
    }

    /** 100,000 enqueues of all priorities into a 16-packet qdisc drained at half the rate, with requeues. */
    private static long exercise(PfifoFastQdisc q, TestBuffer[] buffers) {
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
        while (q.dequeue(0) != null) {
            // drain
        }
        return drops;
    }
}

package io.ringlab.qdisc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringlab.buffer.api.Buffer;

/**
 * {@link FqCodelFlows}, fq_codel's flow table on its own: each bucket's FIFO with its byte backlog and
 * {@code memory_usage}, the search of {@code fq_codel_drop}, new_flows and old_flows, and the snapshot a hot swap's
 * successor restores.
 */
class FqCodelFlowsTest {

    private static TestBuffer packet(int id, int length, int truesize) {
        TestBuffer b = new TestBuffer(id, length);
        b.truesize(truesize);
        return b;
    }

    @Test
    void shouldKeepEachBucketInArrivalOrderWithItsBacklogAndTheMemoryUsage() {
        FqCodelFlows t = new FqCodelFlows(4, 8);
        assertTrue(t.enqueue(2, packet(1, 100, 768), 768), "a bucket on neither list must join new_flows");
        t.addNew(2, 1514);
        assertFalse(t.enqueue(2, packet(2, 300, 1280), 1280), "a bucket on new_flows stays where it is");
        assertTrue(t.enqueue(0, packet(3, 50, 512), 512));
        assertEquals(400, t.backlog(2));
        assertEquals(50, t.backlog(0));
        assertEquals(768 + 1280 + 512, t.memoryUsage());
        assertEquals(1, t.dequeueHead(2).id());
        assertEquals(300, t.backlog(2), "the head's bytes left the bucket");
        assertEquals(1280 + 512, t.memoryUsage(), "and its truesize the memory usage");
        assertEquals(2, t.dequeueHead(2).id());
        assertNull(t.dequeueHead(2), "an empty bucket gives nothing");
        assertTrue(t.isEmpty(2));
        assertEquals(512, t.memoryUsage());
    }

    @Test
    void shouldReuseFreedSlotsSoThatAFullTableTakesPacketsAgainAfterDequeues() {
        FqCodelFlows t = new FqCodelFlows(2, 3);
        for (int round = 0; round < 5; round++) {
            for (int i = 0; i < 3; i++) {
                t.enqueue(i % 2, packet(round * 3 + i, 100, 256), 256);
            }
            assertEquals(round * 3, t.dequeueHead(0).id());
            assertEquals(round * 3 + 2, t.dequeueHead(0).id());
            assertEquals(round * 3 + 1, t.dequeueHead(1).id());
            assertEquals(0, t.memoryUsage());
        }
    }

    @Test
    void shouldFindTheFattestBucketTheFirstOnATieAndAZeroLengthOneWhenNoBucketHasBytes() {
        FqCodelFlows t = new FqCodelFlows(5, 8);
        assertEquals(FqCodelFlows.NIL, t.fattest(), "every bucket empty");
        t.enqueue(3, packet(1, 0, 256), 256);
        assertEquals(3, t.fattest(), "only zero-length packets: the first bucket that holds any");
        t.enqueue(1, packet(2, 700, 256), 256);
        t.enqueue(4, packet(3, 700, 256), 256);
        assertEquals(1, t.fattest(), "a tie goes to the first bucket");
        t.enqueue(4, packet(4, 1, 256), 256);
        assertEquals(4, t.fattest());
    }

    @Test
    void shouldServeTheListsInOrderAndMoveABucketToTheTailOfOldFlows() {
        FqCodelFlows t = new FqCodelFlows(4, 4);
        t.addNew(2, 100);
        t.addNew(0, 100);
        t.addNew(3, 100);
        assertEquals(3, t.newFlowsLength());
        assertEquals(2, t.firstNew());
        t.moveHeadToOldTail(true);
        t.moveHeadToOldTail(true);
        assertEquals(3, t.firstNew());
        assertEquals(2, t.firstOld());
        assertEquals(2, t.oldFlowsLength());
        t.moveHeadToOldTail(false);
        assertEquals(0, t.firstOld(), "the old head went to the tail");
        assertEquals(0, t.removeHead(false));
        assertEquals(2, t.removeHead(false));
        assertEquals(FqCodelFlows.NIL, t.firstOld());
        assertEquals(3, t.removeHead(true));
        assertEquals(FqCodelFlows.NIL, t.firstNew());
        assertEquals(0, t.newFlowsLength() + t.oldFlowsLength());
        t.addDeficit(3, -250);
        assertEquals(-150, t.deficit(3));
    }

    @Test
    void shouldRestoreFromASnapshotTheSameQueuesListsBacklogsDeficitsAndMemory() {
        FqCodelFlows a = new FqCodelFlows(3, 6);
        int id = 0;
        for (int flow : new int[] {1, 2, 1, 0, 2, 1}) {
            if (a.enqueue(flow, packet(++id, 100 * id, 512 + id), 512 + id)) {
                a.addNew(flow, 1000);
            }
        }
        a.moveHeadToOldTail(true); // bucket 1 to old_flows
        a.addDeficit(1, -333);
        a.dequeueHead(2);
        FqCodelFlows.Snapshot s = a.snapshot();
        assertArrayEquals(new int[] {1, 3, 1}, s.lengths());
        assertArrayEquals(new int[] {2, 0}, s.newFlows());
        assertArrayEquals(new int[] {1}, s.oldFlows());

        FqCodelFlows b = new FqCodelFlows(3, 6);
        b.restore(s);
        assertEquals(a.memoryUsage(), b.memoryUsage());
        assertEquals(a.firstNew(), b.firstNew());
        assertEquals(a.firstOld(), b.firstOld());
        for (int flow = 0; flow < 3; flow++) {
            assertEquals(a.backlog(flow), b.backlog(flow));
            assertEquals(a.deficit(flow), b.deficit(flow));
        }
        a.dequeueHead(1); // the snapshot holds copies: the predecessor going on changes nothing restored
        assertEquals(3, s.lengths()[1]);
        List<Integer> order = new ArrayList<>();
        b.forEachQueued(x -> order.add(x.id()));
        assertEquals(List.of(4, 1, 3, 6, 5), order, "bucket 0, then 1 head to tail, then 2");
        Buffer head = b.dequeueHead(1);
        assertSame(s.packets()[1], head, "the same buffers, not copies");
    }
}

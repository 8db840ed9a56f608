package io.ringlab.bql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringlab.queue.api.TxQueue;

/** Checks the {@code include/linux/netdevice.h} glue of {@link NetdevTxQueue} (kernel-models.md 1.5). */
class NetdevTxQueueTest {

    private static final int FRAME = 1514;

    /** Counts wake-ups and records the queue's state the listener saw. */
    private static class RecordingListener implements TxQueue.Listener {
        TxQueue queue;
        int woken;
        final List<String> seen = new ArrayList<>();

        @Override
        public void woken() {
            woken++;
            seen.add("drv=" + queue.driverStopped() + " stack=" + queue.stackStopped());
        }
    }

    private RecordingListener listener = new RecordingListener();

    private NetdevTxQueue bqlQueue() {
        NetdevTxQueue q = new NetdevTxQueue(new Dql(1000, 1000, 0, Dql.DQL_MAX_LIMIT, true), listener);
        listener.queue = q;
        return q;
    }

    @Test
    void shouldStopOnFirstFrameAndWakeOnItsCompletion() {
        NetdevTxQueue q = bqlQueue();
        assertFalse(q.stopped(), "a new queue runs");
        q.sent(FRAME, 0);
        assertTrue(q.stackStopped(), "avail -1514: STACK_XOFF set");
        assertFalse(q.driverStopped(), "DRV_XOFF untouched");
        assertTrue(q.stopped(), "netif_xmit_frozen_or_stopped");
        assertEquals(1L, q.stackStops(), "one stack stop");
        assertEquals(-1514, q.limits().available(), "avail");
        assertEquals(0, listener.woken, "not woken yet");

        q.completed(1, FRAME, 1_000_000L);
        assertFalse(q.stopped(), "avail +1514: STACK_XOFF cleared");
        assertEquals(1514, q.limits().limit(), "limit");
        assertEquals(1514, q.limits().available(), "avail");
        assertEquals(1, listener.woken, "netif_schedule_queue once");
        assertEquals(List.of("drv=false stack=false"), listener.seen, "bits cleared before the listener runs");
    }

    @Test
    void shouldIgnoreCompletionOfZeroBytes() {
        NetdevTxQueue q = bqlQueue();
        q.sent(FRAME, 0);
        q.completed(0, 0, 0);
        assertTrue(q.stackStopped(), "still stopped");
        assertEquals(0, q.limits().limit(), "dql_completed not called");
        assertEquals(0, listener.woken, "no wake");
    }

    @Test
    void shouldStayStoppedWhileCompletionLeavesAvailNegative() {
        NetdevTxQueue q = bqlQueue();
        q.sent(FRAME, 0);
        q.completed(1, FRAME, 0);
        q.sent(100, 0);
        assertFalse(q.stopped(), "avail 1414");
        q.sent(3000, 0);
        assertTrue(q.stackStopped(), "avail -1586");
        assertEquals(2L, q.stackStops(), "second stack stop");

        q.completed(1, 100, 0);
        assertEquals(-1486, q.limits().available(), "limit 1514 - 3000 in flight");
        assertTrue(q.stackStopped(), "still over the limit");
        assertEquals(1, listener.woken, "only the first wake-up");

        q.completed(1, 3000, 0);
        assertEquals(3100, q.limits().limit(), "starved: 1514 + POSDIFF(4614, prev_num_queued 4614) + prev_ovlimit 1586");
        assertFalse(q.stopped(), "woken");
        assertEquals(2, listener.woken, "second wake-up");
    }

    @Test
    void shouldNotCallListenerWhileDriverBitIsSet() {
        NetdevTxQueue q = bqlQueue();
        q.sent(FRAME, 0);
        q.stopByDriver();
        assertEquals(1L, q.driverStops(), "one driver stop");
        q.completed(1, FRAME, 0);
        assertFalse(q.stackStopped(), "STACK_XOFF cleared by test_and_clear_bit");
        assertTrue(q.driverStopped(), "DRV_XOFF remains");
        assertTrue(q.stopped(), "the qdisc still may not send");
        assertEquals(0, listener.woken, "netif_schedule_queue skipped: netif_xmit_stopped");

        q.wakeByDriver();
        assertFalse(q.stopped(), "no bit left");
        assertEquals(1, listener.woken, "the driver's wake runs the qdisc");
        assertEquals(List.of("drv=false stack=false"), listener.seen, "state seen by the listener");
    }

    @Test
    void shouldNotCallListenerOnDriverWakeWhileStackBitIsSet() {
        NetdevTxQueue q = bqlQueue();
        q.stopByDriver();
        q.sent(FRAME, 0);
        q.wakeByDriver();
        assertFalse(q.driverStopped(), "DRV_XOFF cleared");
        assertTrue(q.stackStopped(), "STACK_XOFF remains");
        assertEquals(0, listener.woken, "a qdisc run would find the queue stopped");

        q.completed(1, FRAME, 0);
        assertEquals(1, listener.woken, "the completion wakes it");
    }

    @Test
    void shouldWakeOnlyWhenDriverBitWasSetAndCountDriverStopTransitions() {
        NetdevTxQueue q = bqlQueue();
        q.wakeByDriver();
        assertEquals(0, listener.woken, "test_and_clear_bit found nothing to clear");
        q.stopByDriver();
        q.stopByDriver();
        assertEquals(1L, q.driverStops(), "a stop of a stopped queue is not a new stop");
        q.wakeByDriver();
        q.wakeByDriver();
        assertEquals(1, listener.woken, "one wake-up");
        q.stopByDriver();
        assertEquals(2L, q.driverStops(), "second stop");
    }

    @Test
    void shouldLetListenerTransmitAgainFromInsideTheWakeUp() {
        listener = new RecordingListener() {
            @Override
            public void woken() {
                super.woken();
                // the qdisc run sends the next frame at once, which stops the queue again
                queue.sent(3 * FRAME, 0);
            }
        };
        NetdevTxQueue q = new NetdevTxQueue(new Dql(1000, 1000, 0, Dql.DQL_MAX_LIMIT, true), listener);
        listener.queue = q;
        q.sent(FRAME, 0);
        q.completed(1, FRAME, 0);
        assertEquals(1, listener.woken, "woken once");
        assertTrue(q.stackStopped(), "stopped again by the frame sent from the wake-up");
        assertEquals(2L, q.stackStops(), "two stack stops");
        assertEquals(1514 - 3 * 1514, q.limits().available(), "avail");
    }

    @Test
    void shouldClearStackBitAndResetLimitsWithoutWaking() {
        NetdevTxQueue q = bqlQueue();
        q.sent(FRAME, 0);
        q.completed(1, FRAME, 0);
        q.sent(FRAME, 0);
        q.sent(FRAME, 0);
        assertTrue(q.stackStopped(), "stopped");

        q.reset(5_000_000_000L);
        assertFalse(q.stopped(), "netdev_tx_reset_queue clears STACK_XOFF");
        assertEquals(1, listener.woken, "reset does not schedule the qdisc");
        assertEquals(0, q.limits().inflight(), "dql_reset forgot the bytes in flight");
        assertEquals(0, q.limits().limit(), "limit = min_limit = 0");
        assertEquals(3028, q.limits().available(), "adj_limit kept by dql_reset");
        assertEquals(2L, q.stackStops(), "counters survive a reset");
    }

    @Test
    void shouldOnlyKeepDriverBitWithoutBql() {
        RecordingListener l = new RecordingListener();
        NetdevTxQueue q = new NetdevTxQueue(null, l);
        l.queue = q;
        assertNull(q.limits(), "no limits without BQL");
        for (int i = 0; i < 1000; i++) {
            q.sent(FRAME, 0);
        }
        assertFalse(q.stackStopped(), "sent never sets STACK_XOFF");
        q.completed(1, FRAME, 0);
        assertEquals(0, l.woken, "completed does nothing");
        q.reset(0);
        assertEquals(0L, q.stackStops(), "no stack stops");

        q.stopByDriver();
        assertTrue(q.stopped(), "driver stop");
        q.wakeByDriver();
        assertEquals(1, l.woken, "driver wake");
    }

    @Test
    void shouldExposeTheSameLimitsObject() {
        Dql dql = new Dql(1000, 1000, 0, Dql.DQL_MAX_LIMIT, true);
        NetdevTxQueue q = new NetdevTxQueue(dql, () -> { });
        assertSame(dql, q.limits(), "limits()");
    }
}

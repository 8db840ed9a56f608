package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class EventQueueTest {
    private final Simulation sim = new Simulation(new TestRegistry(), new TestRegistry().profile("generic-x86-4ghz"), 1);

    @Test
    void simultaneousEventsFireInTheOrderTheyWereArmed() {
        List<Integer> fired = new ArrayList<>();
        TimerImpl[] t = new TimerImpl[5];
        for (int i = 0; i < t.length; i++) {
            int k = i;
            t[i] = new TimerImpl(sim, now -> fired.add(k), -1);
        }
        t[3].at(100);
        t[1].at(100);
        t[4].at(50);
        t[0].at(100);
        t[2].at(100);
        sim.advance(Long.MAX_VALUE, Long.MAX_VALUE);
        assertEquals(List.of(4, 3, 1, 0, 2), fired);
    }

    @Test
    void rearmingMovesATimerAndCancellingRemovesIt() {
        List<String> fired = new ArrayList<>();
        TimerImpl a = new TimerImpl(sim, now -> fired.add("a@" + now), -1);
        TimerImpl b = new TimerImpl(sim, now -> fired.add("b@" + now), -1);
        TimerImpl c = new TimerImpl(sim, now -> fired.add("c@" + now), -1);
        a.at(10);
        b.at(20);
        c.at(30);
        a.at(40); // moved later: one entry, not two
        b.cancel();
        assertFalse(b.pending());
        assertEquals(2, sim.events.size());
        sim.advance(Long.MAX_VALUE, Long.MAX_VALUE);
        assertEquals(List.of("c@30", "a@40"), fired);
        assertEquals(-1, a.whenPicos());
    }

    @Test
    void randomOperationsMatchASortedReference() {
        SplittableRandom r = new SplittableRandom(7);
        int n = 200;
        TimerImpl[] timers = new TimerImpl[n];
        List<long[]> fired = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int k = i;
            timers[i] = new TimerImpl(sim, now -> fired.add(new long[] {now, k}), -1);
        }
        long[] when = new long[n];
        long[] seq = new long[n];
        boolean[] armed = new boolean[n];
        long s = 0;
        for (int op = 0; op < 5000; op++) {
            int i = r.nextInt(n);
            if (r.nextInt(4) == 0) {
                timers[i].cancel();
                armed[i] = false;
            } else {
                when[i] = r.nextLong(1000);
                timers[i].at(when[i]);
                seq[i] = s++;
                armed[i] = true;
            }
        }
        List<long[]> expected = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (armed[i]) {
                expected.add(new long[] {when[i], i, seq[i]});
            }
        }
        expected.sort(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[2]));
        sim.advance(Long.MAX_VALUE, Long.MAX_VALUE);
        assertEquals(expected.size(), fired.size());
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i)[0], fired.get(i)[0], "time of event " + i);
            assertEquals(expected.get(i)[1], fired.get(i)[1], "timer of event " + i);
        }
        assertTrue(sim.events.size() == 0);
    }

    @Test
    void aTimerThatTakesOverAnotherFiresInItsPlaceAmongTheEventsOfItsInstant() {
        List<String> fired = new ArrayList<>();
        TimerImpl old = new TimerImpl(sim, now -> fired.add("old"), -1);
        TimerImpl other = new TimerImpl(sim, now -> fired.add("other"), -1);
        TimerImpl neu = new TimerImpl(sim, now -> fired.add("new"), -1);
        TimerImpl idle = new TimerImpl(sim, now -> fired.add("idle"), -1);
        old.at(100);
        other.at(100); // armed after the old timer, for the same instant
        neu.takeOver(old);
        assertEquals(100, neu.whenPicos());
        neu.takeOver(idle); // an idle predecessor changes nothing
        assertEquals(100, neu.whenPicos());
        old.cancel(); // the swap's commit
        sim.advance(Long.MAX_VALUE, Long.MAX_VALUE);
        assertEquals(List.of("new", "other"), fired, "at() would have put it behind 'other'");
    }

    @Test
    void aTimerInThePastIsRefused() {
        TimerImpl t = new TimerImpl(sim, now -> { }, -1);
        sim.now = 100;
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> t.at(99));
    }

    /** What a callback does, drawn from {@code r}: the engine and the reference below make the same draws. */
    private interface Actions {
        void arm(int timer, long at);

        void cancel(int timer);
    }

    private static void act(int self, long now, SplittableRandom r, int n, Actions a) {
        switch (r.nextInt(8)) {
            case 0, 1, 2, 3 -> a.arm(self, now + r.nextLong(30)); // the common case: a timer arming itself again
            case 4, 5 -> { // another timer (or itself), and itself
                a.arm(r.nextInt(n), now + r.nextLong(30));
                a.arm(self, now + r.nextLong(30));
            }
            case 6 -> { // itself, and then cancels another timer (or itself)
                a.arm(self, now + r.nextLong(30));
                a.cancel(r.nextInt(n));
            }
            default -> { } // leaves the heap
        }
    }

    @Test
    void callbacksThatRearmOrCancelTheirTimerOrOthersMatchASortedReference() {
        int n = 40;
        long end = 20_000;
        // the engine: each timer fires where it is at the head of the heap
        SplittableRandom r = new SplittableRandom(21);
        TimerImpl[] timers = new TimerImpl[n];
        List<String> fired = new ArrayList<>();
        Actions engine = new Actions() {
            public void arm(int timer, long at) {
                timers[timer].at(at);
            }

            public void cancel(int timer) {
                timers[timer].cancel();
            }
        };
        for (int i = 0; i < n; i++) {
            int k = i;
            timers[i] = new TimerImpl(sim, now -> {
                assertFalse(timers[k].pending(), "a firing timer is not pending to its callback");
                assertEquals(-1, timers[k].whenPicos());
                fired.add(now + ":" + k);
                act(k, now, r, n, engine);
            }, -1);
        }
        for (int i = 0; i < n; i++) {
            timers[i].at(i % 7);
        }
        sim.advance(end, Long.MAX_VALUE);
        // the reference: a list searched for the least (time, arming sequence), the timer removed before it fires
        SplittableRandom rr = new SplittableRandom(21);
        long[] when = new long[n], seq = new long[n];
        boolean[] armed = new boolean[n];
        long[] nextSeq = {0};
        Actions reference = new Actions() {
            public void arm(int timer, long at) {
                when[timer] = at;
                seq[timer] = nextSeq[0]++;
                armed[timer] = true;
            }

            public void cancel(int timer) {
                armed[timer] = false;
            }
        };
        for (int i = 0; i < n; i++) {
            reference.arm(i, i % 7);
        }
        List<String> expected = new ArrayList<>();
        while (true) {
            int next = -1;
            for (int i = 0; i < n; i++) {
                if (armed[i] && (next < 0 || when[i] < when[next] || (when[i] == when[next] && seq[i] < seq[next]))) {
                    next = i;
                }
            }
            if (next < 0 || when[next] >= end) {
                break;
            }
            armed[next] = false;
            expected.add(when[next] + ":" + next);
            act(next, when[next], rr, n, reference);
        }
        assertTrue(expected.size() > 1000, "the scenario runs long enough: " + expected.size() + " events");
        assertEquals(expected, fired);
        for (int i = 0; i < n; i++) {
            assertEquals(armed[i], timers[i].pending(), "timer " + i + " pending at the end");
        }
    }

    @Test
    void aTimerWhoseCallbackThrowsIsNoLongerPending() {
        TimerImpl[] t = new TimerImpl[1];
        t[0] = new TimerImpl(sim, now -> {
            throw new IllegalStateException("boom");
        }, -1);
        TimerImpl later = new TimerImpl(sim, now -> { }, -1);
        t[0].at(10);
        later.at(20);
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> sim.advance(Long.MAX_VALUE, 10));
        assertFalse(t[0].pending());
        assertEquals(1, sim.events.size());
        assertEquals(20, sim.nextEventTime());
    }
}

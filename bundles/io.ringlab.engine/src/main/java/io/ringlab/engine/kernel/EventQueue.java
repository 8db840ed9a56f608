package io.ringlab.engine.kernel;

import java.util.Arrays;

/**
 * The pending-event set: an indexed 4-ary min-heap of {@link TimerImpl}s ordered by (time, arming sequence). Each timer
 * knows its heap index, so re-arming or cancelling a timer is O(log n) and leaves no stale entry behind. The sequence
 * number, taken from a counter when a timer is armed, breaks ties between events at the same picosecond, which makes the
 * order of simultaneous events deterministic (first armed, first fired). The order of events is the order of their
 * (time, sequence) keys, which are all distinct: it does not depend on the heap's shape or arity.
 * <p>
 * Issue 21: with 64 parallel chains (about 190 pending timers) the binary heap of timer references was 42 % of the
 * engine's CPU, most of it in sifting down, each level loading two timers' fields from wherever they lie. The keys are
 * now kept beside the references, in two arrays in heap order, so that a sift compares longs in one or two cache lines
 * and touches a timer only to tell it its new index; and four children per node halve the levels of a sift down (the
 * operation every event does) for a little more work per level.
 * <p>
 * The arrays grow only when more timers are pending at once than ever before; in steady state nothing is allocated.
 * Not thread-safe: one engine thread.
 */
final class EventQueue {
    private TimerImpl[] heap = new TimerImpl[64];
    /** The keys of {@link #heap}'s timers, at the same indices: their times and their arming sequences. */
    private long[] whens = new long[64], seqs = new long[64];
    private int size;
    private long nextSeq;

    /** @return the timers in the heap, the one firing included */
    int size() {
        return size;
    }

    /** @return the earliest timer without removing it, or null. */
    TimerImpl peek() {
        return size == 0 ? null : heap[0];
    }

    void schedule(TimerImpl t, long when) {
        schedule(t, when, nextSeq++);
    }

    /**
     * Arms a timer with a given arming sequence: a hot swap's new timer takes an old one's place among the events of
     * its instant ({@link TimerImpl#takeOver}).
     */
    void schedule(TimerImpl t, long when, long seq) {
        t.seq = seq;
        t.firing = false; // a firing timer re-armed by its callback: moved from the head in place
        int i = t.heapIndex;
        if (i >= 0) {
            long old = whens[i], oldSeq = seqs[i];
            t.when = when;
            if (when < old || (when == old && seq < oldSeq)) {
                siftUp(i, t, when, seq);
            } else {
                siftDown(i, t, when, seq);
            }
            return;
        }
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, size * 2);
            whens = Arrays.copyOf(whens, size * 2);
            seqs = Arrays.copyOf(seqs, size * 2);
        }
        t.when = when;
        siftUp(size++, t, when, seq);
    }

    /** Removes and returns the earliest timer; the caller checked {@link #size()}. */
    TimerImpl poll() {
        TimerImpl top = heap[0];
        removeAt(0);
        top.heapIndex = -1;
        return top;
    }

    void remove(TimerImpl t) {
        int i = t.heapIndex;
        removeAt(i);
        t.heapIndex = -1;
    }

    /** Fills hole {@code i} with the last timer and restores the order around it. */
    private void removeAt(int i) {
        int last = --size;
        TimerImpl moved = heap[last];
        heap[last] = null;
        if (i == last) {
            return;
        }
        long when = whens[last], seq = seqs[last];
        siftDown(i, moved, when, seq);
        if (moved.heapIndex == i) {
            siftUp(i, moved, when, seq);
        }
    }

    /** Puts {@code t} with key ({@code when}, {@code seq}) at hole {@code i} or above it. */
    private void siftUp(int i, TimerImpl t, long when, long seq) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            long pw = whens[parent];
            if (pw < when || (pw == when && seqs[parent] < seq)) {
                break;
            }
            move(parent, i);
            i = parent;
        }
        put(i, t, when, seq);
    }

    /** Puts {@code t} with key ({@code when}, {@code seq}) at hole {@code i} or below it. */
    private void siftDown(int i, TimerImpl t, long when, long seq) {
        long[] w = whens, s = seqs;
        int n = size;
        while (true) {
            int min = 2 * i + 1;
            if (min >= n) {
                break;
            }
            long mw = w[min], ms = s[min];
            int right = min + 1;
            if (right < n) {
                long rw = w[right];
                if (rw < mw || (rw == mw && s[right] < ms)) {
                    min = right;
                    mw = rw;
                    ms = s[right];
                }
            }
            if (when < mw || (when == mw && seq < ms)) {
                break;
            }
            move(min, i);
            i = min;
        }
        put(i, t, when, seq);
    }

    /** Moves the timer at {@code from} to hole {@code to}. */
    private void move(int from, int to) {
        TimerImpl m = heap[from];
        heap[to] = m;
        whens[to] = whens[from];
        seqs[to] = seqs[from];
        m.heapIndex = to;
    }

    private void put(int i, TimerImpl t, long when, long seq) {
        heap[i] = t;
        whens[i] = when;
        seqs[i] = seq;
        t.heapIndex = i;
    }

    /**
     * Adds every pending event (time and owner, in the order they will run) to a state hash, but not the run-control
     * timers (owner {@link TimerImpl#CONTROL}: swaps and forks, which branches of a fork differ in) nor the sequence
     * numbers themselves (a control timer armed at the start shifts them all alike).
     */
    void hash(StateHash h) {
        TimerImpl[] pending = java.util.Arrays.copyOf(heap, size);
        java.util.Arrays.sort(pending, (a, b) -> a.when != b.when ? Long.compare(a.when, b.when) : Long.compare(a.seq, b.seq));
        for (TimerImpl t : pending) {
            if (t.owner != TimerImpl.CONTROL && !t.firing) {
                h.add(t.when).add(t.owner);
            }
        }
    }
}

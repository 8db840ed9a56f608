package io.ringlab.engine.kernel;

import java.util.Arrays;

/**
 * The pending-event set: an indexed binary min-heap of {@link TimerImpl}s ordered by (time, arming sequence). Each timer
 * knows its heap index, so re-arming or cancelling a timer is O(log n) and leaves no stale entry behind. The sequence
 * number, taken from a counter when a timer is armed, breaks ties between events at the same picosecond, which makes the
 * order of simultaneous events deterministic (first armed, first fired).
 * <p>
 * The heap array grows only when more timers are pending at once than ever before; in steady state nothing is allocated.
 * Not thread-safe: one engine thread.
 */
final class EventQueue {
    private TimerImpl[] heap = new TimerImpl[64];
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
        long oldSeq = t.seq;
        t.seq = seq;
        t.firing = false; // a firing timer re-armed by its callback: moved from the head in place
        if (t.heapIndex >= 0) {
            long old = t.when;
            t.when = when;
            if (when < old || (when == old && seq < oldSeq)) { // an earlier key (a take-over's sequence can be)
                siftUp(t.heapIndex);
            } else {
                siftDown(t.heapIndex);
            }
            return;
        }
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, size * 2);
        }
        t.when = when;
        t.heapIndex = size;
        heap[size++] = t;
        siftUp(t.heapIndex);
    }

    /** Removes and returns the earliest timer; the caller checked {@link #size()}. */
    TimerImpl poll() {
        TimerImpl top = heap[0];
        TimerImpl last = heap[--size];
        heap[size] = null;
        if (size > 0) {
            heap[0] = last;
            last.heapIndex = 0;
            siftDown(0);
        }
        top.heapIndex = -1;
        return top;
    }

    /** Takes a pending timer, or the one firing, out of the heap. */
    void remove(TimerImpl t) {
        t.firing = false;
        int i = t.heapIndex;
        TimerImpl last = heap[--size];
        heap[size] = null;
        t.heapIndex = -1;
        if (i == size) {
            return;
        }
        heap[i] = last;
        last.heapIndex = i;
        siftDown(i);
        if (last.heapIndex == i) {
            siftUp(i);
        }
    }

    private static boolean less(TimerImpl a, TimerImpl b) {
        return a.when < b.when || (a.when == b.when && a.seq < b.seq);
    }

    private void siftUp(int i) {
        TimerImpl t = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            TimerImpl p = heap[parent];
            if (!less(t, p)) {
                break;
            }
            heap[i] = p;
            p.heapIndex = i;
            i = parent;
        }
        heap[i] = t;
        t.heapIndex = i;
    }

    private void siftDown(int i) {
        TimerImpl t = heap[i];
        int half = size >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            TimerImpl c = heap[child];
            int right = child + 1;
            if (right < size && less(heap[right], c)) {
                child = right;
                c = heap[child];
            }
            if (!less(c, t)) {
                break;
            }
            heap[i] = c;
            c.heapIndex = i;
            i = child;
        }
        heap[i] = t;
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

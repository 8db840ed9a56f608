package io.ringlab.traffic;

/**
 * A receiver's out-of-order record: the sequence ranges received above {@code rcv_nxt}, without their payload (the
 * kernel's {@code out_of_order_queue} keeps the skbs; the model only needs to know which bytes arrived). Ranges are
 * half-open {@code [start, end)}, sorted, disjoint and not adjacent: adding a range merges it with every range it
 * overlaps or touches. The record starts small and doubles, up to its maximum, only when a range needs a place of its
 * own and none is left (many holes at once, under heavy loss); otherwise adding allocates nothing.
 * <p>
 * Not thread-safe.
 */
final class SeqRanges {
    private long[] start;
    private long[] end;
    private final int max;
    private int count;

    /** @param capacity the most ranges held at once, at least 1 */
    SeqRanges(int capacity) {
        this(capacity, capacity);
    }

    /**
     * @param initial ranges with room from the start, at least 1
     * @param max the most ranges held at once, at least {@code initial}
     */
    SeqRanges(int initial, int max) {
        start = new long[initial];
        end = new long[initial];
        this.max = max;
    }

    /** @return the number of ranges held. */
    int count() {
        return count;
    }

    /** @return {@code true} when no range is held. */
    boolean isEmpty() {
        return count == 0;
    }

    /** @return the start of range {@code i}, in order. */
    long start(int i) {
        return start[i];
    }

    /** @return the end (exclusive) of range {@code i}. */
    long end(int i) {
        return end[i];
    }

    /**
     * Adds {@code [s, e)}, merging it with the ranges it overlaps or touches.
     *
     * @param s first byte
     * @param e one past the last byte, above {@code s}
     * @return {@code false} if it needs a range of its own and the record is full (nothing changed)
     */
    boolean add(long s, long e) {
        int i = 0;
        while (i < count && end[i] < s) {
            i++; // ranges wholly before, not touching
        }
        int j = i;
        while (j < count && start[j] <= e) {
            j++; // ranges [i, j) overlap or touch [s, e)
        }
        if (i == j) {
            if (count == start.length) {
                if (count == max) {
                    return false;
                }
                int grown = Math.min(max, 2 * count);
                start = java.util.Arrays.copyOf(start, grown);
                end = java.util.Arrays.copyOf(end, grown);
            }
            System.arraycopy(start, i, start, i + 1, count - i);
            System.arraycopy(end, i, end, i + 1, count - i);
            start[i] = s;
            end[i] = e;
            count++;
            return true;
        }
        long ns = Math.min(s, start[i]);
        long ne = Math.max(e, end[j - 1]);
        start[i] = ns;
        end[i] = ne;
        int removed = j - i - 1;
        if (removed > 0) {
            System.arraycopy(start, j, start, i + 1, count - j);
            System.arraycopy(end, j, end, i + 1, count - j);
            count -= removed;
        }
        return true;
    }

    /**
     * Moves the left edge: removes the ranges that start at or below {@code next} and returns the new edge, the end of the
     * contiguous data ({@code tcp_ofo_queue}).
     *
     * @param next the current {@code rcv_nxt}
     * @return the new {@code rcv_nxt}, at least {@code next}
     */
    long advance(long next) {
        int i = 0;
        while (i < count && start[i] <= next) {
            next = Math.max(next, end[i]);
            i++;
        }
        if (i > 0) {
            System.arraycopy(start, i, start, 0, count - i);
            System.arraycopy(end, i, end, 0, count - i);
            count -= i;
        }
        return next;
    }
}

package io.ringlab.traffic;

/**
 * Where the PSH flag falls in a sender's byte stream, as {@code tcp_sendmsg} (net/ipv4/tcp.c, 3.x to 6.12) sets it while
 * it copies a write into skbs, and where {@code tcp_write_xmit} finds it when it sends them:
 * <ul>
 * <li>the write fills skbs of {@code size_goal} bytes ({@code tcp_xmit_size_goal}), appending first to the unsent tail
 * skb while it has room; each time an skb is full and data is left, {@code forced_push} ({@code write_seq >
 * pushed_seq + max_window / 2}) marks it ({@code tcp_mark_push}, {@code pushed_seq = write_seq});</li>
 * <li>at the end of the write {@code tcp_push} marks the tail skb (no {@code MSG_MORE}), so every write ends with PSH; a
 * later write that appends to that still unsent skb carries the flag to the skb's new end;</li>
 * <li>{@code tso_fragment} and {@code tcp_fragment} keep PSH on the second part only, so a segment carries PSH exactly
 * when it ends where a marked skb ends.</li>
 * </ul>
 * One record per write not yet sent to its end: the write's end (marked unless a later write extended its skb), the
 * carried mark, and the forced marks, which fall every {@code step} bytes from the first one (the skbs of a write are
 * equal, so {@code forced_push} fires every {@code floor(half window / size_goal) + 1} skbs). Queries come in stream
 * order, so a cursor walks the forced marks without a division. Nothing is allocated after construction.
 * <p>
 * Not modelled: the mark {@code tcp_sendmsg} sets when an skb reaches {@code MAX_SKB_FRAGS} page fragments (an skb of at
 * most 64 KB in 32 KB page fragments has three); {@code MSG_MORE} and {@code TCP_CORK}; a write's own skb boundaries where
 * they do not fall on a segment boundary of the model (the model cuts segments at {@code mss_cache} from {@code snd_nxt},
 * not at skb ends).
 */
final class PushMarks {
    /** Writes whose marks are not all sent yet: a harness's writes (a bulk sender makes one). */
    static final int CAPACITY = 64;

    private final long[] end = new long[CAPACITY];
    private final boolean[] endMarked = new boolean[CAPACITY];
    private final long[] carry = new long[CAPACITY];
    /** The next forced mark not yet passed ({@code -1}: none left before the write's end). */
    private final long[] forced = new long[CAPACITY];
    private final long[] step = new long[CAPACITY];
    private int head, count;

    /**
     * {@code tcp_sendmsg} of {@code [start, end)}.
     *
     * @param start {@code write_seq} before the write, which is also {@code pushed_seq}: every write ends with
     *        {@code tcp_push}'s {@code tcp_mark_push} ({@code pushed_seq = write_seq}), and a connection starts with both
     *        at {@code ISN + 1}
     * @param stop {@code write_seq} after it
     * @param tailLen unsent bytes of the tail skb (the skb ending at {@code start}); 0 if it was sent or there is none
     * @param sizeGoal {@code size_goal} bytes
     * @param halfWindow {@code max_window >> 1}
     * @param tailStart where the tail skb starts (its sent part included)
     * @return the start of the skb that now ends at {@code stop} (the next write's tail)
     * @throws IllegalStateException if {@link #CAPACITY} writes already wait unsent
     */
    long write(long start, long stop, long tailLen, long sizeGoal, long halfWindow, long tailStart) {
        if (count == CAPACITY) {
            throw new IllegalStateException("more than " + CAPACITY + " writes wait unsent on one connection: the TCP"
                    + " model keeps the PSH marks of at most " + CAPACITY);
        }
        boolean grows = tailLen > 0 && tailLen < sizeGoal;
        long first = grows ? start + (sizeGoal - tailLen) : start + sizeGoal; // the first skb end inside the write
        int last = count == 0 ? -1 : (head + count - 1) % CAPACITY;
        long carried = -1;
        if (grows && last >= 0 && end[last] == start && endMarked[last]) {
            endMarked[last] = false; // the marked skb grows: its flag moves to its new end
            carried = Math.min(first, stop);
        }
        long f = -1, st = 0;
        if (first < stop) {
            long i = Math.max(0, Math.floorDiv(start + halfWindow - first, sizeGoal) + 1); // pushed_seq = start
            long cand = first + i * sizeGoal;
            if (cand < stop) {
                f = cand;
                st = (halfWindow / sizeGoal + 1) * sizeGoal;
            }
        }
        int r = (head + count) % CAPACITY;
        end[r] = stop;
        endMarked[r] = true;
        carry[r] = carried;
        forced[r] = f;
        step[r] = st;
        count++;
        if (stop <= first) {
            return grows ? tailStart : start; // the write fit in the tail skb, or made one skb
        }
        return first + (stop - 1 - first) / sizeGoal * sizeGoal;
    }

    /**
     * @param e a segment's end; queries come in increasing order (segments are sent in stream order)
     * @return whether a marked skb ends there
     */
    boolean marked(long e) {
        while (count > 0 && end[head] < e) {
            head = (head + 1) % CAPACITY;
            count--;
        }
        if (count == 0) {
            return false;
        }
        int r = head;
        if (e == end[r] && endMarked[r]) {
            return true;
        }
        if (e == carry[r]) {
            return true;
        }
        long f = forced[r];
        while (f >= 0 && f < e) {
            f += step[r];
            if (f >= end[r]) {
                f = -1;
            }
        }
        forced[r] = f;
        return f == e;
    }

    /** A new connection: no write yet. */
    void clear() {
        head = 0;
        count = 0;
    }

    /** @return the records as one array (hot swap) */
    long[] export() {
        long[] a = new long[5 * count];
        for (int i = 0; i < count; i++) {
            int r = (head + i) % CAPACITY;
            a[5 * i] = end[r];
            a[5 * i + 1] = endMarked[r] ? 1 : 0;
            a[5 * i + 2] = carry[r];
            a[5 * i + 3] = forced[r];
            a[5 * i + 4] = step[r];
        }
        return a;
    }

    /** Reads what {@link #export} wrote. */
    void load(long[] a) {
        head = 0;
        count = a.length / 5;
        for (int i = 0; i < count; i++) {
            end[i] = a[5 * i];
            endMarked[i] = a[5 * i + 1] != 0;
            carry[i] = a[5 * i + 2];
            forced[i] = a[5 * i + 3];
            step[i] = a[5 * i + 4];
        }
    }
}

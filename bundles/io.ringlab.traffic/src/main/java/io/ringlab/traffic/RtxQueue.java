package io.ringlab.traffic;

/**
 * A sender's retransmission queue and SACK scoreboard: the segments sent and not yet cumulatively acknowledged, oldest
 * first, each with the marks {@code TCP_SKB_CB(skb)->sacked} holds ({@code TCPCB_SACKED_ACKED}, {@code TCPCB_SACKED_RETRANS},
 * {@code TCPCB_LOST}, {@code TCPCB_EVER_RETRANS}) and its last transmission time ({@code skb->skb_mstamp}), and the counts
 * {@code packets_out}, {@code sacked_out}, {@code lost_out}, {@code retrans_out} and {@code fackets_out} of
 * {@code struct tcp_sock}.
 * <p>
 * One entry is one segment of at most one MSS: the kernel's write queue holds GSO skbs of several segments, but
 * {@code tcp_sacktag_walk}/{@code tcp_match_skb_to_sack} split an skb at every MSS boundary a SACK edge falls on
 * ({@code tcp_fragment}), {@code tcp_mark_head_lost} splits at the count it marks, and a SACK edge inside a segment does
 * not tag it; so per-segment marks are what the kernel's splitting gives, and a GSO skb's segments are entries in a row.
 * Sequence numbers are absolute (the connection's ISN + 1 + stream offset), longs that do not wrap.
 * <p>
 * A ring of a power-of-two capacity (the window clamp); nothing is allocated after construction. Not thread-safe.
 */
final class RtxQueue {
    /** {@code TCPCB_SACKED_ACKED}: the segment was SACKed. */
    static final byte SACKED = 0x01;
    /** {@code TCPCB_SACKED_RETRANS}: a retransmission of it is in flight. */
    static final byte RETRANS = 0x02;
    /** {@code TCPCB_LOST}: marked lost. */
    static final byte LOST = 0x04;
    /** {@code TCPCB_EVER_RETRANS}: retransmitted at least once. */
    static final byte EVER_RETRANS = 0x10;
    /** The segment carries PSH ({@code TCPHDR_PSH} in {@code tcp_flags}); kept for its retransmissions. */
    static final byte PUSH = 0x20;

    private final int mask;
    private final long[] start, end, xmit;
    private final byte[] marks;
    private int head, count;

    int sackedOut, lostOut, retransOut;
    /** {@code fackets_out}: segments from the head up to and including the highest SACKed one (FACK's count). */
    int facketsOut;
    /** {@code tp->highest_sack}'s end sequence: the right edge of the highest SACKed segment; 0 when none. */
    long highestSack;

    /** @param capacity the most segments outstanding (a power of two) */
    RtxQueue(int capacity) {
        if (Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity " + capacity + " is not a power of two");
        }
        mask = capacity - 1;
        start = new long[capacity];
        end = new long[capacity];
        xmit = new long[capacity];
        marks = new byte[capacity];
    }

    /** @return {@code packets_out}. */
    int packetsOut() {
        return count;
    }

    /** @return {@code true} when a further segment fits. */
    boolean hasRoom() {
        return count <= mask;
    }

    /** @return the capacity. */
    int capacity() {
        return mask + 1;
    }

    /** @return {@code tcp_packets_in_flight}: {@code packets_out - (sacked_out + lost_out) + retrans_out}. */
    int inFlight() {
        return count - (sackedOut + lostOut) + retransOut;
    }

    long start(int i) {
        return start[(head + i) & mask];
    }

    long end(int i) {
        return end[(head + i) & mask];
    }

    long xmit(int i) {
        return xmit[(head + i) & mask];
    }

    byte marks(int i) {
        return marks[(head + i) & mask];
    }

    boolean has(int i, byte m) {
        return (marks[(head + i) & mask] & m) != 0;
    }

    /** Appends a segment just sent for the first time. */
    void append(long s, long e, long now) {
        int k = (head + count) & mask;
        start[k] = s;
        end[k] = e;
        xmit[k] = now;
        marks[k] = 0;
        count++;
    }

    /** Marks segment {@code i} as carrying PSH. */
    void markPush(int i) {
        marks[(head + i) & mask] |= PUSH;
    }

    /** {@code tcp_retransmit_skb}'s bookkeeping: segment {@code i} was sent again at {@code now}. */
    void retransmitted(int i, long now) {
        int k = (head + i) & mask;
        if ((marks[k] & RETRANS) == 0) {
            retransOut++;
        }
        marks[k] |= RETRANS | EVER_RETRANS;
        xmit[k] = now;
    }

    /**
     * {@code tcp_skb_mark_lost}: marks segment {@code i} lost unless it is already lost or SACKed.
     *
     * @return {@code true} if it was newly marked
     */
    boolean markLost(int i) {
        int k = (head + i) & mask;
        if ((marks[k] & (LOST | SACKED)) != 0) {
            return false;
        }
        marks[k] |= LOST;
        lostOut++;
        return true;
    }

    /**
     * RACK's {@code tcp_rack_mark_skb_lost}: marks it lost ({@code tcp_skb_mark_lost_uncond_verify}) and, if a
     * retransmission of it was in flight, counts that retransmission lost too.
     *
     * @return {@code true} if a retransmission was lost
     */
    boolean markLostRetrans(int i) {
        int k = (head + i) & mask;
        if ((marks[k] & LOST) == 0) {
            marks[k] |= LOST;
            lostOut++;
        }
        if ((marks[k] & RETRANS) != 0) {
            marks[k] &= ~RETRANS;
            retransOut--;
            return true;
        }
        return false;
    }

    /**
     * @param seq a sequence number
     * @return the index of the first segment whose end lies above {@code seq}, or {@link #packetsOut()} if none
     */
    int indexAfter(long seq) {
        int lo = 0, hi = count;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (end(mid) <= seq) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * The marking half of {@code tcp_sacktag_one} for one SACK block: every segment wholly inside {@code [s, e)} and
     * not yet SACKed is SACKed (its lost and retransmitted marks cleared with their counts).
     *
     * @param acked where {@link SackTag} collects what the block did
     */
    void sacktag(long s, long e, SackTag acked) {
        for (int i = indexAfter(s); i < count; i++) {
            int k = (head + i) & mask;
            if (start[k] < s) {
                continue; // a SACK edge inside the segment: not tagged (tcp_match_skb_to_sack cannot split below an MSS)
            }
            if (end[k] > e) {
                break;
            }
            byte m = marks[k];
            if ((m & SACKED) != 0) {
                continue;
            }
            if ((m & RETRANS) != 0) {
                retransOut--;
            }
            if ((m & LOST) != 0) {
                lostOut--;
            }
            marks[k] = (byte) ((m & ~(RETRANS | LOST)) | SACKED);
            sackedOut++;
            acked.newlySacked++;
            if ((m & EVER_RETRANS) == 0) {
                if (end[k] <= highestSack) {
                    acked.reordered(i); // an original segment SACKed below the highest SACK: reordering
                }
                acked.origSacked = true;
                if (acked.firstSackt < 0) {
                    acked.firstSackt = xmit[k];
                }
                acked.lastSackt = xmit[k];
            } else {
                acked.retransSacked = true;
            }
            acked.rackAdvance(m, end[k], xmit[k]);
            if (end[k] > highestSack) {
                highestSack = end[k];
            }
            if (i + 1 > facketsOut) {
                facketsOut = i + 1;
            }
        }
    }

    /**
     * {@code tcp_clean_rtx_queue}: removes the segments {@code ack} covers wholly, keeping the counts right.
     *
     * @param ack the cumulative ACK
     * @param acked where the removed segments are described
     * @return segments removed ({@code acked} of {@code tcp_ack}, the {@code pkts_acked} count)
     */
    int ackTo(long ack, SackTag acked) {
        int n = 0;
        while (count > 0 && end[head] <= ack) {
            byte m = marks[head];
            if ((m & RETRANS) != 0) {
                retransOut--;
            }
            if ((m & LOST) != 0) {
                lostOut--;
            }
            if ((m & SACKED) != 0) {
                sackedOut--;
            } else {
                acked.newlyAcked++;
                if ((m & EVER_RETRANS) != 0) {
                    acked.retransAcked = true;
                } else {
                    if (acked.holeFilled < 0) {
                        acked.holeFilled = n;
                    }
                    if (acked.firstAckt < 0) {
                        acked.firstAckt = xmit[head];
                    }
                    acked.lastAckt = xmit[head];
                    acked.origAcked = true;
                }
            }
            acked.rackAdvance(m, end[head], xmit[head]);
            head = (head + 1) & mask;
            count--;
            n++;
        }
        facketsOut = Math.max(0, facketsOut - n);
        if (count == 0) {
            sackedOut = 0; // a non-SACK flow's dupACK count ends with the data it stood for (tcp_remove_reno_sacks)
            facketsOut = 0;
        }
        return n;
    }

    /** {@code tcp_enter_loss}'s marking: every segment not SACKed is lost, retransmission marks cleared. */
    void markAllLost(boolean renege) {
        retransOut = 0;
        lostOut = 0;
        if (renege) {
            sackedOut = 0;
            facketsOut = 0;
        }
        for (int i = 0; i < count; i++) {
            int k = (head + i) & mask;
            byte m = (byte) (marks[k] & ~(RETRANS | LOST));
            if (renege) {
                m &= ~SACKED;
            }
            if ((m & SACKED) == 0) {
                m |= LOST;
                lostOut++;
            }
            marks[k] = m;
        }
    }

    /**
     * Non-SACK flows ({@code tcp_is_reno}): the dupACK counter that stands for {@code sacked_out}
     * ({@code tcp_add_reno_sack}, limited by {@code tcp_limit_reno_sacked} to {@code packets_out - lost_out - 1}... as
     * {@code tcp_limit_reno_sacked}: at most {@code packets_out - lost_out}).
     *
     * @return 1 if the count rose (the dupACK delivered a segment: {@code tp->delivered++}), 0 if the limit held it
     */
    int addRenoSack() {
        int prior = sackedOut;
        sackedOut = Math.min(sackedOut + 1, Math.max(0, count - lostOut));
        return sackedOut - prior;
    }

    /** {@code tcp_reset_reno_sack}. */
    void resetRenoSack() {
        sackedOut = 0;
    }

    /**
     * {@code tcp_mark_head_lost} (v3.19 / v4.6): walks from the head up to {@code high_seq}, marking segments lost until
     * {@code packets} have been counted; FACK and non-SACK flows count every segment, SACK without FACK counts the SACKed
     * ones.
     *
     * @param packets how many to count
     * @param markHead mark only the head
     * @param fackOrReno whether every segment counts
     * @param highSeq the recovery point: nothing above it is marked
     * @return segments newly marked lost
     */
    int markHeadLost(int packets, boolean markHead, boolean fackOrReno, long highSeq) {
        int cnt = 0, marked = 0;
        for (int i = 0; i < count; i++) {
            int k = (head + i) & mask;
            if (end[k] > highSeq) {
                break;
            }
            int old = cnt;
            if (fackOrReno || (marks[k] & SACKED) != 0) {
                cnt++;
            }
            if (cnt > packets) {
                if ((!fackOrReno) || old >= packets) {
                    break;
                }
            }
            if (markLost(i)) {
                marked++;
            }
            if (markHead) {
                break;
            }
        }
        return marked;
    }

    /** {@code tcp_undo_cwnd_reduction(sk, true)}: no segment is lost any more. */
    void unmarkLost() {
        for (int i = 0; i < count; i++) {
            marks[(head + i) & mask] &= ~LOST;
        }
        lostOut = 0;
    }

    /** @return the first segment marked lost and neither SACKed nor being retransmitted, or -1. */
    int nextLost(int from) {
        for (int i = from; i < count; i++) {
            if ((marks[(head + i) & mask] & (LOST | SACKED | RETRANS)) == LOST) {
                return i;
            }
        }
        return -1;
    }

    /** Hot swap: the queue as parallel arrays, oldest first. */
    long[][] export() {
        long[] s = new long[count], e = new long[count], x = new long[count], m = new long[count];
        for (int i = 0; i < count; i++) {
            int k = (head + i) & mask;
            s[i] = start[k];
            e[i] = end[k];
            x[i] = xmit[k];
            m[i] = marks[k];
        }
        return new long[][] {s, e, x, m,
                {sackedOut, lostOut, retransOut, facketsOut, highestSack}};
    }

    /** Hot swap: takes over what {@link #export} wrote. */
    void load(long[][] a) {
        head = 0;
        count = a[0].length;
        for (int i = 0; i < count; i++) {
            start[i] = a[0][i];
            end[i] = a[1][i];
            xmit[i] = a[2][i];
            marks[i] = (byte) a[3][i];
        }
        sackedOut = (int) a[4][0];
        lostOut = (int) a[4][1];
        retransOut = (int) a[4][2];
        facketsOut = (int) a[4][3];
        highestSack = a[4][4];
    }

    /**
     * What one ACK did to the queue ({@code struct tcp_sacktag_state} and the flags {@code tcp_clean_rtx_queue} returns),
     * reset before each ACK; one instance per connection, reused.
     */
    static final class SackTag {
        int newlySacked, newlyAcked;
        boolean origSacked, retransSacked, origAcked, retransAcked;
        /** Transmission times of the first and last newly acknowledged original segments, picoseconds; -1 if none. */
        long firstAckt, lastAckt;
        /** The same for the newly SACKed original segments ({@code first_sackt}, {@code last_sackt}). */
        long firstSackt, lastSackt;
        /** Lowest index of an original segment SACKed below the highest SACK ({@code state->reord}); -1 if none. */
        int reord;
        /**
         * {@code tcp_clean_rtx_queue}'s {@code reord}: the index, counted from the queue's head before the ACK, of the
         * first cumulatively acknowledged segment that was neither retransmitted nor SACKed (a hole filled by an
         * original: reordering); -1 if none.
         */
        int holeFilled;
        /** RACK: the latest transmission time among the segments newly (s)acked, its end and its marks; -1 if none. */
        long rackXmit, rackEnd;
        /**
         * RACK (v4.18+): the transmission time of the last segment, in processing order (SACKed ones, then the
         * cumulatively acknowledged), that {@link #rackAdvance} took: its RTT becomes {@code rack.rtt_us} even when it
         * was not the most recently sent; -1 if none.
         */
        long lastAcceptedXmit;
        byte rackMarks;
        /** The ACK's arrival and the connection's {@code tcp_min_rtt}, for {@link #rackAdvance}'s check. */
        long now, minRtt;

        void reset(long now, long minRtt) {
            this.now = now;
            this.minRtt = minRtt;
            newlySacked = newlyAcked = 0;
            origSacked = retransSacked = origAcked = retransAcked = false;
            firstAckt = lastAckt = -1;
            firstSackt = lastSackt = -1;
            reord = -1;
            holeFilled = -1;
            rackXmit = -1;
            lastAcceptedXmit = -1;
            rackEnd = 0;
            rackMarks = 0;
        }

        void reordered(int i) {
            if (reord < 0 || i < reord) {
                reord = i;
            }
        }

        /**
         * {@code tcp_rack_advance}: keeps the most recently sent of the (s)acked segments ({@code tcp_rack_sent_after}:
         * time, then sequence); a retransmitted one only if it was sent at least {@code min_rtt} ago (otherwise the
         * original may be what was acknowledged).
         */
        void rackAdvance(byte m, long e, long x) {
            if ((m & (RETRANS | EVER_RETRANS)) != 0 && now - x < minRtt) {
                return;
            }
            lastAcceptedXmit = x;
            if (x > rackXmit || (x == rackXmit && e > rackEnd)) {
                rackXmit = x;
                rackEnd = e;
                rackMarks = m;
            }
        }
    }
}

package io.ringlab.traffic;

import io.ringlab.buffer.api.Buffer;

/**
 * The receiving half of a connection: {@code rcv_nxt}, the out-of-order record, the SACK blocks it advertises, the
 * receive window and buffer autotuning, {@code ts_recent}, and the ACK policy; as {@code tcp_data_queue},
 * {@code tcp_data_queue_ofo}, {@code tcp_sack_new_ofo_skb}, {@code tcp_sack_remove}, {@code tcp_dsack_set},
 * {@code __tcp_ack_snd_check}, {@code tcp_grow_window}, {@code __tcp_select_window}, {@code tcp_rcv_space_adjust} and
 * {@code tcp_event_data_recv}'s quick-ACK rules do in {@code net/ipv4/tcp_input.c} and {@code tcp_output.c} (v3.19 and
 * v4.6 identical in what is modelled here; the differences of {@code current} are named where they apply).
 * <p>
 * The application reads every in-order byte as soon as it arrives (a fast reader: {@code copied_seq = rcv_nxt}), so the
 * receive memory ({@code sk_rmem_alloc}) is the truesize of the out-of-order segments held. A segment's truesize at the
 * receiver is {@link Tcp#truesize} of its frame, an assumption about the receiving NIC (one kmalloc'ed head per frame).
 * <p>
 * Not modelled: the adaptive delayed-ACK timeout ({@code ato} follows inter-arrival times in the kernel: here it is the
 * fixed {@code delayedAck}), pingpong (interactive) mode, memory pressure and pruning ({@code tcp_prune_queue}), PAWS,
 * urgent data, and v6.5's measured {@code scaling_ratio} ({@code current} keeps the 50 % it starts with). Not thread-safe.
 */
final class TcpRcvHalf {
    /** {@code TCP_MAX_QUICKACKS} (include/net/tcp.h): 16. */
    static final int MAX_QUICKACKS = 16;
    /** {@code TCP_MSS_DEFAULT}: 536, the first {@code rcv_mss} ({@code tcp_initialize_rcv_mss}). */
    static final int MSS_DEFAULT = 536;
    /** Out-of-order ranges remembered: as many as a sender's window has segments, so the record never overflows. */
    static final int OFO_RANGES = TcpElement.WINDOW;

    private final TcpConfig cfg;
    long rcvNxt, rcvWup;
    /** {@code tp->rcv_wnd}: the window offered at {@code rcv_wup}, bytes. */
    long rcvWnd;
    long rcvSsthresh, windowClamp;
    int rcvWscale;
    int rcvMss = MSS_DEFAULT;
    int rcvbuf;
    /** Truesize of the out-of-order segments held ({@code sk_rmem_alloc}: the application reads in-order data at once). */
    long ofoMem;
    final SeqRanges ofo = new SeqRanges(16, OFO_RANGES);
    /** {@code selective_acks}: the SACK blocks, most recent first. */
    final long[] sackStart = new long[Buffer.MAX_SACK_BLOCKS], sackEnd = new long[Buffer.MAX_SACK_BLOCKS];
    int numSacks;
    long dsackStart, dsackEnd;
    boolean dsack;
    boolean sackOk, tsOk;
    /** {@code icsk_ack.quick}: ACKs still to be sent at once. */
    int quick;
    /** {@code ts_recent}: the peer's TSval to echo. */
    long tsRecent;
    /** {@code rcvq_space} of the buffer autotuning ({@code tcp_rcv_space_adjust}): space, seq, time (TS clock). */
    long spaceBytes, spaceSeq, spaceTime;
    /** {@code rcv_rtt_est}: the receiver's RTT estimate in TS-clock ticks << 3, its sequence and time. */
    long rttEst, rttSeq, rttTime;
    /** ACK state: an ACK is due ({@code ICSK_ACK_SCHED}), and whether it must go now. */
    boolean ackPending;
    /** {@code icsk_ack.ato != 0}: the first data segment has been received ({@code tcp_event_data_recv}). */
    boolean atoInit;

    TcpRcvHalf(TcpConfig cfg) {
        this.cfg = cfg;
    }

    /**
     * {@code tcp_select_initial_window} for the SYN or SYN-ACK: the window, the window clamp and the scale.
     *
     * @param wscaleOk whether window scaling is offered (our setting; the peer's answer decides later)
     * @param mss the MSS the window is quantised to ({@code advmss} less the timestamp option when used)
     */
    void initialWindow(boolean wscaleOk, int mss) {
        rcvbuf = cfg.rmem[1];
        int space = TcpConfig.winFromSpace(rcvbuf); // tcp_full_space
        long clamp = 65535L << 14;
        if (space > mss) {
            space = space / mss * mss;
        }
        long wnd = space;
        if (cfg.kernel == Kernel.CURRENT) {
            wnd = Math.min(wnd, 65535); // v5.4 (a337531b942b): the SYN window is min(space, U16_MAX)
        }
        rcvWscale = 0;
        if (wscaleOk) {
            long s = Math.min(Math.max(cfg.rmem[2], cfg.skb.rmemMax), clamp);
            while (s > 65535 && rcvWscale < 14) {
                s >>= 1;
                rcvWscale++;
            }
        }
        if (cfg.kernel != Kernel.CURRENT && mss > (1 << rcvWscale)) {
            int initCwnd = mss > 1460 ? Math.max(1460 * 10 / mss, 2) : 10; // TCP_DEFAULT_INIT_RCVWND
            wnd = Math.min(wnd, (long) initCwnd * mss);
        }
        rcvWnd = wnd;
        windowClamp = Math.min(65535L << rcvWscale, clamp);
        rcvSsthresh = rcvWnd;
    }

    /**
     * {@code tcp_init_buffer_space} at the end of the handshake: v3.19/v4.6 first raise {@code sk_rcvbuf} for ten
     * segments ({@code tcp_fixup_rcvbuf}; removed in v5.0 by 041a14d26715), then clamp the window to the buffer.
     *
     * @param advmss the advertised MSS with timestamps accounted for
     * @param now the TS clock
     */
    void initBufferSpace(int advmss, long now) {
        if (cfg.kernel != Kernel.CURRENT) {
            int initRwnd = advmss > 1460 ? Math.max(1460 * 10 / advmss, 2) : 10;
            int rcvmem = 2 * cfg.skb.skbTruesize(advmss + cfg.skb.maxTcpHeader) * initRwnd << 2; // tcp_moderate_rcvbuf
            if (rcvbuf < rcvmem) {
                rcvbuf = Math.min(rcvmem, cfg.rmem[2]);
            }
        }
        // rcvq_space.space: rcv_wnd in v3.19/v4.6; min3(rcv_ssthresh, rcv_wnd, TCP_INIT_CWND * advmss) since v4.19
        spaceBytes = cfg.kernel == Kernel.CURRENT ? Math.min(Math.min(rcvSsthresh, rcvWnd), 10L * advmss) : rcvWnd;
        spaceSeq = rcvNxt;
        spaceTime = now;
        long maxwin = TcpConfig.winFromSpace(rcvbuf);
        if (windowClamp >= maxwin) {
            windowClamp = maxwin; // tcp_app_win = 31: maxwin - (maxwin >> 31) = maxwin
        }
        rcvSsthresh = Math.min(rcvSsthresh, windowClamp);
    }

    /** @return {@code tcp_receive_window}: what is left of the window offered. */
    long receiveWindow() {
        return Math.max(0, rcvWup + rcvWnd - rcvNxt);
    }

    /** {@code __tcp_select_window}: the window to offer now, bytes (a multiple of the scale unit when scaling). */
    long selectWindowRaw() {
        int mss = rcvMss;
        long freeSpace = TcpConfig.winFromSpace((int) Math.max(0, rcvbuf - ofoMem)); // tcp_space
        long allowed = TcpConfig.winFromSpace(rcvbuf); // tcp_full_space
        long full = Math.min(windowClamp, allowed);
        if (mss > full) {
            mss = (int) full;
        }
        if (freeSpace < (full >> 1)) {
            quick = 0;
            freeSpace = freeSpace >> rcvWscale << rcvWscale;
            if (freeSpace < (allowed >> 4) || freeSpace < mss) {
                return 0;
            }
        }
        if (freeSpace > rcvSsthresh) {
            freeSpace = rcvSsthresh;
        }
        long window;
        if (rcvWscale != 0) {
            long unit = 1L << rcvWscale;
            window = (freeSpace + unit - 1) / unit * unit; // ALIGN: never scaled away to zero
        } else {
            window = rcvWnd;
            if (window <= freeSpace - mss || window > freeSpace) {
                window = freeSpace / mss * mss;
            } else if (mss == full && freeSpace > window + (full >> 1)) {
                window = freeSpace;
            }
        }
        return window;
    }

    /**
     * {@code tcp_select_window}: the window field of the next segment; moves {@code rcv_wup} to {@code rcv_nxt}.
     *
     * @return the 16-bit field (scaled down)
     */
    int selectWindow() {
        long cur = receiveWindow();
        long w = selectWindowRaw();
        if (w < cur) {
            long unit = 1L << rcvWscale;
            w = (cur + unit - 1) / unit * unit; // never shrink the offered window
        }
        rcvWnd = w;
        rcvWup = rcvNxt;
        w = Math.min(w, 65535L << rcvWscale);
        return (int) (w >> rcvWscale);
    }

    /** What {@link #data} did with a segment. */
    static final int IN_ORDER = 0, OUT_OF_ORDER = 1, DUPLICATE = 2, OUT_OF_WINDOW = 3, OFO_FULL = 4;

    /**
     * {@code tcp_data_queue}: takes a data segment's sequence range.
     *
     * @param seq the first payload byte
     * @param end one past the last
     * @param truesize the receiver's charge for it
     * @return one of {@link #IN_ORDER} ... {@link #OFO_FULL}
     */
    int data(long seq, long end, int truesize, int payload) {
        measureRcvMss(payload);
        if (end <= rcvNxt) {
            dsackSet(seq, end); // a retransmission: D-SACK it and ACK at once (tcp_enter_quickack_mode)
            incrQuickack();
            return DUPLICATE;
        }
        if (seq >= rcvNxt + Math.max(receiveWindow(), 1)) {
            incrQuickack();
            return OUT_OF_WINDOW; // tcp_sequence / out_of_window: beyond the window offered
        }
        if (seq <= rcvNxt) {
            if (seq < rcvNxt) {
                dsackSet(seq, rcvNxt); // partial duplicate (tcp_data_queue: "Partial packet, seq < rcv_next < end_seq")
            }
            boolean hadOfo = !ofo.isEmpty();
            long before = rcvNxt;
            long advanced = ofo.advance(end);
            if (hadOfo) {
                ofoMem = ofo.isEmpty() ? 0 : Math.max(0, ofoMem - (long) truesize * segsIn(end, advanced));
                sackRemove(advanced);
            }
            rcvNxt = advanced;
            if (!atoInit) {
                atoInit = true; // tcp_event_data_recv: the first data segment starts the quick-ACK phase
                incrQuickack();
            }
            growWindow(truesize, payload);
            return before == advanced ? DUPLICATE : IN_ORDER;
        }
        // out of order (tcp_data_queue_ofo)
        boolean dup = covered(seq, end);
        if (dup) {
            dsackSet(seq, end);
            return DUPLICATE;
        }
        if (!ofo.add(seq, end)) {
            return OFO_FULL;
        }
        ofoMem += truesize;
        if (sackOk) {
            if (numSacks > 0 && sackEnd[0] == seq) {
                sackEnd[0] = end; // data arriving in order after the hole: extend the first block
            } else {
                sackNewOfo(seq, end);
            }
        }
        return OUT_OF_ORDER;
    }

    /** @return segments of {@link #rcvMss} in {@code [from, to)}: what the out-of-order record gave back. */
    private long segsIn(long from, long to) {
        return to <= from ? 0 : (to - from + rcvMss - 1) / Math.max(1, rcvMss);
    }

    private boolean covered(long seq, long end) {
        for (int i = 0; i < ofo.count(); i++) {
            if (ofo.start(i) <= seq && end <= ofo.end(i)) {
                return true;
            }
        }
        return false;
    }

    /** {@code tcp_measure_rcv_mss}, simplified to its common case: the largest payload seen. */
    private void measureRcvMss(int payload) {
        if (payload > rcvMss) {
            rcvMss = payload;
        }
    }

    /** {@code tcp_dsack_set}: the next ACK carries a D-SACK block for a duplicate. */
    private void dsackSet(long seq, long end) {
        if (sackOk && cfg.dsack) {
            dsack = true;
            dsackStart = seq;
            dsackEnd = end;
        }
    }

    /** {@code tcp_sack_new_ofo_skb}: an out-of-order segment extends a block (which moves first) or opens a new one. */
    private void sackNewOfo(long seq, long end) {
        for (int i = 0; i < numSacks; i++) {
            if (seq <= sackEnd[i] && sackStart[i] <= end) { // tcp_sack_extend
                sackStart[i] = Math.min(sackStart[i], seq);
                sackEnd[i] = Math.max(sackEnd[i], end);
                for (; i > 0; i--) {
                    swap(i, i - 1); // rotate this block to the front
                }
                coalesce();
                return;
            }
        }
        int n = numSacks;
        if (n >= Buffer.MAX_SACK_BLOCKS) {
            n--; // the array is full: forget the oldest
            numSacks--;
        }
        for (int i = n; i > 0; i--) {
            sackStart[i] = sackStart[i - 1];
            sackEnd[i] = sackEnd[i - 1];
        }
        sackStart[0] = seq;
        sackEnd[0] = end;
        numSacks++;
    }

    private void swap(int a, int b) {
        long s = sackStart[a], e = sackEnd[a];
        sackStart[a] = sackStart[b];
        sackEnd[a] = sackEnd[b];
        sackStart[b] = s;
        sackEnd[b] = e;
    }

    /** {@code tcp_sack_maybe_coalesce}: merges the first block with the later ones it now overlaps. */
    private void coalesce() {
        for (int i = 1; i < numSacks;) {
            if (sackStart[i] <= sackEnd[0] && sackStart[0] <= sackEnd[i]) {
                sackStart[0] = Math.min(sackStart[0], sackStart[i]);
                sackEnd[0] = Math.max(sackEnd[0], sackEnd[i]);
                numSacks--;
                for (int j = i; j < numSacks; j++) {
                    sackStart[j] = sackStart[j + 1];
                    sackEnd[j] = sackEnd[j + 1];
                }
                continue;
            }
            i++;
        }
    }

    /** {@code tcp_sack_remove}: blocks {@code rcv_nxt} has reached are dropped; none are left once the queue is empty. */
    private void sackRemove(long next) {
        if (ofo.isEmpty()) {
            numSacks = 0;
            return;
        }
        for (int i = 0; i < numSacks;) {
            if (next >= sackStart[i]) {
                numSacks--;
                for (int j = i; j < numSacks; j++) {
                    sackStart[j] = sackStart[j + 1];
                    sackEnd[j] = sackEnd[j + 1];
                }
                continue;
            }
            i++;
        }
    }

    /** {@code tcp_grow_window} (with {@code __tcp_grow_window}): in-order data raises {@code rcv_ssthresh}. */
    private void growWindow(int truesize, int len) {
        long space = TcpConfig.winFromSpace((int) Math.max(0, rcvbuf - ofoMem));
        if (rcvSsthresh < windowClamp && rcvSsthresh < space) {
            long incr;
            if (TcpConfig.winFromSpace(truesize) <= len) {
                incr = 2L * cfg.mss;
            } else {
                incr = 0;
                int t = TcpConfig.winFromSpace(truesize) >> 1;
                int window = TcpConfig.winFromSpace(cfg.rmem[2]) >> 1;
                while (rcvSsthresh <= window) {
                    if (t <= len) {
                        incr = 2L * rcvMss;
                        break;
                    }
                    t >>= 1;
                    window >>= 1;
                }
            }
            if (incr > 0) {
                incr = Math.max(incr, 2L * len);
                rcvSsthresh = Math.min(rcvSsthresh + incr, windowClamp);
                quick |= 1;
            }
        }
    }

    /**
     * {@code tcp_incr_quickack}: {@code rcv_wnd / (2 rcv_mss)} quick ACKs, at least 2, at most 16; also what
     * {@code tcp_enter_quickack_mode} does here (it ends pingpong mode too, which is not modelled).
     */
    private void incrQuickack() {
        long q = rcvWnd / (2L * Math.max(1, rcvMss));
        if (q == 0) {
            q = 2;
        }
        if (q > quick) {
            quick = (int) Math.min(q, MAX_QUICKACKS);
        }
    }

    /**
     * {@code __tcp_ack_snd_check}: whether the ACK for what just arrived goes now (otherwise the delayed-ACK timer).
     */
    boolean ackNow() {
        return (rcvNxt - rcvWup > rcvMss && selectWindowRaw() >= rcvWnd) || quick > 0 || !ofo.isEmpty();
    }

    /** {@code tcp_event_ack_sent} / {@code tcp_dec_quickack_mode}: one quick ACK used. */
    void ackSent() {
        if (quick > 0) {
            quick--;
        }
        ackPending = false;
    }

    /**
     * @return the SACK blocks the next segment carries ({@code tcp_established_options}): the D-SACK block first, then
     *         the blocks, as many as fit beside the other options (3 with timestamps, 4 without)
     */
    int blocksToSend() {
        int eff = numSacks + (dsack ? 1 : 0);
        int room = (40 - (tsOk ? 12 : 0) - 4) / 8;
        return Math.min(eff, room);
    }

    /** Writes the SACK blocks into a segment and clears the D-SACK ({@code tcp_options_write}). */
    void writeSacks(Buffer b, int n) {
        int k = 0;
        if (dsack && k < n) {
            b.sackBlock(k++, dsackStart, dsackEnd);
        }
        for (int i = 0; k < n; i++) {
            b.sackBlock(k++, sackStart[i], sackEnd[i]);
        }
        b.sackBlocks(n);
        dsack = false;
    }

    /**
     * {@code tcp_rcv_rtt_measure_ts} and {@code tcp_rcv_rtt_measure}, then {@code tcp_rcv_space_adjust} as the reading
     * application calls it: the receive buffer grows to twice to four times what arrived in the last receiver RTT.
     *
     * @param tsecr the segment's TSecr (0 without timestamps)
     * @param payload its payload
     * @param now the TS clock
     */
    void autotune(long tsecr, int payload, long now) {
        if (tsOk && tsecr != 0 && payload >= rcvMss) {
            rttUpdate(Math.max(0, now - tsecr), false);
        } else if (!tsOk) {
            if (rttTime == 0) {
                rttSeq = rcvNxt + rcvWnd;
                rttTime = now;
            } else if (rcvNxt >= rttSeq) {
                rttUpdate(now - rttTime, true);
                rttSeq = rcvNxt + rcvWnd;
                rttTime = now;
            }
        }
        if (now - spaceTime < (rttEst >> 3) || rttEst == 0) {
            return;
        }
        long copied = rcvNxt - spaceSeq;
        if (copied > spaceBytes) {
            long rcvwin = (copied << 1) + 16L * cfg.mss;
            if (copied >= spaceBytes + (spaceBytes >> 2)) {
                rcvwin = copied >= spaceBytes + (spaceBytes >> 1) ? rcvwin << 1 : rcvwin + (rcvwin >> 1);
            }
            int rcvmem = cfg.skb.skbTruesize(cfg.mss + cfg.skb.maxTcpHeader);
            while (TcpConfig.winFromSpace(rcvmem) < cfg.mss) {
                rcvmem += 128;
            }
            long buf = Math.min(rcvwin / cfg.mss * rcvmem, cfg.rmem[2]);
            if (buf > rcvbuf) {
                rcvbuf = (int) buf;
                windowClamp = rcvwin;
            }
            spaceBytes = copied;
        }
        spaceSeq = rcvNxt;
        spaceTime = now;
    }

    /** {@code tcp_rcv_rtt_update}: the receiver's RTT estimate, ticks << 3. */
    private void rttUpdate(long sample, boolean winDep) {
        long m = Math.max(1, sample);
        if (rttEst != 0) {
            if (!winDep) {
                m -= rttEst >> 3;
                rttEst += m;
            } else {
                m <<= 3;
                if (m < rttEst) {
                    rttEst = m;
                }
            }
        } else {
            rttEst = m << 3;
        }
    }

    /** {@code tcp_replace_ts_recent}: the peer's TSval is kept when the segment covers the last ACK point. */
    void tsRecent(long seq, long tsval) {
        if (tsOk && seq <= rcvWup) {
            tsRecent = tsval;
        }
    }
}

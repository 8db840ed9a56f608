package io.ringlab.traffic;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.sim.api.Timer;

/**
 * One TCP connection as Linux's {@code struct tcp_sock} runs it, both directions: the handshake, the send queue and the
 * scoreboard ({@link RtxQueue}), ACK processing ({@code tcp_ack}), loss recovery ({@link TcpRecovery}), the timers
 * ({@code tcp_retransmit_timer}, TLP, the RACK reordering timer, the zero-window probe, the delayed ACK) and the
 * receiving half ({@link TcpRcvHalf}). The element that owns it ({@link Owner}: {@code tcp} or {@code host}) provides the
 * buffers, the output, TSQ and the counters.
 * <p>
 * Sequence numbers are absolute and do not wrap: the ISN is 0 for the side that connects and 0 for the side that
 * listens (an assumption: the kernel picks a keyed hash, {@code secure_tcp_seq}); the first data byte is ISN + 1. The
 * timestamp clock starts at 0 ({@code tsoffset} is 0). Times are picoseconds; the RTT estimator works in microseconds
 * as the kernel's does ({@code srtt_us}, {@code mdev_us}, {@code rttvar_us}).
 * <p>
 * Not thread-safe: one engine thread.
 */
final class TcpSock {
    /** Connection states ({@code include/net/tcp_states.h}: the values tcp_info reports). */
    static final int ESTABLISHED = 1, SYN_SENT = 2, SYN_RECV = 3, FIN_WAIT1 = 4, FIN_WAIT2 = 5, TIME_WAIT = 6,
            CLOSE = 7, CLOSE_WAIT = 8, LAST_ACK = 9, LISTEN = 10, CLOSING = 11;
    /** {@code icsk_ca_state}: {@code TCP_CA_Open} ... {@code TCP_CA_Loss}. */
    static final int CA_OPEN = 0, CA_DISORDER = 1, CA_CWR = 2, CA_RECOVERY = 3, CA_LOSS = 4;
    /** What the retransmit timer is armed for ({@code icsk_pending}). */
    static final int T_NONE = 0, T_RETRANS = 1, T_EARLY_RETRANS = 2, T_LOSS_PROBE = 3, T_REO = 4, T_PROBE0 = 5,
            T_SYN = 6;
    /** {@code TCP_TIMEOUT_MIN}: 2 jiffies (include/net/tcp.h). */
    static final int TIMEOUT_MIN_JIFFIES = 2;
    /** {@code tcp_syn_retries} / {@code tcp_synack_retries} defaults: 6 and 5. */
    static final int SYN_RETRIES = 6, SYNACK_RETRIES = 5;

    /** What the owning element gives a connection. */
    interface Owner {
        /** @return the current virtual time, picoseconds */
        long now();

        /** @return a buffer for a segment of {@code bytes}, or {@code null} when the pool is empty */
        Buffer alloc(TcpSock sk, int bytes);

        /** Sends a built segment ({@code tcp_transmit_skb}): flow, TOS, accounting, destructor, push. */
        void send(TcpSock sk, Buffer b, int segs, boolean data);

        /** @return {@code true} if TCP Small Queues holds an skb of {@code truesize} back ({@code tcp_small_queue_check}) */
        boolean tsqThrottled(TcpSock sk, int truesize);

        /** @return segments per GSO skb for new data ({@code tcp_tso_autosize}); 1 without GSO */
        int tsoSegs(TcpSock sk);

        /** Counts an event ({@code TcpEvents}). */
        void event(int event, long n);

        /** @return whether segments can leave at all (a {@code host} without a connected {@code out} cannot ACK) */
        default boolean canSend() {
            return true;
        }

        /** The connection reached ESTABLISHED (or left it). */
        default void stateChanged(TcpSock sk) {
        }

        /**
         * An ACK newly acknowledged data, none of it retransmitted: the time since the most recently sent segment it
         * acknowledges was sent ({@code tcp_clean_rtx_queue}'s {@code last_ackt}, the {@code ca_rtt_us} congestion
         * control is given), which is what Wireshark's {@code tcp.analysis.ack_rtt} measures at the sender.
         *
         * @param picos the sample
         */
        default void ackRtt(TcpSock sk, long picos) {
        }
    }

    final Owner owner;
    final TcpConfig cfg;
    final CongestionControl cc;
    /** The index of this connection in its element and in {@link #cc}'s arrays. */
    final int s;
    /** The flow number the connection's segments carry (a host assigns it when the SYN arrives). */
    int flow;
    final TcpRcvHalf rcv;
    final RtxQueue q;
    final TcpRecovery rec;
    final Timer xmitTimer, delackTimer;

    int state = CLOSE;
    int caState = CA_OPEN;
    int pending = T_NONE;
    long iss, irs;
    long sndUna, sndNxt;
    /** {@code write_seq}: the end of the data the application wrote (and the FIN, once {@link #finQueued}). */
    long writeSeq;
    boolean finQueued, finSent;
    /** {@code snd_wnd}: the peer's window, bytes, and its update point {@code snd_wl1}. */
    long sndWnd, sndWl1;
    /** {@code max_window}: the largest window the peer offered. */
    long maxWindow;
    /** Where the skb that ends at {@link #writeSeq} starts (its sent part included). */
    long tailSkbStart;
    /** The PSH flags {@code tcp_sendmsg} left in the stream. */
    final PushMarks marks = new PushMarks();
    int sndWscale;
    /** {@code mss_cache}: payload bytes per full segment now; {@code advmss} (ours, options excluded). */
    int mssCache, advmss;
    /** The peer's MSS option ({@code rx_opt.mss_clamp}). */
    int peerMss;
    boolean sackOk, tsOk, wscaleOk;
    boolean poolBlocked;
    // RTT estimation (tcp_rtt_estimator, microseconds, srtt << 3, mdev << 2 as the kernel keeps them)
    long srttUs, mdevUs, mdevMaxUs, rttvarUs, rttSeq;
    long minRttUs = Long.MAX_VALUE;
    long rtoPicos = TcpConfig.INITIAL_RTO_PICOS;
    int backoff, retransmits;
    long totalRetrans;
    // recovery
    long highSeq, undoMarker, retransStamp, tlpHighSeq, priorSsthresh;
    int undoRetrans;
    int priorCwnd, prrDelivered, prrOut;
    int reordering;
    boolean frtoActive;
    boolean fack;
    boolean earlyRetransOn;
    long lossCwnd;
    // RACK (tcp_rack)
    long rackXmit = -1, rackEnd, rackRttUs;
    boolean rackAdvanced, rackReord;
    // peer's timestamps seen on the last segment
    boolean sawTs;
    long rcvTsval, rcvTsecr;
    // tcp_cwnd_validate
    int maxPacketsOut;
    long maxPacketsSeq;
    boolean cwndLimited;
    long lastSendPicos;
    int synRetries;
    /** Bytes acknowledged, and the ACKs that advanced {@code snd_una}. */
    long bytesAcked, ackEvents, delivered;
    final RtxQueue.SackTag tag = new RtxQueue.SackTag();

    /**
     * @param rtxCapacity segments the retransmission queue holds (a power of two): the window clamp of a sender, a few
     *        for a receiver that sends only control segments
     */
    TcpSock(Owner owner, TcpConfig cfg, CongestionControl cc, int s, int flow, int rtxCapacity, Timer xmitTimer,
            Timer delackTimer) {
        this.owner = owner;
        this.cfg = cfg;
        this.cc = cc;
        this.s = s;
        this.flow = flow;
        this.rcv = new TcpRcvHalf(cfg);
        this.q = new RtxQueue(rtxCapacity);
        this.rec = new TcpRecovery(this);
        this.xmitTimer = xmitTimer;
        this.delackTimer = delackTimer;
        this.reordering = cfg.reordering;
        this.fack = cfg.fack;
        this.earlyRetransOn = cfg.earlyRetrans > 0 && cfg.earlyRetrans < 4 && cfg.kernel != Kernel.CURRENT;
        this.advmss = cfg.mss; // settled by the handshake (negotiate)
        this.mssCache = cfg.mss;
    }

    // ------------------------------------------------------------------ small accessors

    int cwnd() {
        return cc.cwnd[s];
    }

    void cwnd(int w) {
        cc.cwnd[s] = Math.max(1, Math.min(w, cc.clamp));
    }

    int ssthresh() {
        return cc.ssthresh[s];
    }

    /** @return the MSS option we send: our MTU's MSS ({@code tcp_advertise_mss}), the {@code mss} property + 12. */
    int mssOption() {
        return cfg.mss + Tcp.TS_OPTION;
    }

    long now() {
        return owner.now();
    }

    long tsNow() {
        return cfg.tsClock(owner.now());
    }

    boolean inCwndReduction() {
        return caState == CA_CWR || caState == CA_RECOVERY;
    }

    // ------------------------------------------------------------------ opening and closing

    /** Whether this end sent the SYN (active open). */
    boolean activeOpen;

    /** The send sequence of a new connection: ISN 0, nothing written, no PSH marks. */
    private void initSendSequence() {
        iss = 0;
        sndUna = iss;
        sndNxt = iss + 1;
        writeSeq = iss + 1;
        tailSkbStart = writeSeq;
        marks.clear();
    }

    /** {@code tcp_v4_connect} / {@code tcp_connect}: sends the SYN. */
    void connect() {
        activeOpen = true;
        initSendSequence();
        state = SYN_SENT;
        rcv.initialWindow(cfg.windowScaling, mssOption() - (cfg.timestamps ? Tcp.TS_OPTION : 0));
        sendSyn(false);
        owner.stateChanged(this);
    }

    /** {@code listen()}: the next SYN on this connection's flow is answered. */
    void listen() {
        state = LISTEN;
        owner.stateChanged(this);
    }

    /**
     * {@code tcp_sendmsg}: the application writes {@code bytes}.
     *
     * @return bytes taken (all of them: the send buffer autotunes to {@code tcp_wmem[2]}, far above what the window
     *         holds in these scenarios, so it is not modelled as a limit)
     */
    long write(long bytes) {
        if (finQueued || bytes <= 0) {
            return 0;
        }
        if (cfg.kernel != Kernel.V3_19 && (state == ESTABLISHED || state == CLOSE_WAIT)) {
            idleCheck(); // skb_entail: the check runs for the write's first skb, before anything of it is sent
        }
        long tailLen = writeSeq > sndNxt ? writeSeq - Math.max(tailSkbStart, sndNxt) : 0;
        tailSkbStart = marks.write(writeSeq, writeSeq + bytes, tailLen, sizeGoal(), maxWindow >> 1, tailSkbStart);
        writeSeq += bytes;
        if (state == ESTABLISHED || state == CLOSE_WAIT) {
            writeXmit(false);
        }
        return bytes;
    }

    /**
     * {@code tcp_xmit_size_goal}: the skb size {@code tcp_sendmsg} fills, {@code GSO_MAX_SIZE - 1 - MAX_TCP_HEADER}
     * bounded by half the largest window the peer offered ({@code tcp_bound_to_half_wnd}: the whole window when it is
     * at most {@code TCP_MSS_DEFAULT}, never under 68 bytes less the header), in whole segments. The stack builds GSO
     * skbs whether or not the element's {@code gso} sends them to the driver unsegmented: {@code sk_can_gso} holds with
     * the software GSO every device has by default ({@code NETIF_F_GSO}), so this applies with {@code gso = false} too.
     */
    private long sizeGoal() {
        long goal = Tcp.GSO_MAX_SIZE - 1 - cfg.skb.maxTcpHeader;
        long cutoff = maxWindow > TCP_MSS_DEFAULT ? maxWindow >> 1 : maxWindow;
        if (cutoff > 0 && goal > cutoff) {
            goal = Math.max(cutoff, 68 - headerBytes(0));
        }
        return Math.max(goal / mssCache * mssCache, mssCache);
    }

    /** {@code TCP_MSS_DEFAULT} (include/net/tcp.h): 536 bytes. */
    private static final int TCP_MSS_DEFAULT = 536;

    /**
     * {@code tcp_slow_start_after_idle_check} (v4.6+, include/net/tcp.h: at each skb {@code tcp_sendmsg} entails and on a
     * window update with data queued) and the same test in {@code tcp_event_data_sent} (v3.19, before a data segment
     * leaves): with {@code net.ipv4.tcp_slow_start_after_idle}, nothing in flight ({@code packets_out} 0) and more than
     * an RTO since the last data sent ({@code lsndtime}, in jiffies), {@code tcp_cwnd_restart}.
     */
    void idleCheck() {
        if (!cfg.slowStartAfterIdle || q.packetsOut() > 0) {
            return;
        }
        long j = cfg.jiffyPicos();
        long delta = now() / j - lastSendPicos / j;
        long rto = rtoPicos / j;
        if (delta > rto) {
            rec.cwndRestart(delta, rto);
        }
    }

    /** {@code tcp_close} / {@code shutdown(SHUT_WR)}: a FIN after the data written. */
    void close() {
        if (finQueued) {
            return;
        }
        finQueued = true;
        if (state == ESTABLISHED) {
            state = FIN_WAIT1;
        } else if (state == CLOSE_WAIT) {
            state = LAST_ACK;
        } else if (state == LISTEN || state == SYN_SENT) {
            state = CLOSE;
            return;
        }
        writeXmit(false);
    }

    /** @return the end of the data and FIN to send: {@code write_seq}, plus one for a queued FIN. */
    private long sendLimit() {
        return writeSeq + (finQueued ? 1 : 0);
    }

    // ------------------------------------------------------------------ output

    /** Header bytes of a segment with the established options and {@code sacks} SACK blocks. */
    int headerBytes(int sacks) {
        return 20 + (tsOk ? Tcp.TS_OPTION : 0) + (sacks > 0 ? 4 + 8 * sacks : 0);
    }

    /** Fills the fields every segment carries: ACK, window, timestamps, SACK blocks ({@code tcp_established_options}). */
    private void fillHeader(Buffer b, int flags, long seq, int payload) {
        int sacks = state == SYN_SENT ? 0 : rcv.blocksToSend();
        b.protocol(Buffer.PROTO_TCP);
        b.flags(flags);
        b.seq(seq);
        b.ack(rcv.rcvNxt);
        b.tcpOptions(tsOk ? Buffer.TCPOPT_TIMESTAMP : 0);
        if (tsOk) {
            b.tsVal(tsNow() & 0xFFFF_FFFFL);
            b.tsEcr(rcv.tsRecent);
        }
        int hdr = headerBytes(sacks);
        b.tcpHeaderBytes(hdr);
        if (sacks > 0) {
            rcv.writeSacks(b, sacks);
        } else {
            b.sackBlocks(0);
        }
        b.tcpWindow(rcv.selectWindow());
        b.length(Tcp.L2_L3 + hdr + payload);
        if ((flags & Buffer.TCP_ACK) != 0) {
            rcv.ackSent();
            delackTimer.cancel();
        }
    }

    /** {@code tcp_send_syn} / {@code tcp_make_synack}: the SYN or SYN-ACK with the options this end offers. */
    private void sendSyn(boolean synAck) {
        Buffer b = owner.alloc(this, Tcp.L2_L3 + 40);
        if (b == null) {
            armXmit(T_SYN, rtoPicos);
            return;
        }
        boolean offerSack = cfg.sack && (!synAck || sackOk);
        boolean offerTs = cfg.timestamps && (!synAck || tsOk);
        boolean offerWs = cfg.windowScaling && (!synAck || wscaleOk);
        int opts = Buffer.TCPOPT_MSS | (offerSack ? Buffer.TCPOPT_SACK_PERM : 0) | (offerTs ? Buffer.TCPOPT_TIMESTAMP : 0)
                | (offerWs ? Buffer.TCPOPT_WSCALE : 0);
        // tcp_options_write: MSS 4; SACK-permitted with timestamps 12, timestamps alone 12, SACK-permitted alone 4
        // (NOP NOP kind len); window scale with its NOP 4
        int hdr = 20 + 4 + (offerTs ? 12 : offerSack ? 4 : 0) + (offerWs ? 4 : 0);
        b.protocol(Buffer.PROTO_TCP);
        b.flags(synAck ? Buffer.TCP_SYN | Buffer.TCP_ACK : Buffer.TCP_SYN);
        b.seq(iss);
        b.ack(synAck ? rcv.rcvNxt : 0);
        b.tcpOptions(opts);
        b.tcpMssOption(mssOption());
        b.tcpWscaleOption(offerWs ? rcv.rcvWscale : 0);
        b.tsVal(offerTs ? tsNow() & 0xFFFF_FFFFL : 0);
        b.tsEcr(synAck && offerTs ? rcv.tsRecent : 0);
        b.sackBlocks(0);
        b.tcpHeaderBytes(hdr);
        b.tcpWindow((int) Math.min(rcv.rcvWnd, 65535)); // a SYN's window is never scaled (RFC 7323 §2.2)
        b.length(Tcp.L2_L3 + hdr);
        if (synRetries > 0) {
            totalRetrans++;
            retransStamp = retransStamp == 0 ? tsNow() : retransStamp;
        }
        lastSendPicos = now();
        owner.send(this, b, 1, false);
        if (synAck) {
            owner.event(TcpEvents.ACKS_SENT, 1);
        }
        armXmit(T_SYN, rtoPicos);
    }

    /** {@code tcp_send_ack}: a pure ACK now. */
    void sendAck() {
        if (state == CLOSE || state == LISTEN || state == SYN_SENT && rcv.rcvNxt == 0) {
            return;
        }
        if (!owner.canSend()) {
            rcv.ackSent();
            rcv.rcvWup = rcv.rcvNxt; // nothing can leave: what arrived counts as acknowledged
            delackTimer.cancel();
            return;
        }
        Buffer b = owner.alloc(this, Tcp.L2_L3 + Tcp.MAX_TCP_HEADER_BYTES);
        if (b == null) {
            owner.event(TcpEvents.ACK_POOL_EMPTY, 1);
            if (!delackTimer.pending()) {
                delackTimer.after(Math.max(cfg.delayedAck, cfg.jiffyPicos())); // tcp_send_ack: retry by the delack timer
            }
            return;
        }
        fillHeader(b, Buffer.TCP_ACK, sndNxt, 0);
        owner.send(this, b, 1, false);
        owner.event(TcpEvents.ACKS_SENT, 1);
    }

    /** {@code tcp_xmit_probe_skb}: a zero-window probe, an ACK with the sequence number before {@code snd_una}. */
    private void sendProbe() {
        Buffer b = owner.alloc(this, Tcp.L2_L3 + Tcp.MAX_TCP_HEADER_BYTES);
        if (b != null) {
            fillHeader(b, Buffer.TCP_ACK, sndUna - 1, 0);
            owner.send(this, b, 1, false);
            owner.event(TcpEvents.WINDOW_PROBES, 1);
        }
    }

    /**
     * Builds and sends a data segment, or a GSO skb of {@code segs} full segments ({@code tcp_transmit_skb}).
     *
     * @param retransmit whether these bytes were sent before
     * @return {@code false} when the pool is empty (the connection waits for a buffer)
     */
    private boolean transmitData(long seq, int payload, int segs, boolean fin, boolean psh, boolean retransmit) {
        Buffer b = owner.alloc(this, Tcp.L2_L3 + Tcp.MAX_TCP_HEADER_BYTES + payload);
        if (b == null) {
            poolBlocked = true;
            owner.event(TcpEvents.ALLOC_FAILURES, 1);
            return false;
        }
        // from v5.4 __tcp_transmit_skb forces PSH on a packet of several segments, in the header only (Kernel.forcesPshOnGso)
        boolean forced = segs > 1 && cfg.kernel.forcesPshOnGso();
        int flags = Buffer.TCP_ACK | (psh || forced ? Buffer.TCP_PSH : 0) | (fin ? Buffer.TCP_FIN : 0);
        fillHeader(b, flags, seq, payload);
        b.segments(segs);
        long stream = seq - iss - 1;
        b.fragments(cfg.skb.skbFrags(stream, payload));
        b.truesize(segs == 1 ? cfg.skb.truesize(b.length()) : cfg.skb.gsoTruesize(mssCache, segs));
        lastSendPicos = now();
        owner.send(this, b, segs, true);
        if (retransmit) {
            owner.event(TcpEvents.RETRANSMITS, segs);
            totalRetrans += segs;
        }
        owner.event(TcpEvents.SEGMENTS_SENT, segs);
        return true;
    }

    /**
     * {@code tcp_write_xmit}: sends new data (and the FIN) while the congestion window, the peer's window, Nagle, TSQ
     * and the pool allow.
     *
     * @param probe TLP's {@code push_one = 2}: one segment beyond the window
     * @return segments sent
     */
    int writeXmit(boolean probe) {
        if (state != ESTABLISHED && state != CLOSE_WAIT && state != FIN_WAIT1 && state != LAST_ACK
                && state != CLOSING) {
            return 0;
        }
        int sent = 0;
        boolean isCwndLimited = false;
        long limit = sendLimit();
        while (sndNxt < limit && !finSent) {
            int inFlight = q.inFlight();
            int quota = cwnd() - inFlight;
            if (quota <= 0) {
                isCwndLimited = true;
                // before v6.10 tcp_cwnd_test let a one-segment skb that carries the FIN go whatever the cwnd
                boolean fin = cfg.kernel.exemptsFinFromCwnd() && finQueued && writeSeq - sndNxt <= mssCache;
                if (!fin && !(probe && sent == 0)) {
                    break;
                }
                quota = 1;
            }
            if (!q.hasRoom()) {
                break;
            }
            long dataLeft = writeSeq - sndNxt;
            boolean finOnly = dataLeft == 0;
            int payload = (int) Math.min(mssCache, dataLeft);
            // the peer's window (tcp_snd_wnd_test): the segment must end inside snd_una + snd_wnd
            if (!finOnly && sndNxt + payload > sndUna + sndWnd) {
                owner.event(TcpEvents.RWND_LIMITED, 1);
                if (q.packetsOut() == 0 && pending != T_PROBE0) {
                    armXmit(T_PROBE0, rtoPicos << Math.min(backoff, 16)); // tcp_check_probe_timer
                }
                break;
            }
            // Nagle (tcp_nagle_test with Minshall's rule): a short segment waits while data is in flight
            if (!finOnly && payload < mssCache && !finQueued && q.packetsOut() > 0 && !probe) {
                break;
            }
            int segs = 1;
            if (!finOnly && payload == mssCache) {
                long room = (sndUna + sndWnd - sndNxt) / mssCache;
                // tcp_cwnd_test since d649a7a81f3b ("tcp: limit GSO packets to half cwnd", November 2014, v3.19): "ensure
                // we have at least 2 GSO packets in flight", one packet takes at most half the cwnd
                int cwndQuota = Math.min(quota, Math.max(cwnd() >> 1, 1));
                segs = (int) Math.max(1, Math.min(Math.min(owner.tsoSegs(this), cwndQuota), Math.min(room,
                        dataLeft / mssCache)));
                segs = Math.min(segs, q.capacity() - q.packetsOut());
            }
            int bytes = finOnly ? 0 : segs == 1 ? payload : segs * mssCache;
            for (int k = 1; k < segs; k++) {
                if (marks.marked(sndNxt + (long) k * mssCache)) {
                    segs = k; // a marked skb ends inside: the kernel sends it as its own skb (tcp_write_xmit)
                    bytes = segs * mssCache;
                    break;
                }
            }
            boolean fin = finQueued && sndNxt + bytes == writeSeq;
            int truesize = segs == 1 ? cfg.skb.truesize(Tcp.L2_L3 + headerBytes(0) + bytes) : cfg.skb.gsoTruesize(mssCache,
                    segs);
            if (owner.tsqThrottled(this, truesize)) {
                break;
            }
            if (cfg.kernel == Kernel.V3_19 && !finOnly) {
                idleCheck(); // tcp_transmit_skb -> tcp_event_data_sent, before packets_out counts this segment
            }
            long lsndtime = lastSendPicos;
            boolean idle = q.inFlight() == 0;
            // PSH where tcp_sendmsg marked an skb that ends here (tso_fragment keeps it on the second part)
            boolean psh = bytes > 0 && marks.marked(sndNxt + bytes);
            if (!transmitData(sndNxt, bytes, segs, fin, psh, false)) {
                break;
            }
            if (idle) {
                cc.txStart(s, lsndtime, now()); // tcp_event_data_sent: CA_EVENT_TX_START with nothing in flight
            }
            int priorPackets = q.packetsOut();
            long now = now();
            long seq = sndNxt;
            for (int k = 0; k < segs; k++) {
                boolean last = k == segs - 1;
                long st = seq + (long) k * mssCache;
                long e = last ? seq + bytes + (fin ? 1 : 0) : st + mssCache; // the FIN takes a sequence number
                q.append(st, e, now);
                if (psh && last) {
                    q.markPush(q.packetsOut() - 1); // a retransmission carries the flags of the original
                }
            }
            sndNxt += bytes + (fin ? 1 : 0);
            if (fin) {
                finSent = true;
            }
            if (inCwndReduction()) {
                prrOut += segs;
            }
            // tcp_event_new_data_sent: the RTO timer starts with the first segment in flight, and replaces a TLP (or,
            // before v4.11, an early-retransmit) timer
            if (priorPackets == 0 || pending == T_LOSS_PROBE || pending == T_PROBE0
                    || (pending == T_EARLY_RETRANS && cfg.kernel != Kernel.CURRENT)) {
                rearmRto();
            }
            sent += segs;
            if (probe) {
                break;
            }
        }
        if (sent > 0) {
            if (!probe) {
                rec.scheduleLossProbe(false);
            }
            cwndValidate(isCwndLimited);
        }
        return sent;
    }

    /**
     * {@code tcp_retransmit_skb} of segment {@code i} of the queue.
     *
     * @return {@code false} if it could not be sent (pool, or TSQ where the kernel checks it)
     */
    boolean retransmit(int i) {
        long st = q.start(i), e = q.end(i);
        boolean fin = finSent && e == sndNxt && finQueued;
        int payload = (int) (e - st - (fin ? 1 : 0));
        if (cfg.kernel == Kernel.CURRENT && owner.tsqThrottled(this, cfg.skb.truesize(Tcp.L2_L3 + headerBytes(0) + payload))) {
            return false; // tcp_xmit_retransmit_queue: tcp_small_queue_check(sk, skb, 1) (v4.x+ on retransmissions)
        }
        if (!transmitData(st, payload, 1, fin, q.has(i, RtxQueue.PUSH), true)) {
            return false;
        }
        q.retransmitted(i, now());
        if (retransStamp == 0) {
            retransStamp = tsNow();
        }
        if (undoRetrans < 0) {
            undoRetrans = 0;
        }
        undoRetrans++;
        return true;
    }

    /** {@code tcp_cwnd_validate} (v3.19+): whether the largest flight of this window was cwnd-limited. */
    private void cwndValidate(boolean isCwndLimited) {
        int packetsOut = q.packetsOut();
        if (sndUna >= maxPacketsSeq || packetsOut > maxPacketsOut) {
            maxPacketsOut = packetsOut;
            maxPacketsSeq = sndNxt;
            cwndLimited = isCwndLimited;
        }
    }

    /** {@code tcp_is_cwnd_limited}: in slow start the window may grow to twice the largest flight. */
    boolean isCwndLimited() {
        if (cc.inSlowStart(s)) {
            return cwnd() < 2 * maxPacketsOut;
        }
        return cwndLimited;
    }

    // ------------------------------------------------------------------ timers

    /** Arms the retransmit timer for {@code what} in {@code delay} ({@code inet_csk_reset_xmit_timer}, at most TCP_RTO_MAX). */
    void armXmit(int what, long delay) {
        pending = what;
        xmitTimer.after(Math.min(delay, TcpConfig.MAX_RTO_PICOS));
    }

    void clearXmit() {
        pending = T_NONE;
        xmitTimer.cancel();
    }

    /**
     * {@code tcp_rearm_rto}: the RTO timer from the head's transmission, or off with nothing in flight; after a TLP or
     * reordering timer the time already waited counts ({@code tcp_rto_delta_us}).
     */
    void rearmRto() {
        if (q.packetsOut() == 0) {
            clearXmit();
            return;
        }
        long rto = rtoPicos;
        if (pending == T_EARLY_RETRANS || pending == T_LOSS_PROBE || pending == T_REO) {
            long delta = q.xmit(0) + rtoPicos - now();
            if (delta > 0) {
                rto = delta;
            }
        }
        armXmit(T_RETRANS, rto);
    }

    /** The retransmit timer fired: dispatch on what it was armed for ({@code tcp_write_timer_handler}). */
    void xmitTimerFired() {
        int what = pending;
        pending = T_NONE;
        switch (what) {
            case T_SYN -> synTimeout();
            case T_RETRANS -> rec.retransmitTimer();
            case T_LOSS_PROBE -> rec.sendLossProbe();
            case T_REO -> rec.rackReoTimeout();
            case T_EARLY_RETRANS -> rec.earlyRetransTimer();
            case T_PROBE0 -> probeTimer();
            default -> {
            }
        }
    }

    /** {@code tcp_retransmit_timer} before ESTABLISHED: the SYN or SYN-ACK again, with backoff. */
    private void synTimeout() {
        if (state != SYN_SENT && state != SYN_RECV) {
            return;
        }
        if (++synRetries > (state == SYN_SENT ? SYN_RETRIES : SYNACK_RETRIES)) {
            state = CLOSE;
            owner.stateChanged(this);
            return;
        }
        owner.event(TcpEvents.RTO, 1);
        rtoPicos = Math.min(rtoPicos << 1, TcpConfig.MAX_RTO_PICOS);
        backoff++;
        sendSyn(state == SYN_RECV);
    }

    /** {@code tcp_probe_timer}: a zero-window probe, with exponential backoff while the window stays shut. */
    private void probeTimer() {
        if (q.packetsOut() > 0 || sndNxt >= sendLimit()) {
            return;
        }
        if (sndNxt + Math.min(mssCache, writeSeq - sndNxt) <= sndUna + sndWnd) {
            writeXmit(false); // the window opened meanwhile
            return;
        }
        sendProbe();
        backoff++;
        armXmit(T_PROBE0, Math.min(rtoPicos << Math.min(backoff, 16), TcpConfig.MAX_RTO_PICOS));
    }

    /** The delayed-ACK timer fired ({@code tcp_delack_timer_handler}). */
    void delackFired() {
        if (rcv.ackPending || rcv.rcvNxt > rcv.rcvWup) {
            owner.event(TcpEvents.DELAYED_ACKS, 1);
            sendAck();
        }
    }

    // ------------------------------------------------------------------ input

    /**
     * A segment for this connection arrived ({@code tcp_v4_rcv} → {@code tcp_rcv_state_process} /
     * {@code tcp_rcv_established}). The caller delivers or drops the buffer after this returns, by the value returned.
     *
     * @return a drop reason code of {@link TcpEvents} ({@code DROP_*}), or -1 if the segment was taken
     */
    int input(Buffer b) {
        int flags = b.flags();
        int hdr = b.tcpHeaderBytes() > 0 ? b.tcpHeaderBytes() : Tcp.HEADERS - Tcp.L2_L3;
        int payload = b.length() - Tcp.L2_L3 - hdr;
        switch (state) {
            case LISTEN -> {
                if ((flags & Buffer.TCP_SYN) == 0 || (flags & Buffer.TCP_ACK) != 0) {
                    return TcpEvents.DROP_NOT_OURS;
                }
                passiveOpen(b);
                return -1;
            }
            case SYN_SENT -> {
                if ((flags & (Buffer.TCP_SYN | Buffer.TCP_ACK)) != (Buffer.TCP_SYN | Buffer.TCP_ACK)
                        || b.ack() != iss + 1) {
                    return TcpEvents.DROP_NOT_OURS;
                }
                synAckReceived(b);
                return -1;
            }
            case CLOSE -> {
                return TcpEvents.DROP_NOT_OURS;
            }
            default -> {
            }
        }
        if ((flags & Buffer.TCP_SYN) != 0) {
            if (state == SYN_RECV) {
                sendSyn(true); // a retransmitted SYN: the SYN-ACK again
            } else {
                sendAck(); // tcp_validate_incoming: a SYN in window gets a challenge ACK
            }
            return TcpEvents.DROP_OLD;
        }
        sawTs = tsOk && (b.tcpOptions() & Buffer.TCPOPT_TIMESTAMP) != 0;
        if (sawTs) {
            rcvTsval = b.tsVal();
            rcvTsecr = b.tsEcr();
        }
        if (state == SYN_RECV) {
            if ((flags & Buffer.TCP_ACK) == 0 || b.ack() != iss + 1) {
                return TcpEvents.DROP_NOT_OURS;
            }
            if (synRetries == 0) {
                rttSample((now() - lastSendPicos) / 1_000_000L); // tcp_synack_rtt_meas: the SYN-ACK's RTT
            }
            established(b.ack());
        }
        long seq = b.seq();
        if (sawTs) {
            rcv.tsRecent(seq, rcvTsval);
        }
        if ((flags & Buffer.TCP_ACK) != 0) {
            rec.ack(b);
        }
        int drop = -1;
        boolean fin = (flags & Buffer.TCP_FIN) != 0;
        if (payload > 0 || fin) {
            drop = data(b, seq, payload, fin);
        }
        writeXmit(false); // tcp_data_snd_check
        return drop;
    }

    private void passiveOpen(Buffer syn) {
        irs = syn.seq();
        rcv.rcvNxt = irs + 1;
        rcv.rcvWup = irs + 1;
        negotiate(syn);
        initSendSequence();
        rcv.initialWindow(wscaleOk, mssOption() - (tsOk ? Tcp.TS_OPTION : 0));
        if (!wscaleOk) {
            rcv.rcvWscale = 0;
        }
        state = SYN_RECV;
        sendSyn(true);
        owner.stateChanged(this);
    }

    private void synAckReceived(Buffer b) {
        irs = b.seq();
        rcv.rcvNxt = irs + 1;
        rcv.rcvWup = irs + 1;
        negotiate(b);
        if (!wscaleOk) {
            rcv.rcvWscale = 0;
        }
        if (tsOk) {
            rcv.tsRecent = b.tsVal();
        }
        // the SYN-ACK's RTT sample (tcp_ack → tcp_clean_rtx_queue on the SYN; Karn: none after a SYN retransmission)
        if (synRetries == 0) {
            rttSample((now() - lastSendPicos) / 1_000_000L);
        }
        sndWnd = b.tcpWindow(); // the SYN-ACK's window is not scaled
        sndWl1 = b.seq();
        established(b.ack());
        sendAck(); // tcp_rcv_synsent_state_process: the ACK of the handshake, before the application writes
        owner.stateChanged(this);
        writeXmit(false);
    }

    /** Reads the peer's SYN options ({@code tcp_parse_options}) and settles what both ends use. */
    private void negotiate(Buffer syn) {
        int o = syn.tcpOptions();
        peerMss = (o & Buffer.TCPOPT_MSS) != 0 ? syn.tcpMssOption() : 536; // RFC 9293 §3.7.1: 536 without the option
        sackOk = cfg.sack && (o & Buffer.TCPOPT_SACK_PERM) != 0;
        tsOk = cfg.timestamps && (o & Buffer.TCPOPT_TIMESTAMP) != 0;
        wscaleOk = cfg.windowScaling && (o & Buffer.TCPOPT_WSCALE) != 0;
        sndWscale = wscaleOk ? Math.min(syn.tcpWscaleOption(), 14) : 0;
        rcv.sackOk = sackOk;
        rcv.tsOk = tsOk;
        if (tsOk) {
            rcv.tsRecent = syn.tsVal();
        }
        int tsLen = tsOk ? Tcp.TS_OPTION : 0;
        mssCache = Math.max(48, Math.min(peerMss, mssOption()) - tsLen); // tcp_sync_mss: the clamp less the options
        advmss = mssOption() - tsLen;
        if (!sackOk) {
            fack = false;
        }
    }

    /** The handshake completed ({@code tcp_finish_connect} / {@code tcp_rcv_state_process} for SYN_RECV). */
    private void established(long ack) {
        state = ESTABLISHED;
        sndUna = ack;
        lastSendPicos = now(); // tp->lsndtime (tcp_finish_connect; tcp_rcv_state_process in SYN_RECV)
        if (synRetries > 0) {
            // tcp_init_transfer / tcp_init_metrics: after a SYN retransmission, a 1-segment window and a fresh RTO
            // (TCP_TIMEOUT_FALLBACK, 3 s, when no RTT sample was taken)
            cc.cwnd[s] = totalRetrans > 1 ? 1 : cc.cwnd[s];
            if (srttUs == 0) {
                rtoPicos = 3 * TcpConfig.INITIAL_RTO_PICOS;
            }
        }
        synRetries = 0;
        backoff = 0;
        retransStamp = 0;
        clearXmit();
        rcv.initBufferSpace(advmss, tsNow());
        cc.init(s, now());
        if (!activeOpen) {
            owner.stateChanged(this); // the active side tells its owner after the handshake's ACK (synAckReceived)
        }
    }

    /** Data (and FIN) of an established connection ({@code tcp_data_queue}, {@code tcp_fin}, the ACK decision). */
    private int data(Buffer b, long seq, int payload, boolean fin) {
        long end = seq + payload;
        int truesize = cfg.skb.truesize(b.length());
        int r = payload > 0 ? rcv.data(seq, end, truesize, payload) : TcpRcvHalf.IN_ORDER;
        int drop = -1;
        switch (r) {
            case TcpRcvHalf.DUPLICATE -> {
                owner.event(TcpEvents.RCV_DUPLICATES, 1);
                drop = TcpEvents.DROP_OLD;
            }
            case TcpRcvHalf.OUT_OF_WINDOW -> drop = TcpEvents.DROP_OVER_WINDOW;
            case TcpRcvHalf.OFO_FULL -> drop = TcpEvents.DROP_OFO;
            case TcpRcvHalf.OUT_OF_ORDER -> owner.event(TcpEvents.RCV_OUT_OF_ORDER, 1);
            default -> {
            }
        }
        if (r == TcpRcvHalf.IN_ORDER && payload > 0) {
            owner.event(TcpEvents.RCV_SEGMENTS, 1);
            rcv.autotune(sawTs ? rcvTsecr : 0, payload, tsNow());
        }
        if (fin && end == rcv.rcvNxt && drop < 0) {
            rcv.rcvNxt++; // tcp_fin: the FIN takes one sequence number; ACK it at once
            finReceived();
            sendAck();
            return drop;
        }
        if (drop >= 0 && drop != TcpEvents.DROP_OFO || r == TcpRcvHalf.OUT_OF_ORDER || r == TcpRcvHalf.DUPLICATE) {
            sendAck(); // out of order, duplicate or out of window: an immediate (duplicate) ACK
            return drop;
        }
        if (drop >= 0) {
            sendAck();
            return drop;
        }
        rcv.ackPending = true;
        if (cfg.delayedAck == 0 || rcv.ackNow()) {
            sendAck();
        } else if (!delackTimer.pending()) {
            delackTimer.after(cfg.delayedAck); // tcp_send_delayed_ack
        }
        return -1;
    }

    private void finReceived() {
        switch (state) {
            case ESTABLISHED -> state = CLOSE_WAIT;
            case FIN_WAIT1 -> state = CLOSING;
            case FIN_WAIT2 -> state = TIME_WAIT;
            default -> {
            }
        }
        owner.stateChanged(this);
    }

    /** Our FIN was acknowledged ({@code tcp_rcv_state_process}: FIN_WAIT1 → FIN_WAIT2, CLOSING → TIME_WAIT, LAST_ACK → CLOSE). */
    void finAcked() {
        switch (state) {
            case FIN_WAIT1 -> state = FIN_WAIT2;
            case CLOSING -> state = TIME_WAIT;
            case LAST_ACK -> state = CLOSE;
            default -> {
            }
        }
        owner.stateChanged(this);
    }

    // ------------------------------------------------------------------ RTT

    /**
     * {@code tcp_rtt_estimator} and {@code tcp_set_rto}: Linux's smoothed RTT with its mdev/rttvar variant (rttvar at least
     * {@code rto_min}, decaying once per RTT), {@code rto = srtt + rttvar} in jiffies, at most TCP_RTO_MAX.
     *
     * @param mUs the sample, microseconds
     */
    void rttSample(long mUs) {
        long m = Math.max(1, mUs);
        long rtoMinUs = cfg.minRto / 1_000_000L;
        long srtt = srttUs;
        if (srtt != 0) {
            m -= srtt >> 3;
            srtt += m;
            if (m < 0) {
                m = -m;
                m -= mdevUs >> 2;
                if (m > 0) {
                    m >>= 3;
                }
            } else {
                m -= mdevUs >> 2;
            }
            mdevUs += m;
            if (mdevUs > mdevMaxUs) {
                mdevMaxUs = mdevUs;
                if (mdevMaxUs > rttvarUs) {
                    rttvarUs = mdevMaxUs;
                }
            }
            if (sndUna > rttSeq) {
                if (mdevMaxUs < rttvarUs) {
                    rttvarUs -= (rttvarUs - mdevMaxUs) >> 2;
                }
                rttSeq = sndNxt;
                mdevMaxUs = rtoMinUs;
            }
        } else {
            srtt = m << 3;
            mdevUs = m << 1;
            rttvarUs = Math.max(mdevUs, rtoMinUs);
            mdevMaxUs = rttvarUs;
            rttSeq = sndNxt;
        }
        srttUs = Math.max(1, srtt);
        long rtoUs = (srttUs >> 3) + rttvarUs;
        long jiffy = cfg.jiffyPicos();
        long rto = (rtoUs * 1_000_000L + jiffy - 1) / jiffy * jiffy; // usecs_to_jiffies rounds up
        rtoPicos = Math.min(rto, TcpConfig.MAX_RTO_PICOS);
        backoff = 0; // RFC 6298: the backoff ends with a valid sample
        if (m < minRttUs || mUs < minRttUs) {
            minRttUs = Math.min(minRttUs, Math.max(1, mUs));
        }
    }

    /** @return {@code tcp_min_rtt} in microseconds, or a huge value before the first sample. */
    long minRttUs() {
        return minRttUs;
    }

    /** @return {@code srtt} in picoseconds (0 before the first sample). */
    long srttPicos() {
        return (srttUs >> 3) * 1_000_000L;
    }
}

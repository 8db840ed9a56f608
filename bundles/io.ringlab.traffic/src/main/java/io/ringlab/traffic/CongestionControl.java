package io.ringlab.traffic;

import java.util.Arrays;

import io.ringlab.sim.api.ElementState;

/**
 * A congestion control algorithm over the windows of a sender's streams ({@code struct tcp_congestion_ops}): it grows
 * {@code snd_cwnd} on ACKs and gives the slow-start threshold after a loss. The windows are Linux's per-socket
 * {@code snd_cwnd}, {@code snd_ssthresh} and {@code snd_cwnd_cnt}, in packets, one entry per stream, owned here so that
 * the algorithms and their unit tests share them.
 * <p>
 * <b>The contract with the sender</b> (the hooks carry the kernel's names; the sender calls them where
 * {@code net/ipv4/tcp_input.c} and {@code tcp_output.c} of its {@link Kernel} call the {@code tcp_congestion_ops}):
 * <ul>
 * <li>{@link #init} ({@code tcp_init_congestion_control} -> {@code .init}): once per stream when the connection is
 * established (after the handshake, before the first data segment), with {@code snd_nxt} already the first data
 * sequence; CUBIC starts its first HyStart round there ({@code end_seq = snd_nxt}).</li>
 * <li>{@link #pktsAcked} ({@code .pkts_acked}, from {@code tcp_clean_rtx_queue}): on every ACK that is processed by
 * {@code tcp_ack} (not an old one), <em>before</em> {@link #congAvoid} of the same ACK. The RTT argument is the kernel's
 * {@code ca_rtt_us}, or -1 when the ACK gives none: the time since the <em>most recently sent</em> skb among those
 * newly acknowledged ({@code last_ackt}), not the oldest one that feeds {@code srtt}; v3.19: cumulatively acknowledged
 * skbs only, skipping retransmitted ones ({@code TCPCB_RETRANS}), and only when the ACK acknowledged data
 * ({@code FLAG_ACKED}); v4.6 and current: none at all if any newly acknowledged skb was retransmitted
 * ({@code FLAG_RETRANS_DATA_ACKED}), and an ACK that SACKs new data gives {@code last_sackt}'s time instead (the most
 * recently sent skb newly SACKed), with or without cumulative progress. Called by v4.6+ on every such ACK, by v3.19 only
 * with {@code FLAG_ACKED}; -1 is ignored by CUBIC either way.</li>
 * <li>{@link #congAvoid} ({@code tcp_cong_avoid} -> {@code .cong_avoid}): with the ACK's cumulative sequence, when
 * {@code tcp_may_raise_cwnd} allows and the stream is cwnd-limited ({@code tcp_is_cwnd_limited}, tested by the caller
 * with {@link #inSlowStart}).</li>
 * <li>{@link #recalcSsthresh} ({@code .ssthresh}): at the entry into recovery ({@code tcp_init_cwnd_reduction}) or loss
 * ({@code tcp_enter_loss}, when the kernel calls it there); the caller stores the result in {@link #ssthresh}.</li>
 * <li>{@link #setState} ({@code tcp_set_ca_state} -> {@code .set_state}): with {@link #CA_LOSS} when the stream enters
 * {@code TCP_CA_Loss} (an RTO), before the retransmission; other states may be passed and are ignored.</li>
 * <li>{@link #undoCwnd} ({@code .undo_cwnd}, from {@code tcp_undo_cwnd_reduction} when {@code prior_ssthresh} is set):
 * the window to restore after a spurious reduction; the caller restores {@code ssthresh} itself.</li>
 * <li>{@link #txStart} ({@code tcp_ca_event(CA_EVENT_TX_START)} from {@code tcp_event_data_sent}): when a data segment is
 * sent with nothing in flight ({@code tcp_packets_in_flight == 0}), with {@code lsndtime}, the time of the previous data
 * segment sent, before the sender updates it.</li>
 * </ul>
 * The sender implements {@link Sock} for what the algorithm reads of the socket itself.
 * <p>
 * The shared helpers are {@code tcp_slow_start} and {@code tcp_cong_avoid_ai} of {@code net/ipv4/tcp_cong.c}: both take
 * the number of packets acknowledged, so a delayed ACK that covers two segments grows the window as two ACKs would (the
 * 2015 stretch-ACK form, already in 3.19.8's {@code tcp_cong.c}). Slow start is {@code cwnd < ssthresh}
 * ({@code tcp_in_slow_start}, v4.3) from v4.6 on, {@code cwnd <= ssthresh} in v3.19, whose {@code tcp_slow_start} also
 * lets the window reach {@code ssthresh + 1} ({@link Kernel#slowStartStrict}).
 * <p>
 * Not thread-safe: one sender, one engine thread.
 */
abstract class CongestionControl {
    /** {@code TCP_INFINITE_SSTHRESH} ({@code include/net/tcp.h}): the threshold before the first loss. */
    static final int INFINITE_SSTHRESH = 0x7fffffff;
    /** {@code TCP_CA_Loss} ({@code enum tcp_ca_state}, {@code include/uapi/linux/tcp.h}): the value of {@link #setState}'s argument. */
    static final int CA_LOSS = 4;

    /**
     * What the algorithm reads of the sender's socket, per stream. Implemented by the sender; the calls allocate nothing.
     */
    interface Sock {
        /** @return {@code tp->snd_nxt}: the next sequence to be sent, bytes. */
        long sndNxt(int s);

        /** @return {@code tp->snd_una}: the first unacknowledged sequence, bytes (already advanced by the ACK being processed). */
        long sndUna(int s);

        /** @return {@code sk->sk_pacing_rate}, bytes per second; 0 for none. */
        long pacingRate(int s);

        /**
         * @return {@code sk->sk_pacing_status != SK_PACING_NONE}: the socket is paced (by {@code sch_fq}, which sets
         *         {@code SK_PACING_FQ}, or by TCP's internal pacing, {@code SK_PACING_NEEDED}); {@code false} by default.
         */
        default boolean paced(int s) {
            return false;
        }
    }

    /** {@code snd_cwnd} per stream, packets. */
    final int[] cwnd;
    /** {@code snd_ssthresh} per stream, packets. */
    final int[] ssthresh;
    /** {@code snd_cwnd_cnt} per stream: ACKed packets counted towards the next increase in congestion avoidance. */
    final int[] cwndCnt;
    /** {@code snd_cwnd_clamp}: the largest window, packets. */
    final int clamp;
    /**
     * The window when {@link #recalcSsthresh} was last called, packets: CUBIC's {@code loss_cwnd} (v3.19, v4.6) and the
     * sender's {@code prior_cwnd}, which {@code tcp_init_cwnd_reduction} and {@code tcp_enter_loss} set just before they
     * call {@code .ssthresh} ({@code tcp_reno_undo_cwnd} reads it, v4.14+); 0 before the first reduction.
     */
    final int[] lossCwnd;
    /** The kernel whose rules the algorithm follows. */
    final Kernel kernel;

    /**
     * @param streams number of streams, at least 1
     * @param initialCwnd {@code TCP_INIT_CWND}, packets
     * @param initialSsthresh the first threshold, packets; 0 for {@link #INFINITE_SSTHRESH}
     * @param clamp the largest window, packets
     * @param kernel the kernel whose rules apply
     */
    CongestionControl(int streams, int initialCwnd, int initialSsthresh, int clamp, Kernel kernel) {
        this.kernel = kernel;
        this.lossCwnd = new int[streams];
        this.cwnd = new int[streams];
        this.ssthresh = new int[streams];
        this.cwndCnt = new int[streams];
        this.clamp = clamp;
        Arrays.fill(cwnd, Math.min(initialCwnd, clamp));
        Arrays.fill(ssthresh, initialSsthresh == 0 ? INFINITE_SSTHRESH : initialSsthresh);
    }

    /** @return the algorithm's name, as {@code tcp_congestion_control} shows it. */
    abstract String name();

    /**
     * {@code .init} ({@code tcp_init_congestion_control}): the connection is established. Nothing by default.
     *
     * @param s the stream
     * @param nowPicos the current virtual time
     */
    void init(int s, long nowPicos) {
    }

    /**
     * {@code cong_avoid}: grows the window of a cwnd-limited stream on an ACK that acknowledged new data in the Open or Loss
     * state.
     *
     * @param s the stream
     * @param ack the ACK's cumulative acknowledgement ({@code ack_seq}), bytes of sequence
     * @param acked packets newly acknowledged, at least 1
     * @param nowPicos the current virtual time
     */
    abstract void congAvoid(int s, long ack, int acked, long nowPicos);

    /**
     * {@code ssthresh}: called once when a loss is detected (fast retransmit, or the first RTO of an episode) with the
     * window at that moment; it may change the algorithm's own state.
     *
     * @param s the stream
     * @param nowPicos the current virtual time
     * @return the new slow-start threshold, packets
     */
    abstract int recalcSsthresh(int s, long nowPicos);

    /**
     * {@code set_state}: the stream enters a congestion-avoidance state; only {@link #CA_LOSS} (a retransmission timeout,
     * the threshold already set) matters to the algorithms here. Nothing by default.
     *
     * @param s the stream
     * @param caState the new {@code icsk_ca_state}, {@code TCP_CA_*}
     * @param nowPicos the current virtual time
     */
    void setState(int s, int caState, long nowPicos) {
    }

    /**
     * {@code pkts_acked}: the packets an ACK acknowledged and its RTT sample for the congestion control
     * ({@code ca_rtt_us}, see the class comment for which ACKs give one). Nothing by default.
     *
     * @param s the stream
     * @param ackedPackets packets newly acknowledged by this ACK (0 for an ACK that only SACKs)
     * @param rttPicos the sample, picoseconds, or -1 for none
     * @param nowPicos the current virtual time
     */
    void pktsAcked(int s, int ackedPackets, long rttPicos, long nowPicos) {
    }

    /**
     * {@code undo_cwnd}: the window to restore when a reduction proves spurious ({@code tcp_undo_cwnd_reduction}).
     *
     * @param s the stream
     * @return the window, packets
     */
    abstract int undoCwnd(int s);

    /**
     * {@code cwnd_event(CA_EVENT_TX_START)}: a data segment leaves with nothing in flight. Nothing by default.
     *
     * @param s the stream
     * @param lsndtimePicos {@code tp->lsndtime}: when the previous data segment was sent
     * @param nowPicos the current virtual time
     */
    void txStart(int s, long lsndtimePicos, long nowPicos) {
    }

    /**
     * {@code tcp_slow_start}: the window grows by the packets acknowledged, up to {@code ssthresh} (v3.19:
     * {@code ssthresh + 1}).
     *
     * @param s the stream
     * @param acked packets newly acknowledged
     * @return the acknowledged packets left over once the window reached {@code ssthresh}
     */
    final int slowStart(int s, int acked) {
        long cap = kernel.slowStartStrict() ? ssthresh[s] : ssthresh[s] + 1L;
        int w = (int) Math.min((long) cwnd[s] + acked, cap);
        acked -= w - cwnd[s];
        cwnd[s] = Math.min(w, clamp);
        return acked;
    }

    /**
     * {@code tcp_cong_avoid_ai}: additive increase, one packet per {@code w} packets acknowledged; credit accumulated at a
     * larger {@code w} is applied gently (one packet) when {@code w} shrinks.
     *
     * @param s the stream
     * @param w packets acknowledged per increase of one packet (Reno: the window; CUBIC: its {@code cnt})
     * @param acked packets newly acknowledged
     */
    final void congAvoidAi(int s, int w, int acked) {
        if (cwndCnt[s] >= w) {
            cwndCnt[s] = 0;
            cwnd[s]++;
        }
        cwndCnt[s] += acked;
        if (cwndCnt[s] >= w) {
            int delta = cwndCnt[s] / w;
            cwndCnt[s] -= delta * w;
            cwnd[s] += delta;
        }
        cwnd[s] = Math.min(cwnd[s], clamp);
    }

    /**
     * Hot swap: writes the windows and the algorithm's own state under {@code prefix.}.
     *
     * @param out where to write
     * @param prefix the sender's type
     */
    void exportState(ElementState out, String prefix) {
        out.put(prefix + ".congestion", name());
        out.put(prefix + ".cwnd", cwnd.clone());
        out.put(prefix + ".ssthresh", ssthresh.clone());
        out.put(prefix + ".cwndCnt", cwndCnt.clone());
        out.put(prefix + ".lossCwnd", lossCwnd.clone());
    }

    /**
     * Hot swap: takes over a predecessor's windows and state, if it ran the same algorithm.
     *
     * @param in what the predecessor wrote
     * @param prefix the sender's type
     * @return {@code false}, changing nothing, for another algorithm
     */
    boolean importState(ElementState in, String prefix) {
        if (!name().equals(in.get(prefix + ".congestion", String.class))) {
            return false;
        }
        Handovers.read(in, prefix + ".cwnd", cwnd);
        Handovers.read(in, prefix + ".ssthresh", ssthresh);
        Handovers.read(in, prefix + ".cwndCnt", cwndCnt);
        if (in.get(prefix + ".lossCwnd", int[].class) != null) { // a predecessor of before HyStart has none
            Handovers.read(in, prefix + ".lossCwnd", lossCwnd);
        }
        return true;
    }

    /** @return {@code tcp_in_slow_start}: the window is below the threshold (v3.19: not above it). */
    final boolean inSlowStart(int s) {
        return kernel.slowStartStrict() ? cwnd[s] < ssthresh[s] : cwnd[s] <= ssthresh[s];
    }
}

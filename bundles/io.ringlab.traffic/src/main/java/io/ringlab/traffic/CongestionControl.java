package io.ringlab.traffic;

import java.util.Arrays;

import io.ringlab.sim.api.ElementState;

/**
 * A congestion control algorithm over the windows of a sender's streams ({@code struct tcp_congestion_ops}): it grows
 * {@code snd_cwnd} on ACKs and gives the slow-start threshold after a loss. The windows are Linux's per-socket
 * {@code snd_cwnd}, {@code snd_ssthresh} and {@code snd_cwnd_cnt}, in packets, one entry per stream, owned here so that
 * the algorithms and their unit tests share them.
 * <p>
 * The shared helpers are {@code tcp_slow_start} and {@code tcp_cong_avoid_ai} of {@code net/ipv4/tcp_cong.c} in the form
 * they have had since the 2015 stretch-ACK fixes (v4.0): both take the number of packets acknowledged, so a delayed ACK
 * that covers two segments grows the window as two ACKs would. Slow start is {@code cwnd < ssthresh}
 * ({@code tcp_in_slow_start}, v4.3; 2014 kernels used {@code <=}). The caller checks {@code tcp_is_cwnd_limited} before
 * {@link #congAvoid}.
 * <p>
 * Not thread-safe: one sender, one engine thread.
 */
abstract class CongestionControl {
    /** {@code TCP_INFINITE_SSTHRESH} ({@code include/net/tcp.h}): the threshold before the first loss. */
    static final int INFINITE_SSTHRESH = 0x7fffffff;

    /** {@code snd_cwnd} per stream, packets. */
    final int[] cwnd;
    /** {@code snd_ssthresh} per stream, packets. */
    final int[] ssthresh;
    /** {@code snd_cwnd_cnt} per stream: ACKed packets counted towards the next increase in congestion avoidance. */
    final int[] cwndCnt;
    /** {@code snd_cwnd_clamp}: the largest window, packets. */
    final int clamp;

    /**
     * @param streams number of streams, at least 1
     * @param initialCwnd {@code TCP_INIT_CWND}, packets
     * @param initialSsthresh the first threshold, packets; 0 for {@link #INFINITE_SSTHRESH}
     * @param clamp the largest window, packets
     */
    CongestionControl(int streams, int initialCwnd, int initialSsthresh, int clamp) {
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
     * {@code cong_avoid}: grows the window of a cwnd-limited stream on an ACK that acknowledged new data in the Open or Loss
     * state.
     *
     * @param s the stream
     * @param acked packets newly acknowledged, at least 1
     * @param nowPicos the current virtual time
     */
    abstract void congAvoid(int s, int acked, long nowPicos);

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
     * {@code set_state(TCP_CA_Loss)}: a retransmission timeout. The caller has already set the threshold.
     *
     * @param s the stream
     */
    void onLossState(int s) {
    }

    /**
     * {@code pkts_acked}: a round-trip time sample (Karn's rule already applied).
     *
     * @param s the stream
     * @param rttPicos the sample, picoseconds
     * @param nowPicos the current virtual time
     */
    void rttSample(int s, long rttPicos, long nowPicos) {
    }

    /**
     * {@code tcp_slow_start}: the window grows by the packets acknowledged, up to {@code ssthresh}.
     *
     * @param s the stream
     * @param acked packets newly acknowledged
     * @return the acknowledged packets left over once the window reached {@code ssthresh}
     */
    final int slowStart(int s, int acked) {
        int w = (int) Math.min((long) cwnd[s] + acked, ssthresh[s]);
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
        return true;
    }

    /** @return {@code tcp_in_slow_start}: the window is below the threshold. */
    final boolean inSlowStart(int s) {
        return cwnd[s] < ssthresh[s];
    }
}

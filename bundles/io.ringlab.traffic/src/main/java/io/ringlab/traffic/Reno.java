package io.ringlab.traffic;

/**
 * TCP Reno's window rules as Linux implements them ({@code net/ipv4/tcp_cong.c}): {@code tcp_reno_cong_avoid} grows the
 * window by the packets acknowledged in slow start ({@code tcp_slow_start}, RFC 5681 §3.1) and by one packet per window
 * of acknowledged packets in congestion avoidance ({@code tcp_cong_avoid_ai}); {@code tcp_reno_ssthresh} halves the
 * window, at least 2 packets. The undo of a spurious reduction: v3.19 and v4.6 Reno has no {@code undo_cwnd}, so
 * {@code tcp_undo_cwnd_reduction} restores {@code max(cwnd, ssthresh << 1)}; 6.12's Reno (and CUBIC) has {@code .undo_cwnd = tcp_reno_undo_cwnd},
 * {@code max(cwnd, prior_cwnd)} (Yuchung Cheng's consolidation of the undo functions, v4.14, 2017; the commit id was not
 * checked here). Not thread-safe.
 */
final class Reno extends CongestionControl {

    Reno(int streams, int initialCwnd, int initialSsthresh, int clamp, Kernel kernel) {
        super(streams, initialCwnd, initialSsthresh, clamp, kernel);
    }

    @Override
    String name() {
        return "reno";
    }

    @Override
    void congAvoid(int s, long ack, int acked, long nowPicos) {
        if (inSlowStart(s)) {
            acked = slowStart(s, acked);
            if (acked == 0) {
                return;
            }
        }
        congAvoidAi(s, cwnd[s], acked);
    }

    @Override
    int recalcSsthresh(int s, long nowPicos) {
        lossCwnd[s] = cwnd[s]; // prior_cwnd
        return Math.max(cwnd[s] >> 1, 2);
    }

    @Override
    int undoCwnd(int s) {
        if (kernel == Kernel.CURRENT) {
            return Math.max(cwnd[s], lossCwnd[s]); // tcp_reno_undo_cwnd
        }
        return (int) Math.min(Math.max(cwnd[s], (long) ssthresh[s] << 1), clamp); // tcp_undo_cwnd_reduction's fallback
    }
}

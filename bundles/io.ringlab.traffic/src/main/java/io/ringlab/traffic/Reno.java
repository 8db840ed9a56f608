package io.ringlab.traffic;

/**
 * TCP Reno's window rules as Linux implements them ({@code net/ipv4/tcp_cong.c}): {@code tcp_reno_cong_avoid} grows the
 * window by the packets acknowledged in slow start ({@code tcp_slow_start}, RFC 5681 §3.1) and by one packet per window
 * of acknowledged packets in congestion avoidance ({@code tcp_cong_avoid_ai}); {@code tcp_reno_ssthresh} halves the
 * window, at least 2 packets. Not thread-safe.
 */
final class Reno extends CongestionControl {

    Reno(int streams, int initialCwnd, int initialSsthresh, int clamp) {
        super(streams, initialCwnd, initialSsthresh, clamp);
    }

    @Override
    String name() {
        return "reno";
    }

    @Override
    void congAvoid(int s, int acked, long nowPicos) {
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
        return Math.max(cwnd[s] >> 1, 2);
    }
}

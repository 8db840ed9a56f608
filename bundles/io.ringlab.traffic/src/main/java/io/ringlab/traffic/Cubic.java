package io.ringlab.traffic;

import java.util.Arrays;

import io.ringlab.sim.api.ElementState;

/**
 * CUBIC as {@code net/ipv4/tcp_cubic.c} computes it (the form after the 2015 fixes, v4.0, that pass the number of
 * acknowledged packets and bound the growth to 1.5x per RTT), in the kernel's own fixed-point arithmetic:
 * <ul>
 * <li>the window function {@code W(t) = C (t - K)^3 + W_max} with {@code C = bic_scale * 10 / 1024 = 410/1024}
 * (about 0.4) and time in units of 1/1024 s ({@code BICTCP_HZ} = 10), {@code K = cbrt(cube_factor * (W_max - cwnd))} with
 * {@code cube_factor = 2^40 / 410}; the target is evaluated one minimum RTT ahead ({@code t + delay_min}) and the window
 * grows by one packet every {@code cnt = cwnd / (target - cwnd)} acknowledged packets ({@code bictcp_update});</li>
 * <li>multiplicative decrease {@code beta = 717/1024} (about 0.7) and fast convergence: after a loss below the previous
 * {@code W_max}, {@code W_max = cwnd * (1 + beta) / 2} ({@code bictcp_recalc_ssthresh});</li>
 * <li>the TCP-friendly region: an estimate of Reno's window ({@code tcp_cwnd}, one packet per {@code 8 / beta_scale} =
 * {@code 8/15} of a window of ACKs, {@code beta_scale = 8 (1024 + 717) / 3 / (1024 - 717) = 15}) bounds {@code cnt} from
 * above;</li>
 * <li>the first epoch after start or a timeout ({@code last_max_cwnd = 0}) grows at least 5 % per RTT ({@code cnt <= 20});
 * {@code cnt >= 2}; the time is the kernel's jiffies at {@code hz}.</li>
 * </ul>
 * Simplifications, stated: HyStart is not modelled (slow start runs until a loss or {@code initialSsthresh}); the cube root
 * is exact (the kernel's {@code cubic_root} approximates it with a table and one Newton-Raphson step); an epoch that has not
 * started is -1 rather than 0; the undo of a spurious reduction is not modelled. Not thread-safe.
 *
 * @see <a href="https://www.rfc-editor.org/rfc/rfc8312">RFC 8312, CUBIC for Fast Long-Distance Networks</a>
 */
final class Cubic extends CongestionControl {
    /** {@code beta}: multiplicative decrease factor, scaled by {@link #BETA_SCALE}. */
    static final int BETA = 717;
    /** {@code BICTCP_BETA_SCALE}. */
    static final int BETA_SCALE = 1024;
    /** {@code bic_scale}: C = bic_scale * 10 / 1024. */
    static final int BIC_SCALE = 41;
    /** {@code BICTCP_HZ}: time in the cubic function is in units of 2^-10 s. */
    static final int BICTCP_HZ = 10;
    /** {@code cube_rtt_scale = bic_scale * 10}. */
    static final long CUBE_RTT_SCALE = BIC_SCALE * 10;
    /** {@code cube_factor = 2^(10 + 3 BICTCP_HZ) / (bic_scale * 10)}. */
    static final long CUBE_FACTOR = (1L << (10 + 3 * BICTCP_HZ)) / (BIC_SCALE * 10);
    /** {@code beta_scale = 8 (BETA_SCALE + beta) / 3 / (BETA_SCALE - beta)}: TCP-friendly growth, integer arithmetic. */
    static final int FRIENDLY_SCALE = 8 * (BETA_SCALE + BETA) / 3 / (BETA_SCALE - BETA);
    /** C as a real number, for documentation and tests: 410/1024. */
    static final double C = CUBE_RTT_SCALE / 1024.0;

    private final int hz;
    private final int[] cnt;
    private final int[] lastMaxCwnd;
    private final int[] lastCwnd;
    private final long[] lastTime;
    private final int[] originPoint;
    /** K in units of 2^-10 s. */
    private final long[] bicK;
    /** Minimum RTT seen, microseconds; 0 before the first sample. */
    private final long[] delayMinMicros;
    /** Jiffies at the start of the epoch, -1 when none has started. */
    private final long[] epochStart;
    private final int[] ackCnt;
    private final int[] tcpCwnd;

    /**
     * @param streams streams
     * @param initialCwnd first window, packets
     * @param initialSsthresh first threshold, packets, 0 for infinite ({@code initial_ssthresh})
     * @param clamp the largest window, packets
     * @param hz the kernel's HZ: the clock of {@code bictcp_update} is jiffies
     */
    Cubic(int streams, int initialCwnd, int initialSsthresh, int clamp, int hz) {
        super(streams, initialCwnd, initialSsthresh, clamp);
        this.hz = hz;
        cnt = new int[streams];
        lastMaxCwnd = new int[streams];
        lastCwnd = new int[streams];
        lastTime = new long[streams];
        originPoint = new int[streams];
        bicK = new long[streams];
        delayMinMicros = new long[streams];
        epochStart = new long[streams];
        ackCnt = new int[streams];
        tcpCwnd = new int[streams];
        Arrays.fill(epochStart, -1);
    }

    @Override
    String name() {
        return "cubic";
    }

    /** Also the cubic state of each stream: epoch, origin point, K, minimum delay, the Reno estimate. */
    @Override
    void exportState(ElementState out, String prefix) {
        super.exportState(out, prefix);
        out.put(prefix + ".cubicCnt", cnt.clone());
        out.put(prefix + ".cubicLastMaxCwnd", lastMaxCwnd.clone());
        out.put(prefix + ".cubicLastCwnd", lastCwnd.clone());
        out.put(prefix + ".cubicLastTime", lastTime.clone());
        out.put(prefix + ".cubicOriginPoint", originPoint.clone());
        out.put(prefix + ".cubicK", bicK.clone());
        out.put(prefix + ".cubicDelayMinMicros", delayMinMicros.clone());
        out.put(prefix + ".cubicEpochStart", epochStart.clone());
        out.put(prefix + ".cubicAckCnt", ackCnt.clone());
        out.put(prefix + ".cubicTcpCwnd", tcpCwnd.clone());
    }

    @Override
    boolean importState(ElementState in, String prefix) {
        if (!super.importState(in, prefix)) {
            return false;
        }
        Handovers.read(in, prefix + ".cubicCnt", cnt);
        Handovers.read(in, prefix + ".cubicLastMaxCwnd", lastMaxCwnd);
        Handovers.read(in, prefix + ".cubicLastCwnd", lastCwnd);
        Handovers.read(in, prefix + ".cubicLastTime", lastTime);
        Handovers.read(in, prefix + ".cubicOriginPoint", originPoint);
        Handovers.read(in, prefix + ".cubicK", bicK);
        Handovers.read(in, prefix + ".cubicDelayMinMicros", delayMinMicros);
        Handovers.read(in, prefix + ".cubicEpochStart", epochStart);
        Handovers.read(in, prefix + ".cubicAckCnt", ackCnt);
        Handovers.read(in, prefix + ".cubicTcpCwnd", tcpCwnd);
        return true;
    }

    /** @return the kernel's jiffies at {@code nowPicos}, exactly {@code floor(now * hz / 10^12)}. */
    long jiffies(long nowPicos) {
        long seconds = nowPicos / 1_000_000_000_000L;
        long rest = nowPicos % 1_000_000_000_000L;
        return seconds * hz + rest * hz / 1_000_000_000_000L;
    }

    /** {@code bictcp_reset}: everything back to zero (a timeout). */
    private void reset(int s) {
        cnt[s] = 0;
        lastMaxCwnd[s] = 0;
        lastCwnd[s] = 0;
        lastTime[s] = 0;
        originPoint[s] = 0;
        bicK[s] = 0;
        delayMinMicros[s] = 0;
        epochStart[s] = -1;
        ackCnt[s] = 0;
        tcpCwnd[s] = 0;
    }

    @Override
    void congAvoid(int s, int acked, long nowPicos) {
        if (inSlowStart(s)) {
            acked = slowStart(s, acked);
            if (acked == 0) {
                return;
            }
        }
        update(s, cwnd[s], acked, jiffies(nowPicos));
        congAvoidAi(s, cnt[s], acked);
    }

    /** {@code bictcp_update}: computes {@code cnt}, the packets to acknowledge per increase of one packet. */
    void update(int s, int w, int acked, long now) {
        ackCnt[s] += acked;
        if (lastCwnd[s] == w && now - lastTime[s] <= hz / 32) {
            return;
        }
        // the cubic function updates cnt at most once per jiffy; every reduction ends the epoch and forces a recalculation
        if (!(epochStart[s] >= 0 && now == lastTime[s])) {
            lastCwnd[s] = w;
            lastTime[s] = now;
            if (epochStart[s] < 0) {
                epochStart[s] = now;
                ackCnt[s] = acked;
                tcpCwnd[s] = w;
                if (lastMaxCwnd[s] <= w) {
                    bicK[s] = 0;
                    originPoint[s] = w;
                } else {
                    bicK[s] = cubeRoot(CUBE_FACTOR * (lastMaxCwnd[s] - w));
                    originPoint[s] = lastMaxCwnd[s];
                }
            }
            // t in 2^-10 s, one minimum RTT ahead
            long t = now - epochStart[s] + usecsToJiffies(delayMinMicros[s]);
            t = (t << BICTCP_HZ) / hz;
            long offs = Math.min(Math.abs(t - bicK[s]), 1L << 17); // 128 s: keeps offs^3 * 410 inside a long
            long delta = (CUBE_RTT_SCALE * offs * offs * offs) >> (10 + 3 * BICTCP_HZ);
            long target = t < bicK[s] ? originPoint[s] - delta : originPoint[s] + delta;
            if (target > w) {
                cnt[s] = (int) (w / (target - w));
            } else {
                cnt[s] = 100 * w; // very small increment
            }
            if (lastMaxCwnd[s] == 0 && cnt[s] > 20) {
                cnt[s] = 20; // the initial growth may be too conservative while the bandwidth is unknown: 5 % per RTT
            }
        }
        // TCP friendliness: Reno's window estimate grows one packet per (8 / beta_scale) * cwnd ACKed packets
        int d = (w * FRIENDLY_SCALE) >> 3;
        if (d > 0) {
            while (ackCnt[s] > d) {
                ackCnt[s] -= d;
                tcpCwnd[s]++;
            }
        }
        if (tcpCwnd[s] > w) {
            int maxCnt = w / (tcpCwnd[s] - w);
            if (cnt[s] > maxCnt) {
                cnt[s] = maxCnt;
            }
        }
        cnt[s] = Math.max(cnt[s], 2); // at most 1 packet per 2 ACKed: 1.5x per RTT
    }

    @Override
    int recalcSsthresh(int s, long nowPicos) {
        epochStart[s] = -1; // end of the epoch
        int w = cwnd[s];
        if (w < lastMaxCwnd[s]) {
            lastMaxCwnd[s] = (int) ((long) w * (BETA_SCALE + BETA) / (2 * BETA_SCALE)); // fast convergence
        } else {
            lastMaxCwnd[s] = w;
        }
        return Math.max((int) ((long) w * BETA / BETA_SCALE), 2);
    }

    @Override
    void onLossState(int s) {
        reset(s);
    }

    @Override
    void rttSample(int s, long rttPicos, long nowPicos) {
        long now = jiffies(nowPicos);
        if (epochStart[s] >= 0 && now - epochStart[s] < hz) {
            return; // discard delay samples right after fast recovery
        }
        long delay = Math.max(1, rttPicos / 1_000_000L);
        if (delayMinMicros[s] == 0 || delayMinMicros[s] > delay) {
            delayMinMicros[s] = delay;
        }
    }

    /** {@code usecs_to_jiffies}: rounds up. */
    private long usecsToJiffies(long micros) {
        return (micros * hz + 999_999) / 1_000_000;
    }

    /**
     * @param a a non-negative number
     * @return {@code floor(cbrt(a))}, exact
     */
    static long cubeRoot(long a) {
        long r = (long) Math.cbrt((double) a);
        while (r > 0 && r * r * r > a) {
            r--;
        }
        while ((r + 1) * (r + 1) * (r + 1) <= a) {
            r++;
        }
        return r;
    }

    /** @return {@code bic_origin_point}, the W_max of the current epoch, packets; 0 before the first epoch. */
    int originPoint(int s) {
        return originPoint[s];
    }

    /** @return {@code last_max_cwnd}, packets. */
    int lastMaxCwnd(int s) {
        return lastMaxCwnd[s];
    }

    /** @return K of the current epoch in seconds. */
    double kSeconds(int s) {
        return bicK[s] / 1024.0;
    }

    /** @return the start of the current epoch in seconds of virtual time, or -1 when no epoch runs. */
    double epochStartSeconds(int s) {
        return epochStart[s] < 0 ? -1 : (double) epochStart[s] / hz;
    }

    /** @return the minimum RTT in seconds, 0 before the first sample. */
    double delayMinSeconds(int s) {
        return delayMinMicros[s] / 1e6;
    }

    /** @return {@code cnt}: packets to acknowledge per increase of one packet. */
    int cnt(int s) {
        return cnt[s];
    }
}

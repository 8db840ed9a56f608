package io.ringlab.traffic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** tcp_cubic.c's window function, decrease, fast convergence and TCP-friendly region, driven by a synthetic ACK clock. */
class CubicTest {
    private static final long MS = 1_000_000_000L;
    private static final double BETA = Cubic.BETA / 1024.0;

    /** K = cbrt(W_max (1 - beta) / C), the time the window function takes back to W_max. */
    private static double k(double wMax) {
        return Math.cbrt(wMax * (1 - BETA) / Cubic.C);
    }

    /** W(t) = C (t - K)^3 + W_max. */
    private static double w(double wMax, double t) {
        double d = t - k(wMax);
        return Cubic.C * d * d * d + wMax;
    }

    /**
     * A loss at {@code wMax}, then an ACK clock of constant RTT: each RTT acknowledges the window one packet at a time, evenly
     * spaced. Returns the window at the start of every RTT, from the first RTT of the epoch.
     */
    private static int[] afterALoss(Cubic c, int wMax, long rttPicos, int rtts) {
        c.cwnd[0] = wMax;
        c.ssthresh[0] = c.recalcSsthresh(0, 0);
        c.cwnd[0] = c.ssthresh[0];
        c.pktsAcked(0, 1, rttPicos, 0);
        int[] sampled = new int[rtts];
        long t = 0;
        for (int r = 0; r < rtts; r++) {
            sampled[r] = c.cwnd[0];
            int n = c.cwnd[0];
            for (int i = 0; i < n; i++) {
                c.congAvoid(0, 0, 1, t + i * rttPicos / n);
            }
            t += rttPicos;
        }
        return sampled;
    }

    @Test
    void theConstantsAreTheKernels() {
        assertEquals(410, Cubic.CUBE_RTT_SCALE, "bic_scale 41 * 10");
        assertEquals(2681735677L, Cubic.CUBE_FACTOR, "2^40 / 410");
        assertEquals(15, Cubic.FRIENDLY_SCALE, "8 * (1024 + 717) / 3 / (1024 - 717)");
        assertEquals(0.4, Cubic.C, 0.001);
    }

    @Test
    void aLossMultipliesTheWindowByBetaAndRemembersItAsWmax() {
        Cubic c = new Cubic(1, 10, 0, 4096, 1000, Kernel.CURRENT, false, 0, null);
        c.cwnd[0] = 1000;
        assertEquals(700, c.recalcSsthresh(0, 0), "1000 * 717 / 1024 = 700.2");
        assertEquals(1000, c.lastMaxCwnd(0));
        c.cwnd[0] = 2;
        assertEquals(2, c.recalcSsthresh(0, 0), "at least 2 packets");
    }

    @Test
    void fastConvergenceLowersWmaxWhenTheLossComesBelowThePreviousOne() {
        Cubic c = new Cubic(1, 10, 0, 4096, 1000, Kernel.CURRENT, false, 0, null);
        c.cwnd[0] = 1000;
        c.recalcSsthresh(0, 0);
        c.cwnd[0] = 800;
        c.recalcSsthresh(0, 0);
        assertEquals(800 * (1024 + 717) / 2048, c.lastMaxCwnd(0), "W_max = cwnd (1 + beta) / 2 = 680");
    }

    @Test
    void theWindowFollowsTheCubicFunctionAfterALoss() {
        Cubic c = new Cubic(1, 10, 0, 4096, 1000, Kernel.CURRENT, false, 0, null);
        long rtt = 100 * MS;
        int wMax = 1000;
        int[] cwnd = afterALoss(c, wMax, rtt, 120); // 12 s: past K = 9.09 s into the convex region
        assertEquals(k(wMax), c.kSeconds(0), 0.005, "the kernel's K in 2^-10 s units against cbrt(W_max (1 - beta) / C)");
        double worst = 0;
        for (int r = 1; r < cwnd.length; r++) {
            double t = r * 0.1;
            double expected = w(wMax, t);
            worst = Math.max(worst, Math.abs(cwnd[r] - expected) / wMax);
        }
        // the target is W(t + RTT) and the window reaches it within one RTT of ACKs, so cwnd(t) stays close to W(t)
        assertTrue(worst < 0.01, "largest deviation from W(t), as a fraction of W_max: " + worst);
        assertEquals(wMax, cwnd[91], 3, "back at W_max after K");
    }

    @Test
    void theFirstEpochGrowsAtLeastFivePercentPerRtt() {
        // initial_ssthresh = 100: congestion avoidance from 100 packets
        Cubic c = new Cubic(1, 10, 100, 4096, 1000, Kernel.CURRENT, false, 0, null);
        c.cwnd[0] = 100;
        c.pktsAcked(0, 1, 100 * MS, 0);
        long t = 0;
        for (int r = 0; r < 10; r++) {
            int n = c.cwnd[0];
            for (int i = 0; i < n; i++) {
                c.congAvoid(0, 0, 1, t + i * 100 * MS / n);
            }
            t += 100 * MS;
        }
        // last_max_cwnd = 0 caps cnt at 20: one packet per 20 ACKed, 5 % per RTT, 1.05^10 = 1.63
        assertEquals(163, c.cwnd[0], 3);
    }

    @Test
    void inTheTcpFriendlyRegionTheWindowGrowsAtLeastAsRenosEstimate() {
        // a short RTT makes the cubic function slow per RTT: Reno's estimate (3 (1 - beta) / (1 + beta) per RTT) takes over
        Cubic c = new Cubic(1, 10, 0, 4096, 1000, Kernel.CURRENT, false, 0, null);
        long rtt = MS;
        int wMax = 100;
        int[] cwnd = afterALoss(c, wMax, rtt, 1000); // 1 s, while K = 4.2 s
        double perRtt = 3 * (1 - BETA) / (1 + BETA);
        double reno = BETA * wMax + perRtt * 999;
        double cubic = w(wMax, 0.999);
        assertTrue(cubic < reno, "the test needs the friendly region: W(t) " + cubic + " below Reno's " + reno);
        assertEquals(reno, cwnd[999], 0.05 * reno, "Reno's estimate, not W(t) = " + cubic);
    }

    @Test
    void slowStartGrowsByThePacketsAcknowledged() {
        Cubic c = new Cubic(1, 10, 0, 4096, 1000, Kernel.CURRENT, false, 0, null);
        c.congAvoid(0, 0, 2, 0);
        assertEquals(12, c.cwnd[0]);
    }

    @Test
    void theJiffiesAreExact() {
        Cubic c = new Cubic(1, 10, 0, 4096, 300, Kernel.CURRENT, false, 0, null);
        assertEquals(299, c.jiffies(999_999_999_999L), "HZ=300, just below one second");
        assertEquals(300, c.jiffies(1_000_000_000_000L));
        assertEquals(3L * 300 * 86_400, c.jiffies(3L * 86_400 * 1_000_000_000_000L), "three days without overflow");
    }

    @Test
    void theCubeRootIsTheFloor() {
        assertEquals(0, Cubic.cubeRoot(0));
        assertEquals(9, Cubic.cubeRoot(999));
        assertEquals(10, Cubic.cubeRoot(1000));
        assertEquals(20_000, Cubic.cubeRoot(8_000_000_000_000L));
        assertEquals(19_999, Cubic.cubeRoot(8_000_000_000_000L - 1));
    }
}

package io.ringlab.traffic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** tcp_reno_cong_avoid, tcp_slow_start, tcp_cong_avoid_ai and tcp_reno_ssthresh. */
class RenoTest {

    @Test
    void slowStartDoublesTheWindowEveryRoundTrip() {
        Reno r = new Reno(1, 10, 0, 4096, Kernel.CURRENT);
        for (int rtt = 0; rtt < 3; rtt++) {
            int n = r.cwnd[0];
            for (int i = 0; i < n; i++) {
                r.congAvoid(0, 0, 1, 0);
            }
        }
        assertEquals(80, r.cwnd[0]);
    }

    @Test
    void slowStartStopsAtSsthreshAndTheRestGoesToCongestionAvoidance() {
        Reno r = new Reno(1, 10, 12, 4096, Kernel.CURRENT);
        r.congAvoid(0, 0, 4, 0); // 2 take the window to ssthresh 12, 2 count towards the next increase
        assertEquals(12, r.cwnd[0]);
        assertEquals(2, r.cwndCnt[0]);
    }

    @Test
    void congestionAvoidanceAddsOnePacketPerWindowOfAckedPackets() {
        Reno r = new Reno(1, 100, 50, 4096, Kernel.CURRENT);
        for (int i = 0; i < 99; i++) {
            r.congAvoid(0, 0, 1, 0);
        }
        assertEquals(100, r.cwnd[0]);
        r.congAvoid(0, 0, 1, 0);
        assertEquals(101, r.cwnd[0]);
        for (int i = 0; i < 50; i++) {
            r.congAvoid(0, 0, 2, 0); // delayed ACKs: the packets count, not the ACKs
        }
        assertEquals(101, r.cwnd[0]);
        r.congAvoid(0, 0, 2, 0);
        assertEquals(102, r.cwnd[0], "101 packets acknowledged at w = 101");
    }

    @Test
    void creditGatheredAtALargerWindowIsAppliedGently() {
        Reno r = new Reno(1, 100, 20, 4096, Kernel.CURRENT);
        r.cwndCnt[0] = 99;
        r.cwnd[0] = 40; // after a reduction: cnt >= w gives one packet, not two
        r.congAvoid(0, 0, 1, 0);
        assertEquals(41, r.cwnd[0]);
        assertEquals(1, r.cwndCnt[0]);
    }

    @Test
    void ssthreshIsHalfTheWindowAndAtLeastTwo() {
        Reno r = new Reno(1, 10, 0, 4096, Kernel.CURRENT);
        r.cwnd[0] = 101;
        assertEquals(50, r.recalcSsthresh(0, 0));
        r.cwnd[0] = 3;
        assertEquals(2, r.recalcSsthresh(0, 0));
    }

    @Test
    void theWindowNeverExceedsTheClamp() {
        Reno r = new Reno(1, 10, 0, 16, Kernel.CURRENT);
        r.congAvoid(0, 0, 100, 0);
        assertEquals(16, r.cwnd[0]);
        assertEquals(CongestionControl.INFINITE_SSTHRESH, r.ssthresh[0]);
    }
}

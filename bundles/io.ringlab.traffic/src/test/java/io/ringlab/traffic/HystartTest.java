package io.ringlab.traffic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * CUBIC's HyStart ({@code hystart_update}, {@code bictcp_acked}, {@code bictcp_hystart_reset} of tcp_cubic.c) per kernel,
 * and the other era differences of {@link Cubic} and {@link CongestionControl}: ACK-train and delay exits, the round
 * reset, the clocks, the v5.8 {@code curr_rtt} fix, the pacing cushion, the undo, the idle shift, v3.19's slow start.
 */
class HystartTest {
    private static final long US = 1_000_000L;
    private static final long MS = 1_000_000_000L;
    private static final long SEC = 1_000_000_000_000L;
    private static final int MSS = 1448;

    /** The sender's fields that HyStart reads. */
    private static final class FakeSock implements CongestionControl.Sock {
        long nxt = 1_000 * MSS, una, rate;
        boolean paced;

        @Override
        public long sndNxt(int s) {
            return nxt;
        }

        @Override
        public long sndUna(int s) {
            return una;
        }

        @Override
        public long pacingRate(int s) {
            return rate;
        }

        @Override
        public boolean paced(int s) {
            return paced;
        }
    }

    private final FakeSock sock = new FakeSock();

    /** A connection established at {@code t0} with a window of {@code cwnd}, HZ 1000. */
    private Cubic established(Kernel k, boolean hystart, int cwnd, long t0) {
        Cubic c = new Cubic(1, 10, 0, 4096, 1000, k, hystart, Tcp.GSO_MAX_SIZE, sock);
        c.init(0, t0);
        c.cwnd[0] = cwnd;
        return c;
    }

    /** {@code n} ACKs spaced {@code spacing} after {@code t0}, each with an RTT sample {@code rtt}; returns the time of the last. */
    private static long acks(Cubic c, long t0, long spacing, int n, long rtt) {
        long t = t0;
        for (int i = 0; i < n; i++) {
            t += spacing;
            c.pktsAcked(0, 1, rtt, t);
        }
        return t;
    }

    private static long exits(Cubic c) {
        return c.trainExits() + c.delayExits();
    }

    // ------------------------------------------------------------------ ACK train

    @ParameterizedTest
    @EnumSource(Kernel.class)
    void anAckTrainLongerThanHalfTheMinimumRttEndsSlowStart(Kernel k) {
        Cubic c = established(k, true, 16, 100 * MS);
        long t = acks(c, 100 * MS, MS, 20, 40 * MS); // 1 ms apart (below the 2 ms delta) for 20 ms = delay_min / 2
        assertEquals(0, exits(c), "a train of exactly half the RTT is not longer than it");
        assertEquals(CongestionControl.INFINITE_SSTHRESH, c.ssthresh[0]);
        acks(c, t, MS, 1, 40 * MS);
        assertEquals(1, c.trainExits(), "the 21st ms of the train");
        assertEquals(0, c.delayExits(), "a constant RTT is no delay increase");
        assertEquals(16, c.ssthresh[0], "ssthresh = cwnd");
        acks(c, t + MS, MS, 30, 40 * MS);
        assertEquals(1, exits(c), "found: no second exit until a timeout");
    }

    @ParameterizedTest
    @EnumSource(Kernel.class)
    void belowHystartLowWindowTheTrainIsNotLookedAt(Kernel k) {
        Cubic c = established(k, true, 15, 100 * MS);
        acks(c, 100 * MS, MS, 40, 40 * MS);
        assertEquals(0, exits(c));
        assertEquals(CongestionControl.INFINITE_SSTHRESH, c.ssthresh[0]);
    }

    @ParameterizedTest
    @EnumSource(Kernel.class)
    void acksSpacedAboveTheDeltaAreNoTrain(Kernel k) {
        Cubic c = established(k, true, 16, 100 * MS);
        acks(c, 100 * MS, 3 * MS, 40, 40 * MS); // 120 ms of ACKs 3 ms apart
        assertEquals(0, exits(c));
    }

    @ParameterizedTest
    @EnumSource(Kernel.class)
    void withoutHystartNeitherDetectorExits(Kernel k) {
        Cubic train = established(k, false, 16, 0);
        acks(train, 0, MS, 40, 40 * MS); // a 40 ms train from the (never reset) round start at 0
        assertEquals(0, exits(train));
        assertEquals(CongestionControl.INFINITE_SSTHRESH, train.ssthresh[0]);
        Cubic delay = established(k, false, 16, 0);
        long t = acks(delay, 0, 3 * MS, 8, 60 * MS); // curr_rtt 60 ms, then delay_min drops to 40 ms
        acks(delay, t, 3 * MS, 8, 40 * MS);
        assertEquals(0, exits(delay));
    }

    /** The clocks: v3.19/v4.6 count whole ms and half a 200 us RTT is 0 ms; 6.12 counts us (Dec 2019 series). */
    @ParameterizedTest
    @EnumSource(Kernel.class)
    void aSubMillisecondRttMeetsTheMillisecondClock(Kernel k) {
        Cubic c = established(k, true, 16, 950 * US);
        acks(c, 950 * US, 10 * US, 5, 200 * US); // a 50 us train that crosses a ms boundary
        assertEquals(k == Kernel.CURRENT ? 0 : 1, c.trainExits(),
                "ms clock: any train that sees the clock tick exits; us clock: 50 us is not half of 200 us");
    }

    @Test
    void currentAddsTheTsoCushionAndDoesNotHalveWhenPaced() {
        Cubic bare = established(Kernel.CURRENT, true, 16, 0);
        acks(bare, 0, 250 * US, 81, 40 * MS); // 20.25 ms > 40 ms / 2
        assertEquals(1, bare.trainExits());

        sock.rate = 100_000_000; // 100 MB/s: 4 * 65536 B take 2.6 ms, capped to 1 ms
        Cubic cushioned = established(Kernel.CURRENT, true, 16, 0);
        assertEquals(1000, cushioned.ackDelay(0));
        long t = acks(cushioned, 0, 250 * US, 82, 40 * MS); // 20.5 ms, not above (40 + 1) / 2 ms
        assertEquals(0, cushioned.trainExits());
        acks(cushioned, t, 250 * US, 1, 40 * MS);
        assertEquals(1, cushioned.trainExits(), "20.75 ms");

        sock.rate = 0;
        sock.paced = true;
        Cubic paced = established(Kernel.CURRENT, true, 16, 0);
        acks(paced, 0, MS, 40, 40 * MS); // 40 ms: not above the whole delay_min
        assertEquals(0, paced.trainExits());
        acks(paced, 40 * MS, MS, 1, 40 * MS);
        assertEquals(1, paced.trainExits());
    }

    // ------------------------------------------------------------------ delay

    /** delay_min 40 ms from a first round, then a new round of samples at {@code rtt}, 3 ms apart (no train). */
    private Cubic newRoundAfter40ms(Kernel k) {
        Cubic c = established(k, true, 16, 0);
        c.pktsAcked(0, 1, 40 * MS, MS);
        passEndSeq(c, k, 2 * MS);
        return c;
    }

    /** An ACK past {@code end_seq}: the round ends (v3.19/v4.6 in cong_avoid, current at the next sample). */
    private void passEndSeq(Cubic c, Kernel k, long t) {
        long ack = c.hystartEndSeq(0) + MSS;
        sock.una = ack;
        sock.nxt = ack + 1_000 * MSS;
        c.congAvoid(0, ack, 1, t);
    }

    @ParameterizedTest
    @EnumSource(Kernel.class)
    void eightSamplesAboveTheThresholdEndSlowStartOnTheNinth(Kernel k) {
        Cubic c = newRoundAfter40ms(k);
        int w = c.cwnd[0];
        // threshold: delay_min / 8 = 5 ms in every era (clamped to 4..16 ms); 46 ms is above 45
        long t = acks(c, 2 * MS, 3 * MS, 8, 46 * MS);
        assertEquals(0, exits(c), "eight samples only fill curr_rtt");
        acks(c, t, 3 * MS, 1, 46 * MS);
        assertEquals(1, c.delayExits());
        assertEquals(0, c.trainExits());
        assertEquals(w, c.ssthresh[0]);
    }

    @ParameterizedTest
    @EnumSource(Kernel.class)
    void sevenSamplesDoNotAndNeitherDoesADelayWithinTheThreshold(Kernel k) {
        Cubic c = newRoundAfter40ms(k);
        acks(c, 2 * MS, 3 * MS, 8, 46 * MS); // seven samples and the eighth
        assertEquals(0, exits(c));
        Cubic within = newRoundAfter40ms(k);
        acks(within, 2 * MS, 3 * MS, 20, 44 * MS); // 44 ms: 4 ms above, below 5
        assertEquals(0, exits(within));
    }

    @ParameterizedTest
    @EnumSource(Kernel.class)
    void theDelayThresholdIsClampedTo16Ms(Kernel k) {
        Cubic c = established(k, true, 16, 0);
        c.pktsAcked(0, 1, 200 * MS, MS); // RTT / 8 = 25 ms, clamped to 16
        passEndSeq(c, k, 2 * MS);
        acks(c, 2 * MS, 3 * MS, 20, 215 * MS);
        assertEquals(0, exits(c), "15 ms above");
        Cubic d = established(k, true, 16, 0);
        d.pktsAcked(0, 1, 200 * MS, MS);
        passEndSeq(d, k, 2 * MS);
        acks(d, 2 * MS, 3 * MS, 9, 217 * MS);
        assertEquals(1, d.delayExits(), "17 ms above");
    }

    /** Mirja Kuehlewind's case, fixed by b344579ca847 (v5.8): a drop of delay_min after the 8th sample. */
    @ParameterizedTest
    @EnumSource(Kernel.class)
    void aDropOfTheMinimumAfterEightSamplesIsNoDelayIncreaseSinceV58(Kernel k) {
        Cubic c = established(k, true, 16, 0);
        long t = acks(c, 0, 3 * MS, 8, 150 * MS);
        acks(c, t, 3 * MS, 1, 100 * MS);
        assertEquals(k == Kernel.CURRENT ? 0 : 1, c.delayExits(),
                "v3.19/v4.6 keep curr_rtt 150 ms against delay_min 100 ms (+12.5): a spurious exit");
    }

    // ------------------------------------------------------------------ rounds

    @ParameterizedTest
    @EnumSource(Kernel.class)
    void aRoundResetsWhenTheAckPassesEndSeq(Kernel k) {
        Cubic c = newRoundAfter40ms(k);
        long t = acks(c, 2 * MS, 3 * MS, 8, 46 * MS); // curr_rtt full: the next sample would exit
        long end = c.hystartEndSeq(0);
        c.congAvoid(0, end, 1, t); // not after end_seq
        sock.una = end;
        assertEquals(8, c.hystartSamples(0), "an ACK of end_seq itself ends no round");
        passEndSeq(c, k, t + MS);
        long next = sock.nxt;
        acks(c, t + MS, 3 * MS, 1, 46 * MS);
        assertEquals(0, exits(c), "a new round: curr_rtt starts again");
        assertEquals(1, c.hystartSamples(0));
        assertEquals(next, c.hystartEndSeq(0), "end_seq = snd_nxt at the reset");
    }

    @Test
    void inCurrentTheRoundEndsBySndUnaAtASampleNotInCongAvoid() {
        Cubic c = newRoundAfter40ms(Kernel.CURRENT);
        long t = acks(c, 2 * MS, 3 * MS, 8, 46 * MS);
        long end = c.hystartEndSeq(0);
        c.congAvoid(0, end + 10 * MSS, 1, t); // v3.19/v4.6 would reset here; 6.12 does not look at the ACK
        assertEquals(8, c.hystartSamples(0));
        acks(c, t, 3 * MS, 1, 46 * MS); // snd_una is still end_seq: the same round, the 9th sample
        assertEquals(1, c.delayExits());
    }

    @ParameterizedTest
    @EnumSource(Kernel.class)
    void aTimeoutClearsFoundAndStartsARound(Kernel k) {
        Cubic c = established(k, true, 16, 100 * MS);
        acks(c, 100 * MS, MS, 21, 40 * MS);
        assertEquals(1, c.trainExits());
        c.ssthresh[0] = CongestionControl.INFINITE_SSTHRESH;
        c.cwnd[0] = 16;
        c.setState(0, CongestionControl.CA_LOSS, 200 * MS); // bictcp_state: bictcp_reset + bictcp_hystart_reset
        acks(c, 200 * MS, MS, 21, 40 * MS);
        assertEquals(2, c.trainExits(), "found was cleared and the round restarted at the timeout");
    }

    // ------------------------------------------------------------------ other era differences

    @ParameterizedTest
    @EnumSource(Kernel.class)
    void undoRestoresTheWindowBeforeTheReduction(Kernel k) {
        Cubic c = established(k, false, 100, 0);
        c.ssthresh[0] = c.recalcSsthresh(0, 0);
        c.cwnd[0] = c.ssthresh[0];
        assertEquals(100, c.undoCwnd(0), "bictcp_undo_cwnd / tcp_reno_undo_cwnd: max(cwnd, loss_cwnd)");
        c.cwnd[0] = 120;
        assertEquals(120, c.undoCwnd(0));

        Reno r = new Reno(1, 100, 0, 4096, k);
        r.ssthresh[0] = r.recalcSsthresh(0, 0);
        r.cwnd[0] = 30;
        assertEquals(100, r.undoCwnd(0), "ssthresh 50 << 1, or prior_cwnd 100");
        r.ssthresh[0] = 40;
        assertEquals(k == Kernel.CURRENT ? 100 : 80, r.undoCwnd(0), "v3.19/v4.6: ssthresh << 1; current: prior_cwnd");
    }

    @ParameterizedTest
    @EnumSource(Kernel.class)
    void afterIdleTheEpochMovesForwardFromV43(Kernel k) {
        Cubic c = established(k, false, 100, 0);
        c.ssthresh[0] = 50; // congestion avoidance: the first ACK starts an epoch
        c.congAvoid(0, 0, 1, 10 * SEC);
        assertEquals(10.0, c.epochStartSeconds(0), 1e-9);
        c.txStart(0, 11 * SEC, 14 * SEC); // 3 s idle
        assertEquals(k == Kernel.V3_19 ? 10.0 : 13.0, c.epochStartSeconds(0), 1e-9);
        c.txStart(0, 0, 15 * SEC); // an idle time longer than the epoch: at most now
        assertEquals(k == Kernel.V3_19 ? 10.0 : 15.0, c.epochStartSeconds(0), 1e-9);
    }

    @ParameterizedTest
    @EnumSource(Kernel.class)
    void slowStartAtSsthreshIsV319s(Kernel k) {
        Reno r = new Reno(1, 20, 20, 4096, k);
        assertEquals(k == Kernel.V3_19, r.inSlowStart(0), "3.19: snd_cwnd <= snd_ssthresh");
        r.cwnd[0] = 18;
        r.congAvoid(0, 0, 5, 0);
        assertEquals(k == Kernel.V3_19 ? 21 : 20, r.cwnd[0], "3.19's tcp_slow_start stops at ssthresh + 1");
        assertEquals(k == Kernel.V3_19 ? 2 : 3, r.cwndCnt[0], "the rest counts towards congestion avoidance");
    }
}

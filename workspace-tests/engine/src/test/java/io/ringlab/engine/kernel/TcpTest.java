package io.ringlab.engine.kernel;

import static io.ringlab.conformance.ModelTests.metric;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

import io.ringlab.conformance.ModelTests;

/**
 * The {@code tcp} sender, the host's TCP receiver and {@code demux} in whole pipelines: goodput against the link's payload
 * rate, Reno against the Mathis formula, CUBIC's window against W(t), TCP Small Queues' bound, determinism, and packet and
 * buffer conservation in every run. Figures measured here are quoted in {@code docs/models/tcp.md}.
 */
class TcpTest {
    /**
     * Truesize of a 1514-byte segment on the default profile (generic-x86-4ghz): the 2048-byte head plus
     * {@code SKB_DATA_ALIGN(sizeof(struct sk_buff))} of the kernel build the profile states (SkbSizes.truesize): 2304.
     */
    private static final int TRUESIZE = 2048 + alignedSkBuff("generic-x86-4ghz");
    /** C and beta of tcp_cubic.c: 410/1024 and 717/1024. */
    private static final double C = 410 / 1024.0, BETA = 717 / 1024.0;

    private static int alignedSkBuff(String profile) {
        try (var in = new java.io.InputStreamReader(TcpTest.class.getResourceAsStream("/profiles/" + profile + ".profile"),
                java.nio.charset.StandardCharsets.UTF_8)) {
            var p = io.ringlab.engine.kernel.profile.CostProfileImpl.read(profile, in);
            int cache = (int) p.value(io.ringlab.sim.api.KernelBuild.SMP_CACHE_BYTES);
            return ((int) p.value(io.ringlab.sim.api.KernelBuild.SIZEOF_SK_BUFF) + cache - 1) / cache * cache;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static RunResultDTO run(String text, long seed, long seriesIntervalPicos) throws Exception {
        RunOptionsDTO o = new RunOptionsDTO();
        o.seed = seed;
        o.snapshotIntervalMillis = 0;
        o.seriesIntervalPicos = seriesIntervalPicos;
        RunResultDTO r = new PipelineBuilder(new TestRegistry()).build(PipelineReader.read("tcp.pipeline", text), o).run();
        assertEquals("FINISHED", r.state, r.error);
        assertTrue(r.invariants.packetConservation && r.invariants.bufferConservation, r.invariants.violations.toString());
        return r;
    }


    /** The series column of {@code element.metric}. */
    private static int column(RunResultDTO r, String name) {
        int i = r.series.columns.indexOf(name);
        assertTrue(i >= 0, name + " not in " + r.series.columns);
        return i;
    }

    /** A path: sender -> pfifo -> netdev -> forward link -> host, and host.out -> pfifo -> netdev -> reverse link -> tcp.in. */
    static String path(String duration, String tcp, String qdisc, String ring, String forward, String reverse) {
        return """
                duration = %s
                element tcp : tcp { %s }
                element q : pfifo { %s }
                element eth0 : netdev { %s }
                element wire : link { %s }
                element far : host
                element back : pfifo
                element eth1 : netdev
                element rwire : link { %s }
                tcp -> q -> eth0 -> wire -> far
                far.out -> back -> eth1 -> rwire -> tcp.in
                """.formatted(duration, tcp, qdisc, ring, forward, reverse);
    }

    // ---------------------------------------------------------------- throughput

    @Test
    void aRenoStreamFillsATenMegabitLink() throws Exception {
        // TSQ off: with the reference netdev the skb crosses the wire and is freed at the host, 5 ms after it left, so TSQ
        // would count the propagation delay (see tcp.md); the 116-packet buffer keeps the link busy through every halving
        RunResultDTO r = run(path("30s", "congestion = reno; tsq = off; gso = false", "limit = 100", "ring = 16",
                "rate = 10Mbit; delay = 5ms", "rate = 10Mbit; delay = 5ms"), 1, 1_000_000_000_000L);
        int t = column(r, "timeSeconds"), acked = column(r, "tcp.ackedBytes");
        double[] at10 = r.series.rows.get(10);
        assertEquals(10.0, at10[t], 1e-9);
        double goodput = (metric(r, "tcp", "ackedBytes") - at10[acked]) * 8 / 20.0 / 1e6;
        double payloadRate = 10.0 * 1448 / 1538; // Mbit/s: 1448 payload bytes per 1538 wire bytes (1514 + FCS, preamble, IFG)
        assertEquals(payloadRate, goodput, 0.03 * payloadRate, "goodput from 10 s to 30 s, Mbit/s");
        assertTrue(metric(r, "wire", "utilisationPercent") > 98.5);
        assertTrue(metric(r, "tcp", "fastRetransmits") >= 3, "the sawtooth: a tail drop per cycle");
        assertEquals(0.0, metric(r, "tcp", "rtoCount"));
        assertEquals(metric(r, "q", "drops"), metric(r, "tcp", "retransmits"), "NewReno resends each dropped segment once");
        assertTrue(metric(r, "far", "tcpRcvBytes") >= metric(r, "tcp", "ackedBytes"),
                "the receiver has at least what the sender saw acknowledged (ACKs still on the reverse path)");
    }

    @Test
    void renoOnALossyLinkFollowsTheMathisFormula() throws Exception {
        // 1 % random loss on the forward link, no queueing (7 Mbit/s on a 100 Mbit/s link): Mathis et al. 1997,
        // BW = MSS / RTT * sqrt(3/2) / sqrt(p), a formula for Reno: so no SACK (sack = false on the sender: NewReno);
        // Linux counts ACKed packets, not ACKs, so delayed ACKs do not slow growth
        String lossy = path("60s", "congestion = reno; tsq = off; sack = false", "", "",
                "rate = 100Mbit; delay = 10ms; loss = 0.01", "rate = 100Mbit; delay = 10ms");
        RunResultDTO r = run(lossy.replace("; sack = false", ""), 1, 5_000_000_000_000L);
        double lossRate = metric(r, "wire", "lost") / metric(r, "wire", "txPackets");
        assertEquals(0.01, lossRate, 0.0015);
        double rtt = 0.020 + 1538 * 8 / 100e6 + 90 * 8 / 100e6; // propagation + a data frame + an ACK frame (66 + 24 B)
        double mathis = 1448 * 8 / rtt * Math.sqrt(1.5) / Math.sqrt(0.01) / 1e6;
        double[] at5 = r.series.rows.get(1);
        assertEquals(5.0, at5[column(r, "timeSeconds")], 1e-9);
        double goodput = (metric(r, "tcp", "ackedBytes") - at5[column(r, "tcp.ackedBytes")]) * 8 / 55.0 / 1e6;
        // SACK (on at both ends by default) repairs every hole of a window in one recovery, so each loss event halves the
        // window once, the AIMD the formula assumes; losses that fall into one window count as one event (p per event
        // below p per packet) push the goodput up
        assertEquals(mathis, goodput, 0.25 * mathis, "goodput " + goodput + " Mbit/s against Mathis " + mathis);
        assertTrue(metric(r, "far", "tcpOutOfOrder") > 0 && metric(r, "tcp", "fastRetransmits") > 100);
        // NewReno (sack = false): v3.19-current's tcp_try_undo_recovery holds Recovery when the retransmission's ACK
        // lands on high_seq and clears retrans_stamp; tcp_packet_delayed is then true and the next ACK undoes the
        // reduction (docs/models/tcp.md, "NewReno's undo after the hold")
        RunResultDTO reno = run(lossy, 1, 5_000_000_000_000L);
        assertTrue(metric(reno, "tcp", "undos") > metric(reno, "tcp", "fastRetransmits") / 2,
                "undos " + metric(reno, "tcp", "undos") + " of " + metric(reno, "tcp", "fastRetransmits"));
        assertTrue(metric(reno, "tcp", "ackedBytes") > metric(r, "tcp", "ackedBytes"), "undone reductions send more");
    }

    // ---------------------------------------------------------------- CUBIC

    @Test
    void cubicsWindowFollowsTheCubicFunctionAfterALoss() throws Exception {
        // 100 ms RTT, a buffer deeper than the BDP and rare random losses: epochs of several seconds; initialSsthresh keeps
        // slow start from overflowing the buffer (HyStart is not modelled)
        RunResultDTO r = run(path("60s", "tsq = off; initialSsthresh = 300", "", "",
                "rate = 100Mbit; delay = 50ms; loss = 0.00002", "rate = 100Mbit; delay = 50ms"), 1, 100_000_000_000L);
        int t = column(r, "timeSeconds"), cwnd = column(r, "tcp.cwnd"), ssthresh = column(r, "tcp.ssthresh");
        int wmaxCol = column(r, "tcp.cubicWmax"), kCol = column(r, "tcp.cubicKSeconds"), epochCol = column(r, "tcp.cubicEpochSeconds");
        int epochs = 0, checked = 0, withoutFastConvergence = 0;
        double worst = 0;
        for (int i = 0; i < r.series.rows.size(); ) {
            double epoch = r.series.rows.get(i)[epochCol];
            int j = i;
            while (j < r.series.rows.size() && r.series.rows.get(j)[epochCol] == epoch) {
                j++;
            }
            double[] first = r.series.rows.get(i);
            if (epoch >= 0 && first[wmaxCol] > 0 && r.series.rows.get(j - 1)[t] - epoch >= 3) {
                double wMax = first[wmaxCol];
                double w0 = first[ssthresh]; // the window the epoch started from: beta * cwnd at the loss
                // K = cbrt((W_max - W_0) / C); with W_0 = beta W_max (no fast convergence) that is cbrt(W_max (1 - beta) / C)
                double k = Math.cbrt((wMax - w0) / C);
                assertEquals(k, first[kCol], 0.01 + 0.002 * k, "the kernel's fixed-point K at epoch " + epoch);
                if (Math.abs(w0 - Math.floor(wMax * BETA)) <= 1) {
                    withoutFastConvergence++;
                    assertEquals(Math.cbrt(wMax * (1 - BETA) / C), first[kCol], 0.02);
                }
                epochs++;
                for (int n = i; n < j - 1; n++) { // the last row may already see the next loss
                    double[] row = r.series.rows.get(n);
                    double s = row[t] - epoch;
                    if (s < 0.3 || s > k) {
                        continue; // the first RTTs, and the convex region where the queue adds delay
                    }
                    double expected = C * Math.pow(s - k, 3) + wMax;
                    worst = Math.max(worst, Math.abs(row[cwnd] - expected) / wMax);
                    checked++;
                }
            }
            i = j;
        }
        assertTrue(epochs >= 3 && withoutFastConvergence >= 1 && checked >= 100,
                "epochs=" + epochs + ", without fast convergence=" + withoutFastConvergence + ", samples=" + checked);
        assertTrue(worst < 0.02, "largest |cwnd - W(t)| / W_max = " + worst);
    }

    // ---------------------------------------------------------------- TCP Small Queues

    /** One CUBIC stream on 100 Mbit/s with a 1000-packet pfifo; the propagation delay sits on the reverse link only. */
    private static RunResultDTO tsq(String mode) throws Exception {
        // with the forward delay 0 the reference netdev's late free (at the host, one wire time after the driver let go of
        // the frame) is the only difference from tcp_wfree at TX completion
        return run(path("5s", "tsq = " + mode + "; gso = false", "limit = 1000", "", "rate = 100Mbit", "rate = 100Mbit; delay = 1ms"), 1,
                50_000_000_000L);
    }

    @Test
    void tsqV319KeepsAStreamsBytesInQdiscAndRingBelowItsLimit() throws Exception {
        RunResultDTO r = tsq("v3.19");
        int t = column(r, "timeSeconds"), wmem = column(r, "tcp.wmemBytes"), limit = column(r, "tcp.tsqLimitBytes");
        int backlog = column(r, "q.backlog"), ring = column(r, "eth0.ringUsed");
        double maxQueued = 0, maxLimit = 0;
        for (double[] row : r.series.rows) {
            if (row[t] < 0.5) {
                continue; // the first RTTs: no RTT sample yet, the limit is tcp_limit_output_bytes
            }
            assertTrue(row[wmem] <= row[limit] + TRUESIZE, "sk_wmem_alloc " + row[wmem] + " above " + row[limit]);
            double queued = (row[backlog] + row[ring]) * TRUESIZE;
            assertTrue(queued <= row[limit] + TRUESIZE, "qdisc + ring hold " + queued + " B of truesize at " + row[t] + " s");
            maxQueued = Math.max(maxQueued, queued);
            maxLimit = Math.max(maxLimit, row[limit]);
        }
        // the check comes before the send: at most one skb beyond the limit, which is at most tcp_limit_output_bytes
        assertTrue(metric(r, "tcp", "wmemMaxBytes") <= 131072 + TRUESIZE, "max sk_wmem_alloc " + metric(r, "tcp", "wmemMaxBytes"));
        assertTrue(maxLimit < 131072 && maxLimit >= 2 * TRUESIZE, "v3.19: pacing_rate >> 10 below tcp_limit_output_bytes: " + maxLimit);
        assertEquals(0.0, metric(r, "q", "drops"));
        assertTrue(metric(r, "tcp", "tsqThrottles") > 1000);
        double payloadRate = 100.0 * 1448 / 1538;
        assertEquals(payloadRate, metric(r, "tcp", "goodputMbitPerSecond"), 0.02 * payloadRate, "TSQ does not starve the link");
    }

    @Test
    void tsqV312FillsQdiscAndRingUpToTcpLimitOutputBytes() throws Exception {
        RunResultDTO r = tsq("v3.12");
        int t = column(r, "timeSeconds"), wmem = column(r, "tcp.wmemBytes");
        int backlog = column(r, "q.backlog"), ring = column(r, "eth0.ringUsed");
        for (double[] row : r.series.rows) {
            if (row[t] < 0.5) {
                continue;
            }
            // max(tcp_limit_output_bytes, pacing_rate >> 10): the sysctl dominates at 100 Mbit/s
            assertTrue(row[wmem] > 131072 - TRUESIZE && row[wmem] <= 131072 + TRUESIZE, "sk_wmem_alloc " + row[wmem]);
            assertTrue((row[backlog] + row[ring]) * TRUESIZE <= 131072 + TRUESIZE);
        }
        assertEquals(131072.0, metric(r, "tcp", "tsqLimitBytes"));
        assertEquals(0.0, metric(r, "q", "drops"));
    }

    @Test
    void withoutTsqTheQdiscFills() throws Exception {
        RunResultDTO r = tsq("off");
        int backlog = column(r, "q.backlog");
        double max = 0;
        for (double[] row : r.series.rows) {
            max = Math.max(max, row[backlog]);
        }
        assertTrue(max >= 990, "pfifo backlog reaches its limit of 1000: max " + max);
        assertTrue(metric(r, "q", "drops") > 0);
        assertTrue(metric(r, "tcp", "wmemMaxBytes") > 10 * 131072, "max sk_wmem_alloc " + metric(r, "tcp", "wmemMaxBytes"));
        assertEquals(0.0, metric(r, "tcp", "tsqThrottles"));
    }

    // ---------------------------------------------------------------- receiver, timers

    @Test
    void theHandshakeTakesOneRttAndTheFirstSegmentsAreAcknowledgedAtOnce() throws Exception {
        // count = 2 segments and a FIN; 1 ms each way. tcp_event_data_recv starts the quick-ACK phase at the first data
        // segment (tcp_incr_quickack: rcv_wnd / (2 rcv_mss) ACKs at once), so no ACK waits for TCP_DELACK_MIN
        String two = path("1s", "congestion = reno; count = 2896B", "", "", "rate = 100Mbit; delay = 1ms",
                "rate = 100Mbit; delay = 1ms");
        RunResultDTO r = run(two, 1, 0);
        assertEquals(0.0, metric(r, "far", "tcpDelayedAcks"));
        assertEquals(2896.0, metric(r, "tcp", "ackedBytes"), "data bytes: the FIN's sequence number is not counted");
        // the SYN (74 B), the handshake's ACK, the two segments of the write (1514 B each) and the FIN of close() in a
        // segment of its own: the write's segments left at once (tcp_send_fin piggybacks only on an unsent tail)
        assertEquals(5.0, metric(r, "wire", "txPackets"));
        double synRtt = 2 + (74 + 74 + 24 + 24) * 8 / 100e6 * 1e3; // ms: SYN and SYN-ACK frames with preamble and gap
        assertTrue(metric(r, "tcp", "srttMillis") >= synRtt - 1e-6, "srtt " + metric(r, "tcp", "srttMillis"));
        assertTrue(metric(r, "tcp", "srttMillis") < 2.5, "no sample waited for a delayed ACK");
    }

    @Test
    void synTimeoutsBackOffExponentiallyFromTheInitialRto() throws Exception {
        RunResultDTO r = run(path("10s", "congestion = reno", "", "", "loss = 1", ""), 1, 0);
        // TCP_TIMEOUT_INIT 1 s, doubled each time: the SYN again at 1, 3 and 7 s (tcp_retransmit_timer, SYN_SENT);
        // no data leaves before the connection is established
        assertEquals(3.0, metric(r, "tcp", "rtoCount"));
        assertEquals(0.0, metric(r, "tcp", "segmentsSent"));
        assertEquals(4.0, metric(r, "tcp", "skbsSent"), "four SYNs");
        assertEquals(8000.0, metric(r, "tcp", "rtoMillis"), 1e-9);
        assertEquals(0.0, metric(r, "tcp", "ackedBytes"));
        assertEquals(4L, r.invariants.droppedByReason.get("link-loss"));
    }

    // ---------------------------------------------------------------- demux, determinism, allocation

    /** Four CUBIC streams and a low-delay ping into pfifo_fast; ACKs and echo replies share one reverse path. */
    private static final String FOUR_STREAMS = """
            duration = 2s
            element tcp : tcp { streams = 4 }
            element ping : ping { interval = 100ms; tos = 0x10 }
            element q : pfifo_fast
            element eth0 : netdev
            element wire : link { rate = 100Mbit; delay = 100us; loss = 0.001 }
            element far : host
            element noise : source { rate = 1Mbit; size = 64B; count = 5 }
            element back : pfifo
            element eth1 : netdev
            element rwire : link { rate = 100Mbit; delay = 100us }
            element rx : demux
            tcp -> q -> eth0 -> wire -> far
            ping -> q
            far.out -> back -> eth1 -> rwire -> rx
            noise -> back
            rx.tcp -> tcp.in
            rx.icmp -> ping.in
            """;

    @Test
    void oneReversePathCarriesAcksAndEchoRepliesThroughADemux() throws Exception {
        RunResultDTO r = run(FOUR_STREAMS, 1, 0);
        double sent = metric(r, "ping", "sent");
        assertEquals(20.0, sent);
        double lostPings = sent - metric(r, "ping", "received");
        assertTrue(lostPings <= 2, "a ping is lost only to the 0.1 % link loss: " + lostPings);
        assertEquals(metric(r, "ping", "received"), metric(r, "rx", "icmpPackets"));
        assertEquals(metric(r, "tcp", "acksReceived"), metric(r, "rx", "tcpPackets"));
        // every ACK sent arrives at tcp.in, or is still on the reverse path (the 5 raw frames left it long ago)
        assertEquals(metric(r, "far", "tcpAcks"), metric(r, "rx", "tcpPackets") + metric(r, "rwire", "inFlight")
                + metric(r, "eth1", "ringUsed") + metric(r, "back", "backlog"));
        assertEquals(5L, r.invariants.droppedByReason.get("demux-unconnected"), "the raw frames: 'other' is not connected");
        assertEquals(5.0, metric(r, "rx", "drops"));
        double total = 0;
        for (int s = 0; s < 4; s++) {
            double g = metric(r, "tcp", "stream" + s + "GoodputMbitPerSecond");
            assertTrue(g > 1, "stream " + s + " sends: " + g);
            total += g;
        }
        assertEquals(metric(r, "tcp", "goodputMbitPerSecond"), total, 1e-6);
        assertTrue(total > 85, "four streams fill most of the link: " + total + " Mbit/s");
    }

    @Test
    void theSameSeedGivesIdenticalResults() throws Exception {
        RunResultDTO a = run(FOUR_STREAMS, 7, 0);
        RunResultDTO b = run(FOUR_STREAMS, 7, 0);
        assertTrue(metric(a, "wire", "lost") > 0 && metric(a, "tcp", "retransmits") > 0, "losses and recovery happen");
        assertEquals(DeterminismTest.fingerprint(a), DeterminismTest.fingerprint(b));
        RunResultDTO c = run(FOUR_STREAMS, 8, 0);
        assertNotEquals(DeterminismTest.fingerprint(a), DeterminismTest.fingerprint(c));
    }

    @Test
    void aTcpPipelineAllocatesNothingInSteadyState() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Allocation.currentThreadAllocatedBytes() >= 0,
                "this JVM does not count allocated bytes");
        RunImpl run = Pipelines.build(new TestRegistry(), FOUR_STREAMS, 1);
        Simulation sim = run.simulation();
        long end = 1_000L * 1_000_000_000_000L;
        sim.start(end, end / 10);
        sim.advance(end, 3_000_000); // warm-up: flows created, rings at their sizes, hot paths compiled
        long before = Allocation.currentThreadAllocatedBytes();
        long events = sim.advance(end, 1_000_000);
        long after = Allocation.currentThreadAllocatedBytes();
        assertEquals(1_000_000, events);
        assertEquals(0, after - before, "bytes allocated in 1,000,000 events of segments, ACKs, timers and TSQ");
    }

    @Test
    void aPacketOfAnotherFlowOnTheAckInputIsDroppedByName() throws Exception {
        String text = path("100ms", "congestion = reno", "", "", "rate = 100Mbit", "rate = 100Mbit")
                + "element stray : source { rate = 1Mbit; size = 64B; count = 3 }\nstray -> back\n";
        RunResultDTO r = run(text, 1, 0);
        assertEquals(3L, r.invariants.droppedByReason.get("tcp-not-ours"));
        assertTrue(metric(r, "tcp", "ackedBytes") > 0);
        assertEquals(Map.of("tcp-not-ours", 3L), r.invariants.droppedByReason);
    }
}

package io.ringlab.engine.kernel;

import static io.ringlab.conformance.ModelTests.metric;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.dto.RunResultDTO;

import io.ringlab.conformance.ModelTests;

/**
 * GSO with TSO autosizing from the {@code tcp} element, segmented at dequeue by drivers without TSO ({@code netdev},
 * {@code stmmac}): the qdisc sees GSO skbs, the wire MTU frames, goodput is unchanged, packets and buffers are conserved,
 * stmmac counts descriptors per segment, and the seed scenario with and without BQL. Figures are quoted in
 * {@code docs/models/tcp.md} and {@code docs/models/stmmac.md}.
 */
class GsoTest {


    private static void assertConserved(RunResultDTO r) {
        assertEquals("FINISHED", r.state, r.error);
        assertTrue(r.invariants.packetConservation && r.invariants.bufferConservation, r.invariants.violations.toString());
    }

    /** One CUBIC stream through pfifo and the reference netdev at 100 Mbit/s; ACKs come back over a 1 ms link. */
    private static RunResultDTO netdevStream(boolean gso) throws Exception {
        String text = """
                duration = 5s
                element tcp : tcp { gso = %s }
                element q : pfifo { limit = 1000 }
                element eth0 : netdev
                element wire : link { rate = 100Mbit }
                element far : host
                element back : pfifo
                element eth1 : netdev
                element rwire : link { rate = 100Mbit; delay = 1ms }
                tcp -> q -> eth0 -> wire -> far
                far.out -> back -> eth1 -> rwire -> tcp.in
                """.formatted(gso);
        RunResultDTO r = TcpTest.run(text, 1, 0);
        assertConserved(r);
        return r;
    }

    @Test
    void theQdiscSeesGsoSkbsTheWireMtuFramesAndTheGoodputIsUnchanged() throws Exception {
        RunResultDTO on = netdevStream(true);
        RunResultDTO off = netdevStream(false);
        double skbs = metric(on, "q", "enqueued");
        double frames = metric(on, "wire", "txPackets");
        double skbsSent = metric(on, "tcp", "skbsSent");
        double segmentsSent = metric(on, "tcp", "segmentsSent");
        System.out.printf("gso netdev 100 Mbit/s, 5 s: %.0f skbs enqueued, %.0f frames on the wire (%.1f segments/skb);"
                + " goodput %.3f (gso) vs %.3f Mbit/s%n", skbs, frames, segmentsSent / skbsSent,
                metric(on, "tcp", "goodputMbitPerSecond"), metric(off, "tcp", "goodputMbitPerSecond"));
        assertEquals(skbsSent, skbs, "every skb passes the qdisc once (no drops here)");
        assertTrue(skbs < frames / 2, "GSO skbs of several segments: " + skbs + " skbs for " + frames + " frames");
        assertEquals(metric(off, "q", "dequeued"), metric(off, "wire", "txPackets") + metric(off, "eth0", "ringUsed"),
                "without GSO one skb per frame");
        assertTrue(metric(on, "far", "rxPackets") > 0);
        double g = metric(off, "tcp", "goodputMbitPerSecond");
        assertEquals(g, metric(on, "tcp", "goodputMbitPerSecond"), 0.02 * g, "goodput with GSO within 2 % of without");
    }

    /** The seed scenario (seed 001): 4 CUBIC streams and a band-0 ping from the S805 board over 100 Mbit/s. */
    private static RunResultDTO seed(boolean bql, boolean gso, String duration) throws Exception {
        String text = ModelTests.sample("stmmac-bql-100m.pipeline", duration)
                .replace("    bql = true", "    bql = " + bql)
                .replace("    tsq = v3.19", "    tsq = v3.19\n    gso = " + gso)
                .replaceFirst("(?m)^plot = .*\n", ""); // it names eth0.limit, which a file without BQL does not have
        RunResultDTO r = Pipelines.build(new TestRegistry(), text, 1).run();
        assertConserved(r);
        return r;
    }

    @Test
    void stmmacSegmentsGsoSkbsAndCountsDescriptorsPerSegment() throws Exception {
        RunResultDTO r = seed(true, true, "2s");
        double frames = metric(r, "eth0", "txPackets");
        double skbs = metric(r, "q", "enqueued");
        double irqs = metric(r, "eth0", "txIrqs");
        double descs = metric(r, "eth0", "txDescriptors");
        assertTrue(skbs < frames / 2, "the qdisc counts GSO skbs: " + skbs + " skbs, " + frames + " frames");
        // each segment takes 1 + its page fragments: none for an skb's first segment (its payload lies in the skb's
        // linear part, as does a ping's), one for the others, or two across a 32 KB boundary of the stream
        double linear = 2 * frames - skbs;
        assertTrue(descs >= linear - 64 && descs < linear + 0.1 * frames,
                "descriptors " + descs + " for " + frames + " frames of " + skbs + " skbs");
        // the IC bit comes every 64 descriptors, counted per segment: counted per GSO skb it would be far rarer
        assertEquals(descs / 64, irqs, descs / 64 * 0.05 + 2, "txIrqs for txDescriptors=" + descs);
        assertEquals(0, r.invariants.droppedByReason.getOrDefault("gso-segment-failed", 0L));
        assertTrue(metric(r, "pool:eth0.gso", "highWaterMark") > 1, "segments came from the driver's pool");
    }

    @Test
    void theSeedScenarioWithAndWithoutBqlAndGso() throws Exception {
        double[][] p50 = new double[2][2];
        for (int g = 0; g < 2; g++) {
            for (int b = 0; b < 2; b++) {
                RunResultDTO r = seed(b == 1, g == 1, "10s");
                p50[g][b] = metric(r, "ping", "rttP50Millis");
                System.out.printf("seed 001, 100 Mbit/s, 10 s, gso=%s bql=%s: ping P50 %.3f ms, goodput %.2f Mbit/s,"
                        + " q.enqueued %.0f, eth0.txPackets %.0f%n", g == 1, b == 1, p50[g][b],
                        metric(r, "iperf", "goodputMbitPerSecond"), metric(r, "q", "enqueued"), metric(r, "eth0", "txPackets"));
            }
            assertTrue(p50[g][1] < p50[g][0], "gso=" + (g == 1) + ": ping P50 with BQL " + p50[g][1] + " ms, without "
                    + p50[g][0] + " ms");
        }
    }
}

package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.dto.RunResultDTO;

import io.ringlab.conformance.ModelTests;

/**
 * pipelines/netdev-bql.pipeline shows the latency BQL removes: a band-0 ping behind a full device ring waits the ring's
 * wire time; with BQL the ring holds a few frames and pfifo_fast sends the ping ahead of the qdisc's backlog.
 */
class NetdevBqlSampleTest {
    /** 256 frames of 1518 bytes plus 20 bytes of preamble, inter-frame gap and FCS at 1 Gbit/s, in ms. */
    private static final double RING_WIRE_MILLIS = 256 * 1538 * 8 / 1e9 * 1e3;

    private static RunResultDTO run(String bql) throws Exception {
        RunResultDTO r = Pipelines.build(ModelTests.sample("netdev-bql.pipeline", "200ms"), 1, "eth0.bql=" + bql).run();
        assertTrue(r.invariants.packetConservation && r.invariants.bufferConservation, r.invariants.violations.toString());
        assertEquals("ping.rttP50Millis", r.headline.metric);
        return r;
    }

    @Test
    void withoutBqlThePingWaitsBehindTheFullRing() throws Exception {
        RunResultDTO r = run("false");

        assertEquals(256.0, r.elements.get("eth0").get("ringUsed"));
        double rtt = r.headline.value;
        assertEquals(RING_WIRE_MILLIS, rtt, RING_WIRE_MILLIS * 0.02, "the ping's rtt p50 against the ring's wire time");
    }

    @Test
    void withBqlTheRingHoldsAFewFramesAndThePingPassesTheBacklog() throws Exception {
        RunResultDTO r = run("true");

        assertTrue(r.elements.get("eth0").get("ringUsed") <= 4, "ring " + r.elements.get("eth0").get("ringUsed"));
        assertTrue(r.elements.get("q").get("backlog") > 900, "the backlog moved into the qdisc");
        assertTrue(r.headline.value < 0.1, "ping rtt p50 " + r.headline.value + " ms");
        assertTrue(r.sampleWarnings.stream().noneMatch(w -> w.metric.equals("ping.rttP50Millis")), "enough echoes");
    }
}

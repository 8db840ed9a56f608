package io.ringlab.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.dto.HeadlineDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

class SummaryTextTest {
    static RunResultDTO result() {
        RunResultDTO r = new RunResultDTO();
        r.pipeline = "p";
        r.state = "FINISHED";
        r.seed = 3;
        r.profile = "generic";
        r.headline = new HeadlineDTO();
        r.headline.metric = "sink.latencyP99Micros";
        r.headline.value = 1234.5678;
        r.headline.unit = "us";
        r.invariants.generated = 10;
        r.invariants.delivered = 7;
        r.invariants.dropped = 1;
        r.invariants.droppedByReason.put("qdisc-overlimit", 1L);
        r.invariants.inFlight = 2;
        r.invariants.packetConservation = true;
        r.invariants.buffersAllocated = 10;
        r.invariants.buffersFreed = 8;
        r.invariants.buffersInUse = 2;
        r.invariants.buffersHeld = 2;
        r.invariants.bufferConservation = true;
        return r;
    }

    @Test
    void theViewsFollowTheSummaryAsRinglabStatsPrintsThem() throws Exception {
        RunResultDTO r = result();
        assertEquals("", SummaryText.views(r, java.util.List.of()), "a result without the pipeline as run has none");
        r.types.put("q", "pfifo");
        r.properties.put("q", java.util.Map.of("limit", "10"));
        io.ringlab.sim.api.dto.ConnectionDTO c = new io.ringlab.sim.api.dto.ConnectionDTO();
        c.from = "q";
        c.fromPort = "out";
        c.to = "eth0";
        c.toPort = "in";
        r.connections.add(c);
        r.elements.put("q", java.util.Map.of("sentBytes", 1514.0, "sentPackets", 1.0, "backlog", 0.0));
        String v = SummaryText.views(r, java.util.List.of());
        assertEquals("\n\n" + io.ringlab.pipeline.format.TestbedViews.print(r, io.ringlab.pipeline.format.TestbedViews.ALL,
                null, true, t -> null).stripTrailing(), v);
        assertTrue(v.startsWith("\n\n# tc -s qdisc show\nqdisc pfifo 8001: dev eth0 root refcnt 2 limit 10p\n Sent 1514 bytes"
                + " 1 pkt"), v);
        assertTrue(v.contains("# ethtool -S\n# the run has no driver element"), v);
    }

    @Test
    void theSummaryWritesTheHeadlineAndInvariantsAsTheCommandLineDoes() {
        String s = SummaryText.of(result());
        assertTrue(s.contains("headline sink.latencyP99Micros = 1,235 us\n"), s); // Numbers.human, as ringlab run
        assertTrue(s.contains("packets: generated 10 = delivered 7 + dropped 1 {qdisc-overlimit=1} + in flight 2: ok\n"), s);
        assertTrue(s.endsWith("buffers: allocated 10 - freed 8 = in use 2 (held 2): ok"), s);
    }

    @Test
    void aBrokenInvariantAndAMissingHeadlineAreSaid() {
        RunResultDTO r = result();
        r.headline.value = Double.NaN;
        r.invariants.bufferConservation = false;
        r.invariants.violations.add("leak: 2 buffers held by eth0");
        String s = SummaryText.of(r);
        assertTrue(s.contains("headline sink.latencyP99Micros = n/a us"), s);
        assertTrue(s.contains("(held 2): BROKEN\n  violation: leak: 2 buffers held by eth0"), s);
        r.headline = null;
        assertNull(SummaryText.headline(r));
        assertTrue(SummaryText.of(r).contains("headline (the pipeline names none)"));
        assertEquals("FINISHED", r.state);
    }

    @Test
    void aHeadlineOnTooFewSamplesIsMarkedAndExplainedAsTheCommandLineDoes() {
        RunResultDTO r = result();
        io.ringlab.sim.api.dto.SampleWarningDTO w = new io.ringlab.sim.api.dto.SampleWarningDTO();
        w.metric = "sink.latencyP99Micros";
        w.samples = 7;
        w.needed = 100;
        w.advice = "run at least 20ms (7 samples in 1ms measured)";
        r.sampleWarnings.add(w);

        String s = SummaryText.of(r);

        assertTrue(s.contains("headline sink.latencyP99Micros = 1,235 us   * 7 samples, needs 100: see below\n"), s);
        assertTrue(s.endsWith("\n  sink.latencyP99Micros: 7 samples, needs 100; run at least 20ms (7 samples in 1ms"
                + " measured)"), s);
    }
}

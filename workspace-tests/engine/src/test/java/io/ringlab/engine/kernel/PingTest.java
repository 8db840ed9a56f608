package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.dto.RunResultDTO;

/** ping and host: echo requests out, replies back over the reverse path, round-trip times from the mechanism. */
class PingTest {
    /** A ping over an idle 100 Mbit/s path with a 1 ms delay each way, and back; also the path of MetricDescriptorsTest's
     * TCP run, SeriesTest and SampleWarningsTest. */
    static final String IDLE = """
            duration = 10s
            element ping : ping { interval = 1s }
            element q : pfifo
            element eth0 : netdev
            element wire : link { rate = 100Mbit; delay = 1ms }
            element far : host
            element back : pfifo
            element eth1 : netdev
            element rwire : link { rate = 100Mbit; delay = 1ms }
            ping -> q -> eth0 -> wire -> far
            far.out -> back -> eth1 -> rwire -> ping.in
            """;

    /**
     * @param bulk more properties of the bulk source, for example {@code "; arrivals = poisson"}
     * @return {@link #IDLE} with 120 Mbit/s of full-size bulk frames into the same pfifo
     */
    static String loaded(String bulk) {
        return IDLE.replace("element q : pfifo", "element q : pfifo\nelement bulk : source { rate = 120Mbit; size = 1518B" + bulk
                + " }").replace("far.out", "bulk -> q\nfar.out");
    }

    @Test
    void anIdlePathGivesTwiceTheWireTimePlusDelay() throws Exception {
        RunResultDTO r = Pipelines.build(IDLE, 1).run();
        var ping = r.elements.get("ping");
        assertEquals(10.0, ping.get("sent"));
        assertEquals(10.0, ping.get("received"));
        // a 98-byte frame (56 B payload + 42 B headers) plus 24 B of wire overhead at 100 Mbit/s: 9.76 us each way
        assertEquals(2.01952, ping.get("rttP50Millis"), 0.002, "HdrHistogram keeps 3 significant digits");
        assertEquals(2.01952, ping.get("rttMaxMillis"), 0.002);
        assertTrue(r.invariants.packetConservation && r.invariants.bufferConservation, r.invariants.violations.toString());
        assertEquals(20, r.invariants.generated, "10 requests and 10 replies");
    }

    @Test
    void pingWaitsBehindTheBacklogOfAFifo() throws Exception {
        // 120 Mbit/s of bulk traffic into a 100 Mbit/s link: the 1000-packet pfifo fills, and ping waits behind it
        RunResultDTO r = Pipelines.build(loaded(""), 1).run();
        // 1000 frames of 1538 wire bytes ahead at 100 Mbit/s: about 123 ms, plus the device's 256-frame queue (31.5 ms)
        double p50 = r.elements.get("ping").get("rttP50Millis");
        assertTrue(p50 > 140 && p50 < 170, "rtt p50 = " + p50 + " ms");
        assertTrue(r.invariants.packetConservation, r.invariants.violations.toString());
    }

    @Test
    void aHeadlineOfAnOldMetricNameReadsTodaysMetric() throws Exception {
        RunResultDTO r = Pipelines.build("headline = far.rxMbps\n" + IDLE, 1).run();
        assertEquals("far.rxMbitPerSecond", r.headline.metric, "rxMbps was renamed");
        assertEquals(r.elements.get("far").get("rxMbitPerSecond"), r.headline.value, 0.0);
        assertEquals("Mbit/s", r.headline.unit);
        assertTrue(r.headline.value > 0, "the host received the echo requests");
    }

    @Test
    void tosLowDelayMapsToInteractivePriority() throws Exception {
        RunResultDTO r = Pipelines.build(IDLE.replace("interval = 1s", "interval = 1s; tos = 0x10"), 1).run();
        assertEquals(10.0, r.elements.get("ping").get("received"));
    }
}

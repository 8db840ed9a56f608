package io.ringlab.pipeline.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;

import org.junit.jupiter.api.Test;

/** The old ...Mbps metric names map to ...MbitPerSecond, with their owner, and say so; other names stay. */
class MetricNamesTest {
    @Test
    void oldNamesMapToTodaysWithTheirOwner() {
        assertEquals("sink.rxMbitPerSecond", MetricNames.current("sink.rxMbps"));
        assertEquals("eth0.txMbitPerSecond", MetricNames.current("eth0.txMbps"));
        assertEquals("far.tcpGoodputMbitPerSecond", MetricNames.current("far.tcpGoodputMbps"));
        assertEquals("iperf.goodputMbitPerSecond", MetricNames.current("iperf.goodputMbps"));
        assertEquals("pacingRateMbitPerSecond", MetricNames.current("pacingRateMbps"), "a bare metric");
        assertEquals("tcp.stream12GoodputMbitPerSecond", MetricNames.current("tcp.stream12GoodputMbps"));
    }

    @Test
    void todaysAndUnrelatedNamesStay() {
        assertEquals("sink.rxMbitPerSecond", MetricNames.current("sink.rxMbitPerSecond"));
        assertEquals("sink.rxMpps", MetricNames.current("sink.rxMpps"));
        assertEquals("pool:eth0.rx.rxMbpsX", MetricNames.current("pool:eth0.rx.rxMbpsX"));
        assertEquals("streamGoodputMbps", MetricNames.current("streamGoodputMbps"), "no stream number");
        assertNull(MetricNames.deprecation("ping.rttP50Millis"));
    }

    @Test
    void theWarningNamesBothNamesAndTheUnit() {
        assertEquals("metric sink.rxMbps is now sink.rxMbitPerSecond (Mbit/s); the old name will go",
                MetricNames.deprecation("sink.rxMbps"));
        assertEquals("Mbit/s", MetricUnits.unitOf("tcpGoodputMbitPerSecond"));
        assertEquals("Gbit/s", MetricUnits.unitOf("txGbitPerSecond"));
    }

    @Test
    void aDeclaredFamilyMatchesItsNumberedMembersOnlyAndCapturesTheNumber() {
        Matcher m = MetricNames.declared("stream<i>Cwnd").matcher("stream12Cwnd");
        assertTrue(m.matches());
        assertEquals("12", m.group(1));
        assertTrue(MetricNames.declared("stream<i>Cwnd").matcher("stream0Cwnd").matches());
        assertFalse(MetricNames.declared("stream<i>Cwnd").matcher("streamCwnd").matches(), "a number is required");
        assertFalse(MetricNames.declared("stream<i>Cwnd").matcher("stream1CwndX").matches());
        assertFalse(MetricNames.declared("stream<i>Cwnd").matcher("stream-1Cwnd").matches());
        assertTrue(MetricNames.declared("rx.Packets").matcher("rx.Packets").matches(), "a single name is itself");
        assertFalse(MetricNames.declared("rx.Packets").matcher("rxXPackets").matches(), "quoted, not a regex");
        Matcher two = MetricNames.declared("q<i>band<i>Backlog").matcher("q3band10Backlog");
        assertTrue(two.matches());
        assertEquals("3", two.group(1));
        assertEquals("10", two.group(2));
    }
}

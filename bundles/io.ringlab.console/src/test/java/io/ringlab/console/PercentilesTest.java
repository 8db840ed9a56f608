package io.ringlab.console;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

class PercentilesTest {
    static Map<String, Map<String, Double>> metrics(double p99) {
        Map<String, Map<String, Double>> m = new TreeMap<>();
        m.put("sink", new TreeMap<>(Map.of("rxPackets", 10.0, "latencyCount", 10.0, "latencyMinMicros", 1.5, "latencyP50Micros", 2.0,
                "latencyP90Micros", 3.0, "latencyP99Micros", p99, "latencyMaxMicros", 9.0, "latencyMeanMicros", 2.5)));
        m.put("ping", new TreeMap<>(Map.of("sent", 3.0, "rttCount", 3.0, "rttP50Millis", 0.25, "rttP90Millis", 0.5, "rttP99Millis", 1.0,
                "rttMinMillis", 0.2, "rttMaxMillis", 1.0, "rttMeanMillis", 0.4)));
        m.put("q", new TreeMap<>(Map.of("backlog", 3.0, "drops", 0.0)));
        m.put("host", new TreeMap<>(Map.of("latencyCount", 0.0))); // nothing recorded yet: no row
        return m;
    }

    @Test
    void aRowPerHistogramWithItsUnitAndStatistics() {
        List<Percentiles.Row> rows = Percentiles.rows(metrics(4.0));
        assertEquals(2, rows.size());
        Percentiles.Row ping = rows.get(0);
        assertEquals("ping", ping.element());
        assertEquals("rtt", ping.histogram());
        assertEquals("Millis", ping.unit());
        assertEquals(List.of("ping", "rtt", "ms", "3", "0.200", "0.250", "0.500", "1.000", "1.000", "0.400"), ping.cells());
        assertEquals(1000.0, ping.micros("P99"), 1e-9);
        Percentiles.Row sink = rows.get(1);
        assertEquals(List.of("sink", "latency", "us", "10", "1.500", "2.000", "3.000", "4.000", "9.000", "2.500"), sink.cells());
        assertEquals("sink.latency P99", sink.seriesId("P99"));
        assertTrue(Percentiles.rows(null).isEmpty());
        assertTrue(Percentiles.rows(Map.of("q", Map.of("backlog", 1.0))).isEmpty());
    }

    @Test
    void theHistoryAddsAPointPerNewSnapshotTimeInMicros() {
        Percentiles h = new Percentiles();
        assertTrue(h.add(0.001, Percentiles.rows(metrics(4.0))));
        assertFalse(h.add(0.001, Percentiles.rows(metrics(5.0))), "the same virtual time again (a paused run) adds nothing");
        assertTrue(h.add(0.002, Percentiles.rows(metrics(6.0))));
        assertArrayEquals(new double[] { 1, 2 }, h.timeMillis(), 1e-12);
        assertArrayEquals(new double[] { 4, 6 }, h.series().get("sink.latency P99"));
        assertArrayEquals(new double[] { 1000, 1000 }, h.series().get("ping.rtt P99"));
        assertEquals(6, h.series().size(), "P50, P90 and P99 of two histograms");
        h.clear();
        assertEquals(0, h.size());
    }

    @Test
    void theHistoryIsBounded() {
        Percentiles h = new Percentiles();
        for (int i = 1; i <= 10 * ChartData.MAX_POINTS; i++) {
            h.add(i * 1e-3, Percentiles.rows(metrics(i)));
            assertTrue(h.size() <= ChartData.MAX_POINTS);
        }
        double[] t = h.timeMillis();
        assertEquals(1.0, t[0], 1e-9, "the first point stays");
        assertEquals(10.0 * ChartData.MAX_POINTS, t[t.length - 1], 1e-6, "the last point is there");
        double[] p99 = h.series().get("sink.latency P99");
        for (int i = 0; i < t.length; i++) {
            assertEquals(t[i], p99[i], 1e-6, "each kept point keeps its own value");
        }
    }
}

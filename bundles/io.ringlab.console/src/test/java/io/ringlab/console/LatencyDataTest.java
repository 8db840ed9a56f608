package io.ringlab.console;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.dto.PointsDTO;
import io.ringlab.sim.api.dto.SeriesDTO;

/** The latency charts' lines: points as points, other histograms as their interval percentiles, CDFs, all in ms. */
class LatencyDataTest {
    @Test
    void pointsPercentilesAndDistributionsInMilliseconds() {
        SeriesDTO s = new SeriesDTO();
        s.columns.addAll(List.of("timeSeconds", "sink.latencyP50Micros", "sink.latencyP99Micros"));
        s.rows.add(new double[] { 0, Double.NaN, Double.NaN });
        s.rows.add(new double[] { 0.001, 20, 40 });
        PointsDTO ping = new PointsDTO();
        ping.timeSeconds = new double[] { 0.5, 1.5 };
        ping.values = new double[] { 1.25, 3.5 };
        s.points.put("ping.rttMillis", ping);
        Map<String, List<double[]>> dist = Map.of("ping.rttMillis", List.of(new double[] { 1.25, 0.5 }, new double[] { 3.5, 1 }),
                "sink.latencyMicros", List.of(new double[] { 20, 0.5 }, new double[] { 40, 1 }));
        LatencyData d = LatencyData.of(s, dist);
        assertEquals(List.of("ping.rttMillis", "sink.latencyP50Micros", "sink.latencyP99Micros"), List.copyOf(d.overTime().keySet()));
        assertArrayEquals(new double[] { 500, 1500 }, d.overTime().get("ping.rttMillis")[0]);
        assertArrayEquals(new double[] { 1.25, 3.5 }, d.overTime().get("ping.rttMillis")[1]);
        assertArrayEquals(new double[] { Double.NaN, 0.02 }, d.overTime().get("sink.latencyP50Micros")[1], 1e-15);
        assertArrayEquals(new double[] { 0.02, 0.04 }, d.cdf().get("sink.latencyMicros")[0], 1e-15);
        assertArrayEquals(new double[] { 0.5, 1 }, d.cdf().get("sink.latencyMicros")[1]);
        assertTrue(LatencyData.allPositive(d.cdf(), true));
        assertFalse(LatencyData.allPositive(Map.of("z", new double[][] { { 0, 1 }, { 1, 1 } }), true), "a 0 on the axis");
        assertEquals(LatencyData.EMPTY, LatencyData.of(null, null));
    }
}

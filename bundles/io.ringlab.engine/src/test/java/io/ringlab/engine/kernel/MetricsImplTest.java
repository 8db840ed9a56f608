package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.DoubleSupplier;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.Metrics;
import io.ringlab.sim.api.dto.PointsDTO;

/** A histogram's points at their times (bounded, counted past the bound) and its percentiles per sampling interval. */
class MetricsImplTest {
    private long now;
    private final MetricsImpl metrics = new MetricsImpl("ping", new MetricsImpl.Window() {
        @Override
        public long nowPicos() {
            return now;
        }

        @Override
        public long measureStartPicos() {
            return 0;
        }
    });

    @Test
    void pointsKeepEachValueAtItsTimeUpToTheRoomTheRunLeavesAndCountTheRest() {
        Metrics.LatencyHistogram rtt = metrics.histogram("rtt", "Millis");
        metrics.points("rtt", 1_000_000_000_000L); // at most one value a second
        metrics.allocatePoints(3_500_000_000_000L); // a 3.5 s run: room for 4
        for (int i = 0; i < 6; i++) {
            now = i * 1_000_000_000_000L + 2_000_000_000L; // i s + 2 ms
            rtt.record((i + 1) * 1_000_000_000L); // (i + 1) ms
        }
        PointsDTO p = metrics.points.get("rtt").dto();
        assertEquals("rttMillis", metrics.points.get("rtt").name);
        assertArrayEquals(new double[] {0.002, 1.002, 2.002, 3.002}, p.timeSeconds, 1e-12);
        assertArrayEquals(new double[] {1, 2, 3, 4}, p.values, 1e-12);
        assertEquals(2, p.dropped);
        assertEquals(6, rtt.count(), "the histogram has every value");
    }

    @Test
    void pointsNeedAHistogramOfTheElementAndAPositiveInterval() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> metrics.points("rtt", 1));
        assertTrue(e.getMessage().contains("points of unknown histogram: name=rtt"), e.getMessage());
        metrics.histogram("rtt", "Millis");
        e = assertThrows(IllegalArgumentException.class, () -> metrics.points("rtt", 0));
        assertTrue(e.getMessage().contains("intervalPicos=0"), e.getMessage());
    }

    @Test
    void intervalPercentilesCoverTheValuesSinceTheLastSampleAndAreNaNWithoutAny() {
        Metrics.LatencyHistogram latency = metrics.histogram("latency", "Micros");
        DoubleSupplier p50 = metrics.intervalPercentile("latency", 0);
        DoubleSupplier p99 = metrics.intervalPercentile("latency", 1);
        assertTrue(Double.isNaN(p50.getAsDouble()), "no value yet");
        for (int i = 1; i <= 100; i++) {
            latency.record(i * 1_000_000L); // 1 to 100 us
        }
        assertEquals(50, p50.getAsDouble(), 0.05);
        assertEquals(99, p99.getAsDouble(), 0.1);
        metrics.endInterval();
        assertTrue(Double.isNaN(p50.getAsDouble()), "an interval without values");
        latency.record(500_000_000L);
        assertEquals(500, p50.getAsDouble(), 0.5, "only this interval's value");
        java.util.Map<String, Double> whole = new java.util.TreeMap<>();
        metrics.report(whole);
        assertEquals(51, whole.get("latencyP50Micros"), 0.05, "the whole run's median of 101 values");
    }
}

package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * Each latency histogram's distribution (the console's CDF): keyed {@code element.<name><Unit>}, ascending in value
 * and fraction, from the smallest value to 1 at the largest, and agreeing with the percentiles the element reports.
 */
class DistributionsTest {
    @Test
    void eachHistogramsDistributionRisesToOneAndMeetsItsPercentiles() throws Exception {
        RunResultDTO r = Pipelines.build(Pipelines.RANDOM, 3).run();
        assertEquals("FINISHED", r.state, r.error);
        assertEquals(List.of("sink.latencyMicros"), List.copyOf(r.distributions.keySet()));
        List<double[]> cdf = r.distributions.get("sink.latencyMicros");
        Map<String, Double> sink = r.elements.get("sink");
        assertTrue(cdf.size() > 10, "points: " + cdf.size());
        for (int i = 1; i < cdf.size(); i++) {
            assertTrue(cdf.get(i)[0] >= cdf.get(i - 1)[0] && cdf.get(i)[1] >= cdf.get(i - 1)[1], "ascending at " + i);
        }
        assertEquals(1.0, cdf.get(cdf.size() - 1)[1]);
        assertEquals(sink.get("latencyMaxMicros"), cdf.get(cdf.size() - 1)[0], 1e-3 * sink.get("latencyMaxMicros"),
                "the last point is the largest value (to HdrHistogram's 3 digits)");
        assertEquals(sink.get("latencyMinMicros"), cdf.get(0)[0], 1e-3 * sink.get("latencyMinMicros"), "the first the smallest");
        for (String p : List.of("P50", "P90", "P99")) {
            double level = Double.parseDouble(p.substring(1)) / 100;
            double at = cdf.stream().filter(x -> x[1] >= level).findFirst().orElseThrow()[0];
            double reported = sink.get("latency" + p + "Micros");
            assertTrue(at >= reported * (1 - 1e-3), p + ": the distribution reaches " + level + " at " + at + ", below the "
                    + "reported " + reported);
        }
    }
}

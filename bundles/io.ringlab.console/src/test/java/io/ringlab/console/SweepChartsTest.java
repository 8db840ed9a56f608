package io.ringlab.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.experiment.api.dto.MetricSummaryDTO;
import io.ringlab.experiment.api.dto.PointResultDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;

/** A sweep's charts: the metric against the first (or a chosen) parameter, a line per variant and other parameters' values. */
class SweepChartsTest {
    private static MetricSummaryDTO summary(double mean, Double low, Double high) {
        MetricSummaryDTO s = new MetricSummaryDTO();
        s.mean = mean;
        s.ci95Low = low;
        s.ci95High = high;
        return s;
    }

    @Test
    void eachVariantAndOtherParameterIsALineOverTheFirstParametersValues() {
        ExperimentResultDTO r = new ExperimentResultDTO();
        r.metrics.add("q.backlog");
        r.parameters.addAll(List.of("wire.rate", "eth0.ring"));
        for (String rate : List.of("1Gbit", "100Mbit")) {
            for (String ring : List.of("16", "64")) {
                PointResultDTO p = new PointResultDTO();
                p.values.put("wire.rate", rate);
                p.values.put("eth0.ring", ring);
                double m = Double.parseDouble(ring) * (rate.equals("1Gbit") ? 1 : 10);
                p.variants.put("A", Map.of("q.backlog", summary(m, m - 1, m + 2)));
                p.variants.put("B", Map.of("q.backlog", summary(m / 2, null, null)));
                r.points.add(p);
            }
        }
        SweepCharts c = SweepCharts.of(r, null).get(0);
        assertEquals("wire.rate", c.parameter());
        assertTrue(c.numeric(), "rates read as bit/s");
        assertEquals(List.of("A, eth0.ring=16", "B, eth0.ring=16", "A, eth0.ring=64", "B, eth0.ring=64"), List.copyOf(c.lines().keySet()));
        List<SweepCharts.Point> a16 = c.lines().get("A, eth0.ring=16");
        assertEquals(List.of(new SweepCharts.Point(1e8, 160, 1, 2), new SweepCharts.Point(1e9, 16, 1, 2)), a16, "in x order");
        assertTrue(Double.isNaN(c.lines().get("B, eth0.ring=16").get(0).minus()), "no interval: NaN");
        assertFalse(c.logX(), "a factor of 10 is no reason for a log axis");
        assertTrue(c.bands(), "a numeric x: the intervals as bands, as ringlab plot draws them");
        // A at 1Gbit, ring 16: 16 - 1 .. 16 + 2; B at 100Mbit, ring 64: 320 (no interval); A at 100Mbit, ring 64: 640 + 2
        assertEquals(List.of(8.0, 642.0), java.util.Arrays.stream(c.yRange()).boxed().toList(), "the range covers the bands");

        SweepCharts byRing = SweepCharts.of(r, "eth0.ring").get(0); // as ringlab plot --x eth0.ring
        assertEquals("eth0.ring", byRing.parameter());
        assertEquals(List.of("A, wire.rate=1Gbit", "B, wire.rate=1Gbit", "A, wire.rate=100Mbit", "B, wire.rate=100Mbit"),
                List.copyOf(byRing.lines().keySet()));
        assertEquals(List.of(new SweepCharts.Point(16, 160, 1, 2), new SweepCharts.Point(64, 640, 1, 2)),
                byRing.lines().get("A, wire.rate=100Mbit"));
        assertEquals("wire.rate", SweepCharts.of(r, "eth0.nothing").get(0).parameter(), "an x not swept: the first");

        RunSummaryDTO one = new RunSummaryDTO(), two = new RunSummaryDTO();
        for (RunSummaryDTO s : List.of(one, two)) {
            s.variant = "A";
            s.state = RunSummaryDTO.FINISHED;
            s.point.put("eth0.ring", "16");
        }
        one.metrics.put("q.backlog", 10.0);
        two.metrics.put("q.backlog", 20.0);
        SweepCharts live = SweepCharts.ofRuns(List.of("eth0.ring"), null, List.of("q.backlog"), List.of(one, two)).get(0);
        assertEquals(List.of(new SweepCharts.Point(16, 15, Double.NaN, Double.NaN)), live.lines().get("A"), "the mean so far");
        assertEquals(List.of(), SweepCharts.of(new ExperimentResultDTO(), null), "no sweep, no charts");
    }
}

package io.ringlab.console;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringlab.experiment.api.dto.ExperimentResultDTO;

class AbChartsTest {
    @Test
    void aChartPerMetricWithAPointPerVariantAndItsIntervalAsErrorBar() {
        List<AbCharts.Chart> charts = AbCharts.of(AbFixtures.result());
        assertEquals(List.of("eth0.ringUsed", "sink.rxPackets"), charts.stream().map(AbCharts.Chart::metric).toList());
        AbCharts.Chart ring = charts.get(0);
        assertEquals(List.of("off", "on"), ring.points().stream().map(AbCharts.Point::variant).toList());
        AbCharts.Point off = ring.points().get(0), on = ring.points().get(1);
        assertEquals(0, off.x());
        assertEquals(1, on.x());
        assertEquals(240.0, off.mean());
        assertEquals(90.0, off.minus());
        assertEquals(90.0, off.plus());
        assertEquals(4.5, on.minus());
        assertEquals(4.5, on.plus());
        // the range covers 8 to 330 with 15 % of the span on either side, and need not include 0
        assertEquals(8 - 322 * AbCharts.MARGIN, ring.yLow(), 1e-9);
        assertEquals(330 + 322 * AbCharts.MARGIN, ring.yHigh(), 1e-9);
        assertEquals(-0.5, ring.xLow());
        assertEquals(1.5, ring.xHigh());
    }

    @Test
    void withoutAnIntervalAPointHasNoBarAndWithoutAMeanNoPoint() {
        ExperimentResultDTO r = AbFixtures.result();
        AbCharts.Point on = AbCharts.of(r).get(1).points().get(1);
        assertEquals(1600.0, on.mean());
        assertFalse(on.hasInterval(), "n = 1");
        r.variants.get("on").get("sink.rxPackets").mean = null;
        AbCharts.Point none = AbCharts.of(r).get(1).points().get(1);
        assertNull(none.mean());
        assertFalse(none.hasInterval());
        assertTrue(AbCharts.of(r).get(1).points().get(0).hasInterval(), "zero variance: a bar of length 0");
    }

    @Test
    void theRangeOfAPointIsTenPercentAroundItAndOfNothingZeroToOne() {
        assertArrayEquals(new double[] { 1440, 1760 }, AbCharts.range(1600, 1600), 1e-9);
        assertArrayEquals(new double[] { -1, 1 }, AbCharts.range(0, 0));
        assertArrayEquals(new double[] { 0, 1 }, AbCharts.range(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY));
    }

    @Test
    void theXTicksAreTheVariantsNames() {
        AbCharts.Chart c = AbCharts.of(AbFixtures.result()).get(0);
        assertEquals("off", c.tickLabel(0));
        assertEquals("on", c.tickLabel(1.0));
        assertEquals("", c.tickLabel(0.5));
        assertEquals("", c.tickLabel(2));
        assertEquals("", c.tickLabel(-1));
    }
}

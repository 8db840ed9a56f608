package io.ringlab.console;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.dto.SeriesDTO;

class ChartDataTest {
    static SeriesDTO series() {
        SeriesDTO s = new SeriesDTO();
        s.intervalSeconds = 0.001;
        s.columns = List.of("timeSeconds", "src.txPackets", "eth0.ringUsed", "pool:src.pool.inUse", "sink.rxPackets");
        s.rows = List.of(new double[] { 0, 0, 0, 0, 0 }, new double[] { 0.001, 100, 5, 3, 80 }, new double[] { 0.002, 300, 7, 4, 230 });
        return s;
    }

    @Test
    void theHeadlineIsPlottedAsSampledAndCountersAsPacketsPerSecond() {
        ChartData d = ChartData.of(series(), "eth0.ringUsed");
        assertArrayEquals(new double[] { 0, 1, 2 }, d.timeMillis(), 1e-9);
        assertArrayEquals(new double[] { 0, 5, 7 }, d.headline());
        assertEquals(List.of("src.txPackets", "sink.rxPackets"), List.copyOf(d.throughput().keySet()));
        assertArrayEquals(new double[] { 0, 100_000, 200_000 }, d.throughput().get("src.txPackets"), 1e-6);
        assertArrayEquals(new double[] { 0, 80_000, 150_000 }, d.throughput().get("sink.rxPackets"), 1e-6);
    }

    @Test
    void noSeriesOrNoHeadlineColumnGivesEmptyData() {
        assertEquals(0, ChartData.of(null, "x.y").size());
        assertEquals(0, ChartData.of(new SeriesDTO(), "x.y").size());
        assertNull(ChartData.of(series(), "sink.latencyP99Micros").headline());
        assertNull(ChartData.of(series(), null).headline());
    }
}

package io.ringlab.console;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

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

    @Test
    void eachColumnGoesToItsViewByName() {
        assertEquals(ChartData.View.THROUGHPUT, ChartData.viewOf("sink.rxPackets"));
        assertEquals(ChartData.View.QUEUE_PACKETS, ChartData.viewOf("q.backlog"));
        assertEquals(ChartData.View.QUEUE_PACKETS, ChartData.viewOf("pf.backlogBand2"));
        assertEquals(ChartData.View.QUEUE_PACKETS, ChartData.viewOf("eth0.ringUsed"));
        assertEquals(ChartData.View.QUEUE_PACKETS, ChartData.viewOf("eth0.txDescUsed"));
        assertEquals(ChartData.View.QUEUE_BYTES, ChartData.viewOf("eth0.limit"));
        assertEquals(ChartData.View.QUEUE_BYTES, ChartData.viewOf("eth0.inflight"));
        assertEquals(ChartData.View.POOLS, ChartData.viewOf("pool:eth0.rx.inUse"));
        assertEquals(ChartData.View.POOLS, ChartData.viewOf("pool:gen.pool.available"));
        assertEquals(ChartData.View.CACHE, ChartData.viewOf("cpu1.l1dHitPercent"));
        assertNull(ChartData.viewOf("pool:eth0.rx.napiCacheHits"));
        assertNull(ChartData.viewOf("pool:eth0.rx.txPackets"));
        assertNull(ChartData.viewOf("cpu0.l1dMisses"));
        assertNull(ChartData.viewOf("eth0.rxMpps"));
        assertNull(ChartData.viewOf("wire.inFlight"));
    }

    @Test
    void theViewsGetTheirColumnsAsSampled() {
        SeriesDTO s = new SeriesDTO();
        s.columns = List.of("timeSeconds", "q.backlog", "eth0.limit", "eth0.inflight", "pool:gen.pool.inUse", "pool:gen.pool.available",
                "cpu0.l1dHitPercent", "eth0.rxMpps");
        s.rows = List.of(new double[] { 0, 1, 3028, 1514, 4, 60, 0, 1 }, new double[] { 0.001, 2, 4542, 3028, 5, 59, 48.5, 2 });
        ChartData d = ChartData.of(s, null);
        assertEquals(List.of("q.backlog"), List.copyOf(d.queuePackets().keySet()));
        assertEquals(List.of("eth0.limit", "eth0.inflight"), List.copyOf(d.queueBytes().keySet()));
        assertArrayEquals(new double[] { 3028, 4542 }, d.queueBytes().get("eth0.limit"));
        assertEquals(List.of("pool:gen.pool.inUse", "pool:gen.pool.available"), List.copyOf(d.pools().keySet()));
        assertArrayEquals(new double[] { 60, 59 }, d.pools().get("pool:gen.pool.available"));
        assertArrayEquals(new double[] { 0, 48.5 }, d.cache().get("cpu0.l1dHitPercent"));
        assertEquals(2, d.rows());
    }

    @Test
    void decimationKeepsAtMostTheBoundWithTheFirstAndLastRow() {
        for (int rows : new int[] { 0, 1, 999, 1000, 1001, 1999, 2000, 2001, 12_345, 1_000_000 }) {
            int[] idx = ChartData.decimate(rows, ChartData.MAX_POINTS);
            assertEquals(true, idx.length <= ChartData.MAX_POINTS, rows + " rows gave " + idx.length);
            if (rows > 0) {
                assertEquals(0, idx[0]);
                assertEquals(rows - 1, idx[idx.length - 1]);
            }
            for (int i = 1; i < idx.length; i++) {
                assertEquals(true, idx[i] > idx[i - 1]);
            }
            if (rows <= ChartData.MAX_POINTS) {
                assertEquals(rows, idx.length);
            } else {
                assertEquals(true, idx.length >= ChartData.MAX_POINTS / 2, rows + " rows gave only " + idx.length);
            }
        }
    }

    @Test
    void aDecimatedCounterIsTheMeanRateOverItsStride() {
        SeriesDTO s = new SeriesDTO();
        s.columns = List.of("timeSeconds", "sink.rxPackets", "q.backlog");
        s.rows = new java.util.ArrayList<>();
        for (int i = 0; i < 5001; i++) {
            s.rows.add(new double[] { i * 0.001, i * 10.0, i % 7 }); // 10,000 packets/s
        }
        ChartData d = ChartData.of(s, null);
        assertEquals(true, d.size() <= ChartData.MAX_POINTS);
        assertEquals(5000.0, d.timeMillis()[d.size() - 1], 1e-9);
        double[] rate = d.throughput().get("sink.rxPackets");
        for (int i = 1; i < rate.length; i++) {
            assertEquals(10_000, rate[i], 1e-6);
        }
        double[] backlog = d.queuePackets().get("q.backlog");
        for (int i = 0; i < backlog.length; i++) {
            assertEquals((Math.round(d.timeMillis()[i])) % 7, backlog[i], 1e-9, "a gauge is plotted as sampled at its row");
        }
        assertEquals(5001, d.rows());
    }

    @Test
    void pointsWithoutAValueAreLeftOutOfALine() {
        double[][] xy = ChartData.withoutNaN(new double[] {0, 1, 2, 3}, new double[] {Double.NaN, 5, Double.NaN, 7});
        assertArrayEquals(new double[] {1, 3}, xy[0]);
        assertArrayEquals(new double[] {5, 7}, xy[1]);
        double[] x = {0, 1};
        double[] y = {2, 3};
        xy = ChartData.withoutNaN(x, y);
        assertSame(y, xy[1], "nothing to leave out: the same arrays");
    }
}

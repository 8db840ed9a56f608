package io.ringlab.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.MetricDescriptorDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.SeriesDTO;

/** What the canvas shows of a run, from a snapshot's metrics and from a sampled row, and the texts it draws. */
class CanvasStateTest {
    private static ElementDescriptorDTO type(String name, List<PropertyDescriptorDTO> props, MetricDescriptorDTO... metrics) {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = name;
        d.properties.addAll(props);
        d.metricDescriptors.addAll(List.of(metrics));
        return d;
    }

    private static final List<ElementDescriptorDTO> TYPES = List.of(
            type("fifo", List.of(PropertyDescriptorDTO.of("limit", PropertyDescriptorDTO.Kind.INTEGER, "1000", "1", null, "x")),
                    new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, "backlog", "", "x").level("limit"),
                    new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, "backlogBytes", "B", "x").level(null),
                    new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, "other", "", "x")),
            type("wire", List.of(PropertyDescriptorDTO.of("rate", PropertyDescriptorDTO.Kind.RATE, "1Gbit", null, null, "x")),
                    new MetricDescriptorDTO(MetricDescriptorDTO.COUNTER, "wireBytes", "B", "x").throughput("rate"),
                    new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, "busySeconds", "s", "x").busy()),
            type("nic", List.of(),
                    new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, "limit", "B", "x"),
                    new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, "inflight", "B", "x").level("limit"),
                    new MetricDescriptorDTO(MetricDescriptorDTO.COUNTER, "txPackets", "packets", "x").throughput(null)));

    private static final PipelineDTO PIPELINE = read("""
            element q : fifo { limit = 50 }
            element eth0 : nic
            element w : wire { rate = 100Mbit }
            element r : wire
            """);

    private static PipelineDTO read(String text) {
        try {
            return PipelineReader.read("t.pipeline", text);
        } catch (io.ringlab.sim.api.PipelineException e) {
            throw new AssertionError(e);
        }
    }

    private static SeriesDTO series() {
        SeriesDTO s = new SeriesDTO();
        s.intervalSeconds = 0.001;
        s.columns.addAll(List.of("timeSeconds", "q.backlog", "q.backlogBytes", "w.wireBytes", "eth0.inflight", "eth0.limit",
                "eth0.txPackets", "pool:eth0.rx.inUse", "pool:eth0.rx.available", "drops:q.qdisc-overlimit", "w.busySeconds"));
        s.rows.add(new double[] { 0, 0, 0, 0, 0, 0, 0, 0, 64, 0, 0 });
        s.rows.add(new double[] { 0.001, 20, 30000, 6250, 3000, 6000, 100, 16, 48, 0, 0.0004 });
        s.rows.add(new double[] { 0.002, 50, 75000, 18750, 9000, 6000, 300, 64, 0, 7, 0.0013 });
        return s;
    }

    @Test
    void aSampledRowGivesLevelsAgainstCapacitiesRatesPoolsAndDrops() {
        CanvasState.Layout layout = new CanvasState.Layout(PIPELINE, TYPES);
        CanvasState at1 = CanvasState.at(layout, series(), 1);
        assertEquals(0.001, at1.timeSeconds());
        Map<String, Map<String, Double>> f = at1.flat();
        assertEquals(Map.of("backlog", 20.0, "backlog/capacity", 50.0, "backlogBytes", 30000.0, "drops", 0.0), f.get("q"),
                "the file's limit, not the default; no drops yet");
        // 6250 B in 1 ms on a 100 Mbit/s wire: 50 Mbit/s, half its rate; busy 0.4 ms of the 1 ms; r has no column and
        // shows nothing measured
        assertEquals(Map.of("wireBytes/s", 50e6, "wireBytes/utilisation", 0.5, "utilisation", 0.4, "drops", 0.0), f.get("w"));
        assertEquals(0.9, CanvasState.at(layout, series(), 2).flat().get("w").get("utilisation"), 1e-12, "0.9 ms of the next");
        assertEquals(Map.of("drops", 0.0), f.get("r"));
        assertEquals(Map.of("inflight", 3000.0, "inflight/capacity", 6000.0, "txPackets/s", 100_000.0, "pool:rx", 16.0,
                "pool:rx/capacity", 64.0, "drops", 0.0), f.get("eth0"), "BQL's limit is a metric; the pool is eth0's");

        Map<String, Double> q2 = CanvasState.at(layout, series(), 2).flat().get("q");
        assertEquals(7.0, q2.get("drops:qdisc-overlimit"));
        assertEquals(7.0, q2.get("drops"));
        assertEquals(1.0, CanvasState.at(layout, series(), 2).elements().get("q").levels().get(0).fill());
        assertTrue(Double.isNaN(CanvasState.at(layout, series(), 0).elements().get("w").flows().get(0).perSecond()),
                "no rate at the first row");
    }

    @Test
    void aSnapshotGivesItsOwnValuesAndTheSeriesLastRate() {
        CanvasState.Layout layout = new CanvasState.Layout(PIPELINE, TYPES);
        Map<String, Map<String, Double>> metrics = Map.of("q", Map.of("backlog", 12.0, "backlogBytes", 18000.0),
                "eth0", Map.of("inflight", 1514.0, "limit", 3028.0), "pool:eth0.rx", Map.of("inUse", 5.0, "capacity", 64.0));
        CanvasState s = CanvasState.now(layout, 0.0025, metrics, Map.of("q", Map.of("qdisc-overlimit", 9L)), series());
        Map<String, Double> q = s.flat().get("q");
        assertEquals(12.0, q.get("backlog"));
        assertEquals(9.0, q.get("drops"));
        assertEquals(0.5, s.elements().get("eth0").levels().get(0).fill());
        assertEquals(200_000.0, s.flat().get("eth0").get("txPackets/s"), "(300 - 100) packets in the last 1 ms");
        assertEquals(5.0, s.flat().get("eth0").get("pool:rx"));
    }

    @Test
    void textsNameTheMetricAndScaleTheUnits() {
        assertEquals("backlog 20 / 50", CanvasText.level(new CanvasState.Level("backlog", 20, 50, "")));
        assertEquals("inflight 16.7 kB / 15.1 kB", CanvasText.level(new CanvasState.Level("inflight", 16654, 15140, "B")));
        assertEquals("backlogBytes 93.3 kB", CanvasText.level(new CanvasState.Level("backlogBytes", 93332, Double.NaN, "B")));
        assertEquals("tx 91.4 Mbit/s  rx 8.10 kpps", CanvasText.flows(List.of(new CanvasState.Flow("txBytes", 91.4e6, true, Double.NaN),
                new CanvasState.Flow("rxPackets", 8100, false, Double.NaN)), Double.NaN));
        assertEquals("busy 98 %  wire 97 % 97.0 Mbit/s", CanvasText.flows(List.of(new CanvasState.Flow("wireBytes", 97e6, true, 0.97)),
                0.98));
        assertEquals("1,310 dropped: 1,000 b, 200 a, 100 c, 10 other",
                CanvasText.badge(Map.of("a", 200L, "b", 1000L, "c", 100L, "d", 10L)));
        assertEquals("223 qdisc-overlimit", CanvasText.badge(Map.of("qdisc-overlimit", 223L)));
    }
}

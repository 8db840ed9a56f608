package io.ringlab.results;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.experiment.api.dto.SweepDTO;
import io.ringlab.experiment.api.dto.VariantDTO;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.MetricDescriptorDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.PointsDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO.Kind;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.SampleWarningDTO;
import io.ringlab.sim.api.dto.SeriesDTO;
import io.ringlab.sim.api.dto.SwapDTO;
import io.ringlab.sim.api.dto.ValueDTO;

/**
 * The results tests' world: element types with properties of every kind and metrics with declared, suffix-given and
 * family units; a pipeline {@code src -> eth0 -> q -> wire -> sink}; experiments with and without sweeps; runs built as
 * the experiment service would hand them to a store.
 */
final class Fixtures {
    private Fixtures() {
    }

    /** The element types: two NIC types and two qdisc types that declare the same metric with different units. */
    static final List<ElementDescriptorDTO> TYPES = List.of(
            type("source", List.of(PropertyDescriptorDTO.of("rate", Kind.RATE, "1Gbit", null, null, "rate"),
                    PropertyDescriptorDTO.of("label", Kind.STRING, "", null, null, "label")),
                    List.of(new MetricDescriptorDTO(MetricDescriptorDTO.COUNTER, "txPackets", "sent"))),
            type("netdev", List.of(PropertyDescriptorDTO.of("txRing", Kind.INTEGER, "256", "1", "4096", "ring"),
                    PropertyDescriptorDTO.of("bql", Kind.BOOLEAN, "true", null, null, "bql"),
                    PropertyDescriptorDTO.of("coalesce", Kind.DURATION, "0s", null, null, "irq coalescing"),
                    PropertyDescriptorDTO.of("weight", Kind.DECIMAL, "1.0", null, null, "weight")),
                    List.of(MetricDescriptorDTO.bqlLimit(),
                            new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, "stream<i>Cwnd", "", "cwnd"))),
            type("fastnic", List.of(PropertyDescriptorDTO.of("txRing", Kind.INTEGER, "256", "1", "4096", "ring")),
                    List.of(new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, "limit", "KiB", "limit"))),
            type("pfifo_fast", List.of(PropertyDescriptorDTO.of("limit", Kind.INTEGER, "1000", null, null, "limit")),
                    List.of(new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, "backlog", "packets", "backlog"))),
            type("fq_codel", List.of(PropertyDescriptorDTO.of("limit", Kind.SIZE, "10MB", null, null, "limit")),
                    List.of(new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, "backlog", "B", "backlog"))),
            type("wire", List.of(PropertyDescriptorDTO.of("rate", Kind.RATE, "1Gbit", "1bit", "400Gbit", "rate")),
                    List.of()),
            type("sink", List.of(), List.of(new MetricDescriptorDTO(MetricDescriptorDTO.RATE, "rxMpps", "received"),
                    new MetricDescriptorDTO(MetricDescriptorDTO.HISTOGRAM, "latencyP50Micros", "latency"))));

    private static ElementDescriptorDTO type(String id, List<PropertyDescriptorDTO> properties,
            List<MetricDescriptorDTO> metrics) {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = id;
        d.properties.addAll(properties);
        d.metricDescriptors.addAll(metrics);
        return d;
    }

    /** @return the pipeline {@code src:source, eth0:netdev, q:pfifo_fast, wire:wire, sink:sink} */
    static PipelineDTO pipeline() {
        PipelineDTO p = new PipelineDTO();
        p.name = "ab";
        p.file = "pipelines/ab.pipeline";
        for (String[] e : new String[][] {{"src", "source"}, {"eth0", "netdev"}, {"q", "pfifo_fast"}, {"wire", "wire"},
                {"sink", "sink"}}) {
            ElementSpecDTO s = new ElementSpecDTO();
            s.name = e[0];
            s.type = e[1];
            p.elements.add(s);
        }
        return p;
    }

    /**
     * @param name the experiment's name
     * @param sweeps each sweep as its targets then its values, {@code {"eth0.txRing"}, {"64"}, {"256"}}
     * @return an experiment with variants {@code base} and {@code fast} (eth0 retyped to fastnic), metrics
     *         {@code sink.rxMpps} and {@code eth0.limit}, seeds 1 and 2
     */
    static ExperimentDTO experiment(String name, String[][]... sweeps) {
        ExperimentDTO e = new ExperimentDTO();
        e.name = name;
        e.file = "experiments/" + name + ".experiment";
        e.pipelineFile = "pipelines/ab.pipeline";
        e.pipeline = pipeline();
        e.durationPicos = 2_000_000_000_000L;
        e.warmupPicos = 500_000_000_000L;
        e.seeds.addAll(List.of(1L, 2L));
        e.metrics.add(new ValueDTO("sink.rxMpps", 3, 12));
        e.metrics.add(new ValueDTO("eth0.limit", 3, 25));
        VariantDTO base = new VariantDTO();
        base.name = "base";
        VariantDTO fast = new VariantDTO();
        fast.name = "fast";
        fast.types.put("eth0", "fastnic");
        e.variants.add(base);
        e.variants.add(fast);
        for (String[][] s : sweeps) {
            SweepDTO d = new SweepDTO();
            d.targets.addAll(List.of(s[0]));
            for (int i = 1; i < s.length; i++) {
                d.values.add(List.of(s[i]));
            }
            e.sweeps.add(d);
        }
        return e;
    }

    /**
     * @param key the run's key
     * @param variant its variant
     * @param seed its seed
     * @param point target to value, as written, in order ({@code "wire.rate", "100Mbit", ...})
     * @return a finished run's summary with both invariants holding
     */
    static RunSummaryDTO summary(String key, String variant, long seed, String... point) {
        RunSummaryDTO s = new RunSummaryDTO();
        s.key = key;
        s.variant = variant;
        s.seed = seed;
        for (int i = 0; i < point.length; i += 2) {
            s.point.put(point[i], point[i + 1]);
        }
        s.state = RunSummaryDTO.FINISHED;
        s.packetConservation = true;
        s.bufferConservation = true;
        s.simulatedSeconds = 2;
        s.wallSeconds = 0.25 + seed / 100.0;
        s.events = 10_000 + seed;
        s.packets = 1_000 + seed;
        s.forkStateHash = "00000000deadbeef";
        SampleWarningDTO w = new SampleWarningDTO();
        w.metric = "sink.latencyP50Micros";
        w.samples = 3;
        w.needed = 100;
        w.advice = "run at least 10s";
        s.sampleWarnings.add(w);
        return s;
    }

    /**
     * @param s the run's summary (its seed and state are copied)
     * @param metrics {@code ELEMENT.METRIC} to value
     * @return a result with those metrics, a two-column series, a series of points, a swap and a warning
     */
    static RunResultDTO result(RunSummaryDTO s, Map<String, Double> metrics) {
        RunResultDTO r = new RunResultDTO();
        r.ringlabVersion = "0.2.0.test";
        r.bundles.put("io.ringlab.engine", "0.2.0.SNAPSHOT");
        r.bundles.put("io.ringlab.driver.netdev", "0.2.0.SNAPSHOT");
        r.pipeline = "ab";
        r.seed = s.seed;
        r.state = s.state;
        r.simulatedSeconds = s.simulatedSeconds;
        r.wallSeconds = s.wallSeconds;
        r.events = s.events;
        r.packets = s.packets;
        r.invariants.packetConservation = s.packetConservation;
        r.invariants.bufferConservation = s.bufferConservation;
        metrics.forEach((m, v) -> {
            int dot = m.lastIndexOf('.');
            r.elements.computeIfAbsent(m.substring(0, dot), k -> new TreeMap<>()).put(m.substring(dot + 1), v);
        });
        r.series = series(4, List.of("sink.rxMpps", "pool:eth0.rx.inUse"));
        PointsDTO p = new PointsDTO();
        p.timeSeconds = new double[] {0.0015, 0.0031};
        p.values = new double[] {0.42, Double.NaN};
        p.dropped = 7;
        r.series.points.put("ping.rttMillis", p);
        SwapDTO w = new SwapDTO();
        w.atSimulatedSeconds = 1;
        w.element = "eth0";
        w.from = "netdev@0.2.0";
        w.to = "fastnic@0.2.0";
        w.handover = true;
        w.applied = true;
        w.pauseWallMillis = 0.5;
        w.packetsTransferred = 12;
        w.buffersTransferred = 13;
        w.stateHash = "0123456789abcdef";
        r.swaps.add(w);
        r.warnings.put("pool eth0.rx refused an add", 3L);
        return r;
    }

    /**
     * @param rows how many samples, every millisecond
     * @param names the columns after {@code timeSeconds}
     * @return a series whose value in row i, column j is {@code i * 10 + j}, NaN in row 1 of the last column
     */
    static SeriesDTO series(int rows, List<String> names) {
        SeriesDTO d = new SeriesDTO();
        d.intervalSeconds = 0.001;
        d.columns.add("timeSeconds");
        d.columns.addAll(names);
        for (int i = 0; i < rows; i++) {
            double[] row = new double[names.size() + 1];
            row[0] = i * 0.001;
            for (int j = 1; j <= names.size(); j++) {
                row[j] = i == 1 && j == names.size() ? Double.NaN : i * 10 + j;
            }
            d.rows.add(row);
        }
        return d;
    }

    /** @return metrics with declared units, a unit left to the name, a family member, a pool, a CPU and a NaN */
    static Map<String, Double> metrics() {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("sink.rxMpps", 1.25);
        m.put("sink.latencyP50Micros", 17.5);
        m.put("eth0.limit", 3028.0);
        m.put("eth0.stream3Cwnd", 10.0);
        m.put("src.txPackets", 1000.0);
        m.put("q.backlog", 4.0);
        m.put("pool:eth0.rx.allocs", 2048.0);
        m.put("cpu0.busyPercent", 55.0);
        m.put("sink.rxBytes", Double.NaN);
        return m;
    }
}

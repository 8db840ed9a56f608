package io.ringlab.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.ringlab.experiment.api.dto.ComparisonDTO;
import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.experiment.api.dto.MetricSummaryDTO;
import io.ringlab.experiment.api.dto.PointResultDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.experiment.api.dto.VariantDTO;
import io.ringlab.sim.api.dto.HeadlineDTO;
import io.ringlab.sim.api.dto.ValueDTO;

/** A ready-made experiment and result for the {@code ringlab ab} tests: BQL off and on, three seeds, two metrics. */
final class AbResults {
    private AbResults() {
    }

    /** @return the experiment: variants off and on, seeds 1 to 3, metrics ping.rttP50Millis and eth0.limit */
    static ExperimentDTO experiment() {
        ExperimentDTO e = new ExperimentDTO();
        e.file = "bql.experiment";
        e.name = "bql";
        e.pipelineFile = "pipelines/stmmac-bql-100m.pipeline";
        e.seeds.addAll(List.of(1L, 2L, 3L));
        e.metrics.add(new ValueDTO("ping.rttP50Millis", 5, 12));
        e.metrics.add(new ValueDTO("eth0.limit", 5, 31));
        for (String name : List.of("off", "on")) {
            VariantDTO v = new VariantDTO();
            v.name = name;
            v.overrides.add("eth0.bql=" + name.equals("on"));
            e.variants.add(v);
        }
        return e;
    }

    /**
     * @return the result: the round-trip time drops from 10.93 to 2.61 ms with BQL (p = 2.2e-5); the BQL limit exists
     *         only with BQL on, so the baseline has no value for it; every run finished with both invariants holding
     */
    static ExperimentResultDTO ok() {
        ExperimentResultDTO r = new ExperimentResultDTO();
        r.ringlabVersion = "0.1.0.test";
        r.name = "bql";
        r.experimentFile = "bql.experiment";
        r.pipeline = "stmmac-bql-100m";
        r.pipelineFile = "pipelines/stmmac-bql-100m.pipeline";
        r.durationSeconds = 2;
        r.warmupSeconds = 0.2;
        r.seeds.addAll(List.of(1L, 2L, 3L));
        r.metrics.addAll(List.of("ping.rttP50Millis", "eth0.limit"));
        r.baseline = "off";
        r.threads = 2;
        r.wallSeconds = 12.5;
        r.variants.put("off", metrics(summary(3, 10.9312, 10.8600, 11.0024, null), summary(0, null, null, null,
                "no run gave a value")));
        r.variants.put("on", metrics(summary(3, 2.6103, 2.5890, 2.6316, null), summary(3, 3028.5, 3000.1, 3056.9, null)));
        ComparisonDTO rtt = new ComparisonDTO();
        rtt.metric = "ping.rttP50Millis";
        rtt.a = "off";
        rtt.b = "on";
        rtt.n = 3;
        rtt.difference = -8.3209;
        rtt.ci95Low = -8.3951;
        rtt.ci95High = -8.2467;
        rtt.tStatistic = -213.4;
        rtt.pValue = 2.2e-5;
        ComparisonDTO limit = new ComparisonDTO();
        limit.metric = "eth0.limit";
        limit.a = "off";
        limit.b = "on";
        limit.note = "no seed gave a value in both variants";
        r.comparisons.addAll(List.of(rtt, limit));
        for (String v : List.of("off", "on")) {
            for (long seed = 1; seed <= 3; seed++) {
                RunSummaryDTO s = new RunSummaryDTO();
                s.variant = v;
                s.seed = seed;
                s.state = RunSummaryDTO.FINISHED;
                s.packetConservation = true;
                s.bufferConservation = true;
                s.metrics.put("ping.rttP50Millis", v.equals("on") ? 2.6 + seed / 100.0 : 10.9 + seed / 100.0);
                if (v.equals("on")) {
                    s.metrics.put("eth0.limit", 3000.0 + 10 * seed);
                }
                HeadlineDTO h = new HeadlineDTO();
                h.metric = "ping.rttP50Millis";
                h.value = s.metrics.get("ping.rttP50Millis");
                h.unit = "ms";
                s.headline = h;
                s.simulatedSeconds = 2;
                s.wallSeconds = 2.0;
                s.events = 1_000_000 + seed;
                s.packets = 50_000 + seed;
                r.runs.add(s);
            }
        }
        return r;
    }

    /**
     * @return {@link #ok()} swept over {@code eth0.txRing} 64 and 256: the same statistics at both points but the
     *         round-trip times 1 ms higher at 256, runs by point, variant and seed
     */
    static ExperimentResultDTO swept() {
        ExperimentResultDTO one = ok();
        ExperimentResultDTO r = ok();
        r.variants.clear();
        r.comparisons.clear();
        r.runs.clear();
        r.parameters.add("eth0.txRing");
        for (String ring : List.of("64", "256")) {
            ExperimentResultDTO at = ok();
            PointResultDTO p = new PointResultDTO();
            p.values.put("eth0.txRing", ring);
            p.variants.putAll(at.variants);
            p.comparisons.addAll(at.comparisons);
            if (ring.equals("256")) {
                p.variants.values().forEach(m -> {
                    MetricSummaryDTO x = m.get("ping.rttP50Millis");
                    x.mean += 1;
                    x.ci95Low += 1;
                    x.ci95High += 1;
                });
            }
            r.points.add(p);
            for (RunSummaryDTO s : at.runs) {
                s.point.put("eth0.txRing", ring);
                r.runs.add(s);
            }
        }
        r.wallSeconds = 2 * one.wallSeconds;
        return r;
    }

    private static Map<String, MetricSummaryDTO> metrics(MetricSummaryDTO rtt, MetricSummaryDTO limit) {
        Map<String, MetricSummaryDTO> m = new LinkedHashMap<>();
        m.put("ping.rttP50Millis", rtt);
        m.put("eth0.limit", limit);
        return m;
    }

    private static MetricSummaryDTO summary(int n, Double mean, Double low, Double high, String note) {
        MetricSummaryDTO s = new MetricSummaryDTO();
        s.n = n;
        s.mean = mean;
        s.ci95Low = low;
        s.ci95High = high;
        s.note = note;
        return s;
    }
}

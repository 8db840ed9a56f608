package io.ringlab.console;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.ringlab.experiment.api.dto.ComparisonDTO;
import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.experiment.api.dto.MetricSummaryDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.sim.api.dto.ProblemDTO;

/**
 * An experiment result by hand for the A/B panel's tests: variants off (the baseline) and on, two seeds, the metrics
 * {@code eth0.ringUsed} (a spread, intervals everywhere) and {@code sink.rxPackets} (zero variance, and n = 1 in on);
 * on's second seed failed.
 */
final class AbFixtures {
    private AbFixtures() {
    }

    static ExperimentResultDTO result() {
        ExperimentResultDTO r = new ExperimentResultDTO();
        r.name = "bql";
        r.experimentFile = "bql.experiment";
        r.pipeline = "netdev-bql";
        r.seeds.addAll(List.of(1L, 2L));
        r.metrics.addAll(List.of("eth0.ringUsed", "sink.rxPackets"));
        r.baseline = "off";
        r.threads = 2;
        r.wallSeconds = 1.25;
        r.variants.put("off", metrics(summary(2, 240.0, 10.0, 150.0, 330.0, null), summary(2, 1600.0, 0.0, 1600.0, 1600.0,
                "zero variance: every value is the same, the interval is the mean itself")));
        r.variants.put("on", metrics(summary(2, 12.5, 0.5, 8.0, 17.0, null), summary(1, 1600.0, null, null, null,
                "n = 1: no interval; left out: variant on, seed 2 (FAILED)")));
        ComparisonDTO ring = new ComparisonDTO();
        ring.metric = "eth0.ringUsed";
        ring.a = "off";
        ring.b = "on";
        ring.n = 2;
        ring.difference = -227.5;
        ring.ci95Low = -240.0;
        ring.ci95High = -215.0;
        ring.tStatistic = -115.0;
        ring.pValue = 0.005535;
        ComparisonDTO rx = new ComparisonDTO();
        rx.metric = "sink.rxPackets";
        rx.a = "off";
        rx.b = "on";
        rx.n = 1;
        rx.difference = 0.0;
        rx.note = "n = 1: no interval, t or p; 1 of 2 seeds lacked a value";
        r.comparisons.addAll(List.of(ring, rx));
        r.runs.add(run("off", 1, RunSummaryDTO.FINISHED, 230.0, 1600.0));
        r.runs.add(run("off", 2, RunSummaryDTO.FINISHED, 250.0, 1600.0));
        r.runs.add(run("on", 1, RunSummaryDTO.FINISHED, 12.0, 1600.0));
        RunSummaryDTO failed = run("on", 2, RunSummaryDTO.FAILED, null, null);
        failed.error = "eth0 (netdev 0.1.0): IllegalStateException: ring full";
        failed.packetConservation = false;
        failed.bufferConservation = false;
        r.runs.add(failed);
        r.problems.add(new ProblemDTO("bql.experiment", 4, 11, "metric 'eth0.limt' was not reported by variant off (seeds 1-2)"));
        return r;
    }

    private static Map<String, MetricSummaryDTO> metrics(MetricSummaryDTO ring, MetricSummaryDTO rx) {
        Map<String, MetricSummaryDTO> m = new LinkedHashMap<>();
        m.put("eth0.ringUsed", ring);
        m.put("sink.rxPackets", rx);
        return m;
    }

    private static MetricSummaryDTO summary(int n, Double mean, Double sd, Double low, Double high, String note) {
        MetricSummaryDTO s = new MetricSummaryDTO();
        s.n = n;
        s.mean = mean;
        s.standardDeviation = sd;
        s.ci95Low = low;
        s.ci95High = high;
        s.note = note;
        return s;
    }

    private static RunSummaryDTO run(String variant, long seed, String state, Double ring, Double rx) {
        RunSummaryDTO s = new RunSummaryDTO();
        s.variant = variant;
        s.seed = seed;
        s.state = state;
        s.packetConservation = true;
        s.bufferConservation = true;
        if (ring != null) {
            s.metrics.put("eth0.ringUsed", ring);
            s.metrics.put("sink.rxPackets", rx);
        }
        return s;
    }
}

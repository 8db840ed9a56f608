package io.ringlab.console;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.experiment.api.dto.MetricSummaryDTO;
import io.ringlab.experiment.api.dto.PointResultDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;

/**
 * An experiment as a results database holds it, as the A/B panel shows a result, without widgets: from its runs
 * ({@code ResultsService.runs}), each variant's (and at each sweep point, each point's) summary of every metric over the
 * runs that count (finished with both invariants holding), computed by the experiment service's own statistics
 * ({@code ExperimentService.summarize}), so that the charts and the table read as they did when it ran. The paired
 * comparisons are not rebuilt (the table shows the variants). Stateless.
 */
final class ResultsBrowse {
    private ResultsBrowse() {
    }

    /**
     * @param name the experiment's name in the database
     * @param runs its runs, as the database gives them
     * @param summarize the service's statistics of a metric's values
     * @return a result: the metrics and parameters in the runs' order, the first variant as the baseline, the variants'
     *         summaries (an experiment without sweeps) or the points' (one with), and the runs
     */
    static ExperimentResultDTO result(String name, List<RunSummaryDTO> runs, Function<double[], MetricSummaryDTO> summarize) {
        ExperimentResultDTO r = new ExperimentResultDTO();
        r.name = name;
        r.runs = new ArrayList<>(runs);
        for (RunSummaryDTO s : runs) {
            s.metrics.keySet().forEach(m -> {
                if (!r.metrics.contains(m)) {
                    r.metrics.add(m);
                }
            });
            if (!r.seeds.contains(s.seed)) {
                r.seeds.add(s.seed);
            }
            if (r.baseline == null) {
                r.baseline = s.variant;
                r.parameters.addAll(s.point.keySet());
            }
        }
        // point -> variant -> metric -> values of the runs that count, in the order the runs come
        Map<Map<String, String>, Map<String, Map<String, List<Double>>>> values = new LinkedHashMap<>();
        for (RunSummaryDTO s : runs) {
            Map<String, Map<String, List<Double>>> byVariant = values.computeIfAbsent(s.point, k -> new LinkedHashMap<>());
            Map<String, List<Double>> byMetric = byVariant.computeIfAbsent(s.variant, k -> new LinkedHashMap<>());
            if (AbTable.counts(s)) {
                s.metrics.forEach((m, v) -> {
                    if (v != null && !Double.isNaN(v)) {
                        byMetric.computeIfAbsent(m, k -> new ArrayList<>()).add(v);
                    }
                });
            }
        }
        values.forEach((point, byVariant) -> {
            Map<String, Map<String, MetricSummaryDTO>> summaries = new LinkedHashMap<>();
            byVariant.forEach((variant, byMetric) -> {
                Map<String, MetricSummaryDTO> s = new LinkedHashMap<>();
                for (String m : r.metrics) {
                    List<Double> v = byMetric.getOrDefault(m, List.of());
                    s.put(m, summarize.apply(v.stream().mapToDouble(Double::doubleValue).toArray()));
                }
                summaries.put(variant, s);
            });
            if (r.parameters.isEmpty()) {
                r.variants = summaries;
            } else {
                PointResultDTO p = new PointResultDTO();
                p.values = new LinkedHashMap<>(point);
                p.variants = summaries;
                r.points.add(p);
            }
        });
        return r;
    }
}

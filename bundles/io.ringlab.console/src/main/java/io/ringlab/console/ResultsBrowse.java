package io.ringlab.console;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

import io.ringlab.experiment.api.dto.ComparisonDTO;
import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.experiment.api.dto.MetricSummaryDTO;
import io.ringlab.experiment.api.dto.PointResultDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;

/**
 * An experiment as a results database holds it, as the A/B panel shows a result, without widgets: from its runs
 * ({@code ResultsService.runs}), each variant's (and at each sweep point, each point's) summary of every metric over the
 * runs that count (finished with both invariants holding), computed by the experiment service's own statistics
 * ({@code ExperimentService.summarize}), and every variant after the first compared with it, paired by seed, by the
 * service's own paired test ({@code ExperimentService.compare}), so that the charts and the table read as they did when
 * it ran. Stateless.
 */
final class ResultsBrowse {
    private ResultsBrowse() {
    }

    /**
     * @param name the experiment's name in the database
     * @param runs its runs, as the database gives them
     * @param summarize the service's statistics of a metric's values
     * @param compare the service's paired comparison of the baseline's and a variant's values by seed (NaN: none)
     * @return a result: the metrics and parameters in the runs' order, the first variant as the baseline, the variants'
     *         summaries and comparisons (an experiment without sweeps) or the points' (one with), and the runs
     */
    static ExperimentResultDTO result(String name, List<RunSummaryDTO> runs, Function<double[], MetricSummaryDTO> summarize,
            BiFunction<double[], double[], ComparisonDTO> compare) {
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
        List<String> variants = runs.stream().map(s -> s.variant).distinct().toList(); // the baseline first
        // point -> variant -> seed -> the run's summary: the summaries and the pairs both read their values from here
        Map<Map<String, String>, Map<String, Map<Long, RunSummaryDTO>>> bySeed = new LinkedHashMap<>();
        for (RunSummaryDTO s : runs) {
            bySeed.computeIfAbsent(s.point, k -> new LinkedHashMap<>()).computeIfAbsent(s.variant, k -> new LinkedHashMap<>())
                    .put(s.seed, s);
        }
        bySeed.forEach((point, byVariant) -> {
            Map<String, Map<String, MetricSummaryDTO>> summaries = new LinkedHashMap<>();
            for (String variant : variants) { // every variant at every point, as the report has them (n = 0 where none ran)
                Map<Long, RunSummaryDTO> ran = byVariant.getOrDefault(variant, Map.of());
                Map<String, MetricSummaryDTO> s = new LinkedHashMap<>();
                for (String m : r.metrics) { // the values of the runs that count, in seed order, as the report takes them
                    s.put(m, summarize.apply(Arrays.stream(bySeeds(r.seeds, ran, m)).filter(v -> !Double.isNaN(v)).toArray()));
                }
                summaries.put(variant, s);
            }
            List<ComparisonDTO> comparisons = comparisons(r, variants, byVariant, compare);
            if (r.parameters.isEmpty()) {
                r.variants = summaries;
                r.comparisons = comparisons;
            } else {
                PointResultDTO p = new PointResultDTO();
                p.values = new LinkedHashMap<>(point);
                p.variants = summaries;
                p.comparisons = comparisons;
                r.points.add(p);
            }
        });
        return r;
    }

    /**
     * @return per metric (in the result's order), each variant after the baseline against it, over the result's seeds:
     *         a seed's value NaN where its run is missing, does not count, or gave no value
     */
    private static List<ComparisonDTO> comparisons(ExperimentResultDTO r, List<String> variants,
            Map<String, Map<Long, RunSummaryDTO>> byVariant, BiFunction<double[], double[], ComparisonDTO> compare) {
        List<ComparisonDTO> out = new ArrayList<>();
        Map<Long, RunSummaryDTO> base = byVariant.getOrDefault(r.baseline, Map.of());
        for (String m : r.metrics) {
            for (String v : variants.subList(1, variants.size())) {
                ComparisonDTO c = compare.apply(bySeeds(r.seeds, base, m), bySeeds(r.seeds, byVariant.getOrDefault(v, Map.of()), m));
                c.metric = m;
                c.a = r.baseline;
                c.b = v;
                out.add(c);
            }
        }
        return out;
    }

    private static double[] bySeeds(List<Long> seeds, Map<Long, RunSummaryDTO> runs, String metric) {
        double[] out = new double[seeds.size()];
        for (int i = 0; i < out.length; i++) {
            RunSummaryDTO s = runs.get(seeds.get(i));
            Double v = s == null || !AbTable.counts(s) ? null : s.metrics.get(metric);
            out[i] = v == null ? Double.NaN : v;
        }
        return out;
    }
}

package io.ringlab.experiment;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.ringlab.experiment.ParallelRuns.Outcome;
import io.ringlab.experiment.api.dto.ComparisonDTO;
import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.experiment.api.dto.MetricSummaryDTO;
import io.ringlab.experiment.api.dto.PointResultDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.experiment.api.dto.SweepDTO;
import io.ringlab.pipeline.format.Units;
import io.ringlab.sim.api.dto.ProblemDTO;
import io.ringlab.sim.api.dto.ValueDTO;

/**
 * Builds an experiment's result from its runs' outcomes: per variant and metric the summary of the runs that count
 * (finished, both invariants holding, a finite value), per metric and non-baseline variant the comparison paired by
 * seed, and a problem for every metric some counted runs did not report.
 * <p>
 * Stateless and thread-safe; the result depends only on the outcomes in job-index order.
 */
final class Report {

    private Report() {
    }

    /**
     * @param plan the plan the runs followed
     * @param outcomes every job's outcome, by job index ({@link Plan.Job#index})
     * @param threads how many ran at once
     * @param wallSeconds the experiment's wall-clock time
     * @param cancelled whether the experiment was cancelled
     * @return the result
     */
    static ExperimentResultDTO build(Plan plan, Outcome[] outcomes, int threads, double wallSeconds, boolean cancelled) {
        ExperimentDTO e = plan.experiment;
        ExperimentResultDTO r = new ExperimentResultDTO();
        r.name = e.name;
        r.experimentFile = e.file;
        r.pipeline = e.pipeline.name;
        r.pipelineFile = e.pipelineFile != null ? e.pipelineFile : e.pipeline.file;
        r.durationSeconds = plan.durationPicos / 1e12;
        r.warmupSeconds = e.warmupPicos / 1e12;
        r.forkSeconds = e.forkPicos / 1e12;
        r.seeds.addAll(e.seeds);
        for (ValueDTO m : e.metrics) {
            r.metrics.add(m.text);
        }
        r.baseline = e.variants.get(0).name;
        r.threads = threads;
        r.wallSeconds = wallSeconds;
        r.cancelled = cancelled;
        for (Outcome o : outcomes) {
            r.runs.add(o.summary());
            if (r.ringlabVersion == null) {
                r.ringlabVersion = o.ringlabVersion();
            }
        }
        int seeds = e.seeds.size();
        int variants = e.variants.size();
        for (SweepDTO s : e.sweeps) {
            r.parameters.addAll(s.targets);
        }
        for (int p = 0; p < plan.points.size(); p++) {
            int base = p * variants * seeds; // the point's first outcome
            Map<String, Map<String, MetricSummaryDTO>> byVariant = new LinkedHashMap<>();
            List<ComparisonDTO> comparisons = new ArrayList<>();
            for (int v = 0; v < variants; v++) {
                Map<String, MetricSummaryDTO> byMetric = new LinkedHashMap<>();
                for (String m : r.metrics) {
                    byMetric.put(m, summary(outcomes, base, v, seeds, m));
                }
                byVariant.put(e.variants.get(v).name, byMetric);
            }
            for (String m : r.metrics) {
                for (int v = 1; v < variants; v++) {
                    comparisons.add(comparison(e, outcomes, base, v, seeds, m));
                }
            }
            if (e.sweeps.isEmpty()) {
                r.variants.putAll(byVariant);
                r.comparisons.addAll(comparisons);
            } else {
                PointResultDTO point = new PointResultDTO();
                point.values.putAll(plan.points.get(p));
                point.variants.putAll(byVariant);
                point.comparisons.addAll(comparisons);
                r.points.add(point);
            }
        }
        for (ValueDTO m : e.metrics) {
            missing(e, outcomes, m).ifPresent(r.problems::add);
        }
        if (e.forkPicos > 0) {
            for (int p = 0; p < plan.points.size(); p++) {
                forks(e, outcomes, p * variants * seeds, plan.points.get(p)).forEach(r.problems::add);
            }
        }
        return r;
    }

    /**
     * A forked experiment's branches must reach the fork in the same state: for each seed, every run that got there
     * recorded the same state hash. A difference is a problem naming the seed and each variant's hash.
     */
    private static List<ProblemDTO> forks(ExperimentDTO e, Outcome[] outcomes, int base, Map<String, String> point) {
        List<ProblemDTO> problems = new ArrayList<>();
        int seeds = e.seeds.size();
        for (int s = 0; s < seeds; s++) {
            Map<String, String> hashes = new LinkedHashMap<>();
            for (int v = 0; v < e.variants.size(); v++) {
                String h = outcomes[base + v * seeds + s].summary().forkStateHash;
                if (h != null) {
                    hashes.put(e.variants.get(v).name, h);
                }
            }
            if (new java.util.HashSet<>(hashes.values()).size() > 1) {
                problems.add(new ProblemDTO(e.file, 0, 0, (point.isEmpty() ? "" : "sweep point " + point + ", ")
                        + "seed " + e.seeds.get(s) + ": the branches reached the fork, "
                        + Units.formatPicos(e.forkPicos) + ", in different states (state hash by variant: " + hashes
                        + "); they do not share their history, so their comparison is not a forked one"));
            }
        }
        return problems;
    }

    /** @return whether a run counts in the statistics: it finished and both invariants hold */
    static boolean counts(RunSummaryDTO s) {
        return RunSummaryDTO.FINISHED.equals(s.state) && s.packetConservation && s.bufferConservation;
    }

    /** @return the metric's value in a counted run, or {@code null} */
    private static Double value(Outcome o, String metric) {
        return counts(o.summary()) ? o.summary().metrics.get(metric) : null;
    }

    private static MetricSummaryDTO summary(Outcome[] outcomes, int base, int variant, int seeds, String metric) {
        double[] values = new double[seeds];
        int n = 0;
        List<Long> notCounted = new ArrayList<>();
        List<Long> noValue = new ArrayList<>();
        for (int s = 0; s < seeds; s++) {
            Outcome o = outcomes[base + variant * seeds + s];
            Double v = value(o, metric);
            if (v != null) {
                values[n++] = v;
            } else if (!counts(o.summary())) {
                notCounted.add(o.summary().seed);
            } else if (o.summary().metrics.containsKey(metric)) {
                noValue.add(o.summary().seed);
            }
        }
        MetricSummaryDTO summary = Statistics.summarize(Arrays.copyOf(values, n));
        List<String> notes = new ArrayList<>();
        if (summary.note != null) {
            notes.add(summary.note);
        }
        if (!notCounted.isEmpty()) {
            notes.add("left out: " + seedList(notCounted) + " (failed, cancelled or broke an invariant)");
        }
        if (!noValue.isEmpty()) {
            notes.add("no value (NaN) in " + seedList(noValue));
        }
        summary.note = notes.isEmpty() ? null : String.join("; ", notes);
        return summary;
    }

    private static ComparisonDTO comparison(ExperimentDTO e, Outcome[] outcomes, int base, int variant, int seeds,
            String metric) {
        double[] a = new double[seeds];
        double[] b = new double[seeds];
        for (int s = 0; s < seeds; s++) {
            Double x = value(outcomes[base + s], metric);
            Double y = value(outcomes[base + variant * seeds + s], metric);
            a[s] = x == null ? Double.NaN : x;
            b[s] = y == null ? Double.NaN : y;
        }
        ComparisonDTO c = Statistics.comparePaired(a, b);
        c.metric = metric;
        c.a = e.variants.get(0).name;
        c.b = e.variants.get(variant).name;
        return c;
    }

    /** @return a problem at the metric's position if counted runs did not report it: which variants, which seeds, what exists */
    private static Optional<ProblemDTO> missing(ExperimentDTO e, Outcome[] outcomes, ValueDTO metric) {
        Map<String, Map<Map<String, String>, List<Long>>> byVariant = new LinkedHashMap<>();
        String reported = null;
        for (Outcome o : outcomes) {
            String hint = o.missing().get(metric.text);
            if (hint != null && counts(o.summary())) {
                RunSummaryDTO s = o.summary();
                byVariant.computeIfAbsent(s.variant, k -> new LinkedHashMap<>())
                        .computeIfAbsent(s.point, k -> new ArrayList<>()).add(s.seed);
                if (reported == null) {
                    reported = hint + " (variant " + s.variant + (s.point.isEmpty() ? "" : " at " + s.point) + ", seed "
                            + s.seed + ")";
                }
            }
        }
        if (byVariant.isEmpty()) {
            return Optional.empty();
        }
        List<String> parts = new ArrayList<>();
        byVariant.forEach((v, byPoint) -> parts.add("variant " + v + " (" + where(byPoint) + ")"));
        String message = "metric '" + metric.text + "' was not reported by " + String.join(", ", parts) + "; " + reported;
        if (metric.line <= 0 && e.pipeline != null && e.pipeline.headline != null && e.pipeline.headline.line > 0) {
            // an experiment without 'metrics' compares the pipeline's headline: named where the pipeline declares it
            return Optional.of(new ProblemDTO(e.pipeline.file, e.pipeline.headline.line, e.pipeline.headline.column,
                    "headline " + message.substring("metric ".length()) + " (" + e.file + " names no metrics: it compares"
                            + " the pipeline's headline)"));
        }
        return Optional.of(new ProblemDTO(e.file, metric.line, metric.line > 0 ? metric.column : 0, message));
    }

    /**
     * @return the seeds of the runs, by sweep point: {@code seeds 1-3} without sweeps; {@code seeds 1-3 at 4 sweep
     *         points} when every point has the same; otherwise each point's, {@code seed 1 at {eth0.ring=64}; ...}
     */
    private static String where(Map<Map<String, String>, List<Long>> byPoint) {
        if (byPoint.size() == 1 && byPoint.keySet().iterator().next().isEmpty()) {
            return seedList(byPoint.values().iterator().next());
        }
        if (new java.util.HashSet<>(byPoint.values()).size() == 1) {
            return seedList(byPoint.values().iterator().next()) + " at " + byPoint.size() + " sweep point"
                    + (byPoint.size() == 1 ? " " + byPoint.keySet().iterator().next() : "s");
        }
        List<String> parts = new ArrayList<>();
        byPoint.forEach((point, seeds) -> parts.add(seedList(seeds) + " at " + point));
        return String.join("; ", parts);
    }

    /** @return {@code "seed 3"}, or {@code "seeds 1-4, 7"} with runs of consecutive seeds joined */
    static String seedList(List<Long> seeds) {
        if (seeds.size() == 1) {
            return "seed " + seeds.get(0);
        }
        StringBuilder sb = new StringBuilder("seeds ");
        int i = 0;
        while (i < seeds.size()) {
            int j = i;
            while (j + 1 < seeds.size() && seeds.get(j + 1) == seeds.get(j) + 1) {
                j++;
            }
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(seeds.get(i));
            if (j > i) {
                sb.append(j == i + 1 ? ", " : "-").append(seeds.get(j));
            }
            i = j + 1;
        }
        return sb.toString();
    }
}

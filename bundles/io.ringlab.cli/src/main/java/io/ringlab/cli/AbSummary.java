package io.ringlab.cli;

import java.io.PrintStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.ringlab.experiment.api.dto.ComparisonDTO;
import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.experiment.api.dto.MetricSummaryDTO;
import io.ringlab.experiment.api.dto.PointResultDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.pipeline.format.OutputFile;
import io.ringlab.pipeline.format.RunText;
import io.ringlab.pipeline.format.Units;
import io.ringlab.sim.api.dto.SampleWarningDTO;

/**
 * The human summary of an experiment (per metric: each variant's mean ± the half-width of its 95 % confidence interval,
 * then each comparison's difference with its interval and p-value; then the notes and the runs' states) and its CSV
 * (one row per variant, seed and metric).
 */
final class AbSummary {
    private AbSummary() {
    }

    static void print(ExperimentResultDTO r, PrintStream out) {
        long counted = r.runs.stream().filter(AbSummary::counts).count();
        out.printf(Locale.ROOT, "experiment %s (%s): pipeline %s (%s)%n", r.name, r.experimentFile, r.pipeline, r.pipelineFile);
        int variants = r.points.isEmpty() ? r.variants.size() : r.points.get(0).variants.size();
        String points = r.points.isEmpty() ? "" : String.format(Locale.ROOT, "%,d sweep points (%s) x ", r.points.size(),
                String.join(", ", r.parameters));
        out.printf(Locale.ROOT, "%d variants x %s%d seeds (%s), %s simulated per run after %s of warm-up, %d runs on %d"
                + " thread%s in %.1f s wall%s%n", variants, points, r.seeds.size(), seeds(r.seeds), time(r.durationSeconds),
                time(r.warmupSeconds), r.runs.size(), r.threads, r.threads == 1 ? "" : "s", r.wallSeconds,
                r.cancelled ? " (CANCELLED)" : "");
        if (r.forkSeconds > 0) {
            boolean same = r.problems.stream().noneMatch(p -> p.message.contains("reached the fork"));
            out.printf(Locale.ROOT, "forked at %s: each seed's variants share their history to the fork (%s)%n",
                    time(r.forkSeconds), same ? "the same state hash in every branch" : "NOT the same state: see the problems");
        }
        Map<String, Map<String, SampleWarningDTO>> few = fewSamples(r);
        // a note to the rows it is about, each row to the sweep points it is about there; each note printed once
        Map<String, Map<String, List<String>>> notes = new LinkedHashMap<>();
        if (r.points.isEmpty()) {
            tables(r, r.variants, r.comparisons, null, few, notes, out);
        }
        for (PointResultDTO p : r.points) {
            String label = Progress.point(p.values);
            out.println();
            out.println("at " + label + ":");
            tables(r, p.variants, p.comparisons, label, few, notes, out);
        }
        if (!notes.isEmpty()) {
            out.println();
            notes.forEach((note, rows) -> {
                boolean everywhere = !r.points.isEmpty() && rows.values().stream().allMatch(p -> p.size() == r.points.size());
                List<String> parts = new ArrayList<>();
                rows.forEach((row, at) -> parts.add(everywhere || at.isEmpty() ? row : row + " at " + String.join("; ", at)));
                out.println("note (" + String.join(", ", parts) + (everywhere ? "; at every sweep point" : "") + "): " + note);
            });
        }
        if (!few.isEmpty()) {
            out.println();
            out.println(RunText.FEW_SAMPLES + " rests on too few samples to mean much in some runs (the fewest of the variant's"
                    + " runs; docs/engine.md, \"How many samples a figure rests on\"):");
            few.forEach((variant, metrics) -> metrics.forEach((metric, w) -> out.printf(Locale.ROOT, "  %s: %s: %s; %s%n",
                    variant, metric, RunText.samples(w), w.advice)));
        }
        out.println();
        out.printf(Locale.ROOT, "runs: %d of %d counted (finished with both invariants holding)%n", counted, r.runs.size());
        if (r.cancelled) {
            out.println("incomplete: stopped before every run ended; missing: " + missing(r));
        }
        for (RunSummaryDTO s : r.runs) {
            String problem = Progress.problem(s);
            if (problem != null) {
                out.println("  " + problem);
            } else if (!RunSummaryDTO.FINISHED.equals(s.state)) {
                out.println("  " + Progress.run(s) + ": " + s.state);
            }
        }
    }

    /**
     * Prints per metric each variant's mean and interval, then each comparison, for one point (or the experiment), and
     * files each row's note under the point's label ({@code null} without sweeps).
     */
    private static void tables(ExperimentResultDTO r, Map<String, Map<String, MetricSummaryDTO>> variants,
            List<ComparisonDTO> comparisons, String point, Map<String, Map<String, SampleWarningDTO>> few,
            Map<String, Map<String, List<String>>> notes, PrintStream out) {
        for (String m : r.metrics) {
            int decimals = decimals(r, m);
            out.println();
            out.printf(Locale.ROOT, "%-32s %4s %16s   %s%n", m, "n", "mean", "95 % CI");
            for (Map.Entry<String, Map<String, MetricSummaryDTO>> v : variants.entrySet()) {
                MetricSummaryDTO s = v.getValue().get(m);
                String half = s.ci95Low == null ? "n/a" : "± " + number(s.ci95High - s.mean, decimals);
                boolean marked = few.getOrDefault(v.getKey(), Map.of()).containsKey(m);
                out.printf(Locale.ROOT, "  %-30s %4d %16s   %s%n", v.getKey() + (v.getKey().equals(r.baseline) ? " (baseline)" : ""),
                        s.n, (s.mean == null ? "n/a" : number(s.mean, decimals)) + (marked ? RunText.FEW_SAMPLES : ""), half);
                if (s.note != null) {
                    note(notes, s.note, m + " " + v.getKey(), point);
                }
            }
            for (ComparisonDTO c : comparisons) {
                if (!c.metric.equals(m)) {
                    continue;
                }
                Double base = variants.get(c.a).get(m).mean;
                String ci = c.ci95Low == null ? "n/a" : "[" + number(c.ci95Low, decimals) + ", " + number(c.ci95High, decimals) + "]";
                String relative = c.difference == null || base == null || base == 0 ? ""
                        : String.format(Locale.ROOT, " (%+.2f %%)", 100 * c.difference / Math.abs(base));
                out.printf(Locale.ROOT, "  %-30s %4d %16s   %s%s  p = %s%n", c.b + " - " + c.a, c.n,
                        c.difference == null ? "n/a" : number(c.difference, decimals), ci, relative,
                        p(c.pValue));
                if (c.note != null) {
                    note(notes, c.note, m + " " + c.b + " - " + c.a, point);
                }
            }
        }
    }

    private static void note(Map<String, Map<String, List<String>>> notes, String note, String row, String point) {
        List<String> points = notes.computeIfAbsent(note, k -> new LinkedHashMap<>()).computeIfAbsent(row, k -> new ArrayList<>());
        if (point != null) {
            points.add(point);
        }
    }

    /**
     * @return the content of {@code ringlab ab --csv}: {@code variant,seed,metric,value,state,invariants,counted}, one
     *         row per run and metric, in the result's order; with sweeps, a column per sweep target after {@code seed}
     *         (a value quoted as CSV quotes it when it holds a comma or a quote)
     */
    static OutputFile.Content csv(ExperimentResultDTO r) {
        return o -> {
            Writer w = new OutputStreamWriter(o, StandardCharsets.UTF_8);
            StringBuilder header = new StringBuilder("variant,seed");
            r.parameters.forEach(p -> header.append(',').append(csvField(p)));
            w.write(header + ",metric,value,state,invariants,counted\n");
            for (RunSummaryDTO s : r.runs) {
                String invariants = s.packetConservation && s.bufferConservation ? "ok" : "broken";
                StringBuilder point = new StringBuilder();
                r.parameters.forEach(p -> point.append(',').append(csvField(s.point.getOrDefault(p, ""))));
                for (String m : r.metrics) {
                    Double v = s.metrics.get(m);
                    w.write(s.variant + "," + s.seed + point + "," + m + "," + (v == null ? "" : Double.toString(v)) + ","
                            + s.state + "," + invariants + "," + counts(s) + "\n");
                }
            }
            w.flush();
        };
    }

    /** @return the text as one CSV field: quoted, with quotes doubled, when it holds a comma, a quote or a line break */
    private static String csvField(String text) {
        return text.indexOf(',') < 0 && text.indexOf('"') < 0 && text.indexOf('\n') < 0 ? text
                : '"' + text.replace("\"", "\"\"") + '"';
    }

    /** @return the runs that did not end (stopped or never started), by variant: {@code on seeds 7, 8; off seed 8} */
    static String missing(ExperimentResultDTO r) {
        Map<String, List<String>> seeds = new LinkedHashMap<>();
        for (RunSummaryDTO s : r.runs) {
            if (RunSummaryDTO.STOPPED.equals(s.state) || RunSummaryDTO.CANCELLED.equals(s.state)) {
                seeds.computeIfAbsent(s.variant + (s.point.isEmpty() ? "" : " at " + Progress.point(s.point)),
                        k -> new ArrayList<>()).add(Long.toString(s.seed));
            }
        }
        List<String> parts = new ArrayList<>();
        seeds.forEach((variant, list) -> parts.add(variant + " seed" + (list.size() == 1 ? " " : "s ") + String.join(", ", list)));
        return parts.isEmpty() ? "none" : String.join("; ", parts);
    }

    /** @return whether a run counts in the statistics: finished with both invariants holding (the report's rule) */
    static boolean counts(RunSummaryDTO s) {
        return RunSummaryDTO.FINISHED.equals(s.state) && s.packetConservation && s.bufferConservation;
    }

    /** @return decimals that show about six significant digits of the metric's largest mean, the same for every row */
    static int decimals(ExperimentResultDTO r, String metric) {
        double max = 0;
        List<Map<String, Map<String, MetricSummaryDTO>>> groups = new ArrayList<>();
        groups.add(r.variants);
        r.points.forEach(p -> groups.add(p.variants));
        for (Map<String, Map<String, MetricSummaryDTO>> g : groups) {
            for (Map<String, MetricSummaryDTO> v : g.values()) {
                Double mean = v.get(metric).mean;
                if (mean != null) {
                    max = Math.max(max, Math.abs(mean));
                }
            }
        }
        if (max == 0) {
            return 4;
        }
        return (int) Math.max(0, Math.min(9, 5 - Math.floor(Math.log10(max))));
    }

    /** @return a p-value in three significant digits; 0 and 1 (the zero-variance cases) exactly */
    private static String p(Double p) {
        if (p == null) {
            return "n/a";
        }
        return p == 0 || p == 1 ? String.valueOf(p.intValue()) : String.format(Locale.ROOT, "%.3g", p);
    }

    private static String number(double v, int decimals) {
        return String.format(Locale.ROOT, "%,." + decimals + "f", v);
    }

    /** @return seconds in the pipeline files' time grammar: 20ms, 60s */
    private static String time(double seconds) {
        return Units.formatPicos(Math.round(seconds * 1e12));
    }

    /**
     * @return variant to metric (the experiment's metrics and the headline) to the warning of the run with the fewest
     *         samples, in the result's order
     */
    static Map<String, Map<String, SampleWarningDTO>> fewSamples(ExperimentResultDTO r) {
        Map<String, Map<String, SampleWarningDTO>> few = new LinkedHashMap<>();
        for (RunSummaryDTO s : r.runs) {
            for (SampleWarningDTO w : s.sampleWarnings) {
                boolean reported = r.metrics.contains(w.metric) || s.headline != null && w.metric.equals(s.headline.metric);
                if (reported) {
                    few.computeIfAbsent(s.variant, k -> new LinkedHashMap<>()).merge(w.metric, w,
                            (a, b) -> b.samples < a.samples ? b : a);
                }
            }
        }
        return few;
    }

    /** @return {@code 1-10} for consecutive seeds from 1, else the list */
    private static String seeds(List<Long> seeds) {
        boolean consecutive = true;
        for (int i = 0; i < seeds.size(); i++) {
            consecutive &= seeds.get(i) == i + 1;
        }
        if (consecutive && seeds.size() > 2) {
            return "1-" + seeds.size();
        }
        List<String> s = new ArrayList<>();
        seeds.forEach(x -> s.add(Long.toString(x)));
        return String.join(", ", s);
    }
}

package io.ringlab.console;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.ringlab.experiment.api.dto.ComparisonDTO;
import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.experiment.api.dto.MetricSummaryDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.sim.api.dto.ProblemDTO;

/**
 * The A/B panel's table and problems list, without widgets. Per metric, in the result's order: a row per variant (its n,
 * mean and 95 % interval), then a row per comparison against the baseline (n, the difference variant minus baseline, its
 * interval, the difference relative to the baseline's mean, the p-value of the paired t-test), each with the note the
 * statistics give (n &lt; 2, zero variance). Numbers keep about six significant digits of the metric's largest mean, the
 * same number of decimals in every row of a metric, as {@code ringlab ab} prints them; an undefined number is
 * {@code n/a}.
 */
final class AbTable {
    /** The table's columns. */
    static final List<String> COLUMNS = List.of("metric", "variant", "n", "mean / difference", "95 % CI", "relative", "p", "note");

    /**
     * One row.
     *
     * @param cells the texts of {@link #COLUMNS}
     * @param source what the row shows: a {@link MetricSummaryDTO} or a {@link ComparisonDTO} of the result
     */
    record Row(List<String> cells, Object source) {
    }

    private AbTable() {
    }

    /** @return the rows of a result, per metric the variants then the comparisons; empty without metrics */
    static List<Row> rows(ExperimentResultDTO r) {
        List<Row> rows = new ArrayList<>();
        for (String m : r.metrics) {
            int decimals = decimals(r, m);
            for (Map.Entry<String, Map<String, MetricSummaryDTO>> v : r.variants.entrySet()) {
                MetricSummaryDTO s = v.getValue().get(m);
                if (s == null) {
                    continue;
                }
                String name = v.getKey() + (v.getKey().equals(r.baseline) ? " (baseline)" : "");
                rows.add(new Row(List.of(m, name, Integer.toString(s.n), number(s.mean, decimals),
                        interval(s.ci95Low, s.ci95High, decimals), "", "", note(s.note)), s));
            }
            for (ComparisonDTO c : r.comparisons) {
                if (c.metric.equals(m)) {
                    MetricSummaryDTO base = r.variants.containsKey(c.a) ? r.variants.get(c.a).get(m) : null;
                    rows.add(new Row(List.of(m, c.b + " - " + c.a, Integer.toString(c.n), signed(c.difference, decimals),
                            interval(c.ci95Low, c.ci95High, decimals), relative(c.difference, base == null ? null : base.mean),
                            p(c.pValue), note(c.note)), c));
                }
            }
        }
        return rows;
    }

    /**
     * @return the rows of a sweep result: per point (in the order the points ran), its rows as {@link #rows} gives a
     *         result's, the variant cell naming the point ({@code full @ eth0.ring=16, wire.rate=1Gbit}); empty without
     *         points
     */
    static List<Row> sweepRows(ExperimentResultDTO r) {
        List<Row> rows = new ArrayList<>();
        for (io.ringlab.experiment.api.dto.PointResultDTO p : r.points) {
            ExperimentResultDTO at = new ExperimentResultDTO();
            at.metrics = r.metrics;
            at.baseline = r.baseline;
            at.variants = p.variants;
            at.comparisons = p.comparisons;
            StringBuilder where = new StringBuilder();
            p.values.forEach((k, v) -> where.append(where.length() == 0 ? " @ " : ", ").append(k).append('=').append(v));
            for (Row row : rows(at)) {
                List<String> cells = new ArrayList<>(row.cells());
                cells.set(1, cells.get(1) + where);
                rows.add(new Row(List.copyOf(cells), row.source()));
            }
        }
        return rows;
    }

    /**
     * @return the lines of the problems list: the runs that failed, broke an invariant, were stopped or never started,
     *         then the result's problems (metrics some runs did not report) as {@code file:line:column: message}; empty
     *         when every run counted and every metric was reported
     */
    static List<String> problems(ExperimentResultDTO r) {
        List<String> l = new ArrayList<>();
        for (RunSummaryDTO s : r.runs) {
            String run = "variant " + s.variant + ", seed " + s.seed + ": ";
            if (RunSummaryDTO.FAILED.equals(s.state)) {
                l.add(run + "FAILED: " + s.error);
            } else if (RunSummaryDTO.STOPPED.equals(s.state)) {
                l.add(run + "STOPPED by Cancel before the end of its duration; left out");
            } else if (RunSummaryDTO.CANCELLED.equals(s.state)) {
                l.add(run + "CANCELLED, never started");
            } else if (!(s.packetConservation && s.bufferConservation)) {
                l.add(run + "an invariant is broken: " + String.join("; ", s.violations));
            }
        }
        for (ProblemDTO p : r.problems) {
            l.add(p.toString());
        }
        return l;
    }

    /** @return the one-line outcome: runs counted out of all, wall time, and whether it was cancelled */
    static String outcome(ExperimentResultDTO r) {
        long counted = r.runs.stream().filter(AbTable::counts).count();
        long variants = r.runs.stream().map(s -> s.variant).distinct().count(); // a sweep's result has them per point
        String points = r.points.isEmpty() ? "" : r.points.size() + " points x ";
        String head = String.format(Locale.ROOT, "%s%s: %d of %d runs counted, %s%d variants x %d seeds", r.cancelled ? "CANCELLED "
                : "", r.name, counted, r.runs.size(), points, Math.max(variants, r.variants.size()), r.seeds.size());
        return r.threads == 0 ? head + " (from a results database)" // not run here: no wall time, no threads
                : head + String.format(Locale.ROOT, ", %.1f s wall on %d thread%s", r.wallSeconds, r.threads, r.threads == 1 ? "" : "s");
    }

    /** @return whether a run counts in the statistics: finished with both invariants holding */
    static boolean counts(RunSummaryDTO s) {
        return RunSummaryDTO.FINISHED.equals(s.state) && s.packetConservation && s.bufferConservation;
    }

    /** @return decimals that show about six significant digits of the metric's largest mean (4 when every mean is 0 or n/a) */
    static int decimals(ExperimentResultDTO r, String metric) {
        double max = 0;
        for (Map<String, MetricSummaryDTO> v : r.variants.values()) {
            MetricSummaryDTO s = v.get(metric);
            if (s != null && s.mean != null) {
                max = Math.max(max, Math.abs(s.mean));
            }
        }
        return max == 0 ? 4 : (int) Math.max(0, Math.min(9, 5 - Math.floor(Math.log10(max))));
    }

    private static String number(Double v, int decimals) {
        return v == null ? "n/a" : String.format(Locale.ROOT, "%,." + decimals + "f", v);
    }

    private static String signed(Double v, int decimals) {
        return v == null ? "n/a" : String.format(Locale.ROOT, "%+,." + decimals + "f", v);
    }

    private static String interval(Double low, Double high, int decimals) {
        return low == null || high == null ? "n/a" : "[" + number(low, decimals) + ", " + number(high, decimals) + "]";
    }

    /** @return the difference relative to the baseline's mean in percent; empty when either is undefined or the mean is 0 */
    private static String relative(Double difference, Double baseMean) {
        return difference == null || baseMean == null || baseMean == 0 ? ""
                : String.format(Locale.ROOT, "%+.2f %%", 100 * difference / Math.abs(baseMean));
    }

    /** @return the p-value in three significant digits; 0 and 1 (the zero-variance cases) exactly */
    private static String p(Double p) {
        return p == null ? "n/a" : p == 0 || p == 1 ? Integer.toString(p.intValue()) : String.format(Locale.ROOT, "%.3g", p);
    }

    private static String note(String note) {
        return note == null ? "" : note;
    }
}

package io.ringlab.console;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.experiment.api.dto.MetricSummaryDTO;
import io.ringlab.experiment.api.dto.PointResultDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.pipeline.format.Units;

/**
 * A sweep experiment's charts, without widgets (as {@code ringlab plot} draws a sweep): per metric, the metric against
 * one swept parameter (the first unless the user chose another, as {@code ringlab plot --x}), one line per variant and
 * combination of the other parameters' values, each point the mean over the seeds at that point with its 95 % confidence
 * interval, drawn as a band when x is numeric and as error bars when it is not (as {@code ringlab plot}). The x values
 * are the parameter's values as numbers (a size in bytes, a rate in bit/s, a time in seconds, a plain number) when every
 * one reads as one, else the points' positions with the values as labels. While the experiment runs, {@link #ofRuns}
 * draws the means of the runs ended so far (no interval yet). Immutable.
 *
 * @param metric {@code ELEMENT.METRIC}
 * @param parameter the x axis' parameter ({@code eth0.ring})
 * @param numeric whether x is the parameter's value, else its position
 * @param labels the parameter's values in order, one per x position
 * @param lines line name ({@code full} or {@code full, wire.rate=1Gbit}) to its points, in x order
 */
record SweepCharts(String metric, String parameter, boolean numeric, List<String> labels, Map<String, List<Point>> lines) {

    /**
     * @param x the parameter's value as a number, or its position
     * @param mean the mean at that point
     * @param minus {@code mean - ci95Low}, or NaN without an interval
     * @param plus {@code ci95High - mean}, or NaN without an interval
     */
    record Point(double x, double mean, double minus, double plus) {
    }

    /**
     * @param chosen the parameter on the x axis; {@code null}, or one the result does not sweep, for the first
     * @return a chart per metric of a sweep result, in its order; empty for a result without sweeps
     */
    static List<SweepCharts> of(ExperimentResultDTO r, String chosen) {
        List<SweepCharts> out = new ArrayList<>();
        if (r.parameters.isEmpty()) {
            return out;
        }
        String parameter = axis(r.parameters, chosen);
        List<String> labels = labels(r.points.stream().map(p -> p.values.get(parameter)).toList());
        boolean numeric = numbers(labels) != null;
        for (String m : r.metrics) {
            Map<String, List<Point>> lines = new LinkedHashMap<>();
            for (PointResultDTO p : r.points) {
                double x = x(labels, numeric, p.values.get(parameter));
                String rest = others(r.parameters, parameter, p.values);
                p.variants.forEach((variant, byMetric) -> {
                    MetricSummaryDTO s = byMetric.get(m);
                    if (s != null && s.mean != null) {
                        boolean ci = s.ci95Low != null && s.ci95High != null;
                        lines.computeIfAbsent(variant + rest, k -> new ArrayList<>()).add(new Point(x, s.mean,
                                ci ? s.mean - s.ci95Low : Double.NaN, ci ? s.ci95High - s.mean : Double.NaN));
                    }
                });
            }
            out.add(new SweepCharts(m, parameter, numeric, labels, sorted(lines)));
        }
        return out;
    }

    /**
     * The charts of the runs ended so far: each point the mean of its seeds that ended.
     *
     * @param parameters the sweep targets, in order
     * @param chosen the parameter on the x axis; {@code null}, or one not swept, for the first
     * @param metrics the metrics
     * @param runs the runs ended so far (in any order)
     */
    static List<SweepCharts> ofRuns(List<String> parameters, String chosen, List<String> metrics, List<RunSummaryDTO> runs) {
        List<SweepCharts> out = new ArrayList<>();
        if (parameters.isEmpty()) {
            return out;
        }
        String parameter = axis(parameters, chosen);
        List<String> labels = labels(runs.stream().map(s -> s.point.get(parameter)).toList());
        boolean numeric = numbers(labels) != null;
        for (String m : metrics) {
            Map<String, Map<Double, double[]>> sums = new LinkedHashMap<>(); // line -> x -> {sum, n}
            for (RunSummaryDTO s : runs) {
                Double v = s.metrics.get(m);
                if (v == null || Double.isNaN(v) || !RunSummaryDTO.FINISHED.equals(s.state)) {
                    continue;
                }
                double x = x(labels, numeric, s.point.get(parameter));
                double[] acc = sums.computeIfAbsent(s.variant + others(parameters, parameter, s.point), k -> new java.util.TreeMap<>())
                        .computeIfAbsent(x, k -> new double[2]);
                acc[0] += v;
                acc[1]++;
            }
            Map<String, List<Point>> lines = new LinkedHashMap<>();
            sums.forEach((line, byX) -> byX.forEach((x, acc) -> lines.computeIfAbsent(line, k -> new ArrayList<>())
                    .add(new Point(x, acc[0] / acc[1], Double.NaN, Double.NaN))));
            out.add(new SweepCharts(m, parameter, numeric, labels, sorted(lines)));
        }
        return out;
    }

    /** @return the distinct values in their first order */
    private static List<String> labels(List<String> values) {
        List<String> l = new ArrayList<>();
        for (String v : values) {
            if (v != null && !l.contains(v)) {
                l.add(v);
            }
        }
        return List.copyOf(l);
    }

    /** @return the values as numbers (plain, size, rate, duration), or {@code null} when one is none of them */
    static double[] numbers(List<String> labels) {
        double[] out = new double[labels.size()];
        for (int i = 0; i < out.length; i++) {
            Double v = number(labels.get(i));
            if (v == null) {
                return null;
            }
            out[i] = v;
        }
        return out;
    }

    private static Double number(String text) {
        try {
            return Units.parseDecimal(text);
        } catch (IllegalArgumentException plain) {
            // not a plain number: a size, a rate or a time
        }
        try {
            return (double) Units.parseBytes(text);
        } catch (IllegalArgumentException size) {
            // not a size
        }
        try {
            return (double) Units.parseBitsPerSecond(text);
        } catch (IllegalArgumentException rate) {
            // not a rate
        }
        try {
            return Units.parsePicos(text) / 1e12;
        } catch (IllegalArgumentException time) {
            return null;
        }
    }

    private static double x(List<String> labels, boolean numeric, String value) {
        return numeric ? number(value) : labels.indexOf(value);
    }

    /** @return the chosen x parameter if swept, else the first */
    private static String axis(List<String> parameters, String chosen) {
        return chosen != null && parameters.contains(chosen) ? chosen : parameters.get(0);
    }

    /** @return {@code ", P=V"} for each parameter but x, in the sweep's order, or {@code ""} */
    private static String others(List<String> parameters, String x, Map<String, String> values) {
        StringBuilder b = new StringBuilder();
        for (String p : parameters) {
            if (!p.equals(x)) {
                b.append(", ").append(p).append('=').append(values.get(p));
            }
        }
        return b.toString();
    }

    private static Map<String, List<Point>> sorted(Map<String, List<Point>> lines) {
        Map<String, List<Point>> out = new LinkedHashMap<>();
        lines.forEach((k, v) -> {
            List<Point> s = new ArrayList<>(v);
            s.sort((a, b) -> Double.compare(a.x(), b.x()));
            out.put(k, List.copyOf(s));
        });
        return out;
    }

    /** @return whether the intervals are drawn as bands (a numeric x, whose points a band can join) rather than error bars */
    boolean bands() {
        return numeric;
    }

    /**
     * @return the y range the means and their intervals cover, {@code {low, high}}; the means' alone where no interval
     *         is known; {@code null} without points
     */
    double[] yRange() {
        double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
        for (List<Point> l : lines.values()) {
            for (Point p : l) {
                lo = Math.min(lo, Double.isNaN(p.minus()) ? p.mean() : p.mean() - p.minus());
                hi = Math.max(hi, Double.isNaN(p.plus()) ? p.mean() : p.mean() + p.plus());
            }
        }
        return lo > hi ? null : new double[] { lo, hi };
    }

    /** @return whether x spans more than a factor of 10 and is positive: a log axis reads it better */
    boolean logX() {
        double lo = Double.POSITIVE_INFINITY, hi = 0;
        for (List<Point> l : lines.values()) {
            for (Point p : l) {
                lo = Math.min(lo, p.x());
                hi = Math.max(hi, p.x());
            }
        }
        return numeric && lo > 0 && hi / lo > 10;
    }
}

package io.ringlab.console;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.experiment.api.dto.MetricSummaryDTO;

/**
 * The A/B panel's charts, without widgets: one chart per metric, drawn side by side, each with one series per variant
 * (the baseline first): a single point at {@code x} = the variant's index, {@code y} = its mean, and the 95 % confidence
 * interval as an error bar ({@code minus} = mean - low, {@code plus} = high - mean), as {@code ringlab ab --plot} draws
 * them. A variant without a mean (no run counted) has a series without a point; one without an interval (n &lt; 2) a
 * point without a bar. The y range covers every point and bar with a margin and need not include 0: the differences
 * matter, not the distance from zero.
 */
final class AbCharts {
    /** Share of the data's span added above and below it. */
    static final double MARGIN = 0.15;

    /**
     * One variant's series.
     *
     * @param variant its name, the series' id
     * @param x its index in the experiment's order
     * @param mean the mean; {@code null} when no run counted
     * @param minus {@code mean - ci95Low}; {@code null} without an interval
     * @param plus {@code ci95High - mean}; {@code null} without an interval
     */
    record Point(String variant, int x, Double mean, Double minus, Double plus) {
        /** @return whether the series has an error bar */
        boolean hasInterval() {
            return mean != null && minus != null && plus != null;
        }
    }

    /**
     * One metric's chart.
     *
     * @param metric {@code ELEMENT.METRIC}, the chart's title
     * @param points one per variant, in the experiment's order
     * @param yLow lower end of the y axis
     * @param yHigh upper end of the y axis, more than {@code yLow}
     */
    record Chart(String metric, List<Point> points, double yLow, double yHigh) {
        /** @return the x axis' ends: half a slot before the first variant and after the last */
        double xLow() {
            return -0.5;
        }

        double xHigh() {
            return points.size() - 0.5;
        }

        /** @return the variant at a tick of the x axis, or empty between variants */
        String tickLabel(double x) {
            long i = Math.round(x);
            return Math.abs(x - i) < 1e-9 && i >= 0 && i < points.size() ? points.get((int) i).variant() : "";
        }
    }

    private AbCharts() {
    }

    /** @return a chart per metric of the result, in its order */
    static List<Chart> of(ExperimentResultDTO r) {
        List<Chart> charts = new ArrayList<>();
        for (String m : r.metrics) {
            List<Point> points = new ArrayList<>();
            double low = Double.POSITIVE_INFINITY, high = Double.NEGATIVE_INFINITY;
            int x = 0;
            for (Map.Entry<String, Map<String, MetricSummaryDTO>> v : r.variants.entrySet()) {
                MetricSummaryDTO s = v.getValue().get(m);
                Double mean = s == null ? null : s.mean;
                boolean ci = mean != null && s.ci95Low != null && s.ci95High != null;
                Point p = new Point(v.getKey(), x++, mean, ci ? mean - s.ci95Low : null, ci ? s.ci95High - mean : null);
                points.add(p);
                if (mean != null) {
                    low = Math.min(low, ci ? s.ci95Low : mean);
                    high = Math.max(high, ci ? s.ci95High : mean);
                }
            }
            double[] range = range(low, high);
            charts.add(new Chart(m, List.copyOf(points), range[0], range[1]));
        }
        return charts;
    }

    /** @return {@code [low, high]} with a margin; a point (zero span) gets ±10 % of its value, 0 gets ±1; none gets [0, 1] */
    static double[] range(double low, double high) {
        if (low > high) {
            return new double[] { 0, 1 };
        }
        double span = high - low;
        if (span == 0) {
            double pad = low == 0 ? 1 : Math.abs(low) * 0.1;
            return new double[] { low - pad, high + pad };
        }
        return new double[] { low - span * MARGIN, high + span * MARGIN };
    }
}

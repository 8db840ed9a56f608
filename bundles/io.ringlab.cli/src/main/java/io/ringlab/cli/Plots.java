package io.ringlab.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainCategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.StatisticalLineAndShapeRenderer;
import org.jfree.data.statistics.DefaultStatisticalCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.experiment.api.dto.MetricSummaryDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.SeriesDTO;

/**
 * Charts as PNG files, drawn with JFreeChart (headless AWT): line charts of a run's time series, and an experiment's
 * means with their confidence intervals.
 */
final class Plots {
    private Plots() {
    }

    /**
     * @param r a run's result
     * @param columns the series to draw ({@code element.metric}); empty draws all
     * @return the columns that exist, in the order asked
     * @throws IllegalArgumentException naming a column that the run did not sample, with the ones it did
     */
    static List<Integer> select(SeriesDTO s, List<String> columns) {
        List<Integer> idx = new ArrayList<>();
        if (columns.isEmpty()) {
            for (int i = 1; i < s.columns.size(); i++) {
                idx.add(i);
            }
            return idx;
        }
        for (String c : columns) {
            int i = s.columns.indexOf(c);
            if (i < 1) {
                throw new IllegalArgumentException("--plot-series: the run sampled no series '" + c + "'; sampled: "
                        + String.join(", ", s.columns.subList(1, s.columns.size())));
            }
            idx.add(i);
        }
        return idx;
    }

    /** Writes a 1000 x 500 PNG of the chosen series against simulated time in seconds. */
    static void write(RunResultDTO r, List<String> columns, Path png) throws IOException {
        System.setProperty("java.awt.headless", "true");
        SeriesDTO s = r.series;
        XYSeriesCollection data = new XYSeriesCollection();
        for (int i : select(s, columns)) {
            XYSeries xy = new XYSeries(s.columns.get(i), false, true);
            for (double[] row : s.rows) {
                xy.add(row[0], row[i]);
            }
            data.addSeries(xy);
        }
        String title = r.pipeline + " (seed " + r.seed + ")";
        JFreeChart chart = ChartFactory.createXYLineChart(title, "simulated time (s)", "value", data,
                PlotOrientation.VERTICAL, true, false, false);
        for (var swap : r.swaps) { // each hot swap, a vertical line at its time
            if (swap.applied) {
                org.jfree.chart.plot.ValueMarker m = new org.jfree.chart.plot.ValueMarker(swap.atSimulatedSeconds);
                m.setPaint(java.awt.Color.DARK_GRAY);
                m.setStroke(new java.awt.BasicStroke(1f, java.awt.BasicStroke.CAP_BUTT, java.awt.BasicStroke.JOIN_MITER, 10f,
                        new float[] {4f, 4f}, 0f));
                m.setLabel("swap " + swap.element + (swap.handover ? "" : " (drain)"));
                m.setLabelAnchor(org.jfree.chart.ui.RectangleAnchor.TOP_RIGHT);
                m.setLabelTextAnchor(org.jfree.chart.ui.TextAnchor.TOP_LEFT);
                chart.getXYPlot().addDomainMarker(m);
            }
        }
        save(chart, png, 1000, 500);
    }

    /**
     * Writes an 800-pixel-wide PNG of an experiment: one panel per metric (its own scale, the metric's name on the axis),
     * each variant's mean as a point with its 95 % confidence interval as an error bar. A variant without a mean (no run
     * gave a value) has no point; one without an interval (n &lt; 2) has no bar.
     */
    static void experiment(ExperimentResultDTO r, Path png) throws IOException {
        System.setProperty("java.awt.headless", "true");
        CombinedDomainCategoryPlot plot = new CombinedDomainCategoryPlot(new CategoryAxis("variant"));
        for (String m : r.metrics) {
            DefaultStatisticalCategoryDataset data = new DefaultStatisticalCategoryDataset();
            r.variants.forEach((variant, byMetric) -> {
                MetricSummaryDTO s = byMetric.get(m);
                if (s.mean != null) {
                    data.add(s.mean, s.ci95High == null ? null : (Number) (s.ci95High - s.mean), m, variant);
                }
            });
            NumberAxis axis = new NumberAxis(m);
            axis.setAutoRangeIncludesZero(false); // the differences matter, not the distance from zero
            plot.add(new CategoryPlot(data, null, axis, new StatisticalLineAndShapeRenderer(false, true)));
        }
        String title = r.name + ": mean and 95 % confidence interval, " + r.seeds.size() + " seeds";
        JFreeChart chart = new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, false);
        save(chart, png, 800, 120 + 220 * r.metrics.size());
    }

    /**
     * Saves a chart as PNG without ImageIO's temporary cache file: the cache's {@code deleteOnExit} fails once the JVM
     * is shutting down, which is when a run stopped by a signal still draws its plot (StopOnTerm).
     */
    private static void save(JFreeChart chart, Path png, int width, int height) throws IOException {
        javax.imageio.ImageIO.setUseCache(false);
        ChartUtils.saveChartAsPNG(png.toFile(), chart, width, height);
    }
}

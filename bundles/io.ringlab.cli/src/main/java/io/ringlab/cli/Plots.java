package io.ringlab.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.SeriesDTO;

/** Line charts of a run's time series as PNG files, drawn with JFreeChart (headless AWT). */
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
        ChartUtils.saveChartAsPNG(png.toFile(), chart, 1000, 500);
    }
}

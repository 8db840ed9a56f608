package io.ringlab.cli;

import java.awt.BasicStroke;
import java.awt.Color;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainCategoryPlot;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.StatisticalLineAndShapeRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.statistics.DefaultStatisticalCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.experiment.api.dto.MetricSummaryDTO;
import io.ringlab.pipeline.format.MetricUnits;
import io.ringlab.pipeline.format.OutputFile;
import io.ringlab.sim.api.dto.PointsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.SeriesDTO;
import io.ringlab.sim.api.dto.SwapDTO;

/**
 * Charts as PNG files, drawn with JFreeChart (headless AWT): a run's time series in panels by unit, and an experiment's
 * means with their confidence intervals.
 */
final class Plots {
    /**
     * The lines' colours: Okabe and Ito's palette for colour-blind readers (Wong, "Points of view: Color blindness",
     * Nature Methods 8, 441 (2011)), without its yellow, which white backgrounds wash out, and black, kept for axes.
     */
    private static final java.awt.Paint[] LINE_COLOURS = {
        new Color(0x0072B2), new Color(0xD55E00), new Color(0x009E73), new Color(0xCC79A7),
        new Color(0xE69F00), new Color(0x56B4E9), new Color(0x999999)};

    private Plots() {
    }

    /**
     * One panel of a run's chart: the series of one unit ({@link MetricUnits#unitOf}), or of one metric name when the
     * metric has no unit suffix (backlogs of two qdiscs share a panel, a backlog and a BQL limit do not).
     *
     * @param unit the unit, such as {@code ms}; empty for a metric without a unit suffix
     * @param series the series drawn, {@code element.metric}, in the order asked
     */
    record Panel(String unit, List<String> series) {
        /** @return the axis label: the metric names, then the unit in parentheses, for example {@code rttMillis (ms)} */
        String label() {
            Set<String> metrics = new LinkedHashSet<>();
            for (String s : series) {
                metrics.add(metricOf(s));
            }
            return String.join(", ", metrics) + (unit.isEmpty() ? "" : " (" + unit + ")");
        }
    }

    /** @return the metric of a series name, the part after the last dot ({@code pool:eth0.rx.inUse} gives inUse) */
    private static String metricOf(String series) {
        return series.substring(series.lastIndexOf('.') + 1);
    }

    /**
     * Groups series into panels, in the order their first series comes.
     *
     * @param series series names, {@code element.metric}
     * @return one panel per unit, and one per metric name without a unit; never {@code null}
     */
    static List<Panel> panels(List<String> series) {
        Map<String, List<String>> groups = new LinkedHashMap<>();
        for (String s : series) {
            String unit = MetricUnits.unitOf(metricOf(s));
            // a unit groups by its symbol; a plain number only with the same metric (a '.' cannot start a unit)
            groups.computeIfAbsent(unit.isEmpty() ? "." + metricOf(s) : unit, k -> new ArrayList<>()).add(s);
        }
        List<Panel> panels = new ArrayList<>();
        groups.forEach((k, v) -> panels.add(new Panel(k.startsWith(".") ? "" : k, v)));
        return panels;
    }

    /**
     * The series a plot draws: the ones asked for ({@code --plot-series}), else the pipeline's key series (its
     * {@code plot} header; those the run has, since overrides may remove some), else its headline, else every series.
     *
     * @param asked the series of {@code --plot-series}; empty for none
     * @param plot the pipeline's {@code plot} list; empty for none
     * @param headline the pipeline's headline metric, or {@code null}
     * @param s the run's series
     * @return the names to draw
     * @throws IllegalArgumentException naming a series the run does not have, with the ones it has
     */
    static List<String> chosen(List<String> asked, List<String> plot, String headline, SeriesDTO s) {
        List<String> all = new ArrayList<>(s.columns.subList(1, s.columns.size()));
        all.addAll(s.points.keySet());
        String from = "--plot-series";
        List<String> names = asked;
        if (names.isEmpty() && !plot.isEmpty()) {
            // the engine refused unknown names, or warned of those the run's overrides removed: left out here
            names = plot.stream().filter(all::contains).toList();
            if (!names.isEmpty()) {
                return names;
            }
            names = plot;
            from = "the pipeline's plot";
        } else if (names.isEmpty() && headline != null) {
            names = List.of(headline);
            from = "the headline (the pipeline has no plot = [...]; or give --plot-series)";
        } else if (names.isEmpty()) {
            return all;
        }
        for (String n : names) {
            if (!all.contains(n)) {
                throw new IllegalArgumentException(from + ": the run has no series '" + n + "'; its series: "
                        + String.join(", ", all));
            }
        }
        return names;
    }

    /**
     * Builds a run's chart: one panel per unit ({@link #panels}) on a shared axis of simulated time, sampled series as
     * lines (an interval without a value, NaN, leaves a gap), series of points ({@link SeriesDTO#points}) as dots, and
     * each applied hot swap as a dashed vertical line.
     *
     * @param r a run's result with its series inline
     * @param series the series to draw, each a column or a series of points of the run
     * @param title the chart's title, as the caller words it
     * @return the chart, not yet drawn
     */
    /**
     * @return a run's plot title: the pipeline, its seed and the command line's overrides, so that two plots of one
     *         pipeline can be told apart ({@code netdev-bql (seed 1, --set eth0.bql=true --duration 1s)})
     */
    static String title(RunResultDTO r) {
        String overridden = RunOverrides.describe(r.overrides);
        return r.pipeline + " (seed " + r.seed + (overridden.isEmpty() ? "" : ", " + overridden) + ")";
    }

    static JFreeChart runChart(RunResultDTO r, List<String> series, String title) {
        SeriesDTO s = r.series;
        CombinedDomainXYPlot plot = new CombinedDomainXYPlot(new NumberAxis("simulated time (s)"));
        plot.setGap(12);
        boolean first = true;
        for (Panel panel : panels(series)) {
            XYSeriesCollection lines = new XYSeriesCollection();
            XYSeriesCollection dots = new XYSeriesCollection();
            for (String name : panel.series()) {
                XYSeries xy = new XYSeries(name, false, true);
                PointsDTO points = s.points.get(name);
                if (points != null) {
                    for (int i = 0; i < points.values.length; i++) {
                        xy.add(points.timeSeconds[i], points.values[i]);
                    }
                    dots.addSeries(xy);
                } else {
                    int c = s.columns.indexOf(name);
                    for (double[] row : s.rows) {
                        xy.add(row[0], row[c]);
                    }
                    lines.addSeries(xy);
                }
            }
            XYPlot sub = new XYPlot(lines, null, new NumberAxis(panel.label()), new XYLineAndShapeRenderer(true, false));
            sub.setDataset(1, dots);
            sub.setRenderer(1, new XYLineAndShapeRenderer(false, true));
            for (SwapDTO swap : r.swaps) { // each hot swap, a vertical line at its time, named in the first panel
                if (swap.applied) {
                    sub.addDomainMarker(swapMarker(swap, first));
                }
            }
            plot.add(sub, 1);
            first = false;
        }
        return new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, true);
    }

    /** @return a 1000-pixel-wide PNG of {@link #runChart}, 120 + 220 pixels per panel high */
    static OutputFile.Content run(RunResultDTO r, List<String> series, String title) {
        System.setProperty("java.awt.headless", "true");
        JFreeChart chart = runChart(r, series, title);
        return png(chart, 1000, 120 + 220 * ((CombinedDomainXYPlot) chart.getPlot()).getSubplots().size());
    }

    private static ValueMarker swapMarker(SwapDTO swap, boolean labelled) {
        ValueMarker m = new ValueMarker(swap.atSimulatedSeconds);
        m.setPaint(Color.DARK_GRAY);
        m.setStroke(new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {4f, 4f}, 0f));
        if (labelled) {
            m.setLabel("swap " + swap.element + (swap.handover ? "" : " (drain)"));
            m.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
            m.setLabelTextAnchor(TextAnchor.TOP_LEFT);
        }
        return m;
    }

    /**
     * Writes an 800-pixel-wide PNG of an experiment: one panel per metric (its own scale, the metric's name on the axis),
     * each variant's mean as a point with its 95 % confidence interval as an error bar; with sweeps, one line per variant
     * over the sweep points in the order they ran, with a legend. A variant without a mean (no run
     * gave a value) has no point; one without an interval (n &lt; 2) has no bar.
     */
    static OutputFile.Content experiment(ExperimentResultDTO r) {
        System.setProperty("java.awt.headless", "true");
        boolean swept = !r.points.isEmpty();
        CategoryAxis domain = new CategoryAxis(swept ? "sweep point (" + String.join(", ", r.parameters) + ")" : "variant");
        if (swept) {
            domain.setCategoryLabelPositions(org.jfree.chart.axis.CategoryLabelPositions.UP_45); // whole point labels
        }
        CombinedDomainCategoryPlot plot = new CombinedDomainCategoryPlot(domain);
        List<String> variants = new ArrayList<>(swept ? r.points.get(0).variants.keySet() : r.variants.keySet());
        CategoryPlot first = null;
        for (String m : r.metrics) {
            DefaultStatisticalCategoryDataset data = new DefaultStatisticalCategoryDataset();
            if (!swept) {
                r.variants.forEach((variant, byMetric) -> add(data, byMetric.get(m), m, variant));
            }
            for (var p : r.points) { // a line per variant over the points, in the order they ran
                String label = String.join(" ", p.values.values());
                p.variants.forEach((variant, byMetric) -> add(data, byMetric.get(m), variant, label));
            }
            NumberAxis axis = new NumberAxis(m);
            axis.setAutoRangeIncludesZero(false); // the differences matter, not the distance from zero
            StatisticalLineAndShapeRenderer renderer = new StatisticalLineAndShapeRenderer(swept, true);
            if (swept) { // a variant has the same colour in every panel, so that one legend serves them all
                for (int i = 0; i < data.getRowCount(); i++) {
                    int v = variants.indexOf((String) data.getRowKey(i));
                    renderer.setSeriesPaint(i, LINE_COLOURS[Math.max(0, v) % LINE_COLOURS.length]);
                }
            }
            CategoryPlot panel = new CategoryPlot(data, null, axis, renderer);
            first = first == null ? panel : first;
            plot.add(panel);
        }
        String title = r.name + ": mean and 95 % confidence interval, " + r.seeds.size() + " seeds";
        JFreeChart chart = new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, false);
        if (swept && first != null) {
            chart.addSubtitle(new org.jfree.chart.title.LegendTitle(first)); // the first panel's lines: each variant once
        }
        return png(chart, 800, (swept ? 200 : 120) + 220 * r.metrics.size());
    }

    /** Adds a mean with the half-width of its interval; nothing for a summary without a mean. */
    private static void add(DefaultStatisticalCategoryDataset data, MetricSummaryDTO s, String row, String column) {
        if (s.mean != null) {
            data.add(s.mean, s.ci95High == null ? null : (Number) (s.ci95High - s.mean), row, column);
        }
    }

    /** A sweep plot ({@code ringlab plot}): panels by facet label ("" for one panel), each with its lines. */
    record Sweep(String experiment, String metric, String unit, String x, String xUnit, String by,
            Map<String, List<SweepLine>> panels) {
        Sweep(String experiment, String metric, String unit, String x, String xUnit, String by) {
            this(experiment, metric, unit, x, xUnit, by, new LinkedHashMap<>());
        }
    }

    /** One line of a sweep plot: a value of {@code --by} and its points in the order of x. */
    record SweepLine(String name, List<SweepPoint> points) {
    }

    /** One point: x as written, x as a number in its base unit (NaN for a parameter that is no number), the summary. */
    record SweepPoint(String label, double x, MetricSummaryDTO summary) {
    }

    /**
     * Draws a sweep plot, 800 pixels wide, a panel per facet: one line per value of {@code --by}, each point the mean of
     * its runs with the 95 % confidence interval as a band (a numeric x) or an error bar (a parameter that is no number);
     * a base-2 logarithmic x axis where every value is a power of two; a line has the same colour in every panel.
     *
     * @param svg {@code true} for SVG (JFreeSVG), else PNG
     */
    static OutputFile.Content sweep(Sweep sw, boolean svg) {
        System.setProperty("java.awt.headless", "true");
        List<String> names = new ArrayList<>();
        sw.panels().values().forEach(lines -> lines.forEach(l -> {
            if (!names.contains(l.name())) {
                names.add(l.name());
            }
        }));
        java.awt.Paint[] palette = LINE_COLOURS;
        boolean numeric = sw.panels().values().stream().flatMap(List::stream).flatMap(l -> l.points().stream())
                .allMatch(p -> !Double.isNaN(p.x()));
        String yLabel = sw.metric() + (sw.unit() == null ? "" : " (" + sw.unit() + ")");
        String xLabel = sw.x() + (sw.xUnit() == null ? "" : " (" + sw.xUnit() + ")");
        org.jfree.chart.plot.Plot plot;
        if (numeric) {
            boolean powersOfTwo = sw.panels().values().stream().flatMap(List::stream).flatMap(l -> l.points().stream())
                    .allMatch(p -> p.x() >= 1 && p.x() == Math.rint(p.x()) && Long.bitCount((long) p.x()) == 1);
            org.jfree.chart.axis.ValueAxis domain;
            if (powersOfTwo) {
                org.jfree.chart.axis.LogAxis log = new org.jfree.chart.axis.LogAxis(xLabel + ", log scale");
                log.setBase(2);
                log.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
                log.setSmallestValue(1);
                domain = log;
            } else {
                NumberAxis n = new NumberAxis(xLabel);
                n.setAutoRangeIncludesZero(false);
                domain = n;
            }
            CombinedDomainXYPlot combined = new CombinedDomainXYPlot(domain);
            sw.panels().forEach((facet, lines) -> {
                org.jfree.data.xy.YIntervalSeriesCollection data = new org.jfree.data.xy.YIntervalSeriesCollection();
                org.jfree.chart.renderer.xy.DeviationRenderer r = new org.jfree.chart.renderer.xy.DeviationRenderer(true, true);
                r.setAlpha(0.2f);
                for (SweepLine l : lines) {
                    org.jfree.data.xy.YIntervalSeries series = new org.jfree.data.xy.YIntervalSeries(l.name());
                    for (SweepPoint p : l.points()) {
                        MetricSummaryDTO m = p.summary();
                        if (m.mean != null) {
                            series.add(p.x(), m.mean, m.ci95Low == null ? m.mean : m.ci95Low,
                                    m.ci95High == null ? m.mean : m.ci95High);
                        }
                    }
                    int i = data.getSeriesCount();
                    data.addSeries(series);
                    java.awt.Paint paint = palette[names.indexOf(l.name()) % palette.length];
                    r.setSeriesPaint(i, paint);
                    r.setSeriesFillPaint(i, paint);
                    r.setSeriesStroke(i, new BasicStroke(1.5f));
                }
                NumberAxis range = new NumberAxis(facet.isEmpty() ? yLabel : facet + ": " + yLabel);
                range.setAutoRangeIncludesZero(false);
                combined.add(new XYPlot(data, null, range, r));
            });
            plot = combined;
        } else {
            CombinedDomainCategoryPlot combined = new CombinedDomainCategoryPlot(new CategoryAxis(xLabel));
            sw.panels().forEach((facet, lines) -> {
                DefaultStatisticalCategoryDataset data = new DefaultStatisticalCategoryDataset();
                StatisticalLineAndShapeRenderer r = new StatisticalLineAndShapeRenderer(true, true);
                for (SweepLine l : lines) {
                    for (SweepPoint p : l.points()) {
                        add(data, p.summary(), l.name(), p.label());
                    }
                }
                for (int i = 0; i < data.getRowCount(); i++) {
                    r.setSeriesPaint(i, palette[names.indexOf((String) data.getRowKey(i)) % palette.length]);
                }
                NumberAxis range = new NumberAxis(facet.isEmpty() ? yLabel : facet + ": " + yLabel);
                range.setAutoRangeIncludesZero(false);
                combined.add(new CategoryPlot(data, null, range, r));
            });
            plot = combined;
        }
        String title = sw.experiment() + ": " + sw.metric() + " against " + sw.x() + ", mean and 95 % confidence interval";
        JFreeChart chart = new JFreeChart(title, new java.awt.Font("SansSerif", java.awt.Font.BOLD, 14), plot, false);
        org.jfree.chart.LegendItemCollection items = new org.jfree.chart.LegendItemCollection();
        for (String n : names) {
            items.add(new org.jfree.chart.LegendItem(sw.by() + " " + n, palette[names.indexOf(n) % palette.length]));
        }
        chart.addSubtitle(new org.jfree.chart.title.LegendTitle(() -> items));
        int height = 140 + 300 * sw.panels().size();
        if (!svg) {
            return png(chart, 800, height);
        }
        return o -> {
            org.jfree.svg.SVGGraphics2D g = new org.jfree.svg.SVGGraphics2D(800, height);
            chart.draw(g, new java.awt.Rectangle(0, 0, 800, height));
            o.write(g.getSVGDocument().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        };
    }

    /**
     * @return the chart as PNG, drawn without ImageIO's temporary cache file: the cache's {@code deleteOnExit} fails once
     *         the JVM is shutting down, which is when a run stopped by a signal still draws its plot (StopOnTerm)
     */
    private static OutputFile.Content png(JFreeChart chart, int width, int height) {
        return o -> {
            javax.imageio.ImageIO.setUseCache(false);
            ChartUtils.writeChartAsPNG(o, chart, width, height);
        };
    }
}

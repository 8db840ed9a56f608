package io.ringlab.console;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.SashForm;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Image;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.layout.FillLayout;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.TabFolder;
import org.eclipse.swt.widgets.TabItem;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swtchart.Chart;
import org.eclipse.swtchart.IAxis;
import org.eclipse.swtchart.ILineSeries;
import org.eclipse.swtchart.ILineSeries.PlotSymbolType;
import org.eclipse.swtchart.ISeries;
import org.eclipse.swtchart.ISeries.SeriesType;

import io.ringlab.console.api.ConsoleService;
import io.ringlab.sim.api.dto.SwapDTO;

/**
 * The live views, SWTChart line charts and two tables in a tab folder, fed from the SWT-free models: Overview (the
 * headline metric and packets per second per element, {@link ChartData}), Latency (percentiles over time and the table of
 * the latest, {@link Percentiles}), Queues (qdisc backlog and device queue in packets, BQL limit and in-flight bytes on a
 * second axis), Pools (occupancy), Cache (L1d hit rate per core) and CPU (the runtime table, {@link CpuTable}).
 * {@link #show} replaces the plotted data; the console calls it at the polling rate (10 Hz) while a run goes on, and
 * once with the result at the end. Only the tab shown is drawn then, another when it is shown or when the console draws
 * the result's hidden tabs one by one ({@link #drawOneStale}). UI thread only; the colours are disposed with the folder.
 */
final class LiveCharts {
    /**
     * The charts' colours, one per series of a chart in order (matplotlib's tab10, then two darker ones): a queue view
     * with pfifo_fast's bands, two devices and BQL has nine series, each its own colour (issue 20).
     */
    private static final int[][] PALETTE = { { 0x1f, 0x77, 0xb4 }, { 0xd6, 0x27, 0x28 }, { 0x2c, 0xa0, 0x2c }, { 0xff, 0x7f, 0x0e },
            { 0x94, 0x67, 0xbd }, { 0x8c, 0x56, 0x4b }, { 0xe3, 0x77, 0xc2 }, { 0x7f, 0x7f, 0x7f }, { 0xbc, 0xbd, 0x22 },
            { 0x17, 0xbe, 0xcf }, { 0x39, 0x3b, 0x79 }, { 0x63, 0x79, 0x39 } };
    private static final String CACHE_TITLE = "L1d hit rate per core (each sampling interval)";
    /** What the Cache tab says when the run's cost profile models no caches. */
    static final String CACHE_NONE = "No caches: this run's cost profile models none, so there is no hit rate to draw";
    private static final String HEADLINE_SERIES = "headline";

    private final TabFolder tabs;
    private final Chart headline;
    private final Chart throughput;
    private final Chart latency;
    /** Each latency source over time (each ping's RTT; a sink's P50 and P99 per interval), and each one's CDF, in ms. */
    private final Chart latencyTime, latencyCdf;
    private final Table latencyTable;
    private final Chart queues;
    private final int bytesAxis;
    private final Chart pools;
    private final Chart cache;
    private final Table cpuTable;
    private final Color[] colors;
    private final Percentiles percentiles = new Percentiles();
    private int updates;

    LiveCharts(Composite parent) {
        tabs = new TabFolder(parent, SWT.BOTTOM);
        tabs.setData(ConsoleService.WIDGET_ID, ConsoleService.ID_CHART_TABS);
        SashForm overview = new SashForm(tabs, SWT.VERTICAL);
        tab("Overview", overview);
        headline = chart(overview, ConsoleService.ID_CHART_HEADLINE, "Headline", "value");
        throughput = chart(overview, ConsoleService.ID_CHART_THROUGHPUT, "Throughput per element", "packets/s");

        SashForm lat = new SashForm(tabs, SWT.VERTICAL);
        tab("Latency", lat);
        SashForm latTop = new SashForm(lat, SWT.HORIZONTAL);
        latencyTime = chart(latTop, ConsoleService.ID_CHART_LATENCY_TIME, "Latency over time", "ms");
        latencyTime.setToolTipText("Each ping echo's round-trip time at its time; other latency histograms (a sink's"
                + " one-way latency) as their P50 and P99 over each sampling interval. Log axis when all values are positive.");
        latencyCdf = chart(latTop, ConsoleService.ID_CHART_LATENCY_CDF, "Latency CDF", "fraction");
        latencyCdf.getAxisSet().getXAxis(0).getTitle().setText("latency (ms)");
        latencyCdf.setToolTipText("Each latency histogram's distribution over the run: the fraction of values at or below"
                + " a latency. Log axis when all values are positive.");
        for (Chart c : List.of(latencyTime, latencyCdf)) { // the legend below: the plot keeps the width
            c.getLegend().setPosition(SWT.BOTTOM);
        }
        latency = chart(lat, ConsoleService.ID_CHART_LATENCY, "Latency percentiles (as of each snapshot)", "us");
        latencyTable = table(lat, ConsoleService.ID_LATENCY_TABLE,
                List.of("element", "histogram", "unit", "count", "min", "P50", "P90", "P99", "max", "mean"));
        lat.setWeights(3, 2, 2);

        Composite q = filled(tabs);
        tab("Queues", q);
        queues = chart(q, ConsoleService.ID_CHART_QUEUES, "Queues: qdisc backlog, device queue, BQL", "packets");
        bytesAxis = queues.getAxisSet().createYAxis();
        IAxis bytes = queues.getAxisSet().getYAxis(bytesAxis);
        bytes.setPosition(IAxis.Position.Secondary);
        bytes.getTitle().setText("bytes (BQL limit, inflight)");
        bytes.getTitle().setVisible(false); // drawn horizontally, as every y title here (horizontalYTitles)

        Composite p = filled(tabs);
        tab("Pools", p);
        pools = chart(p, ConsoleService.ID_CHART_POOLS, "Buffer pool occupancy", "buffers");

        Composite c = filled(tabs);
        tab("Cache", c);
        cache = chart(c, ConsoleService.ID_CHART_CACHE, CACHE_TITLE, "%");

        Composite cpu = filled(tabs);
        tab("CPU", cpu);
        cpuTable = table(cpu, ConsoleService.ID_CPU_TABLE, CpuTable.COLUMNS);

        colors = new Color[PALETTE.length];
        for (int i = 0; i < PALETTE.length; i++) {
            colors[i] = new Color(parent.getDisplay(), PALETTE[i][0], PALETTE[i][1], PALETTE[i][2]);
        }
        tabs.addDisposeListener(e -> {
            for (Color col : colors) {
                col.dispose();
            }
        });
        for (Chart chart : List.of(headline, throughput, latency, queues, pools, cache)) {
            chart.getPlotArea().addCustomPaintListener(e -> paintSwaps(chart, e.gc));
        }
        tabs.setData(ConsoleService.SWAPS_DATA, 0);
        tabs.addListener(SWT.Selection, e -> draw(tabs.getItem(Math.max(0, tabs.getSelectionIndex())).getControl()));
    }

    /** Virtual times (ms) and labels of the swaps applied so far, drawn on every chart as dashed vertical lines. */
    private double[] swapMillis = new double[0];
    private String[] swapLabels = new String[0];

    /**
     * Marks the swaps of the run shown (from a snapshot or the result) on every chart.
     *
     * @param swaps the run's swaps so far; those not applied are not drawn
     */
    void swaps(List<SwapDTO> swaps) {
        List<SwapDTO> applied = swaps.stream().filter(d -> d.applied).toList();
        if (applied.size() == swapMillis.length) {
            return;
        }
        swapMillis = applied.stream().mapToDouble(d -> d.atSimulatedSeconds * 1e3).toArray();
        swapLabels = applied.stream().map(d -> "swap " + d.element + (d.handover ? "" : " (drain)")).toArray(String[]::new);
        tabs.setData(ConsoleService.SWAPS_DATA, swapMillis.length);
        for (Chart c : List.of(headline, throughput, latency, queues, pools, cache)) {
            c.redraw();
        }
    }

    private void paintSwaps(Chart chart, GC gc) {
        IAxis x = chart.getAxisSet().getXAxis(0);
        int height = chart.getPlotArea().getSize().y;
        gc.setForeground(chart.getDisplay().getSystemColor(SWT.COLOR_DARK_GRAY));
        gc.setLineStyle(SWT.LINE_DASH);
        for (int i = 0; i < swapMillis.length; i++) {
            int px = x.getPixelCoordinate(swapMillis[i]);
            gc.drawLine(px, 0, px, height);
            gc.drawText(swapLabels[i], px + 3, 2, true);
        }
        gc.setLineStyle(SWT.LINE_SOLID);
    }

    private void tab(String text, Control control) {
        TabItem t = new TabItem(tabs, SWT.NONE);
        t.setText(text);
        t.setControl(control);
    }

    private static Composite filled(Composite parent) {
        Composite c = new Composite(parent, SWT.NONE);
        c.setLayout(new FillLayout());
        return c;
    }

    static Chart chart(Composite parent, String id, String title, String yTitle) {
        Chart c = new Chart(parent, SWT.NONE);
        c.setData(ConsoleService.WIDGET_ID, id);
        c.getTitle().setText(title);
        c.getAxisSet().getXAxis(0).getTitle().setText("virtual time (ms)");
        c.getAxisSet().getYAxis(0).getTitle().setText(yTitle);
        horizontalYTitles(c);
        return c;
    }

    /**
     * Draws the y axes' titles horizontally at the top of the plot (the primary's on the left, a secondary's on the
     * right) instead of SWTChart's vertical ones, which it draws by rotating an image's pixels at every paint: at 10 Hz
     * the largest single cost of the UI thread during a run (ConsoleBenchmarkGuiTest). The titles keep their text.
     */
    private static void horizontalYTitles(Chart c) {
        for (IAxis y : c.getAxisSet().getYAxes()) {
            y.getTitle().setVisible(false);
        }
        c.getPlotArea().addCustomPaintListener(e -> {
            int width = c.getPlotArea().getSize().x;
            for (IAxis y : c.getAxisSet().getYAxes()) {
                String t = y.getTitle().getText();
                if (t == null || t.isEmpty()) {
                    continue;
                }
                e.gc.setForeground(y.getTitle().getForeground()); // the colour SWTChart gives axis titles
                boolean right = y.getPosition() == IAxis.Position.Secondary;
                int w = e.gc.textExtent(t).x;
                e.gc.drawText(t, right ? width - w - 4 : 4, 2, true);
            }
        });
    }

    private static Table table(Composite parent, String id, List<String> columns) {
        Table t = new Table(parent, SWT.BORDER | SWT.FULL_SELECTION | SWT.H_SCROLL | SWT.V_SCROLL);
        t.setData(ConsoleService.WIDGET_ID, id);
        t.setHeaderVisible(true);
        t.setLinesVisible(true);
        for (int i = 0; i < columns.size(); i++) {
            TableColumn col = new TableColumn(t, i == 0 ? SWT.LEFT : SWT.RIGHT);
            col.setText(columns.get(i));
            col.setWidth(i == 0 ? 110 : 90);
        }
        return t;
    }

    Composite control() {
        return tabs;
    }

    /** Clears every view and names the headline. */
    void reset(String headlineMetric) {
        for (Chart c : List.of(headline, throughput, latency, latencyTime, latencyCdf, queues, pools, cache)) {
            clear(c);
            c.redraw();
        }
        latencyTable.removeAll();
        cpuTable.removeAll();
        percentiles.clear();
        data = null;
        stale.clear();
        swaps(List.of());
        headline.getTitle().setText(headlineMetric == null ? "Headline (the pipeline names none)" : "Headline: " + headlineMetric);
        // the axis names the metric's unit (from its name's suffix, as the summary does)
        String unit = headlineMetric == null ? "" : io.ringlab.pipeline.format.MetricUnits.unitOf(
                headlineMetric.substring(headlineMetric.lastIndexOf('.') + 1));
        headline.getAxisSet().getYAxis(0).getTitle().setText(unit == null || unit.isEmpty() ? "value" : unit);
        cache.getTitle().setText(CACHE_TITLE);
    }

    /** The latest snapshot's or result's views, each made when first drawn ({@link #memo}); {@code null} before any. */
    private Supplier<ChartData> data;
    private Supplier<LatencyData> latencyData;
    private Supplier<List<CpuTable>> cpuRows;
    private List<Percentiles.Row> latencyRows = List.of();
    /** The tabs' controls whose views lag the latest data: drawn when their tab is shown. */
    private final Set<Control> stale = new HashSet<>();

    /**
     * Replaces the plotted data with a snapshot's or a result's. Only the tab shown is drawn (the others when shown, or
     * one by one with {@link #drawOneStale}: drawing charts nobody sees cost the UI thread tens of milliseconds per
     * snapshot, and all of a long run's result at once over a hundred).
     *
     * @param d the series' chart data, made when a tab needs it
     * @param latency the latency sources over time and as CDFs, made when the Latency tab needs them
     * @param simulatedSeconds the virtual time of the snapshot or result
     * @param elements its element metrics (percentiles come from there); may be {@code null}
     * @param cpu the CPU table's rows, made when the CPU tab needs them
     */
    void show(Supplier<ChartData> d, Supplier<LatencyData> latency, double simulatedSeconds,
            Map<String, Map<String, Double>> elements, Supplier<List<CpuTable>> cpu) {
        updates++;
        data = memo(d);
        latencyData = memo(latency);
        cpuRows = memo(cpu);
        latencyRows = Percentiles.rows(elements);
        if (!latencyRows.isEmpty()) {
            percentiles.add(simulatedSeconds, latencyRows); // accumulates from snapshot to snapshot, shown or not
        }
        for (TabItem t : tabs.getItems()) {
            stale.add(t.getControl());
        }
        draw(tabs.getItem(Math.max(0, tabs.getSelectionIndex())).getControl());
    }

    /** @return a supplier that makes its value once */
    private static <T> Supplier<T> memo(Supplier<T> s) {
        Object[] made = { null };
        return () -> {
            if (made[0] == null) {
                made[0] = s.get();
            }
            @SuppressWarnings("unchecked")
            T t = (T) made[0];
            return t;
        };
    }

    /**
     * Draws the first tab (in tab order) whose views lag the latest data, if any: a result's hidden tabs are drawn this
     * way, one per turn of the event loop.
     *
     * @return whether one was drawn
     */
    boolean drawOneStale() {
        for (TabItem t : tabs.getItems()) {
            if (stale.contains(t.getControl())) {
                draw(t.getControl());
                return true;
            }
        }
        return false;
    }

    /** Draws the views of the tab whose control is {@code tab} from the latest data, if they lag it. */
    private void draw(Control tab) {
        if (!stale.remove(tab) || data == null) {
            return;
        }
        if (tab == headline.getParent()) {
            overview(data.get());
        } else if (tab == latency.getParent()) {
            if (!latencyRows.isEmpty()) {
                TableRows.fill(latencyTable, latencyRows.size(), (item, i) -> latencyRows.get(i).cells().toArray(String[]::new));
                if (percentiles.size() > 0) {
                    replace(latency, percentiles.timeMillis(), percentiles.series(), 0);
                }
            }
            timeLines(latencyTime, latencyData.get().overTime(), false);
            timeLines(latencyCdf, latencyData.get().cdf(), true);
        } else if (tab == queues.getParent()) {
            queues(data.get());
        } else if (tab == pools.getParent()) {
            if (data.get().size() > 0) {
                replace(pools, data.get().timeMillis(), data.get().pools(), 0);
            }
        } else if (tab == cache.getParent()) {
            if (data.get().size() > 0) {
                replace(cache, data.get().timeMillis(), data.get().cache(), 0);
                cache.getTitle().setText(data.get().cache().isEmpty() ? CACHE_NONE : CACHE_TITLE);
            }
        } else if (tab == cpuTable.getParent()) {
            List<CpuTable> cpu = cpuRows.get();
            if (!cpu.isEmpty()) {
                TableRows.fill(cpuTable, cpu.size(), (item, i) -> cpu.get(i).cells().toArray(String[]::new));
            }
        }
    }

    private void overview(ChartData d) {
        if (d.size() == 0) {
            return;
        }
        if (d.headline() != null) {
            headline.suspendUpdate(true);
            line(headline, HEADLINE_SERIES, d.timeMillis(), d.headline(), colors[0], 0);
            headline.getAxisSet().adjustRange();
            headline.suspendUpdate(false);
            headline.redraw();
        }
        replace(throughput, d.timeMillis(), d.throughput(), 0);
    }

    private void queues(ChartData d) {
        if (d.size() == 0) {
            return;
        }
        queues.suspendUpdate(true);
        try {
            Set<String> keep = new HashSet<>(d.queuePackets().keySet());
            keep.addAll(d.queueBytes().keySet());
            deleteOthers(queues, keep);
            int i = 0;
            for (Map.Entry<String, double[]> e : d.queuePackets().entrySet()) {
                line(queues, e.getKey(), d.timeMillis(), e.getValue(), colors[i++ % colors.length], 0);
            }
            for (Map.Entry<String, double[]> e : d.queueBytes().entrySet()) {
                line(queues, e.getKey(), d.timeMillis(), e.getValue(), colors[i++ % colors.length], bytesAxis);
            }
            queues.getAxisSet().adjustRange();
        } finally {
            queues.suspendUpdate(false);
        }
        queues.redraw();
    }

    private void timeLines(Chart c, Map<String, double[][]> lines, boolean logX) {
        c.suspendUpdate(true);
        try {
            deleteOthers(c, lines.keySet());
            IAxis x = c.getAxisSet().getXAxis(0), y = c.getAxisSet().getYAxis(0);
            // the scale first: SWTChart refuses log scale while a series has a value <= 0
            boolean logValues = LatencyData.allPositive(lines, logX);
            (logX ? x : y).enableLogScale(false);
            int i = 0;
            for (Map.Entry<String, double[][]> e : lines.entrySet()) {
                line(c, e.getKey(), e.getValue()[0], e.getValue()[1], colors[i++ % colors.length], 0);
                if (!logX) {
                    @SuppressWarnings("unchecked")
                    ILineSeries<Object> s = (ILineSeries<Object>) c.getSeriesSet().getSeries(e.getKey());
                    boolean points = !e.getKey().matches(".*P(50|99)(Millis|Micros|Nanos)$"); // each echo: a dot
                    s.setLineStyle(points ? org.eclipse.swtchart.LineStyle.NONE : org.eclipse.swtchart.LineStyle.SOLID);
                    s.setSymbolType(points ? PlotSymbolType.CIRCLE : PlotSymbolType.NONE);
                    s.setSymbolSize(2);
                    s.setSymbolColor(colors[(i - 1) % colors.length]);
                }
            }
            (logX ? x : y).enableLogScale(logValues);
            c.getAxisSet().adjustRange();
        } finally {
            c.suspendUpdate(false);
        }
        c.redraw();
    }

    /** @return how many times {@link #show} ran since the console opened. */
    int updates() {
        return updates;
    }

    /**
     * Renders the chart tab shown now into an image the size of its control, as on screen.
     *
     * @return the image data; the image used is disposed
     */
    ImageData snapshotOfVisibleTab() {
        return print(tabs.getItem(Math.max(0, tabs.getSelectionIndex())).getControl());
    }

    /**
     * Renders a control into an image of its size, as on screen ({@link Control#print}).
     *
     * @return the image data; the image used is disposed
     */
    static ImageData print(Control c) {
        Point size = c.getSize();
        Image image = new Image(c.getDisplay(), Math.max(1, size.x), Math.max(1, size.y));
        GC gc = new GC(image);
        try {
            c.print(gc);
            return image.getImageData();
        } finally {
            gc.dispose();
            image.dispose();
        }
    }

    /**
     * Adds a tab after the live views (the A/B panel's result).
     *
     * @return the tab's composite, with a {@link FillLayout}
     */
    Composite addTab(String text) {
        Composite c = filled(tabs);
        tab(text, c);
        return c;
    }

    /** Shows the tab whose control is {@code c}. */
    void select(Control c) {
        for (TabItem t : tabs.getItems()) {
            if (t.getControl() == c) {
                tabs.setSelection(t);
            }
        }
    }

    /** @return the {@code i}-th colour of the charts' palette, cycling; disposed with the folder */
    Color color(int i) {
        return colors[Math.floorMod(i, colors.length)];
    }

    /** @return the text of the tab shown now. */
    String visibleTab() {
        return tabs.getItem(Math.max(0, tabs.getSelectionIndex())).getText();
    }

    private void replace(Chart c, double[] x, Map<String, double[]> series, int axis) {
        c.suspendUpdate(true);
        try {
            deleteOthers(c, series.keySet());
            int i = 0;
            for (Map.Entry<String, double[]> e : series.entrySet()) {
                line(c, e.getKey(), x, e.getValue(), colors[i++ % colors.length], axis);
            }
            c.getAxisSet().adjustRange();
        } finally {
            c.suspendUpdate(false);
        }
        c.redraw();
    }

    private static void deleteOthers(Chart c, Set<String> keep) {
        for (ISeries<?> s : c.getSeriesSet().getSeries()) {
            if (!keep.contains(s.getId())) {
                c.getSeriesSet().deleteSeries(s.getId());
            }
        }
    }

    static void line(Chart c, String id, double[] x, double[] y, Color color, int axis) {
        @SuppressWarnings("unchecked")
        ILineSeries<Object> s = (ILineSeries<Object>) c.getSeriesSet().getSeries(id);
        if (s == null) {
            s = (ILineSeries<Object>) c.getSeriesSet().createSeries(SeriesType.LINE, id);
            s.setSymbolType(PlotSymbolType.NONE);
            s.setAntialias(SWT.ON);
            s.setYAxisId(axis);
        }
        s.setLineColor(color); // the colour of its place now: a series created before others appeared keeps no stale one
        double[][] xy = ChartData.withoutNaN(x, y); // a percentile of an interval without packets: no point
        x = xy[0];
        y = xy[1];
        s.setXSeries(x);
        s.setYSeries(y);
    }

    private static void clear(Chart c) {
        c.suspendUpdate(true); // one layout for the chart, not one per series deleted
        try {
            for (ISeries<?> s : c.getSeriesSet().getSeries()) {
                c.getSeriesSet().deleteSeries(s.getId());
            }
        } finally {
            c.suspendUpdate(false);
        }
    }
}

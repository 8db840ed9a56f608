package io.ringlab.console;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.eclipse.swt.SWT;
import org.eclipse.swt.SWTException;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.ImageLoader;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.TabFolder;
import org.eclipse.swt.widgets.TabItem;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.swt.widgets.Widget;
import org.eclipse.swtchart.Chart;
import org.eclipse.swtchart.IAxis;
import org.eclipse.swtchart.IErrorBar;
import org.eclipse.swtchart.ILineSeries;
import org.eclipse.swtchart.ILineSeries.PlotSymbolType;
import org.eclipse.swtchart.ISeries.SeriesType;
import org.eclipse.swtchart.LineStyle;
import org.eclipse.swtchart.Range;

import io.ringlab.console.api.ConsoleService;
import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.pipeline.format.OutputFile;

/**
 * The A/B panel's result, a tab of the chart folder with two parts of its own: the Table (means, intervals and paired
 * differences, {@link AbTable}, its columns as wide as their values; the problems; the exports of the result as JSON,
 * CSV and PNG) and the Charts (one per metric, each variant's mean with its 95 % interval, each {@value #CHART_W} by
 * {@value #CHART_H} pixels, as many side by side as the width holds and the rest scrolled to; a legend of the variants'
 * colours and names).
 */
final class AbResultView {
    /**
     * Each chart's size in pixels: legible whatever the number of metrics (the charts scroll; five were once squashed into
     * tiles at the default window size).
     */
    static final int CHART_W = 260, CHART_H = 190;
    /** A sweep chart's data key: whether it draws its intervals as bands ({@link SweepCharts#bands()}). */
    private static final String BANDS_DATA = "ringlab.sweep.bands";
    /** A band's opacity, of 255: the lines and the grid stay visible through it, overlapping bands through each other. */
    static final int BAND_ALPHA = 60;

    private final Composite result;
    private final ConsoleContext context;
    private final Feedback host;
    private final LiveCharts chartTabs;
    /** The control whose shell parents the save dialogs. */
    private final Control dialogs;
    private Composite charts;
    private Composite legend;
    /** The charts are paged (never scrolled: on GTK3 a chart scrolled out of view still paints over its neighbours). */
    private Button previous, next;
    private Label pageLabel;
    private int page;
    private TabFolder parts;
    private TabItem tableTab, chartsTab;
    private Composite bottom;
    private Table table;
    private org.eclipse.swt.widgets.List problems;
    /** The result shown, or {@code null}. */
    private ExperimentResultDTO shown;
    /** A sweep's x parameter chooser (shown when more than one is swept), the one chosen ({@code null}: the first). */
    private org.eclipse.swt.widgets.Combo xChoice;
    private String x;
    /** Draws the sweep's charts shown again, for another x; {@code null} when no sweep is shown. */
    private Runnable redraw;

    AbResultView(Composite result, ConsoleContext context, Feedback host, LiveCharts chartTabs, Control dialogs) {
        this.result = result;
        this.context = context;
        this.host = host;
        this.chartTabs = chartTabs;
        this.dialogs = dialogs;
        // two parts, each with the whole tab: at the default window size the charts and a table of nine rows do not both
        // fit, and squeezed they were unreadable (five charts as tiles, one row of the table)
        parts = new TabFolder(result, SWT.TOP);
        ConsoleWindow.id(parts, ConsoleService.ID_AB_PARTS);
        bottom = new Composite(parts, SWT.NONE);
        GridLayout bl = new GridLayout(5, false);
        bl.marginHeight = 2;
        bottom.setLayout(bl);
        table = new Table(bottom, SWT.BORDER | SWT.FULL_SELECTION | SWT.H_SCROLL | SWT.V_SCROLL);
        ConsoleWindow.id(table, ConsoleService.ID_AB_TABLE);
        table.setHeaderVisible(true);
        table.setLinesVisible(true);
        table.setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true, 5, 1));
        for (int i = 0; i < AbTable.COLUMNS.size(); i++) {
            TableColumn c = new TableColumn(table, i < 2 || i == AbTable.COLUMNS.size() - 1 ? SWT.LEFT : SWT.RIGHT);
            c.setText(AbTable.COLUMNS.get(i));
            c.pack();
        }
        problems = new org.eclipse.swt.widgets.List(bottom, SWT.BORDER | SWT.V_SCROLL | SWT.H_SCROLL);
        ConsoleWindow.id(problems, ConsoleService.ID_AB_PROBLEMS);
        GridData pd = new GridData(SWT.FILL, SWT.CENTER, true, false);
        pd.heightHint = problems.getItemHeight() + 4;
        problems.setLayoutData(pd);
        problems.setToolTipText("Runs that failed, broke an invariant or were cancelled, and metrics some runs did not report");
        new Label(bottom, SWT.NONE).setText("Export:");
        exportButton(bottom, "JSON...", ConsoleService.ID_AB_EXPORT_JSON, this::exportJson);
        exportButton(bottom, "CSV...", ConsoleService.ID_AB_EXPORT_CSV, this::exportCsv);
        exportButton(bottom, "PNG...", ConsoleService.ID_AB_EXPORT_PNG, this::exportPng);
        tableTab = new TabItem(parts, SWT.NONE);
        tableTab.setText("Table");
        tableTab.setControl(bottom);

        Composite top = new Composite(parts, SWT.NONE);
        GridLayout tl = new GridLayout(1, false);
        tl.marginHeight = 2;
        top.setLayout(tl);
        Composite header = new Composite(top, SWT.NONE);
        header.setLayoutData(new GridData(SWT.FILL, SWT.TOP, true, false));
        GridLayout hl = new GridLayout(3, false);
        hl.marginHeight = hl.marginWidth = 0;
        header.setLayout(hl);
        legend = new Composite(header, SWT.NONE);
        ConsoleWindow.id(legend, ConsoleService.ID_AB_LEGEND);
        legend.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        org.eclipse.swt.layout.RowLayout rl = new org.eclipse.swt.layout.RowLayout(SWT.HORIZONTAL);
        rl.center = true;
        legend.setLayout(rl);
        Composite xBox = new Composite(header, SWT.NONE);
        xBox.setLayout(new org.eclipse.swt.layout.RowLayout(SWT.HORIZONTAL));
        GridData xd = new GridData(SWT.RIGHT, SWT.CENTER, false, false);
        xd.exclude = true;
        xBox.setLayoutData(xd);
        xBox.setVisible(false);
        Label xLabel = new Label(xBox, SWT.NONE);
        xLabel.setText("x:");
        xChoice = new org.eclipse.swt.widgets.Combo(xBox, SWT.READ_ONLY | SWT.DROP_DOWN);
        ConsoleWindow.id(xChoice, ConsoleService.ID_AB_SWEEP_X);
        xChoice.setToolTipText("The swept parameter on the charts' x axis (as ringlab plot --x); the others make lines");
        xChoice.addListener(SWT.Selection, e -> {
            x = xChoice.getItem(xChoice.getSelectionIndex());
            if (redraw != null) {
                redraw.run();
            }
        });
        Composite pager = new Composite(header, SWT.NONE);
        pager.setLayout(new org.eclipse.swt.layout.RowLayout(SWT.HORIZONTAL));
        previous = new Button(pager, SWT.PUSH);
        previous.setText("\u25c0");
        ConsoleWindow.id(previous, ConsoleService.ID_AB_PAGE_PREVIOUS);
        previous.addListener(SWT.Selection, e -> page(page - 1));
        next = new Button(pager, SWT.PUSH);
        next.setText("\u25b6");
        ConsoleWindow.id(next, ConsoleService.ID_AB_PAGE_NEXT);
        next.addListener(SWT.Selection, e -> page(page + 1));
        pageLabel = new Label(pager, SWT.NONE);
        ConsoleWindow.id(pageLabel, ConsoleService.ID_AB_PAGE);
        charts = new Composite(top, SWT.NONE);
        ConsoleWindow.id(charts, ConsoleService.ID_AB_CHARTS);
        charts.setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
        charts.setLayout(new GridLayout(1, true));
        charts.addListener(SWT.Resize, e -> flowCharts());
        chartsTab = new TabItem(parts, SWT.NONE);
        chartsTab.setText("Charts");
        chartsTab.setControl(top);
        parts.addListener(SWT.Selection, e -> layoutCharts()); // SWTChart lays its axes out when shown
    }

    private void exportButton(Composite parent, String text, String id, Runnable action) {
        Button b = new Button(parent, SWT.PUSH);
        b.setText(text);
        ConsoleWindow.id(b, id);
        b.addListener(SWT.Selection, e -> action.run());
    }

    /** Shows a result: selected first, so that the charts and the table are laid out at their size. */
    void show(ExperimentResultDTO r) {
        shown = r;
        chartTabs.select(result);
        for (Control c : charts.getChildren()) {
            c.dispose();
        }
        page = 0;
        List<AbCharts.Chart> data = r.parameters.isEmpty() ? AbCharts.of(r) : List.of();
        for (AbCharts.Chart d : data) {
            chart(d).setLayoutData(chartData());
        }
        sweeps(r.parameters, () -> SweepCharts.of(r, x));
        showLegend(data);
        List<AbTable.Row> rows = r.parameters.isEmpty() ? AbTable.rows(r) : AbTable.sweepRows(r);
        table.removeAll();
        for (AbTable.Row row : rows) {
            TableItem item = new TableItem(table, SWT.NONE);
            item.setText(row.cells().toArray(String[]::new));
            item.setData(ConsoleService.AB_ROW_DATA, row.source());
        }
        for (TableColumn c : table.getColumns()) { // columns as wide as their widest value, never narrower than the header
            c.pack();
        }
        List<String> p = AbTable.problems(r);
        problems.setItems(p.isEmpty() ? new String[] { "no problems: every run counted, every metric was reported" }
                : p.toArray(String[]::new));
        problems.setTopIndex(0);
        parts.setSelection(r.parameters.isEmpty() ? tableTab : chartsTab); // A/B: the numbers first; a sweep: its curves
        result.layout(true, true);
        flowCharts();
        if (!rows.isEmpty()) {
            table.setTopIndex(0); // GTK keeps a previous result's scroll position past the new rows' end otherwise
        }
    }

    private static GridData chartData() {
        GridData gd = new GridData(SWT.FILL, SWT.TOP, true, false);
        gd.widthHint = CHART_W;
        gd.heightHint = CHART_H;
        return gd;
    }

    /**
     * Shows a sweep's charts from the runs ended so far (each point the mean of its seeds so far), while the experiment
     * runs; the result replaces them when it comes.
     */
    void showLive(List<String> parameters, List<String> metrics, List<io.ringlab.experiment.api.dto.RunSummaryDTO> runs) {
        List<SweepCharts> live = SweepCharts.ofRuns(parameters, x, metrics, runs);
        Control[] old = charts.getChildren();
        boolean same = old.length == live.size();
        for (int i = 0; same && i < old.length; i++) {
            same = (ConsoleService.AB_CHART_PREFIX + live.get(i).metric()).equals(old[i].getData(ConsoleService.WIDGET_ID))
                    && live.get(i).parameter().equals(((Chart) old[i]).getAxisSet().getXAxis(0).getTitle().getText());
        }
        if (!same) {
            if (old.length == 0) { // the first runs of a sweep: show its charts as they fill
                chartTabs.select(result);
                parts.setSelection(chartsTab);
            }
            for (Control c : old) {
                c.dispose();
            }
            sweeps(parameters, () -> SweepCharts.ofRuns(parameters, x, metrics, runs));
            flowCharts();
        } else {
            for (int i = 0; i < old.length; i++) {
                fillSweep((Chart) old[i], live.get(i));
            }
        }
    }

    /**
     * Makes a sweep's charts (none without parameters) and offers its parameters for x when there are several; choosing
     * another x makes them again.
     *
     * @param made the charts for the x chosen when called
     */
    private void sweeps(List<String> parameters, java.util.function.Supplier<List<SweepCharts>> made) {
        Control box = xChoice.getParent();
        boolean choice = parameters.size() > 1;
        if (choice && !java.util.Arrays.asList(xChoice.getItems()).equals(parameters)) {
            xChoice.setItems(parameters.toArray(String[]::new));
            ConsoleWindow.fitCombo(xChoice);
        }
        if (choice) {
            xChoice.select(Math.max(0, parameters.indexOf(x)));
        }
        box.setVisible(choice);
        ((GridData) box.getLayoutData()).exclude = !choice;
        box.getParent().requestLayout();
        Runnable make = () -> {
            for (SweepCharts d : made.get()) {
                sweepChart(d).setLayoutData(chartData());
            }
        };
        redraw = parameters.isEmpty() ? null : () -> {
            for (Control c : charts.getChildren()) {
                c.dispose();
            }
            make.run();
            flowCharts();
        };
        make.run();
    }

    private Chart sweepChart(SweepCharts d) {
        Chart c = new Chart(charts, SWT.NONE);
        ConsoleWindow.id(c, ConsoleService.AB_CHART_PREFIX + d.metric());
        c.getTitle().setText(d.metric());
        String unit = io.ringlab.pipeline.format.MetricUnits.unitOf(d.metric().substring(d.metric().indexOf('.') + 1));
        c.getAxisSet().getYAxis(0).getTitle().setText("mean, 95 % CI" + (unit == null || unit.isEmpty() ? "" : " (" + unit + ")"));
        c.getAxisSet().getXAxis(0).getTitle().setText(d.parameter());
        c.getLegend().setPosition(SWT.BOTTOM);
        c.getPlotArea().addCustomPaintListener(new org.eclipse.swtchart.ICustomPaintListener() {
            @Override
            public void paintControl(org.eclipse.swt.events.PaintEvent e) {
                paintBands(c, e.gc);
            }

            @Override
            public boolean drawBehindSeries() {
                return true;
            }
        });
        fillSweep(c, d);
        return c;
    }

    /**
     * Fills each line's 95 % band behind the lines, in the line's colour and translucent, from the interval its series
     * holds (its y error bar's values, the bar itself hidden): upper ends left to right, lower ends back. Only where the
     * chart draws bands (a numeric x) and the line has an interval at every point.
     */
    private static void paintBands(Chart c, org.eclipse.swt.graphics.GC gc) {
        if (!Boolean.TRUE.equals(c.getData(BANDS_DATA))) {
            return;
        }
        IAxis xa = c.getAxisSet().getXAxis(0), ya = c.getAxisSet().getYAxis(0);
        gc.setAlpha(BAND_ALPHA);
        for (org.eclipse.swtchart.ISeries<?> s : c.getSeriesSet().getSeries()) {
            double[] x = s.getXSeries(), y = s.getYSeries();
            double[] minus = s.getYErrorBar().getMinusErrors(), plus = s.getYErrorBar().getPlusErrors();
            int n = x.length;
            boolean interval = minus != null && plus != null && minus.length == n && plus.length == n;
            if (n == 0 || s.getYErrorBar().isVisible() || !interval) {
                continue;
            }
            int[] poly = new int[4 * n];
            for (int i = 0; i < n; i++) {
                int j = n - 1 - i;
                poly[2 * i] = xa.getPixelCoordinate(x[i]);
                poly[2 * i + 1] = ya.getPixelCoordinate(y[i] + plus[i]);
                poly[2 * n + 2 * i] = xa.getPixelCoordinate(x[j]);
                poly[2 * n + 2 * i + 1] = ya.getPixelCoordinate(y[j] - minus[j]);
            }
            gc.setBackground(((ILineSeries<?>) s).getLineColor());
            gc.fillPolygon(poly);
        }
        gc.setAlpha(255);
    }

    /**
     * Sets a sweep chart's lines: each a line of its points, their intervals held by its y error bar and drawn as a band
     * behind the lines ({@link #paintBands}) or, for an x that is no number, as the error bars themselves.
     */
    private void fillSweep(Chart c, SweepCharts d) {
        c.setData(BANDS_DATA, d.bands());
        c.suspendUpdate(true);
        try {
            for (org.eclipse.swtchart.ISeries<?> s : c.getSeriesSet().getSeries()) {
                if (!d.lines().containsKey(s.getId())) {
                    c.getSeriesSet().deleteSeries(s.getId());
                }
            }
            IAxis x = c.getAxisSet().getXAxis(0);
            x.enableLogScale(false);
            int k = 0;
            for (Map.Entry<String, List<SweepCharts.Point>> line : d.lines().entrySet()) {
                @SuppressWarnings("unchecked")
                ILineSeries<Object> s = (ILineSeries<Object>) c.getSeriesSet().getSeries(line.getKey());
                if (s == null) {
                    s = (ILineSeries<Object>) c.getSeriesSet().createSeries(SeriesType.LINE, line.getKey());
                    s.setSymbolType(PlotSymbolType.CIRCLE);
                    s.setSymbolSize(3);
                }
                Color color = chartTabs.color(k++);
                s.setLineColor(color);
                s.setSymbolColor(color);
                List<SweepCharts.Point> pts = line.getValue();
                s.setXSeries(pts.stream().mapToDouble(SweepCharts.Point::x).toArray());
                s.setYSeries(pts.stream().mapToDouble(SweepCharts.Point::mean).toArray());
                IErrorBar bar = s.getYErrorBar();
                boolean ci = pts.stream().allMatch(p -> !Double.isNaN(p.minus()) && !Double.isNaN(p.plus()));
                if (ci && !pts.isEmpty()) {
                    bar.setType(IErrorBar.ErrorBarType.BOTH);
                    bar.setMinusErrors(pts.stream().mapToDouble(SweepCharts.Point::minus).toArray());
                    bar.setPlusErrors(pts.stream().mapToDouble(SweepCharts.Point::plus).toArray());
                    bar.setColor(color);
                    bar.setVisible(!d.bands());
                } else {
                    bar.setMinusErrors(new double[0]);
                    bar.setPlusErrors(new double[0]);
                    bar.setVisible(false);
                }
            }
            c.getAxisSet().adjustRange();
            x.enableLogScale(d.logX());
            c.getAxisSet().adjustRange();
            // the means and their intervals, with a margin: points and bands on the plot's edge are hard to read
            IAxis y = c.getAxisSet().getYAxis(0);
            double[] covered = d.yRange();
            if (covered != null) {
                double[] padded = AbCharts.range(covered[0], covered[1]); // the A/B charts' margin, a flat line's included
                y.setRange(new Range(padded[0], padded[1]));
            }
            Range xr = x.getRange();
            x.setRange(d.logX() ? new Range(xr.lower / 1.25, xr.upper * 1.25)
                    : new Range(xr.lower - (xr.upper - xr.lower) * 0.05, xr.upper + (xr.upper - xr.lower) * 0.05));
        } finally {
            c.suspendUpdate(false);
        }
        c.redraw();
    }

    /** The variants' colours and names, as the charts draw them (a file's variants have names of their own). */
    private void showLegend(List<AbCharts.Chart> data) {
        for (Control c : legend.getChildren()) {
            c.dispose();
        }
        java.util.Map<String, Integer> variants = new java.util.LinkedHashMap<>();
        for (AbCharts.Chart d : data) {
            for (AbCharts.Point p : d.points()) {
                variants.putIfAbsent(p.variant(), p.x());
            }
        }
        if (!variants.isEmpty()) {
            new Label(legend, SWT.NONE).setText("Variants:");
        }
        variants.forEach((name, x) -> {
            Label swatch = new Label(legend, SWT.NONE);
            swatch.setText("\u25cf"); // a dot in the variant's colour, as its point on the charts
            swatch.setForeground(chartTabs.color(x));
            Label l = new Label(legend, SWT.NONE);
            l.setText(name);
            l.setData(ConsoleService.WIDGET_ID, ConsoleService.AB_LEGEND_PREFIX + name);
        });
        legend.requestLayout();
    }

    /** @return how many charts a page holds: as many side by side, and rows, as the charts' area has room for */
    private int perPage() {
        org.eclipse.swt.graphics.Rectangle a = charts.getClientArea();
        int columns = Math.max(1, (a.width - 10) / (CHART_W + 10));
        int rows = Math.max(1, (a.height - 10) / (CHART_H + 10));
        ((GridLayout) charts.getLayout()).numColumns = columns;
        return columns * rows;
    }

    /** Lays the charts out in pages of what the area holds, showing the current page. */
    private void flowCharts() {
        page(page);
    }

    /** Shows page {@code p} of the charts (clamped), the others hidden and left out of the layout. */
    private void page(int p) {
        Control[] all = charts.getChildren();
        int per = perPage();
        int pages = Math.max(1, (all.length + per - 1) / per);
        page = Math.max(0, Math.min(p, pages - 1));
        for (int i = 0; i < all.length; i++) {
            boolean on = i / per == page;
            all[i].setVisible(on);
            ((GridData) all[i].getLayoutData()).exclude = !on;
        }
        previous.setEnabled(page > 0);
        next.setEnabled(page < pages - 1);
        int first = page * per + 1, last = Math.min(all.length, (page + 1) * per);
        pageLabel.setText(all.length == 0 ? "" : "charts " + first + (last > first ? "-" + last : "") + " of " + all.length);
        pageLabel.requestLayout();
        charts.layout(true, true);
    }

    /**
     * Lays the charts out now, axes and tick marks included: SWTChart computes its tick marks in its own layout, and a
     * chart printed (the PNG export) before it was ever painted would otherwise have none.
     */
    private void layoutCharts() {
        flowCharts();
        for (Control c : charts.getChildren()) {
            if (c instanceof Chart chart) {
                chart.updateLayout();
            }
        }
    }

    private Chart chart(AbCharts.Chart d) {
        Chart c = new Chart(charts, SWT.NONE);
        ConsoleWindow.id(c, ConsoleService.AB_CHART_PREFIX + d.metric());
        c.getTitle().setText(d.metric());
        IAxis x = c.getAxisSet().getXAxis(0);
        x.getTitle().setText("variant");
        // the variants' names drawn at their points' x at the foot of the plot: SWTChart's own tick labels hide some of
        // a few labelled ticks among many empty ones, or all of them in a wide chart
        x.getTick().setVisible(false);
        c.getPlotArea().addCustomPaintListener(e -> {
            int h = c.getPlotArea().getSize().y;
            e.gc.setForeground(c.getDisplay().getSystemColor(SWT.COLOR_BLACK));
            for (AbCharts.Point p : d.points()) {
                String name = d.tickLabel(p.x());
                org.eclipse.swt.graphics.Point ext = e.gc.textExtent(name);
                e.gc.drawText(name, x.getPixelCoordinate(p.x()) - ext.x / 2, h - ext.y - 2, true);
            }
        });
        c.getLegend().setVisible(false); // the x axis names the variants; the plot keeps the width
        c.getAxisSet().getYAxis(0).getTitle().setText("mean, 95 % CI");
        for (AbCharts.Point p : d.points()) {
            @SuppressWarnings("unchecked")
            ILineSeries<Object> s = (ILineSeries<Object>) c.getSeriesSet().createSeries(SeriesType.LINE, p.variant());
            Color color = chartTabs.color(p.x());
            s.setLineStyle(LineStyle.NONE);
            s.setSymbolType(PlotSymbolType.CIRCLE);
            s.setSymbolSize(5);
            s.setSymbolColor(color);
            s.setLineColor(color);
            s.setXSeries(p.mean() == null ? new double[0] : new double[] { p.x() });
            s.setYSeries(p.mean() == null ? new double[0] : new double[] { p.mean() });
            IErrorBar bar = s.getYErrorBar();
            if (p.hasInterval()) {
                bar.setType(IErrorBar.ErrorBarType.BOTH);
                bar.setMinusErrors(new double[] { p.minus() });
                bar.setPlusErrors(new double[] { p.plus() });
                bar.setColor(color);
                bar.setLineWidth(2);
                bar.setVisible(true);
            } else {
                bar.setVisible(false);
            }
        }
        x.setRange(new Range(d.xLow(), d.xHigh()));
        c.getAxisSet().getYAxis(0).setRange(new Range(d.yLow(), d.yHigh()));
        return c;
    }

    private ExperimentResultDTO last(String what) {
        if (shown != null) {
            return shown;
        }
        host.error("No A/B result to export", "The " + what + " is the result of an experiment: run one in the A/B tab first.");
        return null;
    }

    private Path exportFile(String id, String title, String extension, ExperimentResultDTO r) {
        return Exports.saveTo(find(result, id), dialogs.getShell(), context, title, extension, r.name);
    }

    private static Widget find(Composite root, String id) {
        for (Control c : root.getChildren()) {
            if (id.equals(c.getData(ConsoleService.WIDGET_ID))) {
                return c;
            }
            if (c instanceof Composite k && find(k, id) instanceof Widget w) {
                return w;
            }
        }
        return null;
    }

    private void exportJson() {
        ExperimentResultDTO r = last("JSON");
        Path f = r == null ? null : exportFile(ConsoleService.ID_AB_EXPORT_JSON, "Export the A/B result as JSON", "json", r);
        if (f != null) {
            try {
                OutputFile.write(f, ResultFiles.json(r));
                host.log("INFO", "exported the A/B result to " + f);
            } catch (IOException | RuntimeException e) {
                host.error("Cannot export the A/B result to " + f, f + ": " + describe(e));
            }
        }
    }

    private void exportCsv() {
        ExperimentResultDTO r = last("CSV");
        Path f = r == null ? null : exportFile(ConsoleService.ID_AB_EXPORT_CSV, "Export the A/B runs as CSV", "csv", r);
        if (f != null) {
            try {
                OutputFile.write(f, out -> {
                    Writer w = new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8);
                    ResultFiles.csv(r, w);
                    w.flush();
                });
                host.log("INFO", "exported " + r.runs.size() + " runs x " + r.metrics.size() + " metrics to " + f);
            } catch (IOException | RuntimeException e) {
                host.error("Cannot export the A/B runs to " + f, f + ": " + describe(e));
            }
        }
    }

    private void exportPng() {
        ExperimentResultDTO r = last("PNG");
        Path f = r == null ? null : exportFile(ConsoleService.ID_AB_EXPORT_PNG, "Export the A/B charts as PNG", "png", r);
        if (f != null) {
            try {
                chartTabs.select(result);
                parts.setSelection(chartsTab);
                layoutCharts();
                ImageLoader loader = new ImageLoader();
                loader.data = new ImageData[] { LiveCharts.print(charts) };
                loader.save(f.toString(), SWT.IMAGE_PNG);
                host.log("INFO", "exported the A/B charts to " + f);
            } catch (SWTException | IllegalArgumentException e) {
                host.error("Cannot export the A/B charts to " + f, f + ": " + describe(e));
            }
        }
    }

    /** Shows an experiment's problems when it could not run. */
    void problems(String[] lines) {
        problems.setItems(lines);
    }

    private static String describe(Throwable t) {
        return ConsoleWindow.describe(t);
    }
}

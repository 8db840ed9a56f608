package io.ringlab.console;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.text.FieldPosition;
import java.text.Format;
import java.text.ParsePosition;
import java.util.List;

import org.eclipse.swt.SWT;
import org.eclipse.swt.SWTException;
import org.eclipse.swt.custom.SashForm;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.ImageLoader;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.swt.widgets.Widget;
import org.eclipse.swtchart.Chart;
import org.eclipse.swtchart.IAxis;
import org.eclipse.swtchart.IAxisTick;
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
 * The A/B panel's result, a tab of the chart folder: one chart per metric (each variant's mean with its 95 % interval),
 * the table of means, intervals and paired differences ({@link AbTable}), the problems, and the exports of the result
 * as JSON, CSV and PNG.
 */
final class AbResultView {
    /** At most this many charts side by side in a row. */
    private static final int CHARTS_PER_ROW = 3;

    private final Composite result;
    private final ConsoleContext context;
    private final Feedback host;
    private final LiveCharts chartTabs;
    /** The control whose shell parents the save dialogs. */
    private final Control dialogs;
    private Composite charts;
    private Table table;
    private org.eclipse.swt.widgets.List problems;
    /** The result shown, or {@code null}. */
    private ExperimentResultDTO shown;

    AbResultView(Composite result, ConsoleContext context, Feedback host, LiveCharts chartTabs, Control dialogs) {
        this.result = result;
        this.context = context;
        this.host = host;
        this.chartTabs = chartTabs;
        this.dialogs = dialogs;
        SashForm split = new SashForm(result, SWT.VERTICAL);
        charts = new Composite(split, SWT.NONE);
        ConsoleWindow.id(charts, ConsoleService.ID_AB_CHARTS);
        charts.setLayout(new GridLayout(1, true));
        Composite bottom = new Composite(split, SWT.NONE);
        bottom.setLayout(new GridLayout(4, false));
        table = new Table(bottom, SWT.BORDER | SWT.FULL_SELECTION | SWT.H_SCROLL | SWT.V_SCROLL);
        ConsoleWindow.id(table, ConsoleService.ID_AB_TABLE);
        table.setHeaderVisible(true);
        table.setLinesVisible(true);
        table.setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true, 4, 1));
        int[] widths = { 130, 90, 35, 110, 170, 70, 60, 260 };
        for (int i = 0; i < AbTable.COLUMNS.size(); i++) {
            TableColumn c = new TableColumn(table, i < 2 || i == AbTable.COLUMNS.size() - 1 ? SWT.LEFT : SWT.RIGHT);
            c.setText(AbTable.COLUMNS.get(i));
            c.setWidth(widths[i]);
        }
        problems = new org.eclipse.swt.widgets.List(bottom, SWT.BORDER | SWT.V_SCROLL | SWT.H_SCROLL);
        ConsoleWindow.id(problems, ConsoleService.ID_AB_PROBLEMS);
        GridData pd = new GridData(SWT.FILL, SWT.FILL, true, false, 4, 1);
        pd.heightHint = problems.getItemHeight() * 2;
        problems.setLayoutData(pd);
        problems.setToolTipText("Runs that failed, broke an invariant or were cancelled, and metrics some runs did not report");
        new Label(bottom, SWT.NONE).setText("Export the result:");
        exportButton(bottom, "JSON...", ConsoleService.ID_AB_EXPORT_JSON, this::exportJson);
        exportButton(bottom, "CSV...", ConsoleService.ID_AB_EXPORT_CSV, this::exportCsv);
        exportButton(bottom, "PNG...", ConsoleService.ID_AB_EXPORT_PNG, this::exportPng);
        split.setWeights(1, 1);
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
        List<AbCharts.Chart> data = AbCharts.of(r);
        ((GridLayout) charts.getLayout()).numColumns = Math.max(1, Math.min(CHARTS_PER_ROW, data.size()));
        for (AbCharts.Chart d : data) {
            chart(d).setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
        }
        charts.layout(true, true); // not SWTChart's own layout here: while the tab is not on screen it leaves the axes unpainted
        List<AbTable.Row> rows = AbTable.rows(r);
        table.setRedraw(false); // as the live views fill theirs: GTK then lays the rows out once, when redrawing resumes
        try {
            table.setItemCount(rows.size());
            for (int i = 0; i < rows.size(); i++) {
                TableItem item = table.getItem(i);
                item.setText(rows.get(i).cells().toArray(String[]::new));
                item.setData(ConsoleService.AB_ROW_DATA, rows.get(i).source());
            }
        } finally {
            table.setRedraw(true);
        }
        if (!rows.isEmpty()) {
            table.setTopIndex(0); // GTK keeps a previous result's scroll position past the new rows' end otherwise
            table.showItem(table.getItem(0));
        }
        List<String> p = AbTable.problems(r);
        problems.setItems(p.isEmpty() ? new String[] { "no problems: every run counted, every metric was reported" }
                : p.toArray(String[]::new));
        problems.setTopIndex(0);
        result.layout(true, true);
    }

    /**
     * Lays the charts out now, axes and tick marks included: SWTChart computes its tick marks in its own layout, and a
     * chart printed (the PNG export) before it was ever painted would otherwise have none.
     */
    private void layoutCharts() {
        charts.layout(true, true);
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
        x.getTick().setFormat(new VariantFormat(d));
        x.getTick().setTickMarkStepHint((int) Math.ceil(IAxisTick.MIN_GRID_STEP_HINT)); // a tick for every variant, even in a narrow chart
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

    /** Labels the x axis' whole-number ticks with the variants' names and leaves the others empty. */
    private static final class VariantFormat extends Format {
        private static final long serialVersionUID = 1L;
        private final transient AbCharts.Chart chart;

        VariantFormat(AbCharts.Chart chart) {
            this.chart = chart;
        }

        @Override
        public StringBuffer format(Object o, StringBuffer to, FieldPosition pos) {
            return to.append(o instanceof Number n ? chart.tickLabel(n.doubleValue()) : "");
        }

        @Override
        public Object parseObject(String source, ParsePosition pos) {
            return null;
        }
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

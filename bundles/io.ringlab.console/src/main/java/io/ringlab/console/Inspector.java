package io.ringlab.console;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

import org.eclipse.jface.resource.JFaceResources;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.ScrolledComposite;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Link;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.TabFolder;
import org.eclipse.swt.widgets.TabItem;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swtchart.Chart;

import io.ringlab.console.api.ConsoleService;
import io.ringlab.pipeline.format.MetricUnits;
import io.ringlab.sim.api.dto.SeriesDTO;

/**
 * An element's inspector: a window of its own (as OMNeT++ Qtenv's object inspectors) with the element's metrics (value,
 * unit, kind, meaning), its properties as run, its CPU share and drops, its series as small charts, and a link to its
 * type's model page. It stays open across snapshots and shows each one ({@link #show}); several may be open. UI thread
 * only.
 */
final class Inspector {
    private final Shell shell;
    private final Label header, cpu, drops;
    private final Table metrics, properties;
    private final Composite charts;
    private final ScrolledComposite chartsScroll;
    private final Map<String, Chart> chartOf = new HashMap<>();
    private final TabFolder tabs;
    private final TabItem seriesTab;
    /** The last model and series shown: the Series tab draws them when it is selected. */
    private InspectorModel last;
    private SeriesDTO lastSeries;
    private final java.util.function.IntFunction<org.eclipse.swt.graphics.Color> colors;

    /**
     * @param owner the console's window
     * @param element the element inspected
     * @param openModelPage opens its type's model page
     * @param colors the charts' palette
     */
    Inspector(Shell owner, String element, Runnable openModelPage, java.util.function.IntFunction<org.eclipse.swt.graphics.Color> colors) {
        this.colors = colors;
        shell = new Shell(owner, SWT.SHELL_TRIM);
        shell.setData(ConsoleService.WIDGET_ID, ConsoleService.INSPECTOR_PREFIX + element);
        shell.setText(element + " - inspector");
        shell.setLayout(new GridLayout(1, false));
        header = new Label(shell, SWT.NONE);
        header.setFont(JFaceResources.getFontRegistry().getBold(JFaceResources.DEFAULT_FONT));
        header.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        Link page = new Link(shell, SWT.NONE);
        page.setText("<a>Model page</a> of its type");
        page.addListener(SWT.Selection, e -> openModelPage.run());
        cpu = label(ConsoleService.ID_INSPECTOR_CPU);
        drops = label(ConsoleService.ID_INSPECTOR_DROPS);
        tabs = new TabFolder(shell, SWT.TOP);
        tabs.setData(ConsoleService.WIDGET_ID, ConsoleService.ID_INSPECTOR_TABS);
        tabs.setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
        metrics = table(tabs, "Metrics", ConsoleService.ID_INSPECTOR_METRICS, "metric", "value", "unit", "kind", "meaning");
        properties = table(tabs, "Properties as run", ConsoleService.ID_INSPECTOR_PROPERTIES, "property", "value", "default",
                "meaning");
        seriesTab = new TabItem(tabs, SWT.NONE);
        seriesTab.setText("Series");
        chartsScroll = new ScrolledComposite(tabs, SWT.V_SCROLL);
        chartsScroll.setExpandHorizontal(true);
        charts = new Composite(chartsScroll, SWT.NONE);
        charts.setData(ConsoleService.WIDGET_ID, ConsoleService.ID_INSPECTOR_SERIES);
        charts.setLayout(new GridLayout(1, false));
        chartsScroll.setContent(charts);
        chartsScroll.addListener(SWT.Resize, e -> layoutCharts());
        seriesTab.setControl(chartsScroll);
        tabs.addListener(SWT.Selection, e -> { // the charts are drawn only while their tab shows
            if (tabs.getSelection().length > 0 && tabs.getSelection()[0] == seriesTab && last != null) {
                showCharts(last.seriesColumns(), lastSeries);
            }
        });
        shell.setSize(620, 520);
    }

    private Label label(String id) {
        Label l = new Label(shell, SWT.WRAP);
        l.setData(ConsoleService.WIDGET_ID, id);
        GridData d = new GridData(SWT.FILL, SWT.CENTER, true, false);
        d.widthHint = 300;
        l.setLayoutData(d);
        return l;
    }

    private static Table table(TabFolder tabs, String title, String id, String... columns) {
        TabItem item = new TabItem(tabs, SWT.NONE);
        item.setText(title);
        Table t = new Table(tabs, SWT.BORDER | SWT.FULL_SELECTION | SWT.V_SCROLL | SWT.H_SCROLL);
        t.setData(ConsoleService.WIDGET_ID, id);
        t.setHeaderVisible(true);
        t.setLinesVisible(true);
        for (String c : columns) {
            new TableColumn(t, SWT.LEFT).setText(c);
        }
        item.setControl(t);
        return t;
    }

    /** @return the window */
    Shell shell() {
        return shell;
    }

    /** Opens the window, or brings it to the front. */
    void open() {
        if (!shell.isVisible()) {
            shell.open();
        }
        shell.setActive();
    }

    /**
     * Shows the element at a moment of the run.
     *
     * @param m what to show
     * @param series the run's series, for the charts; may be {@code null}
     */
    void show(InspectorModel m, SeriesDTO series) {
        if (shell.isDisposed()) {
            return;
        }
        last = m;
        lastSeries = series;
        set(header, String.format(Locale.ROOT, "%s: %s%s, at %.3f ms of virtual time", m.element(),
                m.type() == null ? "(type not installed)" : m.type().type, m.type() == null || m.type().bundle == null ? ""
                        : " (" + m.type().bundle + ")", m.timeSeconds() * 1e3));
        set(cpu, m.cpu());
        set(drops, m.drops());
        TableRows.fill(metrics, m.metrics().size(), (item, i) -> {
            InspectorModel.MetricRow r = m.metrics().get(i);
            item.setData(r.value()); // the number itself, for tests and automation
            return new String[] { r.name(), r.text(), r.unit(), r.kind(), r.meaning() };
        });
        TableRows.fill(properties, m.properties().size(), (item, i) -> {
            InspectorModel.PropertyRow r = m.properties().get(i);
            return new String[] { r.name(), r.value(), r.defaultValue(), r.meaning() };
        });
        if (tabs.getSelection().length > 0 && tabs.getSelection()[0] == seriesTab) {
            showCharts(m.seriesColumns(), series);
        }
    }

    /** Sets a label's text, and lays it out again only when it no longer fits ({@link ConsoleWindow#setText}). */
    private static void set(Label l, String text) {
        ConsoleWindow.setText(l, text);
    }

    private void showCharts(List<String> columns, SeriesDTO s) {
        if (s == null || s.rows.isEmpty()) {
            return;
        }
        int[] idx = ChartData.decimate(s.rows.size(), ChartData.MAX_POINTS);
        double[] t = new double[idx.length];
        for (int i = 0; i < idx.length; i++) {
            t[i] = s.rows.get(idx[i])[0] * 1e3;
        }
        boolean added = false;
        for (int k = 0; k < columns.size(); k++) {
            String column = columns.get(k);
            int c = s.columns.indexOf(column);
            if (c < 0) {
                continue;
            }
            Chart chart = chartOf.get(column);
            if (chart == null) {
                String metric = column.substring(column.indexOf('.') + 1);
                String unit = column.startsWith(SeriesDTO.DROPS_PREFIX) ? "packets" : MetricUnits.unitOf(metric);
                chart = LiveCharts.chart(charts, ConsoleService.ID_INSPECTOR_SERIES + "." + column, column,
                        unit == null || unit.isEmpty() ? "value" : unit);
                chart.getLegend().setVisible(false);
                GridData d = new GridData(SWT.FILL, SWT.TOP, true, false);
                d.heightHint = 150;
                chart.setLayoutData(d);
                chartOf.put(column, chart);
                added = true;
            }
            double[] y = new double[idx.length];
            for (int i = 0; i < idx.length; i++) {
                double[] row = s.rows.get(idx[i]);
                y[i] = c < row.length ? row[c] : Double.NaN;
            }
            LiveCharts.line(chart, column, t, y, colors.apply(k), 0);
            chart.getAxisSet().adjustRange();
            chart.redraw();
        }
        if (added) {
            layoutCharts();
        }
    }

    private void layoutCharts() {
        int w = chartsScroll.getClientArea().width;
        charts.setSize(charts.computeSize(w, SWT.DEFAULT));
        charts.layout(true);
    }

    /** Closes the window. */
    void close() {
        if (!shell.isDisposed()) {
            shell.dispose();
        }
    }

    /** Tells {@code onClose} when the window goes (closed by the user or by {@link #close}). */
    void onClose(Consumer<Inspector> onClose) {
        shell.addListener(SWT.Dispose, e -> onClose.accept(this));
    }
}

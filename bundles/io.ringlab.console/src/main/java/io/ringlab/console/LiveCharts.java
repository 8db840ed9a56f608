package io.ringlab.console;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.SashForm;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swtchart.Chart;
import org.eclipse.swtchart.ILineSeries;
import org.eclipse.swtchart.ILineSeries.PlotSymbolType;
import org.eclipse.swtchart.ISeries;
import org.eclipse.swtchart.ISeries.SeriesType;

import io.ringlab.console.api.ConsoleService;

/**
 * Two SWTChart line charts fed from {@link ChartData}: the headline metric over virtual time, and packets per second of
 * every element that counts packets. {@link #show} replaces the data; the console calls it at the polling rate (10 Hz)
 * while a run goes on, and once with the result's series at the end. UI thread only.
 */
final class LiveCharts {
    private static final int[][] PALETTE = { { 0x1f, 0x77, 0xb4 }, { 0xd6, 0x27, 0x28 }, { 0x2c, 0xa0, 0x2c }, { 0xff, 0x7f, 0x0e },
            { 0x94, 0x67, 0xbd }, { 0x8c, 0x56, 0x4b }, { 0xe3, 0x77, 0xc2 }, { 0x7f, 0x7f, 0x7f } };
    private static final String HEADLINE_SERIES = "headline";

    private final SashForm sash;
    private final Chart headline;
    private final Chart throughput;
    private final Color[] colors;
    private int updates;

    LiveCharts(Composite parent) {
        sash = new SashForm(parent, SWT.VERTICAL);
        headline = chart(sash, ConsoleService.ID_CHART_HEADLINE, "Headline", "value");
        throughput = chart(sash, ConsoleService.ID_CHART_THROUGHPUT, "Throughput per element", "packets/s");
        colors = new Color[PALETTE.length];
        for (int i = 0; i < PALETTE.length; i++) {
            colors[i] = new Color(parent.getDisplay(), PALETTE[i][0], PALETTE[i][1], PALETTE[i][2]);
        }
    }

    private static Chart chart(Composite parent, String id, String title, String yTitle) {
        Chart c = new Chart(parent, SWT.NONE);
        c.setData(ConsoleService.WIDGET_ID, id);
        c.getTitle().setText(title);
        c.getAxisSet().getXAxis(0).getTitle().setText("virtual time (ms)");
        c.getAxisSet().getYAxis(0).getTitle().setText(yTitle);
        return c;
    }

    Composite control() {
        return sash;
    }

    /** Clears both charts and names the headline. */
    void reset(String headlineMetric) {
        clear(headline);
        clear(throughput);
        headline.getTitle().setText(headlineMetric == null ? "Headline (the pipeline names none)" : "Headline: " + headlineMetric);
        headline.redraw();
        throughput.redraw();
    }

    /** Replaces the plotted data. */
    void show(ChartData d) {
        updates++;
        if (d.size() == 0) {
            return;
        }
        headline.suspendUpdate(true);
        throughput.suspendUpdate(true);
        try {
            if (d.headline() != null) {
                line(headline, HEADLINE_SERIES, d.timeMillis(), d.headline(), colors[0]);
            }
            Set<String> keep = new HashSet<>(d.throughput().keySet());
            for (ISeries<?> s : throughput.getSeriesSet().getSeries()) {
                if (!keep.contains(s.getId())) {
                    throughput.getSeriesSet().deleteSeries(s.getId());
                }
            }
            int i = 0;
            for (Map.Entry<String, double[]> e : d.throughput().entrySet()) {
                line(throughput, e.getKey(), d.timeMillis(), e.getValue(), colors[i++ % colors.length]);
            }
            headline.getAxisSet().adjustRange();
            throughput.getAxisSet().adjustRange();
        } finally {
            headline.suspendUpdate(false);
            throughput.suspendUpdate(false);
        }
        headline.redraw();
        throughput.redraw();
    }

    /** @return how many times {@link #show} ran since the console opened. */
    int updates() {
        return updates;
    }

    private static void line(Chart c, String id, double[] x, double[] y, Color color) {
        @SuppressWarnings("unchecked")
        ILineSeries<Object> s = (ILineSeries<Object>) c.getSeriesSet().getSeries(id);
        if (s == null) {
            s = (ILineSeries<Object>) c.getSeriesSet().createSeries(SeriesType.LINE, id);
            s.setSymbolType(PlotSymbolType.NONE);
            s.setLineColor(color);
            s.setAntialias(SWT.ON);
        }
        s.setXSeries(x);
        s.setYSeries(y);
    }

    private static void clear(Chart c) {
        for (ISeries<?> s : c.getSeriesSet().getSeries()) {
            c.getSeriesSet().deleteSeries(s.getId());
        }
    }
}

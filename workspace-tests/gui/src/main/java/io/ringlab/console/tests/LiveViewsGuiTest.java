package io.ringlab.console.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.ImageLoader;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.MenuItem;
import org.eclipse.swt.widgets.TabFolder;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.swt.widgets.Text;
import org.eclipse.swtchart.Chart;
import org.eclipse.swtchart.ISeries;
import org.junit.jupiter.api.Test;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import io.ringlab.console.api.ConsoleService;
import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.pipeline.format.Units;
import io.ringlab.sim.api.Simulator;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.RuntimeRowDTO;
import io.ringlab.sim.api.dto.SeriesDTO;

/**
 * The live views (pools, cache, CPU table, queues with BQL, latency percentiles), the exports through the File menu
 * and the series streamed to disk, each compared with a headless run of the same file and seed through the same
 * Simulator service.
 */
class LiveViewsGuiTest extends GuiTest {
    private Path home() {
        return Path.of(context.getProperty("ringlab.home"));
    }

    private String screenshots() {
        return context.getProperty("ringlab.screenshots");
    }

    private Path target() throws Exception {
        Path dir = Path.of(screenshots()).getParent().resolve("exports");
        Files.createDirectories(dir);
        return dir;
    }

    /** Runs {@code file} in the console with a duration and seed, and headless with the same; returns both results. */
    private RunResultDTO[] runBoth(Path file, String duration, long seed) throws Exception {
        shell = console.open(display, file);
        gui.find(shell, ConsoleService.ID_DURATION, Text.class).setText(duration);
        gui.find(shell, ConsoleService.ID_SEED, Text.class).setText(Long.toString(seed));
        gui.click(gui.find(shell, ConsoleService.ID_RUN, Button.class));
        Text summary = gui.find(shell, ConsoleService.ID_SUMMARY, Text.class);
        gui.until("the run to end", () -> summary.getData(ConsoleService.RESULT_DATA) != null);
        RunResultDTO shown = (RunResultDTO) summary.getData(ConsoleService.RESULT_DATA);
        assertEquals("FINISHED", shown.state, shown.error);
        RunOptionsDTO o = new RunOptionsDTO();
        o.durationPicos = Units.parsePicos(duration);
        o.seed = seed;
        RunResultDTO headless = simulator.prepare(PipelineReader.read(file), o).run();
        assertEquals(headless.elements, shown.elements, "the console's run differs from the headless one");
        return new RunResultDTO[] { shown, headless };
    }

    private static double[] column(SeriesDTO s, String name) {
        int c = s.columns.indexOf(name);
        assertTrue(c > 0, name + " not in " + s.columns);
        return s.rows.stream().mapToDouble(r -> r[c]).toArray();
    }

    private static void assertSeries(Chart chart, SeriesDTO s, String name) {
        ISeries<?> line = chart.getSeriesSet().getSeries(name);
        assertNotNull(line, name + " is not in " + Arrays.stream(chart.getSeriesSet().getSeries()).map(ISeries::getId).toList());
        assertArrayEquals(column(s, name), line.getYSeries(), name);
        assertArrayEquals(s.rows.stream().mapToDouble(r -> r[0] * 1e3).toArray(), line.getXSeries(), name + " times");
    }

    private static List<List<String>> rows(Table t) {
        List<List<String>> out = new ArrayList<>();
        for (TableItem i : t.getItems()) {
            List<String> cells = new ArrayList<>();
            for (int c = 0; c < t.getColumnCount(); c++) {
                cells.add(i.getText(c));
            }
            out.add(cells);
        }
        return out;
    }

    private void showTab(String text) {
        TabFolder tabs = gui.find(shell, ConsoleService.ID_CHART_TABS, TabFolder.class);
        int i = Arrays.stream(tabs.getItems()).map(t -> t.getText()).toList().indexOf(text);
        assertTrue(i >= 0, "no chart tab " + text);
        tabs.setSelection(i);
        gui.settle();
    }

    private MenuItem menuItem(String id) {
        return gui.menuItem(shell, id);
    }

    /** Chooses {@code file} through the automation hook (the save dialog's stand-in) and clicks the export item. */
    private void export(String id, Path file) {
        MenuItem item = menuItem(id);
        item.setData(ConsoleService.FILE_DATA, file.toString());
        assertTrue(item.isEnabled(), id + " is disabled");
        item.notifyListeners(SWT.Selection, new Event());
        gui.settle();
    }

    /**
     * mlx5-bulk-drop has buffer pools and a cache model: the pool occupancy and cache charts hold exactly the headless
     * run's {@code pool:...} and {@code cpuN.l1dHitPercent} series, the CPU table the result's runtime rows as the
     * command line prints them. The exports write a PNG of the chart tab shown (at its size), the series as CSV and the
     * result as JSON, and the streamed CSV under results/ equals the exported one; an unwritable file opens a dialog
     * naming it.
     */
    @Test
    void poolsCacheAndCpuViewsHoldTheRunsDataAndTheExportsAndStreamMatchIt() throws Exception {
        RunResultDTO[] both = runBoth(home().resolve("pipelines/mlx5-bulk-drop.pipeline"), "2ms", 3);
        RunResultDTO shown = both[0], headless = both[1];
        SeriesDTO s = headless.series;

        Chart pools = gui.find(shell, ConsoleService.ID_CHART_POOLS, Chart.class);
        List<String> poolColumns = s.columns.stream().filter(c -> c.startsWith("pool:") && (c.endsWith(".inUse") || c.endsWith(".available")))
                .toList();
        assertEquals(8, poolColumns.size(), poolColumns.toString()); // gen.pool, eth0.rx, eth0.wire, eth0.gso
        assertEquals(poolColumns, Arrays.stream(pools.getSeriesSet().getSeries()).map(ISeries::getId).toList());
        for (String c : poolColumns) {
            assertSeries(pools, s, c);
        }
        assertTrue(Arrays.stream(column(s, "pool:eth0.rx.inUse")).max().orElse(0) > 0, "the rx pool was used");
        Chart cache = gui.find(shell, ConsoleService.ID_CHART_CACHE, Chart.class);
        assertSeries(cache, s, "cpu0.l1dHitPercent");
        assertSeries(cache, s, "cpu1.l1dHitPercent");

        Table cpu = gui.find(shell, ConsoleService.ID_CPU_TABLE, Table.class);
        List<List<String>> expected = new ArrayList<>();
        for (RuntimeRowDTO r : headless.runtime) {
            expected.add(List.of(r.element, String.format(Locale.ROOT, "%,d", r.calls), String.format(Locale.ROOT, "%,d", r.packets),
                    String.format(Locale.ROOT, "%,d", r.cycles), String.format(Locale.ROOT, "%.1f", r.cyclesPerPacket),
                    String.format(Locale.ROOT, "%.2f", r.cpuNanosPerPacket)));
        }
        assertEquals(1, expected.size(), "mlx5-bulk-drop charges CPU in eth0 only");
        assertEquals(expected, rows(cpu));

        // exports: the Pools tab as PNG, the series as CSV, the result as JSON
        showTab("Pools");
        Path dir = target();
        Path png = dir.resolve("pools.png"), csv = dir.resolve("series.csv"), json = dir.resolve("result.json");
        for (Path p : List.of(png, csv, json)) {
            Files.deleteIfExists(p);
        }
        export(ConsoleService.ID_MENU_EXPORT_PNG, png);
        assertTrue(Files.exists(png), "no " + png);
        ImageData[] img = new ImageLoader().load(new ByteArrayInputStream(Files.readAllBytes(png)));
        Point size = pools.getParent().getSize();
        assertEquals(size.x, img[0].width, "PNG width");
        assertEquals(size.y, img[0].height, "PNG height");
        assertTrue(size.x > 200 && size.y > 100, "the chart tab is " + size);

        export(ConsoleService.ID_MENU_EXPORT_CSV, csv);
        List<String> lines = Files.readAllLines(csv);
        assertEquals(String.join(",", s.columns), lines.get(0));
        assertEquals(s.rows.size() + 1, lines.size());
        double[] last = Arrays.stream(lines.get(lines.size() - 1).split(",", -1)).mapToDouble(Double::parseDouble).toArray();
        assertArrayEquals(s.rows.get(s.rows.size() - 1), last);

        export(ConsoleService.ID_MENU_EXPORT_JSON, json);
        JsonObject o = JsonParser.parseString(Files.readString(json)).getAsJsonObject();
        JsonObject headline = o.getAsJsonObject("headline");
        assertEquals(headless.headline.metric, headline.get("metric").getAsString());
        assertEquals(headless.headline.value, headline.get("value").getAsDouble());
        assertEquals(headless.headline.unit, headline.get("unit").getAsString());
        assertEquals(3, o.get("seed").getAsLong());
        assertEquals("FINISHED", o.get("state").getAsString());
        assertEquals(headless.runtime.get(0).calls, o.getAsJsonArray("runtime").get(0).getAsJsonObject().get("calls").getAsLong());
        assertEquals(s.rows.size(), o.getAsJsonObject("series").getAsJsonArray("rows").size());
        assertEquals(shown.wallSeconds, o.get("wallSeconds").getAsDouble(), "the JSON is the shown run's result");

        // the series streamed to results/ while the run went on: the same CSV
        Text summary = gui.find(shell, ConsoleService.ID_SUMMARY, Text.class);
        gui.until("the stream to close", () -> summary.getData(ConsoleService.STREAM_DATA) != null);
        Path streamed = Path.of((String) summary.getData(ConsoleService.STREAM_DATA));
        assertEquals(Path.of(context.getProperty("ringlab.console.results")).toAbsolutePath().normalize(),
                streamed.getParent().toAbsolutePath().normalize(), "the folder of ringlab.console.results (results/ of ringlab.home"
                        + " without it)");
        assertTrue(streamed.getFileName().toString().matches("mlx5-bulk-drop-\\d{8}-\\d{6}(-\\d+)?\\.csv"), streamed.toString());
        assertEquals(Files.readString(csv), Files.readString(streamed));
        Text log = gui.find(shell, ConsoleService.ID_LOG, Text.class);
        assertTrue(log.getText().contains("series streamed to " + streamed + ": " + s.rows.size() + " rows"), log.getText());
        Files.delete(streamed); // results/ is the user's; leave only what the test needs

        // an unwritable file: a dialog naming it, no stack trace
        Path nowhere = dir.resolve("no-such-folder").resolve("series.csv");
        export(ConsoleService.ID_MENU_EXPORT_CSV, nowhere);
        gui.until("an error dialog", () -> !gui.errorDialogs().isEmpty());
        String message = Gui.texts(gui.errorDialogs().get(0));
        assertTrue(message.contains(nowhere.toString()), message);
        assertTrue(!message.contains("\tat "), message);
        gui.errorDialogs().get(0).close();

        gui.screenshot(shell, screenshots(), "console-pools");
        showTab("CPU");
        gui.screenshot(shell, screenshots(), "console-cpu");
    }

    /**
     * netdev-bql with BQL on: the queue view holds the qdisc backlog and the device queue in packets and BQL's limit and
     * in-flight bytes, each exactly as the headless run sampled them; the latency table shows the sink's latency
     * histogram as the result reports it and the latency chart ends at the result's percentiles.
     */
    @Test
    void queuesWithBqlAndLatencyPercentilesHoldTheRunsData() throws Exception {
        String text = Files.readString(home().resolve("pipelines/netdev-bql.pipeline")).replace("bql = false", "bql = true");
        assertTrue(text.contains("bql = true"), "netdev-bql no longer sets bql = false");
        Path file = Files.writeString(target().resolve("netdev-bql-on.pipeline"), text);
        RunResultDTO[] both = runBoth(file, "20ms", 7);
        RunResultDTO headless = both[1];
        SeriesDTO s = headless.series;

        Chart queues = gui.find(shell, ConsoleService.ID_CHART_QUEUES, Chart.class);
        // pfifo_fast's bands, the device queue and BQL of eth0, and the ping's reverse path (back, eth1; its BQL gauges
        // read 0 without BQL, sampled for the canvas)
        List<String> queueSeries = List.of("q.backlog", "q.backlogBand0", "q.backlogBand1", "q.backlogBand2", "eth0.ringUsed",
                "back.backlog", "eth1.ringUsed", "eth0.limit", "eth0.inflight", "eth1.inflight", "eth1.limit");
        assertEquals(queueSeries, Arrays.stream(queues.getSeriesSet().getSeries()).map(ISeries::getId).toList());
        for (String c : queueSeries) {
            assertSeries(queues, s, c);
        }
        assertEquals(queueSeries.size(), Arrays.stream(queues.getSeriesSet().getSeries())
                .map(x -> ((org.eclipse.swtchart.ILineSeries<?>) x).getLineColor().getRGB()).distinct().count(),
                "each series its own colour (q.backlog and eth0.inflight were the same blue)");
        assertEquals(0, queues.getSeriesSet().getSeries("q.backlog").getYAxisId(), "packets on the left axis");
        assertEquals(1, queues.getSeriesSet().getSeries("eth0.limit").getYAxisId(), "bytes on the right axis");
        assertTrue(Arrays.stream(column(s, "q.backlog")).max().orElse(0) > 0, "BQL moved a backlog into the qdisc");

        Map<String, Double> sink = headless.elements.get("sink");
        Table latency = gui.find(shell, ConsoleService.ID_LATENCY_TABLE, Table.class);
        List<String> row = List.of("sink", "latency", "us", String.format(Locale.ROOT, "%,d", sink.get("latencyCount").longValue()),
                f(sink.get("latencyMinMicros")), f(sink.get("latencyP50Micros")), f(sink.get("latencyP90Micros")),
                f(sink.get("latencyP99Micros")), f(sink.get("latencyMaxMicros")), f(sink.get("latencyMeanMicros")));
        Map<String, Double> ping = headless.elements.get("ping");
        List<String> pingRow = List.of("ping", "rtt", "ms", String.format(Locale.ROOT, "%,d", ping.get("rttCount").longValue()),
                f(ping.get("rttMinMillis")), f(ping.get("rttP50Millis")), f(ping.get("rttP90Millis")),
                f(ping.get("rttP99Millis")), f(ping.get("rttMaxMillis")), f(ping.get("rttMeanMillis")));
        assertEquals(List.of(pingRow, row), rows(latency), "every histogram of the run, as the result reports it");
        Chart lat = gui.find(shell, ConsoleService.ID_CHART_LATENCY, Chart.class);
        for (String p : List.of("P50", "P90", "P99")) {
            ISeries<?> line = lat.getSeriesSet().getSeries("sink.latency " + p);
            assertNotNull(line, "no sink.latency " + p);
            double[] y = line.getYSeries();
            assertEquals(sink.get("latency" + p + "Micros"), y[y.length - 1], 1e-9, p + " at the end");
            double[] x = line.getXSeries();
            assertEquals(20.0, x[x.length - 1], 1e-9, "the last point is the end of the run, in ms");
        }
        // issue 20, section 2: each latency source over time and as a CDF, in ms: the ping's every echo at its time, the
        // sink's P50 and P99 per interval, each one's distribution from the result
        Chart time = gui.find(shell, ConsoleService.ID_CHART_LATENCY_TIME, Chart.class);
        org.eclipse.swtchart.ISeries<?> echoes = time.getSeriesSet().getSeries("ping.rttMillis");
        assertNotNull(echoes, "no ping.rttMillis over time");
        assertArrayEquals(s.points.get("ping.rttMillis").values, echoes.getYSeries(), "each echo's RTT, ms");
        assertArrayEquals(Arrays.stream(s.points.get("ping.rttMillis").timeSeconds).map(t -> t * 1e3).toArray(),
                echoes.getXSeries(), "at its time, ms");
        double[] p50 = Arrays.stream(column(s, "sink.latencyP50Micros")).filter(v -> !Double.isNaN(v)).map(v -> v * 1e-3).toArray();
        assertArrayEquals(p50, time.getSeriesSet().getSeries("sink.latencyP50Micros").getYSeries(), 1e-12,
                "the sink's P50 per interval, in ms");
        Chart cdf = gui.find(shell, ConsoleService.ID_CHART_LATENCY_CDF, Chart.class);
        for (String source : List.of("ping.rttMillis", "sink.latencyMicros")) {
            org.eclipse.swtchart.ISeries<?> line = cdf.getSeriesSet().getSeries(source);
            assertNotNull(line, "no CDF of " + source);
            List<double[]> d = headless.distributions.get(source);
            double f = source.endsWith("Micros") ? 1e-3 : 1;
            assertArrayEquals(d.stream().mapToDouble(x -> x[0] * f).toArray(), line.getXSeries(), 1e-12, source + " values, ms");
            assertArrayEquals(d.stream().mapToDouble(x -> x[1]).toArray(), line.getYSeries(), source + " fractions");
            assertEquals(1.0, line.getYSeries()[line.getYSeries().length - 1], source + " ends at 1");
        }
        assertTrue(cdf.getAxisSet().getXAxis(0).isLogScaleEnabled(), "microseconds and milliseconds on a log axis");
        showTab("Queues");
        gui.screenshot(shell, screenshots(), "console-queues");
        showTab("Latency");
        gui.screenshot(shell, screenshots(), "console-latency");
    }

    private static String f(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }
}

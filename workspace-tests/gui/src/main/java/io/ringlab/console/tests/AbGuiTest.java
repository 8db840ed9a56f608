package io.ringlab.console.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.ImageLoader;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.ProgressBar;
import org.eclipse.swt.widgets.TabFolder;
import org.eclipse.swt.widgets.TabItem;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.swt.widgets.Text;
import org.eclipse.swtchart.Chart;
import org.eclipse.swtchart.ISeries;
import org.junit.jupiter.api.Test;
import org.osgi.test.common.annotation.InjectService;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import io.ringlab.console.api.ConsoleService;
import io.ringlab.experiment.api.ExperimentService;
import io.ringlab.experiment.api.dto.ComparisonDTO;
import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.experiment.api.dto.MetricSummaryDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.experiment.api.dto.VariantDTO;
import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.dto.ValueDTO;

/**
 * The A/B panel: the BQL comparison of {@code pipelines/netdev-bql.pipeline} (bql = false as the file has it, against
 * bql = true; 2 seeds, 20 ms), made in the form from the editor's pipeline and opened as a file, run from the panel and
 * shown with the same means, intervals and differences as {@link ExperimentService#run} gives directly (exactly: the
 * runs are deterministic); the exports; Cancel on a longer experiment.
 */
class AbGuiTest extends GuiTest {
    /** What the comparison looks at: where the queue sits (device or qdisc) and what arrives. */
    static final List<String> METRICS = List.of("eth0.ringUsed", "q.backlog", "sink.rxPackets");

    /** Writes every field, nulls too, and doubles in their shortest exact form. */
    private static final Gson GSON = new GsonBuilder().serializeNulls().serializeSpecialFloatingPointValues().create();

    @InjectService
    ExperimentService experiments;

    @InjectService
    io.ringlab.experiment.api.ResultsService results;

    private Path home() {
        return Path.of(context.getProperty("ringlab.home"));
    }

    private Path pipelineFile() {
        return home().resolve("pipelines/netdev-bql.pipeline").toAbsolutePath().normalize();
    }

    /** @return the experiment the form makes, built by hand: A the pipeline as it is, B with eth0.bql=true */
    private ExperimentDTO byHand() throws Exception {
        ExperimentDTO e = new ExperimentDTO();
        e.name = "netdev-bql-ab";
        e.pipeline = PipelineReader.read(pipelineFile());
        e.pipelineFile = pipelineFile().toString();
        e.seeds.addAll(List.of(1L, 2L));
        e.durationPicos = 20_000_000_000L;
        METRICS.forEach(m -> e.metrics.add(new ValueDTO(m, 0, 0)));
        VariantDTO a = new VariantDTO();
        a.name = "A";
        VariantDTO b = new VariantDTO();
        b.name = "B";
        b.overrides.add("eth0.bql=true");
        e.variants.addAll(List.of(a, b));
        return e;
    }

    private <W extends org.eclipse.swt.widgets.Widget> W find(String id, Class<W> type) {
        return gui.find(shell, id, type);
    }

    private void showAbTab() {
        TabFolder tabs = find(ConsoleService.ID_TABS, TabFolder.class);
        tabs.setSelection(3);
        assertEquals("A/B", tabs.getItem(3).getText());
    }

    private static void select(org.eclipse.swt.widgets.List list, List<String> items) {
        list.deselectAll();
        for (String item : items) {
            int i = Arrays.asList(list.getItems()).indexOf(item);
            assertTrue(i >= 0, item + " is not offered: " + Arrays.toString(list.getItems()));
            list.select(i);
        }
        list.notifyListeners(SWT.Selection, new Event());
    }

    /** Runs what the panel holds and waits for its result. */
    private ExperimentResultDTO runInThePanel() {
        Label status = find(ConsoleService.ID_AB_STATUS, Label.class);
        status.setData(ConsoleService.AB_RESULT_DATA, null);
        gui.click(find(ConsoleService.ID_AB_RUN, Button.class));
        assertTrue(find(ConsoleService.ID_AB_CANCEL, Button.class).isEnabled(), "Cancel while it runs");
        gui.until("the A/B result", () -> status.getData(ConsoleService.AB_RESULT_DATA) != null);
        return (ExperimentResultDTO) status.getData(ConsoleService.AB_RESULT_DATA);
    }

    /**
     * Asserts that the panel shows exactly the direct run's statistics: the result it holds, each chart's series (one per
     * variant: the mean, the interval as error bar) and each row of the table.
     */
    private void assertShows(ExperimentResultDTO direct, ExperimentResultDTO shown) {
        assertEquals(direct.metrics, shown.metrics);
        assertEquals(List.copyOf(direct.variants.keySet()), List.copyOf(shown.variants.keySet()));
        direct.variants.forEach((v, byMetric) -> byMetric.forEach((m, s) -> assertEqualFields(s, shown.variants.get(v).get(m), v + " " + m)));
        assertEquals(direct.comparisons.size(), shown.comparisons.size());
        for (int i = 0; i < direct.comparisons.size(); i++) {
            assertEqualFields(direct.comparisons.get(i), shown.comparisons.get(i), direct.comparisons.get(i).metric);
        }
        for (int i = 0; i < direct.runs.size(); i++) {
            RunSummaryDTO d = direct.runs.get(i), s = shown.runs.get(i);
            assertEquals(List.of(d.variant, d.seed, d.state, d.metrics, d.events, d.packets),
                    List.of(s.variant, s.seed, s.state, s.metrics, s.events, s.packets));
        }

        for (String m : direct.metrics) {
            Chart c = find(ConsoleService.AB_CHART_PREFIX + m, Chart.class);
            ISeries<?>[] series = c.getSeriesSet().getSeries();
            assertEquals(List.copyOf(direct.variants.keySet()), Arrays.stream(series).map(ISeries::getId).toList(),
                    "one series per variant in " + m);
            for (ISeries<?> s : series) {
                MetricSummaryDTO d = direct.variants.get(s.getId()).get(m);
                assertEquals(d.mean, s.getYSeries()[0], m + " " + s.getId() + ": the point is the mean");
                assertEquals(d.n >= 2, s.getYErrorBar().isVisible(), m + " " + s.getId() + ": an interval from two seeds on");
                if (d.n >= 2) {
                    assertEquals(d.mean - d.ci95Low, s.getYErrorBar().getMinusErrors()[0], m + " " + s.getId() + ": the interval's low end");
                    assertEquals(d.ci95High - d.mean, s.getYErrorBar().getPlusErrors()[0], m + " " + s.getId() + ": the interval's high end");
                }
            }
        }

        Table table = find(ConsoleService.ID_AB_TABLE, Table.class);
        List<Object> expected = new ArrayList<>();
        for (String m : direct.metrics) {
            direct.variants.values().forEach(byMetric -> expected.add(byMetric.get(m)));
            direct.comparisons.stream().filter(c -> c.metric.equals(m)).forEach(expected::add);
        }
        assertEquals(expected.size(), table.getItemCount());
        for (int i = 0; i < expected.size(); i++) {
            TableItem item = table.getItem(i);
            Object row = item.getData(ConsoleService.AB_ROW_DATA);
            if (expected.get(i) instanceof ComparisonDTO d) {
                ComparisonDTO c = (ComparisonDTO) row;
                assertEquals(List.of(d.metric, d.a, d.b, d.n, String.valueOf(d.difference), String.valueOf(d.ci95Low),
                        String.valueOf(d.ci95High), String.valueOf(d.pValue), String.valueOf(d.note)), List.of(c.metric, c.a, c.b, c.n,
                        String.valueOf(c.difference), String.valueOf(c.ci95Low), String.valueOf(c.ci95High),
                        String.valueOf(c.pValue), String.valueOf(c.note)));
                assertEquals(d.b + " - " + d.a, item.getText(1));
                assertEquals(d.difference, Double.parseDouble(item.getText(3).replace(",", "")), Math.abs(d.difference) * 1e-5 + 1e-3,
                        "the difference as shown: " + item.getText(3));
                assertEquals(String.valueOf(d.n), item.getText(2));
            } else {
                MetricSummaryDTO d = (MetricSummaryDTO) expected.get(i), s = (MetricSummaryDTO) row;
                assertEquals(List.of(d.n, String.valueOf(d.mean), String.valueOf(d.ci95Low), String.valueOf(d.ci95High)),
                        List.of(s.n, String.valueOf(s.mean), String.valueOf(s.ci95Low), String.valueOf(s.ci95High)));
                assertEquals(d.mean, Double.parseDouble(item.getText(3).replace(",", "")), Math.abs(d.mean) * 1e-5 + 1e-3,
                        "the mean as shown: " + item.getText(3));
            }
        }
    }

    /** Asserts that two DTOs (of two runs, so not the same object) are equal field by field, doubles exactly. */
    private static void assertEqualFields(Object expected, Object actual, String what) {
        assertEquals(GSON.toJson(expected), GSON.toJson(actual), what);
    }

    @Test
    void anExperimentMadeFromTheEditorsPipelineShowsWhatTheServiceGivesDirectly() throws Exception {
        shell = console.open(display, pipelineFile()); // at the default size: the result must be legible there
        showAbTab();
        // the result's table before any result: what an undrawn row looks like
        TabFolder resultTabs = find(ConsoleService.ID_CHART_TABS, TabFolder.class);
        resultTabs.setSelection(Arrays.stream(resultTabs.getItems()).map(TabItem::getText).toList().indexOf("A/B"));
        gui.pumpFor(300);
        Table table = find(ConsoleService.ID_AB_TABLE, Table.class);
        ImageData blank = gui.grab(table);
        gui.click(find(ConsoleService.ID_AB_FROM_EDITOR, Button.class));
        org.eclipse.swt.widgets.List metrics = find(ConsoleService.ID_AB_METRICS, org.eclipse.swt.widgets.List.class);
        gui.until("the metrics the pipeline reports", () -> metrics.isEnabled() && metrics.getItemCount() > METRICS.size());
        assertEquals(List.of("ping.rttP50Millis"), Arrays.asList(metrics.getSelection()), "the pipeline's headline is chosen");
        Label message = find(ConsoleService.ID_AB_MESSAGE, Label.class);
        assertTrue(message.getText().startsWith("Variant B: give at least one"), message.getText());

        find(ConsoleService.ID_AB_SEEDS, Text.class).setText("two");
        assertTrue(message.getText().contains("Seeds: 'two' is not a whole number"), message.getText());
        find(ConsoleService.ID_AB_SEEDS, Text.class).setText("2");
        find(ConsoleService.ID_AB_DURATION, Text.class).setText("20ms");
        find(ConsoleService.ID_AB_OVERRIDES, Text.class).setText("eth0.bql=true");
        select(metrics, METRICS);
        assertEquals("", message.getText());

        ExperimentResultDTO shown = runInThePanel();
        ExperimentResultDTO direct = experiments.run(byHand(), 2, null);
        assertFalse(shown.cancelled);
        assertEquals(4, shown.runs.size());
        assertShows(direct, shown);
        // BQL moves the queue from the device into the qdisc
        ComparisonDTO ring = shown.comparisons.get(0);
        assertEquals("eth0.ringUsed", ring.metric);
        assertTrue(ring.difference < 0, "ringUsed B - A: " + ring.difference);
        ProgressBar progress = find(ConsoleService.ID_AB_PROGRESS, ProgressBar.class);
        assertEquals(4, progress.getSelection());
        assertEquals(4, progress.getMaximum());
        assertEquals(List.of("no problems: every run counted, every metric was reported"),
                Arrays.asList(find(ConsoleService.ID_AB_PROBLEMS, org.eclipse.swt.widgets.List.class).getItems()));
        TabFolder chartTabs = find(ConsoleService.ID_CHART_TABS, TabFolder.class);
        assertEquals("A/B", chartTabs.getItem(chartTabs.getSelectionIndex()).getText(), "the result is shown");
        gui.pumpFor(1000);
        // issue 20, section 4: at the default size every row is within the table's visible area, and drawn (its pixels
        // differ from the blank table's: the failure once seen was rows present in the widget and nothing on screen);
        // each chart is at its legible size; the legend names the variants
        ImageData drawn = gui.grab(table);
        org.eclipse.swt.graphics.Rectangle area = table.getClientArea();
        for (int i = 0; i < table.getItemCount(); i++) {
            org.eclipse.swt.graphics.Rectangle row = table.getItem(i).getBounds();
            assertTrue(row.y >= area.y && row.y + row.height <= area.y + area.height, "row " + i + " at " + row
                    + " is outside the table's visible area " + area);
            org.eclipse.swt.graphics.Rectangle onScreen = new org.eclipse.swt.graphics.Rectangle(0, row.y + table.getBorderWidth(),
                    table.getSize().x, row.height);
            int differ = differing(blank, drawn, onScreen);
            assertTrue(differ > 30, "row " + i + " (" + table.getItem(i).getText(0) + ") is not drawn: " + differ
                    + " pixels differ from the blank table in " + onScreen);
        }
        gui.screenshot(shell, context.getProperty("ringlab.screenshots"), "console-ab");
        TabFolder parts = find(ConsoleService.ID_AB_PARTS, TabFolder.class);
        assertEquals("Table", parts.getItem(parts.getSelectionIndex()).getText(), "the numbers first");
        parts.setSelection(1);
        parts.notifyListeners(SWT.Selection, new Event());
        gui.pumpFor(300);
        for (String m : METRICS.subList(0, 1)) {
            org.eclipse.swt.graphics.Point size = find(ConsoleService.AB_CHART_PREFIX + m, Chart.class).getSize();
            assertTrue(size.x >= 200 && size.y >= 150, m + "'s chart is " + size);
        }
        for (String v : List.of("A", "B")) {
            assertEquals(v, find(ConsoleService.AB_LEGEND_PREFIX + v, Label.class).getText());
        }
        Label page = find(ConsoleService.ID_AB_PAGE, Label.class);
        int shownCharts = (int) METRICS.stream().filter(m -> find(ConsoleService.AB_CHART_PREFIX + m, Chart.class).isVisible()).count();
        assertTrue(shownCharts >= 1, "a page shows at least one chart");
        assertEquals("charts 1" + (shownCharts > 1 ? "-" + shownCharts : "") + " of 3", page.getText());
        if (shownCharts < METRICS.size()) { // the next page shows the others
            Button next = find(ConsoleService.ID_AB_PAGE_NEXT, Button.class);
            assertTrue(next.isEnabled());
            gui.click(next);
            assertTrue(find(ConsoleService.AB_CHART_PREFIX + METRICS.get(METRICS.size() - 1), Chart.class).isVisible(),
                    "the last chart on the last page: " + page.getText());
        }
        gui.screenshot(shell, context.getProperty("ringlab.screenshots"), "console-ab-charts");
    }

    /** @return how many pixels of {@code area} differ between two grabs of the same control */
    private static int differing(ImageData a, ImageData b, org.eclipse.swt.graphics.Rectangle area) {
        int n = 0;
        for (int y = Math.max(0, area.y); y < Math.min(Math.min(a.height, b.height), area.y + area.height); y++) {
            for (int x = Math.max(0, area.x); x < Math.min(Math.min(a.width, b.width), area.x + area.width); x++) {
                if (!a.palette.getRGB(a.getPixel(x, y)).equals(b.palette.getRGB(b.getPixel(x, y)))) {
                    n++;
                }
            }
        }
        return n;
    }

    @Test
    void anExperimentFileOpensRunsAndExportsAsTheCommandLineWritesIt() throws Exception {
        Path dir = home().resolve("workspace-tests/gui/target/ab");
        Files.createDirectories(dir);
        Path file = dir.resolve("netdev-bql-ab.experiment");
        Files.writeString(file, String.format(Locale.ROOT, """
                # the BQL comparison of netdev-bql, as AbGuiTest's form makes it
                pipeline = "%s"
                seeds = 2
                duration = 20ms
                metrics = [eth0.ringUsed, q.backlog, sink.rxPackets]
                variant A
                variant B { set eth0.bql = true }
                """, pipelineFile()));
        shell = console.open(display, null);
        gui.menuItem(shell, ConsoleService.ID_MENU_OPEN_EXPERIMENT).setData(ConsoleService.FILE_DATA, file.toString());
        gui.menuItem(shell, ConsoleService.ID_MENU_OPEN_EXPERIMENT).notifyListeners(SWT.Selection, new Event());
        Text source = find(ConsoleService.ID_AB_SOURCE, Text.class);
        assertTrue(source.getText().contains("variant B: set eth0.bql=true"), source.getText());
        Text seedsField = find(ConsoleService.ID_AB_SEEDS, Text.class), durationField = find(ConsoleService.ID_AB_DURATION, Text.class);
        assertFalse(find(ConsoleService.ID_AB_OVERRIDES, Text.class).isEnabled(), "the file's variants are the file's");
        assertTrue(seedsField.isEnabled() && seedsField.getText().isEmpty(), "its seeds may be overridden; empty: the file's");
        assertEquals("2 (the file's: [1, 2])", seedsField.getMessage());
        assertEquals("20ms (the file's)", durationField.getMessage());

        ExperimentResultDTO shown = runInThePanel();
        ExperimentResultDTO direct = experiments.run(experiments.read(file), 1, null);
        assertShows(direct, shown);
        // the same experiment as the form's, so the same figures
        assertEqualFields(experiments.run(byHand(), 2, null).comparisons, shown.comparisons, "file and form");

        gui.pumpFor(300); // a user sees the charts before exporting them: SWTChart lays its axes out when it paints
        Path json = dir.resolve("ab.json"), csv = dir.resolve("ab.csv"), png = dir.resolve("ab.png");
        for (Path p : List.of(json, csv, png)) {
            Files.deleteIfExists(p);
        }
        export(ConsoleService.ID_AB_EXPORT_JSON, json);
        export(ConsoleService.ID_AB_EXPORT_CSV, csv);
        export(ConsoleService.ID_AB_EXPORT_PNG, png);
        JsonObject o = JsonParser.parseString(Files.readString(json)).getAsJsonObject();
        assertEquals(shown.comparisons.get(0).difference, o.getAsJsonArray("comparisons").get(0).getAsJsonObject().get("difference")
                .getAsDouble());
        assertEquals(shown.variants.get("B").get("q.backlog").ci95High, o.getAsJsonObject("variants").getAsJsonObject("B")
                .getAsJsonObject("q.backlog").get("ci95High").getAsDouble());
        assertFalse(o.get("cancelled").getAsBoolean());
        assertTrue(o.get("ringlabVersion").isJsonPrimitive(), "the ExperimentResultDTO's fields");
        List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        assertEquals("variant,seed,metric,value,state,invariants,counted", lines.get(0));
        assertEquals(1 + 4 * METRICS.size(), lines.size());
        assertEquals("A,1,eth0.ringUsed," + shown.runs.get(0).metrics.get("eth0.ringUsed") + ",FINISHED,ok,true", lines.get(1));
        ImageData[] img = new ImageLoader().load(new ByteArrayInputStream(Files.readAllBytes(png)));
        assertTrue(img[0].width > 100 && img[0].height > 100, img[0].width + "x" + img[0].height);
        assertTrue(gui.errorDialogs().isEmpty(), "no error dialog");

        // issue 20, section 4: the file's seeds and duration overridden in the panel: the service's run of the file's
        // experiment with one seed of 10 ms
        seedsField.setText("1");
        durationField.setText("10ms");
        ExperimentResultDTO overridden = runInThePanel();
        ExperimentDTO changed = experiments.read(file);
        changed.seeds = new ArrayList<>(List.of(1L));
        changed.durationPicos = 10_000_000_000L;
        assertEquals(2, overridden.runs.size(), "2 variants x 1 seed");
        assertShows(experiments.run(changed, 1, null), overridden);
        assertTrue(find(ConsoleService.ID_AB_SOURCE, Text.class).getText().contains("10ms"),
                find(ConsoleService.ID_AB_SOURCE, Text.class).getText());
        seedsField.setText("none");
        gui.click(find(ConsoleService.ID_AB_RUN, Button.class));
        gui.until("an error dialog", () -> !gui.errorDialogs().isEmpty());
        assertTrue(Gui.texts(gui.errorDialogs().get(0)).contains("Seeds: 'none' is not a whole number"),
                Gui.texts(gui.errorDialogs().get(0)));
        gui.errorDialogs().get(0).close();
    }

    /**
     * Issue 20, section 4: a sweep experiment file run from the panel equals the service's run of the same file (what
     * {@code ringlab ab} runs): every point's statistics; its charts draw each metric against the swept ring size, a
     * line per variant with the points' means and intervals; its table a row per point, variant and comparison.
     */
    @Test
    void aSweepRunFromThePanelEqualsTheServicesRunOfTheFile() throws Exception {
        Path file = sweepFile();
        shell = console.open(display, null);
        gui.menuItem(shell, ConsoleService.ID_MENU_OPEN_EXPERIMENT).setData(ConsoleService.FILE_DATA, file.toString());
        gui.menuItem(shell, ConsoleService.ID_MENU_OPEN_EXPERIMENT).notifyListeners(SWT.Selection, new Event());
        ExperimentResultDTO shown = runInThePanel();
        ExperimentResultDTO direct = experiments.run(experiments.read(file), 1, null);
        assertEquals(12, shown.runs.size(), "3 points x 2 variants x 2 seeds");
        assertEquals(List.of("eth0.ring"), shown.parameters);
        String outcome = find(ConsoleService.ID_AB_STATUS, Label.class).getText();
        assertTrue(outcome.contains("12 of 12 runs counted, 3 points x 2 variants x 2 seeds"), outcome);
        assertEqualFields(direct.points, shown.points, "every point's statistics");
        for (String m : List.of("q.backlog", "ping.rttP50Millis")) {
            Chart c = find(ConsoleService.AB_CHART_PREFIX + m, Chart.class);
            assertEquals(List.of("A", "B"), Arrays.stream(c.getSeriesSet().getSeries()).map(ISeries::getId).toList(), m);
            assertEquals("eth0.ring", c.getAxisSet().getXAxis(0).getTitle().getText());
            for (ISeries<?> line : c.getSeriesSet().getSeries()) {
                assertArrayEquals(new double[] { 16, 64, 256 }, line.getXSeries(), m + " " + line.getId());
                double[] means = direct.points.stream().mapToDouble(p -> p.variants.get(line.getId()).get(m).mean).toArray();
                assertArrayEquals(means, line.getYSeries(), m + " " + line.getId() + ": each point's mean");
                double[] minus = direct.points.stream().mapToDouble(p -> {
                    MetricSummaryDTO d = p.variants.get(line.getId()).get(m);
                    return d.mean - d.ci95Low;
                }).toArray();
                assertArrayEquals(minus, line.getYErrorBar().getMinusErrors(), m + " " + line.getId() + ": the intervals");
            }
        }
        assertTrue(find(ConsoleService.AB_CHART_PREFIX + "q.backlog", Chart.class).getAxisSet().getXAxis(0).isLogScaleEnabled(),
                "16 to 256: a log axis");
        assertBandsDrawn(find(ConsoleService.AB_CHART_PREFIX + "q.backlog", Chart.class));
        assertFalse(find(ConsoleService.ID_AB_SWEEP_X, org.eclipse.swt.widgets.Combo.class).getParent().isVisible(),
                "one parameter swept: no choice of x");
        Table table = find(ConsoleService.ID_AB_TABLE, Table.class);
        assertEquals(3 * 2 * 3, table.getItemCount(), "per point and metric: A, B, B - A");
        assertEquals("B - A @ eth0.ring=64", table.getItem(2 * 3 + 2).getText(1));
        gui.screenshot(shell, context.getProperty("ringlab.screenshots"), "console-ab-sweep");
    }

    /**
     * A sweep chart of a numeric parameter draws each line's 95 % interval (the values its series' error bar holds) as a
     * band behind it, as {@code ringlab plot} does: on the screen, every pixel of the plot between a point's interval
     * ends, at its x, is painted over the plot's background; above every band, in the same column, the background shows.
     */
    private void assertBandsDrawn(Chart c) {
        ImageData img = gui.grab(c.getPlotArea().getControl());
        org.eclipse.swt.graphics.RGB background = c.getPlotArea().getBackground().getRGB();
        org.eclipse.swtchart.IAxis xa = c.getAxisSet().getXAxis(0), ya = c.getAxisSet().getYAxis(0);
        int checked = 0, highest = Integer.MAX_VALUE, column = -1;
        for (ISeries<?> line : c.getSeriesSet().getSeries()) {
            assertFalse(line.getYErrorBar().isVisible(), line.getId() + ": a numeric x, the intervals as a band, not bars");
            double[] x = line.getXSeries(), y = line.getYSeries();
            double[] minus = line.getYErrorBar().getMinusErrors(), plus = line.getYErrorBar().getPlusErrors();
            assertEquals(x.length, minus.length, line.getId() + ": an interval per point");
            for (int i = 0; i < x.length; i++) {
                // a polygon's fill leaves out its right edge: the last point's band is looked at one pixel in
                int px = xa.getPixelCoordinate(x[i]) - (i == x.length - 1 ? 1 : 0);
                int top = ya.getPixelCoordinate(y[i] + plus[i]), bottom = ya.getPixelCoordinate(y[i] - minus[i]);
                highest = Math.min(highest, top);
                column = px;
                if (bottom - top < 6) {
                    continue; // too thin to tell a band from its line
                }
                for (int py = top + 2; py < bottom - 1; py++) {
                    assertNotEquals(background, img.palette.getRGB(img.getPixel(px, py)),
                            line.getId() + " at x=" + x[i] + ": the band's pixel (" + px + ", " + py + ")");
                }
                checked++;
            }
        }
        assertTrue(checked > 0, "some interval at least 6 pixels tall");
        int clear = 0;
        for (int py = 0; py < highest - 2; py++) {
            clear += background.equals(img.palette.getRGB(img.getPixel(column, py))) ? 1 : 0;
        }
        assertTrue(clear > 0, "above every band, the background (so that the check above can fail)");
    }

    /** @return a sweep experiment of 3 ring sizes x 2 variants (BQL off, on) x 2 seeds of 20 ms over netdev-bql */
    private Path sweepFile() throws Exception {
        Path dir = home().resolve("workspace-tests/gui/target/ab");
        Files.createDirectories(dir);
        Path file = dir.resolve("netdev-ring-ab.experiment");
        Files.writeString(file, String.format(Locale.ROOT, """
                pipeline = "%s"
                seeds = 2
                duration = 20ms
                metrics = [q.backlog, ping.rttP50Millis]
                sweep eth0.ring = [16, 64, 256]
                variant A
                variant B { set eth0.bql = true }
                """, pipelineFile()));
        return file;
    }

    /**
     * Issue 20, section 4: a results database opens in the panel, lists its experiments, and shows the chosen one as it
     * ran: every point's summaries and paired comparisons (from the stored runs, by the service's statistics) equal the
     * run's that wrote it.
     */
    @Test
    void aResultsDatabaseOpensInThePanelAndShowsItsExperimentAsItRan() throws Exception {
        Path file = sweepFile();
        // two parameters: 2 rings x 2 qdisc limits x 2 variants x 2 seeds
        Files.writeString(file, Files.readString(file).replace("sweep eth0.ring = [16, 64, 256]",
                "sweep eth0.ring = [16, 256]\nsweep q.limit = [100, 1000]"));
        Path db = file.resolveSibling("netdev-ring-ab.duckdb");
        Files.deleteIfExists(db);
        Files.deleteIfExists(db.resolveSibling(db.getFileName() + ".wal"));
        ExperimentResultDTO direct;
        try (io.ringlab.experiment.api.RunStore store = results.openForWriting(db, java.time.Duration.ZERO)) {
            direct = experiments.run(experiments.read(file), 1, null, store, false);
        }
        shell = console.open(display, null);
        showAbTab();
        Button open = find(ConsoleService.ID_AB_OPEN_DB, Button.class);
        open.setData(ConsoleService.FILE_DATA, db.toString());
        gui.click(open);
        org.eclipse.swt.widgets.Combo names = find(ConsoleService.ID_AB_DB_EXPERIMENTS, org.eclipse.swt.widgets.Combo.class);
        assertEquals(List.of(direct.name), Arrays.asList(names.getItems()));
        ExperimentResultDTO shown = (ExperimentResultDTO) find(ConsoleService.ID_AB_STATUS, Label.class)
                .getData(ConsoleService.AB_RESULT_DATA);
        assertEquals(direct.parameters, shown.parameters);
        assertEquals(direct.points.size(), shown.points.size());
        for (int i = 0; i < direct.points.size(); i++) {
            assertEquals(direct.points.get(i).values, shown.points.get(i).values);
            assertEqualFields(direct.points.get(i).variants, shown.points.get(i).variants, "point " + i + "'s summaries");
            assertEqualFields(direct.points.get(i).comparisons, shown.points.get(i).comparisons,
                    "point " + i + "'s paired comparisons, rebuilt from the stored runs");
            assertFalse(shown.points.get(i).comparisons.isEmpty(), "B against A at point " + i);
        }
        Chart c = find(ConsoleService.AB_CHART_PREFIX + "q.backlog", Chart.class);
        assertEquals("eth0.ring", c.getAxisSet().getXAxis(0).getTitle().getText(), "x: the first parameter");
        assertEquals(List.of("A, q.limit=100", "B, q.limit=100", "A, q.limit=1000", "B, q.limit=1000"),
                Arrays.stream(c.getSeriesSet().getSeries()).map(ISeries::getId).toList(), "a line per variant and limit");
        // x: the second parameter, as ringlab plot --x q.limit; a line per variant and ring
        org.eclipse.swt.widgets.Combo x = find(ConsoleService.ID_AB_SWEEP_X, org.eclipse.swt.widgets.Combo.class);
        assertTrue(x.getParent().isVisible(), "two parameters swept: x can be chosen");
        assertEquals(List.of("eth0.ring", "q.limit"), Arrays.asList(x.getItems()));
        x.select(1);
        x.notifyListeners(SWT.Selection, new Event());
        Chart byLimit = find(ConsoleService.AB_CHART_PREFIX + "q.backlog", Chart.class);
        assertEquals("q.limit", byLimit.getAxisSet().getXAxis(0).getTitle().getText());
        assertEquals(List.of("A, eth0.ring=16", "B, eth0.ring=16", "A, eth0.ring=256", "B, eth0.ring=256"),
                Arrays.stream(byLimit.getSeriesSet().getSeries()).map(ISeries::getId).toList());
        ISeries<?> b256 = byLimit.getSeriesSet().getSeries("B, eth0.ring=256");
        assertArrayEquals(new double[] { 100, 1000 }, b256.getXSeries());
        assertArrayEquals(direct.points.stream().filter(p -> p.values.get("eth0.ring").equals("256"))
                .mapToDouble(p -> p.variants.get("B").get("q.backlog").mean).toArray(), b256.getYSeries(),
                "B at ring 256: its mean at each limit");
        assertTrue(find(ConsoleService.ID_AB_SOURCE, Text.class).getText().contains("netdev-ring-ab.duckdb"));
        gui.screenshot(shell, context.getProperty("ringlab.screenshots"), "console-ab-database");
    }

    private void export(String id, Path to) {
        Button b = find(id, Button.class);
        b.setData(ConsoleService.FILE_DATA, to.toString());
        gui.click(b);
        assertTrue(Files.isRegularFile(to), to + " written");
    }

    @Test
    void cancelEndsALongerExperimentWithCancelledAndThePanelSaysSo() throws Exception {
        shell = console.open(display, null);
        showAbTab();
        org.eclipse.swt.widgets.List files = find(ConsoleService.ID_AB_EXPERIMENTS, org.eclipse.swt.widgets.List.class);
        select(files, List.of("stmmac-bql")); // 10 runs of 60 s simulated: seconds of wall time each
        Text source = find(ConsoleService.ID_AB_SOURCE, Text.class);
        assertTrue(source.getText().startsWith("stmmac-bql ("), source.getText());
        Label status = find(ConsoleService.ID_AB_STATUS, Label.class);
        gui.click(find(ConsoleService.ID_AB_RUN, Button.class));
        gui.until("the runs to start", () -> status.getText().contains(" runs on "));
        gui.click(find(ConsoleService.ID_AB_CANCEL, Button.class));
        gui.until("the cancelled result", () -> status.getData(ConsoleService.AB_RESULT_DATA) != null);
        ExperimentResultDTO r = (ExperimentResultDTO) status.getData(ConsoleService.AB_RESULT_DATA);
        assertTrue(r.cancelled, "cancelled");
        assertTrue(status.getText().startsWith("CANCELLED stmmac-bql: "), status.getText());
        assertTrue(r.runs.stream().anyMatch(s -> !RunSummaryDTO.FINISHED.equals(s.state)), "some runs did not finish");
        List<String> problems = Arrays.asList(find(ConsoleService.ID_AB_PROBLEMS, org.eclipse.swt.widgets.List.class).getItems());
        assertTrue(problems.stream().anyMatch(p -> p.contains("STOPPED by Cancel") || p.contains("CANCELLED, never started")),
                problems.toString());
        assertFalse(find(ConsoleService.ID_AB_CANCEL, Button.class).isEnabled());
        assertTrue(find(ConsoleService.ID_AB_RUN, Button.class).isEnabled(), "ready to run again");
        assertTrue(find(ConsoleService.ID_LOG, Text.class).getText().contains("experiment cancel requested"));
    }
}

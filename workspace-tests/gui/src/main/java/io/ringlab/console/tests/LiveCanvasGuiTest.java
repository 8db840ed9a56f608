package io.ringlab.console.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.Scale;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.Text;
import org.junit.jupiter.api.Test;

import io.ringlab.console.api.ConsoleService;
import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.pipeline.format.Units;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.SeriesDTO;

/**
 * Issue 20, section 1: the canvas shows the run where it acts. A 1.2 Gbit/s source into a 100-packet pfifo before a
 * 1 Gbit/s wire: at the end the qdisc's fill bar holds the headless run's backlog against its limit, its drop badge the
 * run's drops of that element by reason, BQL's bar its in-flight bytes against its limit, the wire its utilisation; and
 * the bar and the badge are drawn (their colours on the screen where they belong). The time slider shows the series'
 * values at a sampled time; the inspector (a double-click) every metric of the element as the result has it, and the
 * next run's when it runs again; all gone with the next pipeline.
 */
class LiveCanvasGuiTest extends GuiTest {
    /** The painter's colours of a bar filled above 90 % and of a drop badge (EditorPainter). */
    private static final RGB FULL = new RGB(0xe5, 0x39, 0x35), BADGE = new RGB(0xc6, 0x28, 0x28);
    /** EditorGeometry's box width, the top of its first level row and the row's height, in canvas units. */
    private static final int BOX_W = 120, FIRST_ROW = 42, ROW_H = 11;

    private static final String PIPELINE = """
            name = "canvas"
            duration = 20ms
            element src : source { rate = 1.2Gbit; size = 1518B }
            element q : pfifo { limit = 100 }
            element eth0 : netdev { ring = 32; bql = true }
            element wire : link { rate = 1Gbit; delay = 50us }
            element sink : sink
            src -> q -> eth0 -> wire -> sink
            """;

    private static double value(SeriesDTO s, String column, int row) {
        int c = s.columns.indexOf(column);
        assertTrue(c > 0, column + " is not in " + s.columns);
        return s.rows.get(row)[c];
    }

    private void mouse(Canvas c, int type, int x, int y) {
        Event e = new Event();
        e.x = x;
        e.y = y;
        e.button = 1;
        c.notifyListeners(type, e);
        gui.settle();
    }

    private Shell inspector(String element) {
        Shell[] found = new Shell[1];
        gui.until(element + "'s inspector", () -> {
            for (Shell s : display.getShells()) {
                if (!s.isDisposed() && (ConsoleService.INSPECTOR_PREFIX + element).equals(s.getData(ConsoleService.WIDGET_ID))) {
                    found[0] = s;
                    return true;
                }
            }
            return false;
        });
        return found[0];
    }

    /** @return the inspector's metrics table as metric name to the value each item carries */
    private Map<String, Double> metrics(Shell inspector) {
        Table t = gui.find(inspector, ConsoleService.ID_INSPECTOR_METRICS, Table.class);
        Map<String, Double> m = new java.util.TreeMap<>();
        for (org.eclipse.swt.widgets.TableItem it : t.getItems()) {
            assertTrue(!it.getText(1).isEmpty(), it.getText(0) + " shows no value");
            m.put(it.getText(0), (Double) it.getData());
        }
        return m;
    }

    @Test
    @SuppressWarnings("unchecked")
    void theCanvasShowsTheBacklogsDropsAndUtilisationOfTheHeadlessRun() throws Exception {
        Path file = Files.createTempDirectory("ringlab-canvas").resolve("canvas.pipeline");
        Files.writeString(file, PIPELINE);
        shell = console.open(display, file);
        Canvas canvas = gui.find(shell, ConsoleService.ID_PIPELINE, Canvas.class);
        assertEquals(Map.of(), canvas.getData(ConsoleService.CANVAS_DATA), "no run, nothing drawn");
        gui.click(gui.find(shell, ConsoleService.ID_RUN, Button.class));
        Text summary = gui.find(shell, ConsoleService.ID_SUMMARY, Text.class);
        gui.until("the run to end", () -> summary.getData(ConsoleService.RESULT_DATA) != null);
        RunOptionsDTO o = new RunOptionsDTO();
        o.durationPicos = Units.parsePicos("20ms");
        RunResultDTO headless = simulator.prepare(PipelineReader.read(file), o).run();
        assertEquals("FINISHED", headless.state, headless.error);

        Map<String, Map<String, Double>> drawn = (Map<String, Map<String, Double>>) canvas.getData(ConsoleService.CANVAS_DATA);
        assertEquals(0.02, (Double) canvas.getData(ConsoleService.CANVAS_TIME_DATA), 1e-12, "the state at the end");
        Map<String, Double> q = drawn.get("q"), eth0 = drawn.get("eth0"), wire = drawn.get("wire");
        assertEquals(headless.elements.get("q").get("backlog"), q.get("backlog"), "the qdisc's backlog");
        assertEquals(100.0, q.get("backlog/capacity"), "its limit");
        assertEquals(headless.elements.get("q").get("backlogBytes"), q.get("backlogBytes"));
        assertTrue(q.get("backlog") >= 90, "a 1.2 Gbit/s source fills a 100-packet queue before a 1 Gbit/s wire: " + q);
        long drops = headless.invariants.droppedByElement.get("q").get("qdisc-overlimit");
        assertEquals(headless.elements.get("q").get("drops"), (double) drops, "the element's drops are its counter's");
        assertEquals((double) drops, q.get("drops"), "the badge's count");
        assertEquals((double) drops, q.get("drops:qdisc-overlimit"), "by reason");
        assertTrue(drops > 100, "drops: " + drops);
        assertEquals(headless.elements.get("eth0").get("inflight"), eth0.get("inflight"), "BQL's bytes in flight");
        assertEquals(headless.elements.get("eth0").get("limit"), eth0.get("inflight/capacity"), "against BQL's limit");
        assertEquals(headless.elements.get("eth0").get("ringUsed"), eth0.get("ringUsed"));
        assertEquals(32.0, eth0.get("ringUsed/capacity"), "the ring's size");
        double u = wire.get("utilisation");
        assertTrue(u > 0.9 && u <= 1, "the saturated wire's busy share of the last interval: " + u);
        assertEquals(null, drawn.get("sink").get("drops:sink-backlog-full"), "no badge where nothing was dropped");
        assertEquals(0.0, drawn.get("sink").get("drops"));

        // drawn: the full bar's colour fills the qdisc's first row, the badge's colour is above its top right corner
        ImageData img = gui.grab(canvas);
        int[] box = ((Map<String, int[]>) canvas.getData(ConsoleService.BOUNDS_DATA)).get("q");
        double zoom = box[2] / (double) BOX_W;
        Rectangle row = new Rectangle(box[0] + (int) Math.ceil(8 * zoom) + 1, box[1] + (int) Math.ceil(FIRST_ROW * zoom) + 1,
                (int) ((BOX_W - 16) * zoom) - 2, (int) (ROW_H * zoom) - 2);
        int full = Gui.count(img, row, FULL);
        assertTrue(full > 0.4 * row.width * row.height, "the backlog bar is drawn full: " + full + " of " + row.width * row.height
                + " pixels of " + row + " in the bar's colour");
        Rectangle corner = new Rectangle(box[0] + box[2] - (int) (150 * zoom), box[1] - (int) (12 * zoom), (int) (160 * zoom),
                (int) (24 * zoom));
        int badge = Gui.count(img, corner, BADGE);
        assertTrue(badge > 150 * zoom * zoom, "the drop badge is drawn: " + badge + " pixels of " + corner);
        gui.screenshot(shell, context.getProperty("ringlab.screenshots"), "console-live-canvas");
        gui.until("the stream to close", () -> summary.getData(ConsoleService.STREAM_DATA) != null);
        Files.delete(Path.of((String) summary.getData(ConsoleService.STREAM_DATA))); // results/ is the user's

        // the time slider: at its last position the end; at row i the series' values at row i's time
        SeriesDTO s = headless.series;
        Scale slider = gui.find(shell, ConsoleService.ID_TIME_SLIDER, Scale.class);
        assertTrue(slider.isEnabled(), "the slider after the run; its label says: "
                + gui.find(shell, ConsoleService.ID_TIME_LABEL, org.eclipse.swt.widgets.Label.class).getText());
        assertEquals(s.rows.size(), slider.getMaximum());
        assertEquals(s.rows.size(), slider.getSelection(), "at the end");
        int i = s.rows.size() / 2;
        slider.setSelection(i);
        slider.notifyListeners(SWT.Selection, new Event());
        Map<String, Map<String, Double>> at = (Map<String, Map<String, Double>>) canvas.getData(ConsoleService.CANVAS_DATA);
        assertEquals(s.rows.get(i)[0], (Double) canvas.getData(ConsoleService.CANVAS_TIME_DATA), "row " + i + "'s time");
        assertEquals(value(s, "q.backlog", i), at.get("q").get("backlog"), "the backlog at that time");
        assertEquals(value(s, "drops:q.qdisc-overlimit", i), at.get("q").get("drops"), "the drops up to that time");
        assertTrue(at.get("q").get("drops") < drops, "fewer than at the end");
        assertEquals(value(s, "eth0.inflight", i), at.get("eth0").get("inflight"));
        assertEquals(value(s, "eth0.limit", i), at.get("eth0").get("inflight/capacity"), "BQL's limit at that time");
        double dt = s.rows.get(i)[0] - s.rows.get(i - 1)[0];
        assertEquals((value(s, "wire.wireBytes", i) - value(s, "wire.wireBytes", i - 1)) * 8 / dt, at.get("wire").get("wireBytes/s"),
                1e-6, "the wire's rate over the interval that ends there");
        assertEquals((value(s, "wire.busySeconds", i) - value(s, "wire.busySeconds", i - 1)) / dt, at.get("wire").get("utilisation"),
                1e-9, "and its busy share of it");
        String label = gui.find(shell, ConsoleService.ID_TIME_LABEL, org.eclipse.swt.widgets.Label.class).getText();
        assertEquals(String.format(java.util.Locale.ROOT, "%.3f ms (sample %d)", s.rows.get(i)[0] * 1e3, i), label);
        slider.setSelection(s.rows.size());
        slider.notifyListeners(SWT.Selection, new Event());
        assertEquals(drawn, canvas.getData(ConsoleService.CANVAS_DATA), "back at the end");

        // the inspector, opened by a double-click on q: every metric of q as the result has it, its properties as run,
        // its drops, its series; it stays open and shows the next run
        mouse(canvas, SWT.MouseDoubleClick, box[0] + box[2] / 2, box[1] + box[3] / 2);
        Shell inspector = inspector("q");
        assertEquals(headless.elements.get("q"), metrics(inspector), "the inspector's metrics are the result's");
        Table props = gui.find(inspector, ConsoleService.ID_INSPECTOR_PROPERTIES, Table.class);
        assertEquals("100", java.util.Arrays.stream(props.getItems()).filter(it -> it.getText(0).equals("limit")).findFirst()
                .orElseThrow().getText(1), "limit as run");
        String dropsText = gui.find(inspector, ConsoleService.ID_INSPECTOR_DROPS, org.eclipse.swt.widgets.Label.class).getText();
        assertEquals(String.format(java.util.Locale.ROOT, "drops: %,d qdisc-overlimit", drops), dropsText);
        assertTrue(gui.find(inspector, ConsoleService.ID_INSPECTOR_CPU, org.eclipse.swt.widgets.Label.class).getText()
                .startsWith("CPU: "));
        org.eclipse.swt.widgets.TabFolder tabs = gui.find(inspector, ConsoleService.ID_INSPECTOR_TABS,
                org.eclipse.swt.widgets.TabFolder.class);
        tabs.setSelection(2);
        tabs.notifyListeners(SWT.Selection, new Event()); // the Series tab draws its charts when it shows
        gui.settle();
        org.eclipse.swtchart.Chart backlog = gui.find(inspector, ConsoleService.ID_INSPECTOR_SERIES + ".q.backlog",
                org.eclipse.swtchart.Chart.class);
        double[] column = s.rows.stream().mapToDouble(r -> r[s.columns.indexOf("q.backlog")]).toArray();
        org.junit.jupiter.api.Assertions.assertArrayEquals(column, backlog.getSeriesSet().getSeries("q.backlog").getYSeries(),
                "its backlog series");
        gui.screenshot(inspector, context.getProperty("ringlab.screenshots"), "console-inspector");
        gui.find(shell, ConsoleService.ID_DURATION, Text.class).setText("10ms");
        gui.click(gui.find(shell, ConsoleService.ID_RUN, Button.class));
        gui.until("the second run to end", () -> summary.getData(ConsoleService.RESULT_DATA) != null);
        o.durationPicos = Units.parsePicos("10ms");
        RunResultDTO second = simulator.prepare(PipelineReader.read(file), o).run();
        assertTrue(!inspector.isDisposed(), "the inspector stays open");
        assertEquals(second.elements.get("q"), metrics(inspector), "and shows the second run");
        gui.until("the stream to close", () -> summary.getData(ConsoleService.STREAM_DATA) != null);
        Files.delete(Path.of((String) summary.getData(ConsoleService.STREAM_DATA)));

        // the next pipeline shows nothing of this run
        gui.menuItem(shell, ConsoleService.ID_MENU_NEW).notifyListeners(SWT.Selection, new Event());
        gui.until("the new pipeline", () -> ((Map<?, ?>) canvas.getData(ConsoleService.CANVAS_DATA)).isEmpty());
        assertTrue(inspector.isDisposed(), "the inspectors of the other pipeline's run are closed");
        assertTrue(!slider.isEnabled(), "no slider without a run");
        Files.delete(file);
        Files.delete(file.getParent());
    }
}

package io.ringlab.console.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Text;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeItem;
import org.eclipse.swtchart.Chart;
import org.eclipse.swtchart.ISeries;
import org.junit.jupiter.api.Test;
import org.osgi.framework.Bundle;

import io.ringlab.console.api.ConsoleService;
import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.pipeline.format.Units;
import io.ringlab.sim.api.Simulator;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * The console with real widgets, the real engine and the sample pipelines: what a user clicks, and what the console must
 * then show. Each test opens its own window and closes it; the display lives for the class, on the tester's thread.
 */
class ConsoleGuiTest extends GuiTest {
    private static final Pattern EVENTS = Pattern.compile("([\\d,]+) events");

    private Path home() {
        return Path.of(context.getProperty("ringlab.home"));
    }

    private String screenshots() {
        return context.getProperty("ringlab.screenshots");
    }

    /** Opens a sample by clicking it in the list, and waits until the Run tab says it is ready. */
    private void openSample(String name, int elements) {
        org.eclipse.swt.widgets.List samples = gui.find(shell, ConsoleService.ID_SAMPLES, org.eclipse.swt.widgets.List.class);
        samples.select(Arrays.asList(samples.getItems()).indexOf(name));
        samples.notifyListeners(SWT.Selection, new Event());
        Label status = gui.find(shell, ConsoleService.ID_STATUS, Label.class);
        gui.until(name + " to open", () -> status.getText().startsWith("ready: " + elements + " elements"));
    }

    /**
     * Issue 20, section 3: opening another pipeline, or File > New, leaves nothing of the previous one in the Run tab (a
     * duration typed for one pipeline does not run the next), and a new pipeline saved under a name takes that name.
     */
    @Test
    void openingAnotherPipelineOrNewLeavesNothingOfThePreviousOne() throws Exception {
        shell = console.open(display, null);
        openSample("stmmac-bql-100m", 10);
        Text duration = gui.find(shell, ConsoleService.ID_DURATION, Text.class);
        Text seed = gui.find(shell, ConsoleService.ID_SEED, Text.class);
        assertEquals("60s", duration.getText(), "the file's duration");
        duration.setText("20ms");
        seed.setText("7");
        gui.click(gui.find(shell, ConsoleService.ID_RUN, Button.class));
        Text summary = gui.find(shell, ConsoleService.ID_SUMMARY, Text.class);
        gui.until("the run to end", () -> summary.getData(ConsoleService.RESULT_DATA) != null);
        Combo swapElement = gui.find(shell, ConsoleService.ID_SWAP_ELEMENT, Combo.class);
        Combo swapTarget = gui.find(shell, ConsoleService.ID_SWAP_TARGET, Combo.class);
        org.eclipse.swt.widgets.Table cpu = gui.find(shell, ConsoleService.ID_CPU_TABLE, org.eclipse.swt.widgets.Table.class);
        assertTrue(swapElement.getItemCount() > 0 && swapTarget.getItemCount() > 0, "the run's swap choices");
        assertTrue(cpu.getItemCount() > 0, "the run's CPU rows");
        assertFalse(summary.getText().isEmpty());
        // issue 20, section 2: the CPU table's columns fit their numbers; the headline's axis names its unit; the Cache
        // tab says why it is empty (the S805's profile models no caches)
        org.eclipse.swt.graphics.GC gc = new org.eclipse.swt.graphics.GC(cpu);
        try {
            for (int col = 0; col < cpu.getColumnCount(); col++) {
                int widest = gc.textExtent(cpu.getColumn(col).getText()).x;
                for (org.eclipse.swt.widgets.TableItem item : cpu.getItems()) {
                    widest = Math.max(widest, gc.textExtent(item.getText(col)).x);
                }
                assertTrue(cpu.getColumn(col).getWidth() >= widest, "CPU column " + cpu.getColumn(col).getText() + ": "
                        + cpu.getColumn(col).getWidth() + " px for text " + widest + " px wide");
            }
        } finally {
            gc.dispose();
        }
        Chart headlineChart = gui.find(shell, ConsoleService.ID_CHART_HEADLINE, Chart.class);
        assertEquals("ms", headlineChart.getAxisSet().getYAxis(0).getTitle().getText(), "ping.rttP50Millis is in ms");
        Chart cache = gui.find(shell, ConsoleService.ID_CHART_CACHE, Chart.class);
        assertTrue(cache.getTitle().getText().startsWith("No caches: this run's cost profile models none"),
                cache.getTitle().getText());

        org.eclipse.swt.widgets.Canvas canvas = gui.find(shell, ConsoleService.ID_PIPELINE, org.eclipse.swt.widgets.Canvas.class);
        assertTrue(((Map<?, ?>) canvas.getData(ConsoleService.CANVAS_DATA)).containsKey("q"), "the run's state is on the canvas");
        openSample("netdev-bql", 9);
        assertEquals(Map.of(), canvas.getData(ConsoleService.CANVAS_DATA), "nothing of the other pipeline's run on the canvas");
        assertEquals("200ms", duration.getText(), "netdev-bql's file says 200ms; 20ms was typed for the other pipeline");
        assertEquals("1", seed.getText(), "the file's seed");
        assertEquals(0, swapElement.getItemCount(), "no swap choices of the other pipeline's run");
        assertEquals(0, swapTarget.getItemCount());
        assertEquals(0, cpu.getItemCount(), "no CPU rows of the other run");
        assertEquals("", summary.getText());
        assertEquals(null, summary.getData(ConsoleService.RESULT_DATA));

        duration.setText("5ms");
        gui.menuItem(shell, ConsoleService.ID_MENU_NEW).notifyListeners(SWT.Selection, new Event());
        Label status = gui.find(shell, ConsoleService.ID_STATUS, Label.class);
        gui.until("the new pipeline", () -> status.getText().startsWith("ready: 0 elements"));
        assertEquals("", duration.getText(), "a new pipeline has no duration of its own: the default applies");
        assertEquals("", seed.getText());
        assertTrue(shell.getText().contains("untitled"), shell.getText());

        // a new pipeline saved as my-queue.pipeline is named my-queue, in the file and in the window's title
        Path file = Files.createTempDirectory("ringlab-gui").resolve("my-queue.pipeline");
        org.eclipse.swt.widgets.MenuItem saveAs = gui.menuItem(shell, ConsoleService.ID_MENU_SAVE_AS);
        saveAs.setData(ConsoleService.FILE_DATA, file.toString());
        saveAs.notifyListeners(SWT.Selection, new Event());
        gui.until("the file to be written", () -> Files.isRegularFile(file));
        assertEquals("my-queue", PipelineReader.read(file).name);
        assertTrue(shell.getText().contains("my-queue") && !shell.getText().contains("untitled"), shell.getText());
        Files.delete(file);
        Files.delete(file.getParent());
    }

    /**
     * A sample opened with one click and run with a short duration: the charts receive data, and the summary's headline and
     * invariants are those of a headless run of the same file and seed through the same Simulator service.
     */
    @Test
    void aSampleRunInTheConsoleEqualsAHeadlessRunOfTheSameFileAndSeed() throws Exception {
        shell = console.open(display, null);
        org.eclipse.swt.widgets.List samples = gui.find(shell, ConsoleService.ID_SAMPLES, org.eclipse.swt.widgets.List.class);
        int i = Arrays.asList(samples.getItems()).indexOf("netdev-bql");
        assertTrue(i >= 0, "samples listed: " + Arrays.toString(samples.getItems()));
        samples.select(i);
        samples.notifyListeners(SWT.Selection, new Event());
        Label status = gui.find(shell, ConsoleService.ID_STATUS, Label.class);
        gui.until("the sample to open", () -> status.getText().startsWith("ready: 9 elements"));
        assertTrue(shell.getText().contains("netdev-bql"), shell.getText());

        gui.find(shell, ConsoleService.ID_DURATION, Text.class).setText("20ms");
        gui.find(shell, ConsoleService.ID_SEED, Text.class).setText("7");
        gui.click(gui.find(shell, ConsoleService.ID_RUN, Button.class));
        Text summary = gui.find(shell, ConsoleService.ID_SUMMARY, Text.class);
        gui.until("the run to end", () -> summary.getData(ConsoleService.RESULT_DATA) != null);
        RunResultDTO shown = (RunResultDTO) summary.getData(ConsoleService.RESULT_DATA);
        assertEquals("FINISHED", shown.state, shown.error);
        assertEquals(7, shown.seed);
        assertTrue(gui.errorDialogs().isEmpty(), "an error dialog is open");
        assertTrue(gui.find(shell, ConsoleService.ID_RUN, Button.class).isEnabled(), "Run is disabled after the run");
        assertFalse(gui.find(shell, ConsoleService.ID_PAUSE, Button.class).isEnabled(), "Pause is enabled after the run");
        assertFalse(gui.find(shell, ConsoleService.ID_STOP, Button.class).isEnabled(), "Stop is enabled after the run");

        RunOptionsDTO o = new RunOptionsDTO();
        o.durationPicos = Units.parsePicos("20ms");
        o.seed = 7L;
        RunResultDTO headless = simulator.prepare(PipelineReader.read(home().resolve("pipelines/netdev-bql.pipeline")), o).run();
        assertEquals(headless.headline.metric, shown.headline.metric);
        assertEquals(headless.headline.value, shown.headline.value);
        assertEquals(headless.elements, shown.elements);
        assertEquals(headless.invariants.generated, shown.invariants.generated);
        assertEquals(headless.invariants.inFlight, shown.invariants.inFlight);
        String text = summary.getText();
        assertTrue(text.contains("headline ping.rttP50Millis = " + io.ringlab.pipeline.format.Numbers.human(headless.headline.value)), text);
        assertTrue(text.contains(String.format(java.util.Locale.ROOT, "packets: generated %,d = delivered %,d", headless.invariants.generated,
                headless.invariants.delivered)), text);
        assertTrue(text.contains(": ok\nbuffers:"), text);
        assertTrue(text.lines().filter(l -> l.startsWith("buffers: ")).allMatch(l -> l.endsWith(": ok")), text);
        // a 20 ms run has 17 echoes: its p99 rests on too few samples, which the summary explains as ringlab run does
        assertEquals(!headless.sampleWarnings.isEmpty(), text.contains("* rests on too few samples"), text);
        // the counters as tc, ethtool and the BQL files show them, as ringlab stats prints them (docs/testbed-views.md)
        java.util.Map<String, Double> q = headless.elements.get("q");
        assertTrue(text.contains("\n# tc -s qdisc show\n"), text);
        assertTrue(text.contains("\nqdisc pfifo_fast 0: dev eth0 root refcnt 2 bands 3 priomap 1 2 2 2 1"
                + " 2 0 0 1 1 1 1 1 1 1 1\n Sent " + q.get("sentBytes").longValue() + " bytes " + q.get("sentPackets")
                        .longValue() + " pkt (dropped " + q.get("drops").longValue() + ", overlimits 0 requeues "
                + q.get("requeues").longValue() + ") \n backlog "), text);
        assertTrue(text.contains("# ethtool -S eth0\nNIC statistics:\n"), text);
        assertTrue(text.contains("# grep . /sys/class/net/*/queues/tx-0/byte_queue_limits/*\n"), text);

        // the charts received the run's series: the headline's samples exactly, and a throughput line per packet counter
        Chart headlineChart = gui.find(shell, ConsoleService.ID_CHART_HEADLINE, Chart.class);
        ISeries<?> h = headlineChart.getSeriesSet().getSeries("headline");
        assertNotNull(h, "no headline series");
        int column = headless.series.columns.indexOf(headless.headline.metric);
        assertTrue(column > 0, headless.headline.metric + " is not sampled: " + headless.series.columns);
        // the chart leaves out the intervals without a ping echo (NaN)
        double[] expected = headless.series.rows.stream().mapToDouble(r -> r[column]).filter(v -> !Double.isNaN(v)).toArray();
        assertArrayEquals(expected, h.getYSeries());
        Chart tp = gui.find(shell, ConsoleService.ID_CHART_THROUGHPUT, Chart.class);
        List<String> lines = Arrays.stream(tp.getSeriesSet().getSeries()).map(ISeries::getId).toList();
        assertTrue(lines.containsAll(List.of("src.txPackets", "sink.rxPackets")), lines.toString());
        double[] sink = tp.getSeriesSet().getSeries("sink.rxPackets").getYSeries();
        assertTrue(Arrays.stream(sink).max().orElse(0) > 50_000, "sink throughput " + Arrays.toString(sink)); // ~81 kpps at 1 Gbit/s

        // the palette shows the live types by category, with their bundles
        Tree palette = gui.find(shell, ConsoleService.ID_PALETTE, Tree.class);
        List<String> categories = Arrays.stream(palette.getItems()).map(TreeItem::getText).toList();
        assertTrue(categories.stream().anyMatch(c -> c.startsWith("sources (")), categories.toString());
        assertTrue(Gui.leaves(palette).stream().anyMatch(t -> t.startsWith("netdev  (io.ringlab.driver.netdev ")), Gui.leaves(palette).toString());

        Path png = gui.screenshot(shell, screenshots(), "console-netdev-bql");
        assertTrue(Files.size(png) > 10_000, png + " is " + Files.size(png) + " bytes");
    }

    /**
     * Pause, step, resume and stop at a slowed-down speed: while paused the console stops polling the engine (no timer
     * runs); a step processes one event; a stopped run still reports its invariants.
     */
    @Test
    void pausingStopsThePollingAndStopEndsTheRunWithItsInvariants() throws Exception {
        shell = console.open(display, home().resolve("pipelines/netdev-bql.pipeline"));
        Label status = gui.find(shell, ConsoleService.ID_STATUS, Label.class);
        assertTrue(status.getText().startsWith("ready:"), status.getText());
        Combo speed = gui.find(shell, ConsoleService.ID_SPEED, Combo.class);
        speed.select(Arrays.asList(speed.getItems()).indexOf("0.01x real time")); // 200 ms of virtual time take 20 s
        gui.click(gui.find(shell, ConsoleService.ID_RUN, Button.class));
        Chart tp = gui.find(shell, ConsoleService.ID_CHART_THROUGHPUT, Chart.class);
        gui.until("live chart data while running", () -> status.getText().startsWith("RUNNING") && tp.getSeriesSet().getSeries().length > 0
                && tp.getSeriesSet().getSeries()[0].getYSeries().length > 2);

        gui.click(gui.find(shell, ConsoleService.ID_PAUSE, Button.class));
        Button resume = gui.find(shell, ConsoleService.ID_RESUME, Button.class);
        gui.until("the run to pause", () -> status.getText().startsWith("PAUSED") && resume.isEnabled());
        assertFalse(gui.find(shell, ConsoleService.ID_PAUSE, Button.class).isEnabled());
        int polls = (Integer) status.getData(ConsoleService.POLLS_DATA);
        gui.pumpFor(700); // seven polling intervals: none may run while paused
        assertEquals(polls, (Integer) status.getData(ConsoleService.POLLS_DATA), "the console polled a paused run");
        gui.screenshot(shell, screenshots(), "console-paused");

        long before = events(status.getText());
        gui.click(gui.find(shell, ConsoleService.ID_STEP, Button.class));
        gui.until("the step to show", () -> events(status.getText()) != before);
        assertEquals(before + 1, events(status.getText()), status.getText());
        assertTrue(status.getText().startsWith("PAUSED"), status.getText());

        gui.click(resume);
        gui.until("the run to resume", () -> status.getText().startsWith("RUNNING"));
        gui.click(gui.find(shell, ConsoleService.ID_STOP, Button.class));
        Text summary = gui.find(shell, ConsoleService.ID_SUMMARY, Text.class);
        gui.until("the stopped run's result", () -> summary.getData(ConsoleService.RESULT_DATA) != null);
        RunResultDTO r = (RunResultDTO) summary.getData(ConsoleService.RESULT_DATA);
        assertEquals("STOPPED", r.state);
        assertTrue(r.simulatedSeconds < 0.2, "stopped at " + r.simulatedSeconds);
        assertTrue(r.invariants.packetConservation && r.invariants.bufferConservation, r.invariants.violations.toString());
        assertTrue(gui.find(shell, ConsoleService.ID_RUN, Button.class).isEnabled(), "Run is not enabled after the stop");
    }

    /**
     * A file with a syntax error is reported in a dialog and in the log with its file and line, and nothing is opened; a
     * file that reads but names an unknown element type opens, and Run reports the type and its line the same way.
     */
    @Test
    void badFilesShowTheirFileAndLineInADialogAndTheLog() throws Exception {
        Path dir = Path.of(screenshots()).getParent();
        Files.createDirectories(dir);
        Path bad = Files.writeString(dir.resolve("bad.pipeline"), "name = \"bad\"\nelement src : source\nelement q pfifo\nsrc -> q\n");
        shell = console.open(display, bad);
        gui.until("an error dialog", () -> !gui.errorDialogs().isEmpty());
        Shell dialog = gui.errorDialogs().get(0);
        String message = Gui.texts(dialog);
        assertTrue(message.contains("bad.pipeline:3:11: expected ':' after element name 'q'"), message);
        Text log = gui.find(shell, ConsoleService.ID_LOG, Text.class);
        assertTrue(log.getText().contains("ERROR Cannot open bad.pipeline") && log.getText().contains("bad.pipeline:3:11:"), log.getText());
        assertFalse(gui.find(shell, ConsoleService.ID_RUN, Button.class).isEnabled(), "Run is enabled with no pipeline open");
        dialog.close();

        Path unknown = Files.writeString(dir.resolve("unknown-type.pipeline"),
                "name = \"unknown\"\nelement src : source\nelement q : nosuchqdisc\nelement s : sink\nsrc -> q -> s\n");
        shell.close();
        shell = console.open(display, unknown);
        assertTrue(gui.errorDialogs().isEmpty(), "a readable file was refused");
        gui.click(gui.find(shell, ConsoleService.ID_RUN, Button.class));
        gui.until("an error dialog", () -> !gui.errorDialogs().isEmpty());
        message = Gui.texts(gui.errorDialogs().get(0));
        assertTrue(message.contains("unknown-type.pipeline:3:1: unknown element type 'nosuchqdisc' for element q; installed types:"), message);
        Text log2 = gui.find(shell, ConsoleService.ID_LOG, Text.class);
        assertTrue(log2.getText().contains("ERROR Cannot run unknown-type.pipeline"), log2.getText());
        assertTrue(gui.find(shell, ConsoleService.ID_RUN, Button.class).isEnabled(), "Run is disabled after a refused run");
    }

    /** The palette follows the service registry: a stopped bundle's types leave it, and come back when it starts. */
    @Test
    void thePaletteFollowsBundlesComingAndGoing() throws Exception {
        shell = console.open(display, null);
        Tree palette = gui.find(shell, ConsoleService.ID_PALETTE, Tree.class);
        assertTrue(Gui.leaves(palette).stream().anyMatch(t -> t.startsWith("link  (io.ringlab.link ")), Gui.leaves(palette).toString());
        Bundle link = Arrays.stream(context.getBundles()).filter(b -> "io.ringlab.link".equals(b.getSymbolicName())).findFirst().orElseThrow();
        link.stop();
        try {
            gui.until("link to leave the palette", () -> Gui.leaves(palette).stream().noneMatch(t -> t.startsWith("link  (")));
            Text log = gui.find(shell, ConsoleService.ID_LOG, Text.class);
            assertTrue(log.getText().contains("element types changed"), log.getText());
        } finally {
            link.start();
        }
        gui.until("link to come back", () -> Gui.leaves(palette).stream().anyMatch(t -> t.startsWith("link  (io.ringlab.link ")));
    }


    private static long events(String status) {
        Matcher m = EVENTS.matcher(status);
        assertTrue(m.find(), status);
        return Long.parseLong(m.group(1).replace(",", ""));
    }
}

package io.ringlab.console.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Text;
import org.eclipse.swtchart.Chart;
import org.junit.jupiter.api.Test;

import io.ringlab.console.api.ConsoleService;
import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * A run in a separate process ("Separate process"): the pipeline goes to a child JVM running app/target/ringlab.jar, and
 * its result comes back equal to a run in the console's own process, since runs are deterministic.
 */
class IsolationGuiTest extends GuiTest {
    private Path home() {
        return Path.of(context.getProperty("ringlab.home"));
    }

    @Test
    void aRunInASeparateProcessGivesTheResultOfARunHere() throws Exception {
        Path file = home().resolve("pipelines/netdev-bql.pipeline");
        shell = console.open(display, file);
        Button isolate = gui.find(shell, ConsoleService.ID_ISOLATE, Button.class);
        assertFalse(isolate.getSelection(), "a pipeline of Ringlab's own bundles runs here by default");
        isolate.setSelection(true);
        gui.find(shell, ConsoleService.ID_DURATION, Text.class).setText("20ms");
        gui.find(shell, ConsoleService.ID_SEED, Text.class).setText("7");
        gui.click(gui.find(shell, ConsoleService.ID_RUN, Button.class));
        Text summary = gui.find(shell, ConsoleService.ID_SUMMARY, Text.class);
        gui.until("the child's result", () -> summary.getData(ConsoleService.RESULT_DATA) != null);
        RunResultDTO child = (RunResultDTO) summary.getData(ConsoleService.RESULT_DATA);
        assertEquals("FINISHED", child.state, child.error);

        RunOptionsDTO o = new RunOptionsDTO();
        o.durationPicos = 20_000_000_000L;
        o.seed = 7L;
        RunResultDTO here = simulator.prepare(PipelineReader.read(file), o).run();
        assertEquals(here.elements, child.elements, "the child's run differs from one in this process");
        assertEquals(here.invariants.delivered, child.invariants.delivered);
        assertTrue(gui.find(shell, ConsoleService.ID_LOG, Text.class).getText().contains("running in a separate process"));
    }

    /**
     * While the child runs, the console reads its snapshots (ringlab run --snapshots): the status counts the child's
     * events and the throughput chart draws its series as they come. Pause, Step, Swap and Resume reach the child
     * (ringlab run --control); Stop ends the child's run with its result, the swap in it.
     */
    @Test
    void aRunInASeparateProcessIsLiveAndTakesPauseStepSwapAndStop() throws Exception {
        shell = console.open(display, home().resolve("pipelines/netdev-bql.pipeline"));
        gui.find(shell, ConsoleService.ID_ISOLATE, Button.class).setSelection(true);
        gui.find(shell, ConsoleService.ID_DURATION, Text.class).setText("3600s"); // far longer than the test waits
        gui.click(gui.find(shell, ConsoleService.ID_RUN, Button.class));

        Label status = gui.find(shell, ConsoleService.ID_STATUS, Label.class);
        Chart tp = gui.find(shell, ConsoleService.ID_CHART_THROUGHPUT, Chart.class);
        gui.until("the child's snapshots in the status and the chart", () -> status.getText().matches(
                "RUNNING  [0-9.]+ / 3600000.000 ms virtual, [1-9][0-9,]* events") && tp.getSeriesSet().getSeries().length > 0
                && tp.getSeriesSet().getSeries()[0].getYSeries().length > 2);
        Text summary = gui.find(shell, ConsoleService.ID_SUMMARY, Text.class);
        assertEquals(null, summary.getData(ConsoleService.RESULT_DATA), "no result yet: the child still runs");

        gui.click(gui.find(shell, ConsoleService.ID_PAUSE, Button.class));
        gui.until("the child to pause", () -> status.getText().startsWith("PAUSED"));
        long before = events(status.getText());
        gui.click(gui.find(shell, ConsoleService.ID_STEP, Button.class));
        gui.until("the child's step to show", () -> events(status.getText()) != before);
        assertEquals(before + 1, events(status.getText()), status.getText());

        Combo element = gui.find(shell, ConsoleService.ID_SWAP_ELEMENT, Combo.class);
        element.select(java.util.Arrays.asList(element.getItems()).indexOf("eth0"));
        element.notifyListeners(org.eclipse.swt.SWT.Selection, new org.eclipse.swt.widgets.Event());
        Combo target = gui.find(shell, ConsoleService.ID_SWAP_TARGET, Combo.class);
        assertTrue(target.getItem(0).startsWith("netdev@"), java.util.Arrays.toString(target.getItems()));
        target.select(0);
        gui.click(gui.find(shell, ConsoleService.ID_SWAP, Button.class));
        Text log = gui.find(shell, ConsoleService.ID_LOG, Text.class);
        gui.until("the child's swap in the log", () -> log.getText().contains("swap at "));
        assertTrue(log.getText().contains(": handover, "), log.getText());

        gui.click(gui.find(shell, ConsoleService.ID_RESUME, Button.class));
        gui.until("the child to resume", () -> status.getText().startsWith("RUNNING"));
        gui.click(gui.find(shell, ConsoleService.ID_STOP, Button.class));
        gui.until("the stopped run's result", () -> summary.getData(ConsoleService.RESULT_DATA) != null);
        RunResultDTO r = (RunResultDTO) summary.getData(ConsoleService.RESULT_DATA);
        // Stop is SIGTERM: the child stops its run and writes its result, nothing of it lost
        assertEquals("STOPPED", r.state, r.error);
        assertTrue(r.simulatedSeconds > 0 && r.simulatedSeconds < 3600, "stopped at " + r.simulatedSeconds);
        assertTrue(r.elements.get("eth0").get("txPackets") > 0, r.elements.toString());
        assertTrue(r.invariants.packetConservation && r.invariants.bufferConservation, r.invariants.violations.toString());
        assertEquals(1, r.swaps.size(), "the swap asked for from here");
        assertTrue(r.swaps.get(0).applied && r.swaps.get(0).handover, r.swaps.get(0).message);
    }

    private static long events(String status) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("([0-9,]+) events").matcher(status);
        assertTrue(m.find(), status);
        return Long.parseLong(m.group(1).replace(",", ""));
    }
}

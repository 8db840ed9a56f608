package io.ringlab.console.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;

import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.TabFolder;
import org.eclipse.swt.widgets.Text;
import org.eclipse.swtchart.Chart;
import org.junit.jupiter.api.Test;

import io.ringlab.console.api.ConsoleService;
import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.SwapDTO;

/**
 * The swap action on a running pipeline: the element and the implementation chosen in the run controls, the swap applied
 * at the run's next safe point with its state handed over, logged, marked on the charts, and replayed exactly by a
 * headless run with {@code --swap} at the recorded time.
 */
class SwapGuiTest extends GuiTest {
    private Path home() {
        return Path.of(context.getProperty("ringlab.home"));
    }

    @Test
    void aSwapChosenInTheConsoleHandsTheDriverOverAndIsMarkedAndReplayable() throws Exception {
        Path file = home().resolve("pipelines/netdev-bql.pipeline");
        shell = console.open(display, file);
        gui.find(shell, ConsoleService.ID_SEED, Text.class).setText("5");
        Combo speed = gui.find(shell, ConsoleService.ID_SPEED, Combo.class);
        speed.select(Arrays.asList(speed.getItems()).indexOf("0.01x real time")); // 200 ms of virtual time take 20 s
        Button swap = gui.find(shell, ConsoleService.ID_SWAP, Button.class);
        assertTrue(!swap.isEnabled(), "Swap needs a live run");
        gui.click(gui.find(shell, ConsoleService.ID_RUN, Button.class));
        Label status = gui.find(shell, ConsoleService.ID_STATUS, Label.class);
        Chart tp = gui.find(shell, ConsoleService.ID_CHART_THROUGHPUT, Chart.class);
        gui.until("live chart data while running", () -> status.getText().startsWith("RUNNING") && tp.getSeriesSet().getSeries().length > 0
                && tp.getSeriesSet().getSeries()[0].getYSeries().length > 2);
        gui.click(gui.find(shell, ConsoleService.ID_PAUSE, Button.class));
        gui.until("the run to pause", () -> status.getText().startsWith("PAUSED"));

        Combo element = gui.find(shell, ConsoleService.ID_SWAP_ELEMENT, Combo.class);
        element.select(Arrays.asList(element.getItems()).indexOf("eth0"));
        element.notifyListeners(org.eclipse.swt.SWT.Selection, new org.eclipse.swt.widgets.Event());
        Combo target = gui.find(shell, ConsoleService.ID_SWAP_TARGET, Combo.class);
        assertTrue(target.getItem(0).startsWith("netdev@"), Arrays.toString(target.getItems()));
        assertTrue(Arrays.asList(target.getItems()).contains("stmmac@" + bundleVersion("io.ringlab.driver.stmmac")),
                "the other drivers are offered: " + Arrays.toString(target.getItems()));
        target.select(0);
        gui.click(swap);
        Text log = gui.find(shell, ConsoleService.ID_LOG, Text.class);
        gui.until("the swap in the log", () -> log.getText().contains("swap at "));
        assertTrue(log.getText().contains(": handover, "), log.getText());
        TabFolder tabs = gui.find(shell, ConsoleService.ID_CHART_TABS, TabFolder.class);
        gui.until("the swap marked on the charts", () -> Integer.valueOf(1).equals(tabs.getData(ConsoleService.SWAPS_DATA)));
        gui.screenshot(shell, context.getProperty("ringlab.screenshots"), "console-swap");

        gui.click(gui.find(shell, ConsoleService.ID_STOP, Button.class));
        Text summary = gui.find(shell, ConsoleService.ID_SUMMARY, Text.class);
        gui.until("the stopped run's result", () -> summary.getData(ConsoleService.RESULT_DATA) != null);
        RunResultDTO r = (RunResultDTO) summary.getData(ConsoleService.RESULT_DATA);
        assertTrue(r.invariants.packetConservation && r.invariants.bufferConservation, r.invariants.violations.toString());
        assertEquals(1, r.swaps.size());
        SwapDTO d = r.swaps.get(0);
        assertTrue(d.applied && d.handover, d.message);
        assertEquals(0, d.packetsDropped);
        assertTrue(summary.getText().contains("swap at "), summary.getText());

        // the recorded time replays it: a headless run to the same virtual time with --swap there gives the same metrics
        RunOptionsDTO o = new RunOptionsDTO();
        o.seed = 5L;
        o.swaps.add(Math.round(d.atSimulatedSeconds * 1e12) + "ps:eth0");
        RunResultDTO replay = simulator.prepare(PipelineReader.read(file), o).run();
        assertEquals(d.stateHash, replay.swaps.get(0).stateHash, "the replay swaps in the same state");
        assertEquals(d.packetsTransferred, replay.swaps.get(0).packetsTransferred);
    }

    private String bundleVersion(String bsn) {
        for (var b : context.getBundles()) {
            if (bsn.equals(b.getSymbolicName())) {
                return b.getVersion().toString();
            }
        }
        return "?";
    }
}

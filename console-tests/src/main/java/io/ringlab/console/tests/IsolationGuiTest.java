package io.ringlab.console.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Text;
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
        assertFalse(gui.find(shell, ConsoleService.ID_PAUSE, Button.class).isEnabled(), "no pause in a separate process");
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
}

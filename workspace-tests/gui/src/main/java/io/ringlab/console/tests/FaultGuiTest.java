package io.ringlab.console.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Hashtable;

import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Text;
import org.junit.jupiter.api.Test;
import org.osgi.framework.ServiceRegistration;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.console.api.ConsoleService;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * An element that never returns from an event: the per-event watchdog (1 s in this test framework,
 * {@code ringlab.eventWatchdogMillis}) ends its run with a report naming it, the console shows it, and goes on: the
 * next run works.
 */
class FaultGuiTest extends GuiTest {
    /** Set to false at the end, so that the abandoned engine thread leaves its loop and frees its core. */
    private static volatile boolean spin = true;

    /** A sink that loops for ever on its third packet, ignoring interrupts as a real endless loop would. */
    private static final class Looper implements ElementFactory {
        @Override
        public ElementDescriptorDTO descriptor() {
            ElementDescriptorDTO d = new ElementDescriptorDTO();
            d.type = "looper";
            d.category = ElementDescriptorDTO.SINK;
            d.summary = "a broken sink for FaultGuiTest";
            d.ports.add(PortDescriptorDTO.of("in", PortDescriptorDTO.Direction.IN, PortDescriptorDTO.Mode.PUSH, true, "packets"));
            return d;
        }

        @Override
        public Element create(ElementContext ctx) {
            return new Element() {
                private int n;

                @Override
                public void push(int port, Buffer b) {
                    if (++n == 3) {
                        while (spin) {
                            Thread.onSpinWait();
                        }
                    }
                    ctx.deliver(0, b);
                }
            };
        }
    }

    @Test
    void aStuckElementFailsItsRunWithAReportAndTheConsoleGoesOn() throws Exception {
        Hashtable<String, Object> props = new Hashtable<>();
        props.put(ElementFactory.TYPE, "looper");
        ServiceRegistration<ElementFactory> reg = context.registerService(ElementFactory.class, new Looper(), props);
        Path dir = Path.of(context.getProperty("ringlab.screenshots")).getParent();
        Files.createDirectories(dir);
        Path file = dir.resolve("looper.pipeline");
        Files.writeString(file, """
                duration = 1ms
                element src : source { rate = 1Gbit; size = 1518B }
                element spinner : looper
                src -> spinner
                """);
        try {
            shell = console.open(display, file);
            gui.click(gui.find(shell, ConsoleService.ID_RUN, Button.class));
            Text summary = gui.find(shell, ConsoleService.ID_SUMMARY, Text.class);
            gui.until("the watchdog's result", () -> summary.getData(ConsoleService.RESULT_DATA) != null);
            RunResultDTO r = (RunResultDTO) summary.getData(ConsoleService.RESULT_DATA);
            assertEquals("FAILED", r.state);
            assertTrue(r.error.startsWith("element spinner (type looper, bundle io.ringlab.console.tests:")
                    && r.error.contains("has run one event for") && r.error.contains("without returning"), r.error);
            gui.until("an error dialog", () -> !gui.errorDialogs().isEmpty());
            Shell dialog = gui.errorDialogs().get(0);
            assertTrue(Gui.texts(dialog).contains("has run one event for"), Gui.texts(dialog));
            dialog.close();

            // the console goes on: another pipeline runs to its end while the stuck thread is still looping
            shell.dispose();
            shell = console.open(display, Path.of(context.getProperty("ringlab.home")).resolve("pipelines/netdev-bql.pipeline"));
            gui.find(shell, ConsoleService.ID_DURATION, Text.class).setText("5ms");
            gui.click(gui.find(shell, ConsoleService.ID_RUN, Button.class));
            Text again = gui.find(shell, ConsoleService.ID_SUMMARY, Text.class);
            gui.until("the next run's result", () -> again.getData(ConsoleService.RESULT_DATA) != null);
            assertEquals("FINISHED", ((RunResultDTO) again.getData(ConsoleService.RESULT_DATA)).state);
        } finally {
            spin = false;
            reg.unregister();
        }
    }
}

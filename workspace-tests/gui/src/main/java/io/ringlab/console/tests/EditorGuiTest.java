package io.ringlab.console.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.MenuItem;
import org.eclipse.swt.widgets.ScrollBar;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Text;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeItem;
import org.junit.jupiter.api.Test;

import io.ringlab.console.api.ConsoleService;
import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.pipeline.format.PipelineWriter;
import io.ringlab.sim.api.dto.ConnectionDTO;
import io.ringlab.sim.api.dto.PipelineDTO;

/**
 * The canvas editor driven through its widgets' events, as a user's mouse and keys would drive it: palette double-clicks
 * place elements, mouse drags on the canvas move them and connect ports, Del deletes, the Edit menu undoes and redoes,
 * File > Save writes, and a reload gives the saved pipeline back. Coordinates are canvas pixels at zoom 100 % (Ctrl+0):
 * a box is 120 wide and 44 high, 73 with the two level rows of a qdisc or netdev (EditorGeometry), with one port per
 * direction at mid-height on its left (input) and right (output) edge; new elements go in a column, 110 apart.
 */
class EditorGuiTest extends GuiTest {
    @Test
    void placeMoveConnectDeleteUndoRedoSaveAndReloadTheSamePipeline() throws Exception {
        Path file = emptyFile("editor-roundtrip.pipeline");
        shell = console.open(display, file);
        Canvas canvas = gui.find(shell, ConsoleService.ID_PIPELINE, Canvas.class);
        Label message = gui.find(shell, ConsoleService.ID_EDITOR_MESSAGE, Label.class);
        key(canvas, '0', SWT.CTRL);
        assertEquals("zoom 100 %", message.getText());

        place("source");
        gui.until("source1 on the canvas", () -> names(pipeline(canvas)).equals(List.of("source1")));
        place("pfifo");
        gui.until("pfifo1 on the canvas", () -> names(pipeline(canvas)).equals(List.of("source1", "pfifo1")));
        assertTrue(shell.getText().startsWith("Ringlab console - *editor-roundtrip"), shell.getText());
        assertXY(pipeline(canvas), "source1", 20, 20);
        assertXY(pipeline(canvas), "pfifo1", 20, 130);

        drag(canvas, 80, 166, 260, 56, 0); // pfifo1 by its middle, 180 right and 110 up
        assertXY(pipeline(canvas), "pfifo1", 200, 20);
        drag(canvas, 140, 42, 200, 56, 0); // source1.out -> pfifo1.in
        List<ConnectionDTO> cs = pipeline(canvas).connections;
        assertEquals(1, cs.size(), message.getText());
        assertEquals("source1 -> pfifo1", cs.get(0).from + (cs.get(0).fromPort == null ? "" : "." + cs.get(0).fromPort) + " -> "
                + cs.get(0).to + (cs.get(0).toPort == null ? "" : "." + cs.get(0).toPort));
        assertEquals("connected source1.out -> pfifo1.in", message.getText());

        // a third element, deleted with Del, back with Undo, gone again with Redo
        place("sink");
        gui.until("sink1 on the canvas", () -> names(pipeline(canvas)).contains("sink1"));
        assertXY(pipeline(canvas), "sink1", 20, 130);
        String withSink = text(pipeline(canvas));
        click(canvas, 80, 152, 0);
        key(canvas, SWT.DEL, 0);
        assertEquals(List.of("source1", "pfifo1"), names(pipeline(canvas)));
        String withoutSink = text(pipeline(canvas));
        menu(ConsoleService.ID_MENU_UNDO);
        assertEquals(withSink, text(pipeline(canvas)));
        menu(ConsoleService.ID_MENU_REDO);
        assertEquals(withoutSink, text(pipeline(canvas)));

        // multi-select: a rubber band around both boxes, then Ctrl-click takes one out; a drag moves what is selected
        drag(canvas, 5, 5, 400, 100, 0);
        click(canvas, 80, 42, SWT.CTRL); // source1 leaves the selection
        drag(canvas, 260, 42, 270, 52, 0);
        assertXY(pipeline(canvas), "pfifo1", 210, 30);
        assertXY(pipeline(canvas), "source1", 20, 20);
        menu(ConsoleService.ID_MENU_UNDO);
        assertXY(pipeline(canvas), "pfifo1", 200, 20);

        // automatic layout with ELK (on the framework class path, cnf/swt.bnd): one command, undone as one
        String placed = text(pipeline(canvas));
        menu(ConsoleService.ID_MENU_LAYOUT);
        assertEquals("arranged 2 elements (ELK layered)", message.getText());
        PipelineDTO arranged = pipeline(canvas);
        assertTrue(arranged.layout.get("pfifo1")[0] >= arranged.layout.get("source1")[0] + 120, text(arranged));
        menu(ConsoleService.ID_MENU_UNDO);
        assertEquals(placed, text(pipeline(canvas)));

        // save, then the file reads back to the pipeline the editor holds; a reload shows the same
        menu(ConsoleService.ID_MENU_SAVE);
        gui.until("the clean title", () -> !shell.getText().contains("*"));
        PipelineDTO edited = pipeline(canvas);
        PipelineDTO saved = PipelineReader.read(file);
        assertEquals(text(edited), text(saved));
        assertEquals(Files.readString(file), PipelineWriter.write(edited), "the file is the canonical text of the edited pipeline");
        assertEquals(2, saved.layout.size());
        shell.close();
        gui.settle();
        assertTrue(shell.isDisposed(), "a clean window closes without a question");
        shell = console.open(display, file);
        Canvas reloaded = gui.find(shell, ConsoleService.ID_PIPELINE, Canvas.class);
        assertEquals(text(saved), text(pipeline(reloaded)));
        assertFalse(shell.getText().contains("*"), shell.getText());
        gui.screenshot(shell, context.getProperty("ringlab.screenshots"), "console-editor");
    }

    @Test
    @SuppressWarnings("unchecked")
    void aZoomedInPipelineScrollsAndTheMouseStillHitsWhatIsDrawn() throws Exception {
        Path sample = Path.of(context.getProperty("ringlab.home"), "pipelines", "stmmac-bql-100m.pipeline");
        shell = console.open(display, sample);
        Canvas canvas = gui.find(shell, ConsoleService.ID_PIPELINE, Canvas.class);
        Label message = gui.find(shell, ConsoleService.ID_EDITOR_MESSAGE, Label.class);
        gui.settle();
        key(canvas, '0', SWT.CTRL);
        for (int i = 0; i < 4; i++) {
            key(canvas, '+', SWT.CTRL);
        }
        assertTrue(message.getText().startsWith("zoom "), message.getText());
        ScrollBar h = canvas.getHorizontalBar();
        assertTrue(h.getEnabled() && h.getMaximum() > h.getThumb(), "zoomed in, the pipeline is wider than the view: "
                + h.getMaximum() + " > " + h.getThumb());
        Map<String, int[]> before = (Map<String, int[]>) canvas.getData(ConsoleService.BOUNDS_DATA);
        int viewHeight = canvas.getClientArea().height;
        String rightmost = before.entrySet().stream().filter(e -> e.getValue()[1] + e.getValue()[3] <= viewHeight) // in the top rows
                .max(java.util.Comparator.comparingInt(e -> e.getValue()[0])).get().getKey();
        assertTrue(before.get(rightmost)[0] > canvas.getClientArea().width, rightmost + " is out of view before scrolling");
        h.setSelection(h.getMaximum() - h.getThumb());
        h.notifyListeners(SWT.Selection, new Event());
        int[] b = ((Map<String, int[]>) canvas.getData(ConsoleService.BOUNDS_DATA)).get(rightmost);
        assertTrue(b[0] >= 0 && b[0] + b[2] <= canvas.getClientArea().width && b[1] >= 0 && b[1] + b[3] <= viewHeight,
                rightmost + " is in view after scrolling: " + java.util.Arrays.toString(b));
        click(canvas, b[0] + b[2] / 2, b[1] + b[3] / 2, 0);
        assertEquals(rightmost, canvas.getData(ConsoleService.SELECTION_DATA), "a click hits the box where it is drawn");
        gui.screenshot(shell, context.getProperty("ringlab.screenshots"), "console-editor-scrolled");
    }

    @Test
    void aRefusedConnectionLeavesTheModelUnchangedAndSaysWhy() throws Exception {
        Path file = emptyFile("editor-refused.pipeline");
        shell = console.open(display, file);
        Canvas canvas = gui.find(shell, ConsoleService.ID_PIPELINE, Canvas.class);
        Label message = gui.find(shell, ConsoleService.ID_EDITOR_MESSAGE, Label.class);
        key(canvas, '0', SWT.CTRL);
        place("source");
        place("netdev");
        gui.until("two elements", () -> names(pipeline(canvas)).equals(List.of("source1", "netdev1")));
        String before = text(pipeline(canvas));

        drag(canvas, 140, 42, 20, 166, 0); // source1.out (push) -> netdev1.in (pull)
        assertEquals("refused: cannot connect source1.out (push output) to netdev1.in (pull input): a connection joins ports"
                + " of the same mode", message.getText());
        assertEquals(before, text(pipeline(canvas)));
        drag(canvas, 140, 42, 140, 166, 0); // source1.out -> netdev1.wire: two outputs
        assertTrue(message.getText().startsWith("refused: cannot connect two outputs (source1.out and netdev1.wire)"), message.getText());
        assertEquals(before, text(pipeline(canvas)));
        String undo = menuItem(ConsoleService.ID_MENU_UNDO).getText();
        assertTrue(undo.startsWith("&Undo Add netdev1"), "a refused connection is not on the undo stack: " + undo);

        // unsaved edits: opening a sample asks first; Cancel keeps the edits
        answerQuestion("Cancel");
        org.eclipse.swt.widgets.List samples = gui.find(shell, ConsoleService.ID_SAMPLES, org.eclipse.swt.widgets.List.class);
        samples.select(Arrays.asList(samples.getItems()).indexOf("netdev-bql"));
        samples.notifyListeners(SWT.Selection, new Event());
        assertEquals(before, text(pipeline(canvas)), "Cancel kept the edits");
        assertTrue(shell.getText().contains("*editor-refused"), shell.getText());

        // rename in place: double-click the box, type, Enter
        mouse(canvas, SWT.MouseDoubleClick, 80, 166, 0);
        Text field = Arrays.stream(canvas.getChildren()).filter(Text.class::isInstance).map(Text.class::cast).findFirst()
                .orElseThrow(() -> new AssertionError("no rename field on the canvas"));
        assertEquals("netdev1", field.getText());
        field.setText("eth0");
        field.notifyListeners(SWT.DefaultSelection, new Event());
        gui.settle();
        assertEquals(List.of("source1", "eth0"), names(pipeline(canvas)));
        assertEquals("renamed netdev1 to eth0", message.getText());
        menu(ConsoleService.ID_MENU_UNDO);
        assertEquals(before, text(pipeline(canvas)));
        menu(ConsoleService.ID_MENU_UNDO);
        menu(ConsoleService.ID_MENU_UNDO);
        assertFalse(shell.getText().contains("*"), "undo back to the file is clean: " + shell.getText());
    }

    // ------------------------------------------------------------------ helpers

    private Path emptyFile(String name) throws Exception {
        Path dir = Path.of(context.getProperty("ringlab.screenshots")).getParent();
        Files.createDirectories(dir);
        return Files.writeString(dir.resolve(name), "description = \"made by the editor's GUI test\"\n");
    }

    /** Double-clicks a type in the palette (the tree's default selection, as GTK sends on a double-click). */
    private void place(String type) {
        Tree palette = gui.find(shell, ConsoleService.ID_PALETTE, Tree.class);
        for (TreeItem c : palette.getItems()) {
            for (TreeItem t : c.getItems()) {
                if (t.getText().startsWith(type + "  (")) {
                    palette.setSelection(t);
                    Event e = new Event();
                    e.item = t;
                    palette.notifyListeners(SWT.DefaultSelection, e);
                    return;
                }
            }
        }
        fail("no palette type " + type);
    }

    private static void mouse(Control c, int type, int x, int y, int stateMask) {
        Event e = new Event();
        e.button = 1;
        e.x = x;
        e.y = y;
        e.stateMask = stateMask;
        c.notifyListeners(type, e);
    }

    private static void click(Control c, int x, int y, int stateMask) {
        mouse(c, SWT.MouseDown, x, y, stateMask);
        mouse(c, SWT.MouseUp, x, y, stateMask);
    }

    /** Presses at one point, moves in two steps, releases at another. */
    private static void drag(Control c, int x1, int y1, int x2, int y2, int stateMask) {
        mouse(c, SWT.MouseDown, x1, y1, stateMask);
        mouse(c, SWT.MouseMove, (x1 + x2) / 2, (y1 + y2) / 2, stateMask | SWT.BUTTON1);
        mouse(c, SWT.MouseMove, x2, y2, stateMask | SWT.BUTTON1);
        mouse(c, SWT.MouseUp, x2, y2, stateMask);
    }

    private static void key(Control c, int key, int stateMask) {
        Event e = new Event();
        e.keyCode = key;
        e.character = key < 0x10000 ? (char) key : 0;
        e.stateMask = stateMask;
        c.notifyListeners(SWT.KeyDown, e);
    }

    private MenuItem menuItem(String id) {
        return gui.menuItem(shell, id);
    }

    private void menu(String id) {
        MenuItem i = menuItem(id);
        assertTrue(i.isEnabled(), id + " is disabled");
        i.notifyListeners(SWT.Selection, new Event());
    }

    /** Arms a timer that presses a button of the blocking "unsaved changes" question once it is open. */
    private void answerQuestion(String button) {
        long end = System.nanoTime() + Gui.BOUND_MILLIS * 1_000_000L;
        Runnable[] answer = new Runnable[1];
        answer[0] = () -> {
            for (Shell s : display.getShells()) {
                if (!s.isDisposed() && ConsoleService.ID_QUESTION.equals(s.getData(ConsoleService.WIDGET_ID))) {
                    Button b = button(s, button);
                    if (b != null) {
                        b.notifyListeners(SWT.Selection, new Event());
                        return;
                    }
                }
            }
            if (System.nanoTime() < end) {
                display.timerExec(50, answer[0]);
            }
        };
        display.timerExec(50, answer[0]);
    }

    private static Button button(org.eclipse.swt.widgets.Composite c, String text) {
        for (Control k : c.getChildren()) {
            if (k instanceof Button b && text.equals(b.getText())) {
                return b;
            }
            if (k instanceof org.eclipse.swt.widgets.Composite cc) {
                Button b = button(cc, text);
                if (b != null) {
                    return b;
                }
            }
        }
        return null;
    }

    private static PipelineDTO pipeline(Canvas canvas) {
        PipelineDTO p = (PipelineDTO) canvas.getData(ConsoleService.PIPELINE_DATA);
        assertNotNull(p, "the canvas carries no pipeline");
        return p;
    }

    private static List<String> names(PipelineDTO p) {
        return p.elements.stream().map(e -> e.name).toList();
    }

    /** @return the canonical text, which holds every semantic field and the layout (the file field only names it) */
    private static String text(PipelineDTO p) {
        return PipelineWriter.write(p);
    }

    private static void assertXY(PipelineDTO p, String element, double x, double y) {
        double[] xy = p.layout.get(element);
        assertNotNull(xy, "no position for " + element);
        assertEquals(x + ", " + y, xy[0] + ", " + xy[1], "position of " + element);
    }
}

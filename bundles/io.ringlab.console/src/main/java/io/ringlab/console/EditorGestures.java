package io.ringlab.console;

import java.util.ArrayList;
import java.util.function.Consumer;

import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.ScrollBar;
import org.eclipse.swt.widgets.Text;

import io.ringlab.sim.api.dto.ConnectionDTO;

/**
 * The pipeline editor's mouse and keys: turns canvas events into selection changes and the model's commands.
 * <p>
 * Mouse: a press on a port starts a connection (released on another port it connects them, or says why not); on a box it
 * selects it (Ctrl/Shift toggles) and drags the selection; on a connection it selects it; elsewhere it starts a rubber
 * band. Double-click on a box renames the element in place, or opens its inspector while the canvas shows a run's
 * state. Keys: F2 renames the selected element, Del/Backspace delete the selection, Ctrl+plus/minus/0
 * zoom, Ctrl+A selects all; Ctrl+wheel zooms, the wheel scrolls (Shift: sideways). UI thread only.
 */
final class EditorGestures {

    private enum Drag {
        NONE, MOVE, CONNECT, BAND
    }

    private final PipelineEditor editor;
    private final Canvas canvas;
    private final EditorSelection selection;
    private final EditorViewport view;
    private final Consumer<String> log;
    private Drag drag = Drag.NONE;
    private double downX, downY, lastX, lastY;
    private PortRef dragPort;
    private Text renaming;

    /**
     * @param editor the editor: its model, geometry, messages and commands
     * @param canvas its canvas, whose events this takes
     * @param selection its selection
     * @param view its zoom and scroll position
     * @param log takes one line for the console's log
     */
    EditorGestures(PipelineEditor editor, Canvas canvas, EditorSelection selection, EditorViewport view,
            Consumer<String> log) {
        this.editor = editor;
        this.canvas = canvas;
        this.selection = selection;
        this.view = view;
        this.log = log;
    }

    /** Listens to the canvas's mouse, keys and wheel. */
    void install() {
        canvas.addListener(SWT.MouseDown, this::mouseDown);
        canvas.addListener(SWT.MouseMove, this::mouseMove);
        canvas.addListener(SWT.MouseUp, this::mouseUp);
        canvas.addListener(SWT.MouseDoubleClick, this::doubleClick);
        canvas.addListener(SWT.KeyDown, this::keyDown);
        canvas.addListener(SWT.MouseVerticalWheel, this::wheel);
    }

    /** @return the port a connection is being dragged from, or {@code null} when no connection is being dragged */
    PortRef connectingFrom() {
        return drag == Drag.CONNECT ? dragPort : null;
    }

    /** @return whether a rubber band is being dragged (from {@link #downX()}, {@link #downY()} to the last point) */
    boolean banding() {
        return drag == Drag.BAND;
    }

    /** @return where the drag started, x in pipeline units */
    double downX() {
        return downX;
    }

    /** @return where the drag started, y in pipeline units */
    double downY() {
        return downY;
    }

    /** @return where the mouse was last during a drag, x in pipeline units */
    double lastX() {
        return lastX;
    }

    /** @return where the mouse was last during a drag, y in pipeline units */
    double lastY() {
        return lastY;
    }

    private void mouseDown(Event e) {
        if (e.button != 1) {
            return;
        }
        canvas.setFocus();
        EditorGeometry geometry = editor.geometry();
        double x = view.ux(e.x), y = view.uy(e.y);
        downX = lastX = x;
        downY = lastY = y;
        boolean toggle = (e.stateMask & (SWT.MOD1 | SWT.SHIFT)) != 0;
        PortRef port = geometry.portAt(x, y);
        String element = port == null ? geometry.elementAt(x, y) : null;
        ConnectionDTO link = port == null && element == null ? geometry.connectionAt(x, y) : null;
        if (port != null) {
            drag = Drag.CONNECT;
            dragPort = port;
        } else if (element != null) {
            if (toggle) {
                selection.toggle(element);
            } else if (!selection.has(element)) {
                selection.only(element);
            }
            drag = selection.has(element) ? Drag.MOVE : Drag.NONE;
        } else if (link != null) {
            if (!toggle) {
                selection.clear();
            }
            selection.toggle(link);
            drag = Drag.NONE;
        } else {
            if (!toggle) {
                selection.clear();
            }
            drag = Drag.BAND;
        }
        selection.changed();
        canvas.redraw();
    }

    private void mouseMove(Event e) {
        if (drag == Drag.NONE) {
            return;
        }
        double x = view.ux(e.x), y = view.uy(e.y);
        if (drag == Drag.MOVE) {
            editor.model().preview(selection.elements(), x - lastX, y - lastY);
        }
        lastX = x;
        lastY = y;
        canvas.redraw();
    }

    private void mouseUp(Event e) {
        if (e.button != 1 || drag == Drag.NONE) {
            return;
        }
        EditablePipeline model = editor.model();
        double x = view.ux(e.x), y = view.uy(e.y);
        Drag was = drag;
        drag = Drag.NONE;
        switch (was) {
        case MOVE -> {
            model.preview(selection.elements(), x - lastX, y - lastY); // the last stretch, then take the whole preview back
            double dx = Math.round(x - downX), dy = Math.round(y - downY);
            model.preview(selection.elements(), -(x - downX), -(y - downY));
            model.move(new ArrayList<>(selection.elements()), dx, dy);
        }
        case CONNECT -> {
            PortRef target = editor.geometry().portAt(x, y);
            if (target != null && !target.equals(dragPort)) {
                String why = model.connect(dragPort, target);
                if (why != null) {
                    editor.say("refused: " + why);
                    log.accept("connection refused: " + why);
                } else {
                    editor.say("connected " + dragPort + " -> " + target);
                }
            }
        }
        case BAND -> selection.addAll(editor.geometry().elementsIn(downX, downY, x, y));
        default -> {
        }
        }
        editor.publishBounds();
        selection.changed();
        canvas.redraw();
    }

    /**
     * A double-click on an element: while the canvas shows a run's state, opens the element's inspector (as Qtenv's
     * double-click does); otherwise renames it in place (F2 renames at any time).
     */
    private void doubleClick(Event e) {
        EditorGeometry geometry = editor.geometry();
        String element = geometry.elementAt(view.ux(e.x), view.uy(e.y));
        if (element == null || geometry.portAt(view.ux(e.x), view.uy(e.y)) != null) {
            return;
        }
        if (editor.showsRunState()) {
            editor.inspect(element);
        } else {
            rename(element);
        }
    }

    /** Renames an element in place: a field over its name, Enter or leaving the field commits, Esc cancels. */
    void rename(String element) {
        EditorGeometry geometry = editor.geometry();
        if (renaming != null && !renaming.isDisposed()) {
            renaming.dispose();
        }
        double[] xy = editor.model().position(element);
        Text t = new Text(canvas, SWT.BORDER | SWT.SINGLE);
        renaming = t;
        t.setText(element);
        t.selectAll();
        t.setBounds(view.px(xy[0] + 4), view.py(xy[1] + 2), view.scaled(EditorGeometry.BOX_W - 8),
                t.computeSize(SWT.DEFAULT, SWT.DEFAULT).y);
        boolean[] done = { false }; // Enter commits, and disposing the field then sends FocusOut: commit once
        Runnable commit = () -> {
            if (done[0] || t.isDisposed()) {
                return;
            }
            done[0] = true;
            String to = t.getText().strip();
            t.dispose();
            String why = editor.model().rename(element, to);
            editor.say(why != null ? "cannot rename: " + why : element.equals(to) ? "" : "renamed " + element + " to " + to);
            if (why == null) {
                selection.onlyElement(to);
            }
        };
        t.addListener(SWT.DefaultSelection, ev -> commit.run());
        t.addListener(SWT.FocusOut, ev -> commit.run());
        t.addListener(SWT.KeyDown, ev -> {
            if (ev.keyCode == SWT.ESC) {
                done[0] = true;
                t.dispose();
                canvas.setFocus();
            }
        });
        t.setFocus();
    }

    private void keyDown(Event e) {
        if (e.keyCode == SWT.DEL || e.keyCode == SWT.BS) {
            editor.deleteSelection();
        } else if (e.keyCode == SWT.F2 && selection.single() != null) {
            rename(selection.single());
        } else if ((e.stateMask & SWT.MOD1) != 0) {
            if (e.character == '+' || e.character == '=' || e.keyCode == SWT.KEYPAD_ADD) {
                editor.zoomTo(view.zoom() * EditorViewport.ZOOM_STEP);
            } else if (e.character == '-' || e.keyCode == SWT.KEYPAD_SUBTRACT) {
                editor.zoomTo(view.zoom() / EditorViewport.ZOOM_STEP);
            } else if (e.character == '0' || e.keyCode == SWT.KEYPAD_0) {
                editor.zoomTo(1);
            } else if (e.keyCode == 'a') { // not a menu accelerator: Ctrl+A must stay select-all in the text fields
                editor.selectAll();
            }
        }
    }

    private void wheel(Event e) {
        if ((e.stateMask & SWT.MOD1) != 0 && e.count != 0) {
            editor.zoomTo(e.count > 0 ? view.zoom() * EditorViewport.ZOOM_STEP : view.zoom() / EditorViewport.ZOOM_STEP);
            e.doit = false;
        } else if (e.count != 0) { // the wheel scrolls a pipeline larger than the view (Shift: sideways)
            ScrollBar bar = (e.stateMask & SWT.SHIFT) != 0 ? canvas.getHorizontalBar() : canvas.getVerticalBar();
            if (bar.getEnabled()) {
                bar.setSelection(bar.getSelection() - e.count * bar.getIncrement());
                editor.scrolled();
            }
            e.doit = false;
        }
    }
}

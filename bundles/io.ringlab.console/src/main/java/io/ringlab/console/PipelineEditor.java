package io.ringlab.console;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.jface.resource.JFaceResources;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.TreeViewer;
import org.eclipse.swt.SWT;
import org.eclipse.swt.dnd.DND;
import org.eclipse.swt.dnd.DragSource;
import org.eclipse.swt.dnd.DragSourceAdapter;
import org.eclipse.swt.dnd.DragSourceEvent;
import org.eclipse.swt.dnd.DropTarget;
import org.eclipse.swt.dnd.DropTargetAdapter;
import org.eclipse.swt.dnd.DropTargetEvent;
import org.eclipse.swt.dnd.TextTransfer;
import org.eclipse.swt.dnd.Transfer;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.graphics.Transform;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.FileDialog;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Menu;
import org.eclipse.swt.widgets.MenuItem;
import org.eclipse.swt.widgets.ScrollBar;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Text;

import io.ringlab.console.api.ConsoleService;
import io.ringlab.pipeline.format.OutputFile;
import io.ringlab.pipeline.format.PipelineWriter;
import io.ringlab.sim.api.dto.ConnectionDTO;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Direction;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Mode;

/**
 * The pipeline editor's view: a canvas that draws an {@link EditablePipeline} with {@link EditorGeometry} and turns mouse
 * and key events into the model's commands, a message line, and the File and Edit menu items. The logic (commands, undo,
 * connection rules, hit-testing) lives in those SWT-free classes; this class only maps events to them and draws.
 * <p>
 * Mouse: a press on a port starts a connection (released on another port it connects them, or says why not); on a box it
 * selects it (Ctrl/Shift toggles) and drags the selection; on a connection it selects it; elsewhere it starts a rubber
 * band. Double-click on a box renames the element in place. Keys: Del/Backspace delete the selection, Ctrl+plus/minus/0
 * zoom, Ctrl+wheel zooms. Palette types are placed by a double-click in the palette or by dragging them onto the canvas.
 * <p>
 * UI thread only. Colours need no disposal (SWT 3.115+ colours hold no OS resource); fonts come from JFace's registry.
 */
final class PipelineEditor {
    static final double MIN_ZOOM = 0.25, MAX_ZOOM = 4, ZOOM_STEP = 1.25;

    private enum Drag {
        NONE, MOVE, CONNECT, BAND
    }

    private final Composite area;
    private final Canvas canvas;
    private final Label message;
    private final Consumer<String> log;
    private final BiConsumer<String, String> error;
    private final Runnable changed;
    private final Map<String, Color> categoryColors = new HashMap<>();
    private final Color selectionColor;
    private List<ElementDescriptorDTO> installed = List.of();
    private Map<String, String> categories = Map.of();

    private EditablePipeline model;
    private EditorGeometry geometry;
    /** The file the pipeline is saved to; {@code null} for a new pipeline not yet saved. */
    private Path file;
    private final Set<String> selected = new LinkedHashSet<>();
    private final Set<ConnectionDTO> selectedLinks = Collections.newSetFromMap(new IdentityHashMap<>());
    private double zoom = 1;
    /** The view's top left corner in zoomed pixels: what the scroll bars show. */
    private int originX, originY;
    private Consumer<String> selectionListener = name -> {
    };
    private String notifiedSelection;

    private Drag drag = Drag.NONE;
    private double downX, downY, lastX, lastY;
    private PortRef dragPort;
    private Text renaming;
    private MenuItem undoItem, redoItem;

    /**
     * @param parent where the editor goes
     * @param log takes one line for the console's log
     * @param error shows an error (title, message) in a dialog and the log
     * @param changed called after every change of the pipeline or its file (the window updates its buttons)
     */
    PipelineEditor(Composite parent, Consumer<String> log, BiConsumer<String, String> error, Runnable changed) {
        this.log = log;
        this.error = error;
        this.changed = changed;
        area = new Composite(parent, SWT.NONE);
        GridLayout gl = new GridLayout(1, false);
        gl.marginWidth = gl.marginHeight = 0;
        gl.verticalSpacing = 2;
        area.setLayout(gl);
        canvas = new Canvas(area, SWT.DOUBLE_BUFFERED | SWT.BORDER | SWT.H_SCROLL | SWT.V_SCROLL);
        canvas.setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
        canvas.setData(ConsoleService.WIDGET_ID, ConsoleService.ID_PIPELINE);
        canvas.setBackground(canvas.getDisplay().getSystemColor(SWT.COLOR_LIST_BACKGROUND));
        message = new Label(area, SWT.NONE);
        message.setData(ConsoleService.WIDGET_ID, ConsoleService.ID_EDITOR_MESSAGE);
        message.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        var d = parent.getDisplay();
        selectionColor = d.getSystemColor(SWT.COLOR_LIST_SELECTION);
        categoryColors.put(ElementDescriptorDTO.SOURCE, new Color(d, 0xd8, 0xea, 0xd3));
        categoryColors.put(ElementDescriptorDTO.QDISC, new Color(d, 0xfc, 0xe8, 0xb2));
        categoryColors.put(ElementDescriptorDTO.DRIVER, new Color(d, 0xc9, 0xda, 0xf8));
        categoryColors.put(ElementDescriptorDTO.LINK, new Color(d, 0xe6, 0xe6, 0xe6));
        categoryColors.put(ElementDescriptorDTO.SINK, new Color(d, 0xf4, 0xcc, 0xcc));
        categoryColors.put(ElementDescriptorDTO.HOST, new Color(d, 0xe4, 0xd7, 0xf5));

        canvas.addPaintListener(e -> paint(e.gc));
        canvas.addListener(SWT.Resize, e -> {
            updateScrollBars();
            canvas.redraw();
        });
        canvas.getHorizontalBar().addListener(SWT.Selection, e -> scrolled());
        canvas.getVerticalBar().addListener(SWT.Selection, e -> scrolled());
        canvas.addListener(SWT.MouseDown, this::mouseDown);
        canvas.addListener(SWT.MouseMove, this::mouseMove);
        canvas.addListener(SWT.MouseUp, this::mouseUp);
        canvas.addListener(SWT.MouseDoubleClick, this::doubleClick);
        canvas.addListener(SWT.KeyDown, this::keyDown);
        canvas.addListener(SWT.MouseVerticalWheel, this::wheel);
        DropTarget drop = new DropTarget(canvas, DND.DROP_COPY | DND.DROP_MOVE);
        drop.setTransfer(TextTransfer.getInstance());
        drop.addDropListener(new DropTargetAdapter() {
            @Override
            public void drop(DropTargetEvent e) {
                if (e.data instanceof String type) {
                    Point p = canvas.toControl(e.x, e.y);
                    place(type, ux(p.x) - EditorGeometry.BOX_W / 2.0, uy(p.y) - EditorGeometry.MIN_BOX_H / 2.0);
                }
            }
        });
        canvas.getShell().addListener(SWT.Close, e -> e.doit = e.doit && confirmDiscard());
        setModel(EditablePipeline.untitled(installed), null);
    }

    /** @return the editor's top control (canvas and message line), for the window's layout */
    Composite control() {
        return area;
    }

    // ------------------------------------------------------------------ hosting

    /** Adds New, Save and Save As to the window's File menu. */
    void fillFileMenu(Menu fileMenu) {
        item(fileMenu, "&New\tCtrl+N", SWT.MOD1 + 'N', ConsoleService.ID_MENU_NEW, this::newPipeline);
        item(fileMenu, "&Save\tCtrl+S", SWT.MOD1 + 'S', ConsoleService.ID_MENU_SAVE, this::save);
        item(fileMenu, "Save &As...\tCtrl+Shift+S", SWT.MOD1 + SWT.SHIFT + 'S', ConsoleService.ID_MENU_SAVE_AS, this::saveAs);
    }

    /** Adds the Edit menu to the window's menu bar. */
    void fillEditMenu(Menu bar) {
        MenuItem m = new MenuItem(bar, SWT.CASCADE);
        m.setText("&Edit");
        Menu edit = new Menu(m);
        m.setMenu(edit);
        undoItem = item(edit, "&Undo\tCtrl+Z", SWT.MOD1 + 'Z', ConsoleService.ID_MENU_UNDO, this::undo);
        redoItem = item(edit, "&Redo\tCtrl+Y", SWT.MOD1 + 'Y', ConsoleService.ID_MENU_REDO, this::redo);
        new MenuItem(edit, SWT.SEPARATOR);
        item(edit, "&Delete\tDel", 0, ConsoleService.ID_MENU_DELETE, this::deleteSelection);
        item(edit, "Select &All\tCtrl+A", 0, ConsoleService.ID_MENU_SELECT_ALL, this::selectAll);
        new MenuItem(edit, SWT.SEPARATOR);
        item(edit, "Auto &Layout\tCtrl+L", SWT.MOD1 + 'L', ConsoleService.ID_MENU_LAYOUT, this::autoLayout);
        item(edit, "Zoom &In\tCtrl++", 0, null, () -> zoomTo(zoom * ZOOM_STEP));
        item(edit, "Zoom &Out\tCtrl+-", 0, null, () -> zoomTo(zoom / ZOOM_STEP));
        item(edit, "Actual &Size\tCtrl+0", 0, null, () -> zoomTo(1));
        edit.addListener(SWT.Show, e -> updateMenu());
        updateMenu();
    }

    /** Places palette types on the canvas: a double-click on a type, or a drag onto the canvas. */
    void acceptTypesFrom(TreeViewer palette) {
        palette.addDoubleClickListener(e -> {
            if (e.getSelection() instanceof IStructuredSelection s && s.getFirstElement() instanceof ElementDescriptorDTO d) {
                double[] xy = geometry.freeSpot();
                place(d.type, xy[0], xy[1]);
            }
        });
        DragSource source = new DragSource(palette.getTree(), DND.DROP_COPY | DND.DROP_MOVE);
        source.setTransfer(new Transfer[] { TextTransfer.getInstance() });
        source.addDragListener(new DragSourceAdapter() {
            @Override
            public void dragStart(DragSourceEvent e) {
                e.doit = palette.getStructuredSelection().getFirstElement() instanceof ElementDescriptorDTO;
            }

            @Override
            public void dragSetData(DragSourceEvent e) {
                if (palette.getStructuredSelection().getFirstElement() instanceof ElementDescriptorDTO d) {
                    e.data = d.type;
                }
            }
        });
    }

    /** The installed types changed: new ports and colours. */
    void setTypes(List<ElementDescriptorDTO> types, Map<String, String> categoryOfType) {
        installed = List.copyOf(types);
        categories = Map.copyOf(categoryOfType);
        model.setTypes(installed);
        canvas.redraw();
    }

    /**
     * Shows a pipeline read from a file, replacing the edited one (the caller asked {@link #confirmDiscard} first); the
     * undo history starts empty.
     */
    void open(Path from, PipelineDTO p) {
        setModel(new EditablePipeline(p, installed), from);
        Rectangle view = canvas.getClientArea();
        double[] ext = geometry.extent();
        zoom = view.width <= 1 ? 1 : Math.max(MIN_ZOOM, Math.min(1.0, Math.min(view.width / ext[0], view.height / ext[1])));
        originX = originY = 0;
        updateScrollBars();
        publishBounds();
        canvas.redraw();
    }

    /** @return the pipeline as edited now (a copy): what Run runs and Save writes */
    PipelineDTO pipeline() {
        return model.pipeline();
    }

    /** @return the file the pipeline was opened from or saved to; {@code null} for an untitled one */
    Path file() {
        return file;
    }

    /** @return whether there is nothing to run */
    boolean isEmpty() {
        return model.elements().isEmpty();
    }

    /** @return the file's name for messages: the file name, or the untitled pipeline's name */
    String displayName() {
        return file != null ? file.getFileName().toString() : model.name();
    }

    /**
     * Asks, if there are unsaved edits, whether to save them, discard them, or cancel; a blocking question.
     *
     * @return whether the caller may go on (saved or discarded, or nothing to lose)
     */
    boolean confirmDiscard() {
        if (!model.dirty()) {
            return true;
        }
        MessageDialog q = new MessageDialog(canvas.getShell(), "Unsaved changes", null,
                "The pipeline " + displayName() + " has unsaved changes. Save them?", MessageDialog.QUESTION, 0, "Save", "Discard",
                "Cancel");
        q.create();
        q.getShell().setData(ConsoleService.WIDGET_ID, ConsoleService.ID_QUESTION);
        int answer = q.open();
        if (answer == 0) {
            return save();
        }
        return answer == 1;
    }

    // ------------------------------------------------------------------ commands

    private void setModel(EditablePipeline m, Path f) {
        model = m;
        geometry = new EditorGeometry(m);
        file = f;
        selected.clear();
        selectedLinks.clear();
        m.addListener(this::modelChanged);
        modelChanged();
    }

    private void modelChanged() {
        selected.removeIf(n -> model.element(n) == null);
        selectedLinks.removeIf(c -> model.connections().stream().noneMatch(k -> k == c));
        canvas.setData(ConsoleService.PIPELINE_DATA, model.pipeline());
        Shell shell = canvas.getShell();
        shell.setText("Ringlab console - " + (model.dirty() ? "*" : "") + model.name() + (file == null ? "" : " (" + file + ")"));
        updateMenu();
        updateScrollBars();
        publishBounds();
        canvas.redraw();
        changed.run();
        selectionChanged();
    }

    private void updateMenu() {
        if (undoItem == null || undoItem.isDisposed()) {
            return;
        }
        String u = model.undoLabel(), r = model.redoLabel();
        undoItem.setText("&Undo" + (u == null ? "" : " " + u) + "\tCtrl+Z");
        undoItem.setEnabled(u != null);
        redoItem.setText("&Redo" + (r == null ? "" : " " + r) + "\tCtrl+Y");
        redoItem.setEnabled(r != null);
    }

    private void place(String type, double x, double y) {
        String name = model.add(type, Math.round(x), Math.round(y));
        selected.clear();
        selectedLinks.clear();
        selected.add(name);
        say("placed " + name + " (" + type + "); double-click it to rename");
        canvas.redraw();
    }

    private void undo() {
        String label = model.undoLabel();
        if (model.undo()) {
            say("undone: " + label);
        }
    }

    private void redo() {
        String label = model.redoLabel();
        if (model.redo()) {
            say("redone: " + label);
        }
    }

    private void deleteSelection() {
        String label = selected.size() + " element(s), " + selectedLinks.size() + " connection(s)";
        if (model.delete(new ArrayList<>(selected), new ArrayList<>(selectedLinks))) {
            say("deleted " + label);
        }
    }

    private void selectAll() {
        model.elements().forEach(e -> selected.add(e.name));
        selectedLinks.addAll(model.connections());
        selectionChanged();
        canvas.redraw();
    }

    /** ELK's layered layout; if ELK cannot run here (missing from the class path), the console's own layered layout. */
    private void autoLayout() {
        Map<String, double[]> at;
        String how;
        try {
            at = ElkLayout.of(model);
            how = "ELK layered";
        } catch (RuntimeException | LinkageError e) {
            log.accept("ELK layout failed (" + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage())
                    + "); using the console's layered layout");
            at = new HashMap<>();
            PipelineDTO p = model.pipeline();
            p.layout.clear();
            for (Map.Entry<String, int[]> xy : PipelineLayout.of(p).entrySet()) {
                at.put(xy.getKey(), new double[] { xy.getValue()[0], xy.getValue()[1] });
            }
            how = "layers";
        }
        model.arrange(at);
        say("arranged " + at.size() + " elements (" + how + ")");
    }

    private void newPipeline() {
        if (confirmDiscard()) {
            setModel(EditablePipeline.untitled(installed), null);
            zoom = 1;
            say("new pipeline: place elements from the palette");
        }
    }

    /** @return whether the pipeline was saved */
    private boolean save() {
        return file == null ? saveAs() : saveTo(file);
    }

    private boolean saveAs() {
        FileDialog d = new FileDialog(canvas.getShell(), SWT.SAVE);
        d.setText("Save the pipeline");
        d.setFilterExtensions(new String[] { "*.pipeline", "*" });
        d.setOverwrite(true);
        d.setFileName(file != null ? file.getFileName().toString() : model.name() + ".pipeline");
        if (file != null && file.getParent() != null) {
            d.setFilterPath(file.getParent().toString());
        }
        String f = d.open();
        return f != null && saveTo(Path.of(f));
    }

    private boolean saveTo(Path to) {
        PipelineDTO p = model.pipeline();
        p.file = to.toString();
        if (p.name == null) {
            p.name = to.getFileName().toString().replaceFirst("\\.[^.]*$", "");
        }
        try {
            byte[] text = PipelineWriter.write(p).getBytes(java.nio.charset.StandardCharsets.UTF_8);
            OutputFile.write(to, out -> out.write(text));
        } catch (IOException e) {
            error.accept("Cannot save " + to.getFileName(), OutputFile.reason(e));
            return false;
        } catch (IllegalArgumentException e) {
            error.accept("Cannot save " + to.getFileName(), to + ": " + e.getMessage());
            return false;
        }
        file = to;
        model.saved(p);
        log.accept("saved " + to + ": " + p.elements.size() + " elements, " + p.connections.size() + " connections");
        say("saved " + to.getFileName());
        return true;
    }

    private void say(String text) {
        message.setText(text);
        message.setToolTipText(text);
    }

    private void zoomTo(double z) {
        zoom = Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, z));
        say(String.format(java.util.Locale.ROOT, "zoom %.0f %%", zoom * 100));
        updateScrollBars();
        publishBounds();
        canvas.redraw();
    }

    // ------------------------------------------------------------------ mouse and keys

    private void mouseDown(Event e) {
        if (e.button != 1) {
            return;
        }
        canvas.setFocus();
        double x = ux(e.x), y = uy(e.y);
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
                if (!selected.remove(element)) {
                    selected.add(element);
                }
            } else if (!selected.contains(element)) {
                selected.clear();
                selectedLinks.clear();
                selected.add(element);
            }
            drag = selected.contains(element) ? Drag.MOVE : Drag.NONE;
        } else if (link != null) {
            if (!toggle) {
                selected.clear();
                selectedLinks.clear();
            }
            if (!selectedLinks.remove(link)) {
                selectedLinks.add(link);
            }
            drag = Drag.NONE;
        } else {
            if (!toggle) {
                selected.clear();
                selectedLinks.clear();
            }
            drag = Drag.BAND;
        }
        selectionChanged();
        canvas.redraw();
    }

    private void mouseMove(Event e) {
        if (drag == Drag.NONE) {
            return;
        }
        double x = ux(e.x), y = uy(e.y);
        if (drag == Drag.MOVE) {
            model.preview(selected, x - lastX, y - lastY);
        }
        lastX = x;
        lastY = y;
        canvas.redraw();
    }

    private void mouseUp(Event e) {
        if (e.button != 1 || drag == Drag.NONE) {
            return;
        }
        double x = ux(e.x), y = uy(e.y);
        Drag was = drag;
        drag = Drag.NONE;
        switch (was) {
        case MOVE -> {
            model.preview(selected, x - lastX, y - lastY); // the last stretch, then take the whole preview back
            double dx = Math.round(x - downX), dy = Math.round(y - downY);
            model.preview(selected, -(x - downX), -(y - downY));
            model.move(new ArrayList<>(selected), dx, dy);
        }
        case CONNECT -> {
            PortRef target = geometry.portAt(x, y);
            if (target != null && !target.equals(dragPort)) {
                String why = model.connect(dragPort, target);
                if (why != null) {
                    say("refused: " + why);
                    log.accept("connection refused: " + why);
                } else {
                    say("connected " + dragPort + " -> " + target);
                }
            }
        }
        case BAND -> selected.addAll(geometry.elementsIn(downX, downY, x, y));
        default -> {
        }
        }
        publishBounds();
        selectionChanged();
        canvas.redraw();
    }

    private void doubleClick(Event e) {
        String element = geometry.elementAt(ux(e.x), uy(e.y));
        if (element == null || geometry.portAt(ux(e.x), uy(e.y)) != null) {
            return;
        }
        if (renaming != null && !renaming.isDisposed()) {
            renaming.dispose();
        }
        double[] xy = model.position(element);
        Text t = new Text(canvas, SWT.BORDER | SWT.SINGLE);
        renaming = t;
        t.setText(element);
        t.selectAll();
        t.setBounds((int) Math.round((xy[0] + 4) * zoom) - originX, (int) Math.round((xy[1] + 2) * zoom) - originY,
                (int) Math.round((EditorGeometry.BOX_W - 8) * zoom), t.computeSize(SWT.DEFAULT, SWT.DEFAULT).y);
        boolean[] done = { false }; // Enter commits, and disposing the field then sends FocusOut: commit once
        Runnable commit = () -> {
            if (done[0] || t.isDisposed()) {
                return;
            }
            done[0] = true;
            String to = t.getText().strip();
            t.dispose();
            String why = model.rename(element, to);
            say(why != null ? "cannot rename: " + why : element.equals(to) ? "" : "renamed " + element + " to " + to);
            if (why == null) {
                selected.clear();
                selected.add(to);
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
            deleteSelection();
        } else if ((e.stateMask & SWT.MOD1) != 0) {
            if (e.character == '+' || e.character == '=' || e.keyCode == SWT.KEYPAD_ADD) {
                zoomTo(zoom * ZOOM_STEP);
            } else if (e.character == '-' || e.keyCode == SWT.KEYPAD_SUBTRACT) {
                zoomTo(zoom / ZOOM_STEP);
            } else if (e.character == '0' || e.keyCode == SWT.KEYPAD_0) {
                zoomTo(1);
            } else if (e.keyCode == 'a') { // not a menu accelerator: Ctrl+A must stay select-all in the text fields
                selectAll();
            }
        }
    }

    private void wheel(Event e) {
        if ((e.stateMask & SWT.MOD1) != 0 && e.count != 0) {
            zoomTo(e.count > 0 ? zoom * ZOOM_STEP : zoom / ZOOM_STEP);
            e.doit = false;
        } else if (e.count != 0) { // the wheel scrolls a pipeline larger than the view (Shift: sideways)
            ScrollBar bar = (e.stateMask & SWT.SHIFT) != 0 ? canvas.getHorizontalBar() : canvas.getVerticalBar();
            if (bar.getEnabled()) {
                bar.setSelection(bar.getSelection() - e.count * bar.getIncrement());
                scrolled();
            }
            e.doit = false;
        }
    }

    /** @return the zoom factor now (1 = one canvas unit per pixel) */
    double zoom() {
        return zoom;
    }

    // ------------------------------------------------------------------ painting

    private void paint(GC gc) {
        if (model.elements().isEmpty()) {
            gc.setForeground(canvas.getDisplay().getSystemColor(SWT.COLOR_DARK_GRAY));
            gc.drawText("Open a pipeline (File > Open, or a sample on the left), or place elements: double-click a type in the"
                    + " palette or drag it here.", 20, 20, true);
            return;
        }
        Transform t = new Transform(canvas.getDisplay());
        try {
            t.translate(-originX, -originY);
            t.scale((float) zoom, (float) zoom);
            gc.setTransform(t);
            paintScaled(gc);
        } finally {
            gc.setTransform(null);
            t.dispose();
        }
    }

    private void paintScaled(GC gc) {
        var d = canvas.getDisplay();
        gc.setAntialias(SWT.ON);
        gc.setFont(JFaceResources.getDefaultFont());
        for (ConnectionDTO c : model.connections()) {
            double[] pts = geometry.path(c);
            if (pts == null) {
                continue;
            }
            boolean sel = selectedLinks.contains(c);
            gc.setLineWidth(sel ? 3 : 1);
            gc.setForeground(sel ? selectionColor : d.getSystemColor(SWT.COLOR_DARK_GRAY));
            int[] ip = new int[pts.length];
            for (int i = 0; i < pts.length; i++) {
                ip[i] = (int) Math.round(pts[i]);
            }
            gc.drawPolyline(ip);
            int x2 = ip[ip.length - 2], y2 = ip[ip.length - 1];
            gc.setBackground(gc.getForeground());
            gc.fillPolygon(new int[] { x2, y2, x2 - 8, y2 - 4, x2 - 8, y2 + 4 });
        }
        gc.setLineWidth(1);
        for (ElementSpecDTO e : model.elements()) {
            double[] xy = model.position(e.name);
            int x = (int) Math.round(xy[0]), y = (int) Math.round(xy[1]), h = geometry.height(e.name);
            Color fill = categoryColors.get(categories.get(e.type));
            gc.setBackground(fill != null ? fill : d.getSystemColor(SWT.COLOR_WIDGET_LIGHT_SHADOW));
            gc.fillRoundRectangle(x, y, EditorGeometry.BOX_W, h, 10, 10);
            boolean sel = selected.contains(e.name);
            gc.setLineWidth(sel ? 3 : 1);
            gc.setForeground(sel ? selectionColor : d.getSystemColor(SWT.COLOR_DARK_GRAY));
            gc.drawRoundRectangle(x, y, EditorGeometry.BOX_W, h, 10, 10);
            gc.setLineWidth(1);
            gc.setForeground(d.getSystemColor(SWT.COLOR_BLACK));
            gc.setFont(JFaceResources.getFontRegistry().getBold(JFaceResources.DEFAULT_FONT));
            gc.drawText(e.name, x + 10, y + 5, true);
            gc.setFont(JFaceResources.getDefaultFont());
            gc.drawText(e.type, x + 10, y + 23, true);
        }
        // ports: push filled, pull hollow; the port under a connection drag's start is highlighted
        for (EditorGeometry.PlacedPort p : geometry.ports()) {
            int r = EditorGeometry.PORT_RADIUS, px = (int) Math.round(p.at()[0]), py = (int) Math.round(p.at()[1]);
            gc.setBackground(p.descriptor().mode == Mode.PUSH ? d.getSystemColor(SWT.COLOR_DARK_GRAY) : d.getSystemColor(SWT.COLOR_WHITE));
            gc.fillOval(px - r, py - r, 2 * r, 2 * r);
            gc.setForeground(p.ref().equals(dragPort) && drag == Drag.CONNECT ? selectionColor : d.getSystemColor(SWT.COLOR_DARK_GRAY));
            gc.drawOval(px - r, py - r, 2 * r, 2 * r);
        }
        if (drag == Drag.CONNECT && dragPort != null) {
            double[] a = geometry.port(dragPort.element(), dragPort.direction(), dragPort.port());
            gc.setForeground(selectionColor);
            gc.setLineStyle(SWT.LINE_DASH);
            gc.drawLine((int) a[0], (int) a[1], (int) lastX, (int) lastY);
            gc.setLineStyle(SWT.LINE_SOLID);
        } else if (drag == Drag.BAND) {
            gc.setForeground(selectionColor);
            gc.setLineStyle(SWT.LINE_DOT);
            gc.drawRectangle((int) Math.min(downX, lastX), (int) Math.min(downY, lastY), (int) Math.abs(lastX - downX),
                    (int) Math.abs(lastY - downY));
            gc.setLineStyle(SWT.LINE_SOLID);
        }
    }

    private static MenuItem item(Menu menu, String text, int accelerator, String id, Runnable action) {
        MenuItem i = new MenuItem(menu, SWT.PUSH);
        i.setText(text);
        if (accelerator != 0) {
            i.setAccelerator(accelerator);
        }
        if (id != null) {
            i.setData(ConsoleService.WIDGET_ID, id);
        }
        i.addListener(SWT.Selection, e -> action.run());
        return i;
    }

    /** @return the selected element names, in selection order (for tests of the view through the model) */
    Collection<String> selection() {
        return List.copyOf(selected);
    }

    /**
     * Sets the listener told when the single selected element changes (the properties form follows it): called on the UI
     * thread with the element's name, or {@code null} when no element or several are selected.
     */
    void onSelection(Consumer<String> listener) {
        selectionListener = listener;
    }

    /** @return the one selected element, or {@code null} when none or several are selected */
    String singleSelection() {
        return selected.size() == 1 ? selected.iterator().next() : null;
    }

    /** @return the model being edited (the properties form reads it live and writes through its commands) */
    EditablePipeline model() {
        return model;
    }

    private void selectionChanged() {
        String now = singleSelection();
        canvas.setData(ConsoleService.SELECTION_DATA, now);
        if (!java.util.Objects.equals(now, notifiedSelection)) {
            notifiedSelection = now;
            selectionListener.accept(now);
        }
    }

    /** @return a canvas pixel's x in pipeline units (the layout block's), through the scroll position and the zoom */
    private double ux(int x) {
        return (x + originX) / zoom;
    }

    private double uy(int y) {
        return (y + originY) / zoom;
    }

    /**
     * Sizes the scroll bars to the pipeline at the current zoom against the view, and keeps the view's corner inside
     * the pipeline: a zoomed-in pipeline larger than the view scrolls (the bars and the mouse wheel), a smaller one shows
     * from its top left.
     */
    private void updateScrollBars() {
        if (geometry == null) {
            return;
        }
        Rectangle view = canvas.getClientArea();
        double[] ext = geometry.extent();
        int w = (int) Math.ceil(ext[0] * zoom), h = (int) Math.ceil(ext[1] * zoom);
        originX = Math.max(0, Math.min(originX, w - view.width));
        originY = Math.max(0, Math.min(originY, h - view.height));
        ScrollBar hb = canvas.getHorizontalBar(), vb = canvas.getVerticalBar();
        hb.setValues(originX, 0, Math.max(w, view.width), Math.max(1, view.width), 16, Math.max(1, view.width - 16));
        vb.setValues(originY, 0, Math.max(h, view.height), Math.max(1, view.height), 16, Math.max(1, view.height - 16));
        hb.setEnabled(w > view.width);
        vb.setEnabled(h > view.height);
    }

    private void scrolled() {
        originX = canvas.getHorizontalBar().getSelection();
        originY = canvas.getVerticalBar().getSelection();
        publishBounds();
        canvas.redraw();
    }

    /** Publishes every element's box as drawn ({@link ConsoleService#BOUNDS_DATA}), for tests and automation. */
    private void publishBounds() {
        Map<String, int[]> b = new java.util.LinkedHashMap<>();
        for (ElementSpecDTO e : model.elements()) {
            double[] xy = model.position(e.name);
            b.put(e.name, new int[] { (int) Math.round(xy[0] * zoom) - originX, (int) Math.round(xy[1] * zoom) - originY,
                (int) Math.round(EditorGeometry.BOX_W * zoom), (int) Math.round(geometry.height(e.name) * zoom) });
        }
        canvas.setData(ConsoleService.BOUNDS_DATA, Map.copyOf(b));
    }
}

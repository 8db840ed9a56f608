package io.ringlab.console;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

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
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Menu;
import org.eclipse.swt.widgets.MenuItem;
import org.eclipse.swt.widgets.Shell;

import io.ringlab.console.api.ConsoleService;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PipelineDTO;

/**
 * The pipeline editor's view: a canvas that draws an {@link EditablePipeline} with {@link EditorGeometry} and turns mouse
 * and key events into the model's commands, a message line, and the File and Edit menu items. The logic (commands, undo,
 * connection rules, hit-testing) lives in those SWT-free classes; the view's parts each have a class: the selection
 * ({@link EditorSelection}), the zoom and scroll position ({@link EditorViewport}), the mouse and keys
 * ({@link EditorGestures}), the drawing ({@link EditorPainter}) and the file with Save and Save As ({@link EditorFiles}).
 * This class builds them, hosts the editor in the window (menus, palette, the pipeline opened), and runs the commands.
 * <p>
 * Palette types are placed by a double-click in the palette or by dragging them onto the canvas.
 * <p>
 * UI thread only.
 */
final class PipelineEditor {
    private final Composite area;
    private final Canvas canvas;
    private final Label message;
    private final Consumer<String> log;
    private final Runnable changed;
    private final EditorSelection selection;
    private final EditorViewport view;
    private final EditorPainter painter;
    private final EditorGestures gestures;
    private final EditorFiles files;
    private final TimeSlider slider;
    /** Told of an element whose inspector the user asked for. */
    private Consumer<String> onInspect = name -> { };
    private List<ElementDescriptorDTO> installed = List.of();

    private EditablePipeline model;
    private EditorGeometry geometry;
    private MenuItem undoItem, redoItem;
    /** A pipeline was opened before the canvas had a size: fit it to the view at the first resize. */
    private boolean fitPending;

    /**
     * @param parent where the editor goes
     * @param log takes one line for the console's log
     * @param error shows an error (title, message) in a dialog and the log
     * @param changed called after every change of the pipeline or its file (the window updates its buttons)
     */
    PipelineEditor(Composite parent, Consumer<String> log, BiConsumer<String, String> error, Runnable changed) {
        this.log = log;
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
        slider = new TimeSlider(area);
        message = new Label(area, SWT.NONE);
        message.setData(ConsoleService.WIDGET_ID, ConsoleService.ID_EDITOR_MESSAGE);
        message.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        selection = new EditorSelection(name -> canvas.setData(ConsoleService.SELECTION_DATA, name));
        view = new EditorViewport(canvas);
        painter = new EditorPainter(parent.getDisplay());
        gestures = new EditorGestures(this, canvas, selection, view, log);
        files = new EditorFiles(this, canvas.getShell(), log, error);

        canvas.addPaintListener(e -> painter.paint(e.gc, model, geometry, selection, view, gestures));
        canvas.addListener(SWT.Resize, e -> {
            if (fitPending && canvas.getClientArea().width > 1) { // opened before the window was laid out
                fitPending = false;
                view.fit(geometry);
                publishBounds();
            }
            view.updateScrollBars(geometry);
            canvas.redraw();
        });
        canvas.getHorizontalBar().addListener(SWT.Selection, e -> scrolled());
        canvas.getVerticalBar().addListener(SWT.Selection, e -> scrolled());
        gestures.install();
        DropTarget drop = new DropTarget(canvas, DND.DROP_COPY | DND.DROP_MOVE);
        drop.setTransfer(TextTransfer.getInstance());
        drop.addDropListener(new DropTargetAdapter() {
            @Override
            public void drop(DropTargetEvent e) {
                if (e.data instanceof String type) {
                    Point p = canvas.toControl(e.x, e.y);
                    place(type, view.ux(p.x) - EditorGeometry.BOX_W / 2.0, view.uy(p.y) - EditorGeometry.MIN_BOX_H / 2.0);
                }
            }
        });
        canvas.addListener(SWT.Dispose, e -> painter.dispose());
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
        item(fileMenu, "&Save\tCtrl+S", SWT.MOD1 + 'S', ConsoleService.ID_MENU_SAVE, files::save);
        files.saveAsHook(item(fileMenu, "Save &As...\tCtrl+Shift+S", SWT.MOD1 + SWT.SHIFT + 'S',
                ConsoleService.ID_MENU_SAVE_AS, files::saveAs));
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
        item(edit, "Zoom &In\tCtrl++", 0, null, () -> zoomTo(view.zoom() * EditorViewport.ZOOM_STEP));
        item(edit, "Zoom &Out\tCtrl+-", 0, null, () -> zoomTo(view.zoom() / EditorViewport.ZOOM_STEP));
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
        painter.setCategories(categoryOfType);
        model.setTypes(installed);
        canvas.redraw();
    }

    /**
     * Shows a pipeline read from a file, replacing the edited one (the caller asked {@link #confirmDiscard} first); the
     * undo history starts empty.
     */
    void open(Path from, PipelineDTO p) {
        setModel(new EditablePipeline(p, installed), from);
        view.fit(geometry);
        fitPending = canvas.getClientArea().width <= 1;
        view.updateScrollBars(geometry);
        publishBounds();
        canvas.redraw();
    }

    /**
     * Shows a run's state on the canvas (a snapshot's, the result's, or a sampled time's) and publishes it
     * ({@link ConsoleService#CANVAS_DATA}); {@link CanvasState#EMPTY} clears it.
     */
    void showState(CanvasState s) {
        painter.setState(s);
        canvas.setData(ConsoleService.CANVAS_DATA, s.flat());
        canvas.setData(ConsoleService.CANVAS_TIME_DATA, s.timeSeconds());
        canvas.redraw();
    }

    /** @return whether the canvas shows a run's state (then a double-click inspects instead of renaming) */
    boolean showsRunState() {
        return !painter.state().elements().isEmpty();
    }

    /** @return the time slider under the canvas (the Run tab drives it) */
    TimeSlider timeSlider() {
        return slider;
    }

    /** @param listener told of an element whose inspector the user asked for (a double-click, Ctrl+I) */
    void onInspect(Consumer<String> listener) {
        onInspect = listener;
    }

    /** Asks for the element's inspector. */
    void inspect(String element) {
        onInspect.accept(element);
    }

    /** @return the pipeline as edited now (a copy): what Run runs and Save writes */
    PipelineDTO pipeline() {
        return model.pipeline();
    }

    /** @return the file the pipeline was opened from or saved to; {@code null} for an untitled one */
    Path file() {
        return files.file();
    }

    /** @return whether there is nothing to run */
    boolean isEmpty() {
        return model.elements().isEmpty();
    }

    /** @return the file's name for messages: the file name, or the untitled pipeline's name */
    String displayName() {
        return files.displayName();
    }

    /**
     * Asks, if there are unsaved edits, whether to save them, discard them, or cancel; a blocking question.
     *
     * @return whether the caller may go on (saved or discarded, or nothing to lose)
     */
    boolean confirmDiscard() {
        return files.confirmDiscard();
    }

    /** @return the selected element names, in selection order (for tests of the view through the model) */
    Collection<String> selection() {
        return selection.elementsNow();
    }

    /**
     * Sets the listener told when the single selected element changes (the properties form follows it): called on the UI
     * thread with the element's name, or {@code null} when no element or several are selected.
     */
    void onSelection(Consumer<String> listener) {
        selection.onChange(listener);
    }

    /** @return the one selected element, or {@code null} when none or several are selected */
    String singleSelection() {
        return selection.single();
    }

    /** @return the model being edited (the properties form reads it live and writes through its commands) */
    EditablePipeline model() {
        return model;
    }

    /** @return the geometry of the model being edited */
    EditorGeometry geometry() {
        return geometry;
    }

    /** @return the zoom factor now (1 = one canvas unit per pixel) */
    double zoom() {
        return view.zoom();
    }

    // ------------------------------------------------------------------ commands

    /** Told of File > New's pipeline. */
    private java.util.function.Consumer<PipelineDTO> onNew = p -> { };

    private void setModel(EditablePipeline m, Path f) {
        model = m;
        painter.setState(CanvasState.EMPTY); // the state was of another pipeline's run
        canvas.setData(ConsoleService.CANVAS_DATA, Map.of());
        geometry = new EditorGeometry(m);
        files.file(f);
        selection.clear();
        m.addListener(this::modelChanged);
        modelChanged();
    }

    private void modelChanged() {
        selection.keepOnly(model);
        canvas.setData(ConsoleService.PIPELINE_DATA, model.pipeline());
        Shell shell = canvas.getShell();
        Path file = files.file();
        shell.setText("Ringlab console - " + (model.dirty() ? "*" : "") + model.name() + (file == null ? "" : " (" + file + ")"));
        updateMenu();
        view.updateScrollBars(geometry);
        publishBounds();
        canvas.redraw();
        changed.run();
        selection.changed();
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
        selection.only(name);
        say("placed " + name + " (" + type + "); double-click it or press F2 to rename");
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

    /** Deletes the selected elements and connections (Edit > Delete, Del). */
    void deleteSelection() {
        String label = selection.elements().size() + " element(s), " + selection.linkCount() + " connection(s)";
        if (model.delete(new ArrayList<>(selection.elements()), new ArrayList<>(selection.linksNow()))) {
            say("deleted " + label);
        }
    }

    /** Selects every element and connection (Edit > Select All, Ctrl+A). */
    void selectAll() {
        model.elements().forEach(e -> selection.elements().add(e.name));
        selection.addLinks(model.connections());
        selection.changed();
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
            view.zoomTo(1);
            say("new pipeline: place elements from the palette");
            onNew.accept(model.pipeline());
        }
    }

    /** @param listener told of the pipeline File > New made, after the editor shows it (the Run tab resets) */
    void onNew(java.util.function.Consumer<PipelineDTO> listener) {
        this.onNew = listener;
    }

    /** Shows a line in the editor's message line. */
    void say(String text) {
        message.setText(text);
        message.setToolTipText(text);
    }

    /** Zooms to {@code z}, within the viewport's bounds, and says so. */
    void zoomTo(double z) {
        fitPending = false; // the user's zoom wins over the fit of a pipeline opened before the window was laid out
        double zoom = view.zoomTo(z);
        say(String.format(Locale.ROOT, "zoom %.0f %%", zoom * 100));
        view.updateScrollBars(geometry);
        publishBounds();
        canvas.redraw();
    }

    /** The scroll bars moved: the view follows. */
    void scrolled() {
        view.scrolled();
        publishBounds();
        canvas.redraw();
    }

    /** Publishes every element's box as drawn ({@link ConsoleService#BOUNDS_DATA}), for tests and automation. */
    void publishBounds() {
        view.publishBounds(model, geometry);
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
}

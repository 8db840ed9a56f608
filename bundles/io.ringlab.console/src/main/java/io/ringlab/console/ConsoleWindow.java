package io.ringlab.console;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.jface.resource.JFaceResources;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.SashForm;
import org.eclipse.swt.layout.FillLayout;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Group;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Menu;
import org.eclipse.swt.widgets.MenuItem;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.TabFolder;
import org.eclipse.swt.widgets.TabItem;
import org.eclipse.swt.widgets.Text;
import org.eclipse.swt.widgets.Widget;

import io.ringlab.console.api.ConsoleService;
import io.ringlab.pipeline.format.OutputFile;
import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.PipelineDTO;

/**
 * The console's main window: it lays the parts out and wires them together. The palette and the samples on the left
 * ({@link PaletteView}), the pipeline editor and the live charts in the middle, tabs on the right (Run: the run controls,
 * status and summary, and the run they control, {@link RunPanel}; Properties: the form of the element selected in the
 * pipeline; Bundles: the bundles view; A/B: {@link AbPanel}), the log at the bottom; the menus, File > Export
 * ({@link Exports}), and the error dialog and log every part reports to ({@link Feedback}).
 * <p>
 * Threads: everything here runs on the UI thread; work that ends on another thread comes back through
 * {@link UiExecutor}. Nothing here waits for the engine.
 */
final class ConsoleWindow implements Feedback {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

    private final ConsoleContext context;
    private final Display display;
    private Shell shell;
    private PaletteView paletteView;
    private PipelineEditor editor;
    private LiveCharts charts;
    private Text log;
    /** The Run tab and the run it controls. */
    private RunPanel runPanel;
    /** File > Export: the chart, the series, the result. */
    private Exports exports;
    private TabFolder tabs;
    private TabItem propertiesTab, abTab;
    private PropertiesView properties;
    /** Pixels between two panes: a sash wide enough to see and to grab. */
    static final int SASH_WIDTH = 6;
    /** The split panes, by the name their weights are remembered under. */
    private final Map<String, SashForm> sashes = new java.util.LinkedHashMap<>();
    /** The window's bounds when last neither maximized nor minimized: what is remembered of a maximized window. */
    private org.eclipse.swt.graphics.Rectangle normalBounds;
    /** Warnings about the layout file, logged once the log exists. */
    private final List<String> pendingWarnings = new java.util.ArrayList<>();
    /** The A/B panel: its set-up is the tab A/B on the right, its result a tab of the chart folder. */
    private AbPanel ab;
    /** The property forms of the editor's pipeline (see {@link #forms()}); {@code null} before the first is needed. */
    private PropertyFormModel forms;
    /** The editor's model the forms belong to. */
    private EditablePipeline formsOf;
    /** Set while a form's edit goes into the editor, so the form is not rebuilt under the user's typing. */
    private boolean applyingForm;

    ConsoleWindow(ConsoleContext context, Display display) {
        this.context = context;
        this.display = display;
    }

    /**
     * Builds and opens the window.
     *
     * @param file a pipeline to open, or {@code null}
     * @return the shell
     */
    Shell open(Path file) {
        shell = new Shell(display, SWT.SHELL_TRIM);
        shell.setText("Ringlab console");
        shell.setLayout(new FillLayout());
        shell.setSize(1280, 820);
        SashForm vertical = new SashForm(shell, SWT.VERTICAL);
        SashForm main = new SashForm(vertical, SWT.HORIZONTAL);
        sashes.put("window", vertical);
        sashes.put("main", main);
        paletteView = new PaletteView(main, context, display, this, this::openPipeline, (installed, categories) -> {
            editor.setTypes(installed, categories);
            if (forms != null) {
                forms.types(installed);
                properties.refresh();
            }
        });
        SashForm middle = new SashForm(main, SWT.VERTICAL);
        sashes.put("middle", middle);
        editor = new PipelineEditor(middle, m -> log("INFO", m), this::error, () -> {
            if (runPanel != null) {
                runPanel.updateButtons();
            }
            if (properties != null && !applyingForm) {
                properties.refresh(); // an undo, a rename or a delete changed what the form shows
            }
        });
        editor.acceptTypesFrom(paletteView.viewer());
        editor.onNew(p -> {
            runPanel.opened(p);
            runPanel.updateButtons();
        });
        editor.onSelection(this::elementSelected);
        charts = new LiveCharts(middle);
        middle.setWeights(2, 3);
        buildRight(main);
        main.setWeights(24, 48, 28);
        log = new Text(vertical, SWT.MULTI | SWT.READ_ONLY | SWT.V_SCROLL | SWT.H_SCROLL | SWT.BORDER);
        id(log, ConsoleService.ID_LOG);
        log.setFont(JFaceResources.getTextFont());
        vertical.setWeights(82, 18);
        for (Map.Entry<String, SashForm> e : sashes.entrySet()) { // visible sashes: a grip of their own colour
            e.getValue().setSashWidth(SASH_WIDTH);
            e.getValue().setBackground(display.getSystemColor(SWT.COLOR_WIDGET_NORMAL_SHADOW));
            e.getValue().setData(ConsoleService.WIDGET_ID, ConsoleService.SASH_PREFIX + e.getKey());
        }
        restoreLayout();
        shell.addListener(SWT.Resize, e -> rememberNormalBounds());
        shell.addListener(SWT.Move, e -> rememberNormalBounds());
        shell.addDisposeListener(e -> disposed());
        exports = new Exports(shell, context, charts, runPanel, this);
        buildMenu();

        paletteView.start();
        runPanel.updateButtons();
        charts.reset(null);
        shell.open();
        pendingWarnings.forEach(w -> log("WARN", w));
        log("INFO", "console ready: " + paletteView.typeCount() + " element types" + (context.home() == null ? ""
                : ", samples from " + context.home().resolve("pipelines")));
        if (file != null) {
            openPipeline(file);
        }
        return shell;
    }

    // ------------------------------------------------------------------ building

    private void buildMenu() {
        Menu bar = new Menu(shell, SWT.BAR);
        shell.setMenuBar(bar);
        Menu file = submenu(bar, "&File");
        item(file, "&Open...\tCtrl+O", SWT.MOD1 + 'O', this::chooseFile);
        id(item(file, "Open &Experiment...", 0, this::chooseExperiment), ConsoleService.ID_MENU_OPEN_EXPERIMENT);
        editor.fillFileMenu(file);
        new MenuItem(file, SWT.SEPARATOR);
        id(item(file, "Export Chart as &PNG...", 0, exports::png), ConsoleService.ID_MENU_EXPORT_PNG);
        id(item(file, "Export Series as &CSV...", 0, exports::csv), ConsoleService.ID_MENU_EXPORT_CSV);
        id(item(file, "Export Result as &JSON...", 0, exports::json), ConsoleService.ID_MENU_EXPORT_JSON);
        new MenuItem(file, SWT.SEPARATOR);
        id(item(file, "E&xit\tCtrl+Q", SWT.MOD1 + 'Q', () -> shell.close()), ConsoleService.ID_MENU_EXIT);
        editor.fillEditMenu(bar);
        Menu run = submenu(bar, "&Run");
        item(run, "&Run\tF5", SWT.F5, runPanel::run);
        item(run, "&Pause", 0, runPanel::pause);
        item(run, "Res&ume", 0, runPanel::resume);
        item(run, "S&tep", 0, runPanel::step);
        item(run, "&Stop", 0, runPanel::stop);
        item(run, "S&wap the Selected Implementation", 0, runPanel::swap);
        new MenuItem(run, SWT.SEPARATOR);
        id(item(run, "&Inspect the Selected Element\tCtrl+I", SWT.MOD1 + 'I', () -> runPanel.inspect(editor.singleSelection())),
                ConsoleService.ID_MENU_INSPECT);
        Menu help = submenu(bar, "&Help");
        id(item(help, "&Documentation", 0, () -> openPage(context.home() == null ? null
                : context.home().resolve("docs").resolve("index.md"), "the documentation")), ConsoleService.ID_MENU_DOCS);
        id(item(help, "&Model Page of the Selected Element", 0, this::modelPage), ConsoleService.ID_MENU_MODEL_PAGE);
        new MenuItem(help, SWT.SEPARATOR);
        id(item(help, "&About Ringlab", 0, this::about), ConsoleService.ID_MENU_ABOUT);
    }

    // ------------------------------------------------------------------ help

    /** Help > Model Page: the page of the selected element's type, as its descriptor names it. */
    private void modelPage() {
        String selected = editor.singleSelection();
        if (selected == null) {
            error("No element selected", "Select one element on the canvas: Help > Model Page opens its type's model page.");
            return;
        }
        String type = editor.pipeline().elements.stream().filter(e -> e.name.equals(selected)).map(e -> e.type)
                .findFirst().orElse(null);
        modelPage(selected, type);
    }

    /** Opens the model page of {@code element}'s type, or says why there is none. */
    private void modelPage(String selected, String type) {
        io.ringlab.sim.api.dto.ElementDescriptorDTO d = context.simulator().elementTypes().stream()
                .filter(t -> t.type.equals(type)).findFirst().orElse(null);
        if (d == null || d.modelPage == null) {
            error("No model page", selected + " is a " + type + (d == null ? ", which no installed bundle provides"
                    : " (bundle " + d.bundle + "), whose descriptor names no model page"));
            return;
        }
        openPage(context.home() == null ? null : context.home().resolve(d.modelPage), type + "'s model page");
    }

    /** Opens a page of the documentation with the desktop's program for it; says where it is either way. */
    private void openPage(Path page, String what) {
        if (page == null || !Files.isRegularFile(page)) {
            error("Cannot open " + what, (page == null ? "ringlab.home is not set" : page + ": no such file")
                    + "; the documentation is the docs/ folder of Ringlab's installation");
            return;
        }
        log("INFO", "help: " + what + " is " + page);
        if (!org.eclipse.swt.program.Program.launch(page.toString())) {
            log("INFO", "help: no program here opens " + page.getFileName() + "; read it in an editor or on the web");
        }
    }

    /** Help > About: Ringlab's version, the OSGi framework it runs on, and the bundles of this installation, with theirs. */
    private void about() {
        StringBuilder b = new StringBuilder();
        org.osgi.framework.Bundle self = org.osgi.framework.FrameworkUtil.getBundle(ConsoleWindow.class);
        org.osgi.framework.Bundle framework = self == null ? null : self.getBundleContext().getBundle(0);
        b.append("Ringlab ").append(self == null ? "(version unknown)" : self.getVersion()).append("\n")
                .append("NIC-driver buffer and queue models on ")
                .append(framework == null ? "OSGi" : framework.getSymbolicName() + " " + framework.getVersion())
                .append("; docs/index.md in the installation.\n\n")
                .append("Bundles:\n");
        if (self != null) {
            for (org.osgi.framework.Bundle bundle : self.getBundleContext().getBundles()) {
                if (bundle.getBundleId() != 0) {
                    b.append("  ").append(bundle.getSymbolicName()).append(' ').append(bundle.getVersion()).append('\n');
                }
            }
        }
        MessageDialog d = new MessageDialog(shell, "About Ringlab", null, b.toString().strip(), MessageDialog.INFORMATION, 0,
                "OK");
        d.setBlockOnOpen(false);
        d.open();
        d.getShell().setData(ConsoleService.WIDGET_ID, ConsoleService.ID_ABOUT);
    }

    private static Menu submenu(Menu bar, String text) {
        MenuItem m = new MenuItem(bar, SWT.CASCADE);
        m.setText(text);
        Menu menu = new Menu(m);
        m.setMenu(menu);
        return menu;
    }

    private static MenuItem item(Menu menu, String text, int accelerator, Runnable action) {
        MenuItem i = new MenuItem(menu, SWT.PUSH);
        i.setText(text);
        if (accelerator != 0) {
            i.setAccelerator(accelerator);
        }
        i.addListener(SWT.Selection, e -> action.run());
        return i;
    }

    private void buildRight(Composite parent) {
        tabs = new TabFolder(parent, SWT.TOP);
        id(tabs, ConsoleService.ID_TABS);
        runPanel = new RunPanel(tabs, context, display, new RunPanel.Host() {
            @Override
            public PipelineEditor editor() {
                return editor;
            }

            @Override
            public LiveCharts charts() {
                return charts;
            }

            @Override
            public PropertyFormModel forms() {
                return ConsoleWindow.this.forms();
            }

            @Override
            public void openModelPage(String element, String type) {
                modelPage(element, type);
            }
        }, this, new BundleInventory(context));

        propertiesTab = new TabItem(tabs, SWT.NONE);
        propertiesTab.setText("Properties");
        properties = new PropertiesView(tabs);
        propertiesTab.setControl(properties.control());
        TabItem bundlesTab = new TabItem(tabs, SWT.NONE);
        bundlesTab.setText("Bundles");
        BundlesView bundles = new BundlesView(tabs, context.bundleContext(), this::error, this::log);
        bundlesTab.setControl(bundles.control());
        abTab = new TabItem(tabs, SWT.NONE);
        abTab.setText("A/B");
        ab = new AbPanel(context, new AbPanel.Host() {
            @Override
            public PipelineDTO editorPipeline() {
                return editor.isEmpty() ? null : editor.pipeline();
            }

            @Override
            public Path editorFile() {
                return editor.file();
            }

            @Override
            public void error(String title, String message) {
                ConsoleWindow.this.error(title, message);
            }

            @Override
            public void log(String level, String message) {
                ConsoleWindow.this.log(level, message);
            }
        }, tabs, charts);
        abTab.setControl(ab.control());
    }

    /** The user selected an element in the pipeline (or cleared the selection): show its form. */
    /**
     * @return the property forms of the pipeline in the editor, made anew when the editor took another pipeline; they
     *         read the editor's model live and write each edit as an undoable command; {@code null} without a model
     */
    private PropertyFormModel forms() {
        EditablePipeline m = editor.model();
        if (m == null) {
            return null;
        }
        if (forms == null || formsOf != m) {
            formsOf = m;
            forms = new PropertyFormModel(m.live(), context.simulator().elementTypes(), (element, property, value) -> {
                applyingForm = true;
                try {
                    m.setProperty(element, property, value);
                } finally {
                    applyingForm = false;
                }
            });
        }
        return forms;
    }

    private void elementSelected(String element) {
        properties.show(forms(), element);
        if (element != null) {
            tabs.setSelection(propertiesTab);
        }
    }

    /** @return a titled group with a one-column grid */
    /**
     * Keeps a read-only combo at least as wide as its widest item ({@code GridData.minimumWidth}), and lays it out again;
     * call it after its items change. On GTK3, SWT fixes the clip of a read-only combo allocated narrower than its items
     * in its parent's draw handler and queues a resize there, which draws again: a 60 Hz redraw of the whole pane for as
     * long as the window shows it (measured: 15 % of a core while idle, ConsoleBenchmarkGuiTest).
     *
     * @param c a combo whose layout data is a {@code GridData}
     */
    static void fitCombo(org.eclipse.swt.widgets.Combo c) {
        if (c.getLayoutData() instanceof GridData d) {
            d.minimumWidth = c.computeSize(SWT.DEFAULT, SWT.DEFAULT, true).x;
            c.requestLayout();
        }
    }

    /**
     * Sets a label's text, and lays its parent out again only when the text is longer than any it was laid out for: a
     * status or an inspector's time changing at 10 Hz re-laid the window out (and GTK sized every widget in it) at each
     * snapshot, the longest part of the console's UI stalls during a run (ConsoleBenchmarkGuiTest). A shorter text keeps
     * the room the longer one had.
     */
    static void setText(Label l, String text) {
        if (text.equals(l.getText())) {
            return;
        }
        l.setText(text);
        if (!(l.getData(LAID_OUT_LENGTH) instanceof Integer n) || text.length() > n) {
            l.setData(LAID_OUT_LENGTH, text.length());
            l.requestLayout();
        }
    }

    /** Data key of a label's longest text, in characters, since it was last laid out by {@link #setText}. */
    private static final String LAID_OUT_LENGTH = "ringlab.laidOutLength";

    static Group group(Composite parent, String title) {
        Group g = new Group(parent, SWT.NONE);
        g.setText(title);
        g.setLayout(new GridLayout(1, false));
        return g;
    }

    /** @return a push button with the console id {@code id} that runs {@code action}, filling its grid cell */
    static Button button(Composite parent, String text, String id, Runnable action) {
        Button b = new Button(parent, SWT.PUSH);
        b.setText(text);
        id(b, id);
        b.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        b.addListener(SWT.Selection, e -> action.run());
        return b;
    }

    /** Gives a widget its console id ({@link ConsoleService#WIDGET_ID}). */
    static void id(Widget w, String id) {
        w.setData(ConsoleService.WIDGET_ID, id);
    }

    // ------------------------------------------------------------------ files

    private void chooseFile() {
        Path f = FileChooser.choose(null, shell, SWT.OPEN, "Open a pipeline", "pipeline", null,
                context.home() == null ? null : context.home().resolve("pipelines"));
        if (f != null) {
            openPipeline(f);
        }
    }

    /** File > Open Experiment: an experiment file into the A/B panel, which is shown. */
    private void chooseExperiment() {
        Path f = FileChooser.choose(Exports.menuItem(shell.getMenuBar(), ConsoleService.ID_MENU_OPEN_EXPERIMENT), shell, SWT.OPEN,
                "Open an experiment", "experiment", null, context.home() == null ? null : context.home().resolve("experiments"));
        if (f != null) {
            tabs.setSelection(abTab);
            ab.openFile(f);
        }
    }

    /** Reads a pipeline file and shows it; a bad file is reported in a dialog and the log, and the previous pipeline stays. */
    void openPipeline(Path file) {
        if (!editor.confirmDiscard()) {
            return;
        }
        PipelineDTO p;
        try {
            p = PipelineReader.read(file);
        } catch (PipelineException e) {
            error("Cannot open " + file.getFileName(), e.getMessage());
            return;
        } catch (RuntimeException e) {
            error("Cannot open " + file.getFileName(), file + ": " + describe(e));
            return;
        }
        runPanel.opened(p);
        editor.open(file, p); // also the window's title
        properties.show(forms(), editor.singleSelection());
        log("INFO", "opened " + file + ": " + p.elements.size() + " elements, " + p.connections.size() + " connections");
        runPanel.updateButtons();
    }

    // ------------------------------------------------------------------ errors and log

    @Override
    public void error(String title, String message) {
        log("ERROR", title + ": " + message);
        MessageDialog d = new MessageDialog(shell, title, null, message, MessageDialog.ERROR, 0, "OK");
        d.setBlockOnOpen(false);
        d.open();
        d.getShell().setData(ConsoleService.WIDGET_ID, ConsoleService.ID_ERROR);
    }

    /** Reports an exception that escaped an event handler: dialog and log, no stack trace on screen. */
    void internalError(Throwable t) {
        if (!shell.isDisposed()) {
            error("Internal error", describe(t) + "\n\nThe console goes on; the details are on the standard error stream.");
        }
    }

    @Override
    public void log(String level, String message) {
        if (log.isDisposed()) {
            return;
        }
        log.append(LocalTime.now().format(TIME) + " " + level + " " + message.replace('\n', ' ') + "\n");
    }

    static String describe(Throwable t) {
        if (t instanceof java.io.IOException io) {
            return OutputFile.reason(io); // in words, without the exception's class
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getClass().getSimpleName() + ": " + t.getMessage();
    }

    /** The window's layout file: the framework property {@value WindowState#FILE_PROPERTY}, else the user's config. */
    private Path layoutFile() {
        String f = context.bundleContext() == null ? null : context.bundleContext().getProperty(WindowState.FILE_PROPERTY);
        return f != null && !f.isBlank() ? Path.of(f) : WindowState.defaultFile(System.getenv(), Path.of(System.getProperty("user.home")));
    }

    /** Applies the remembered size, position and pane weights; what does not fit this screen or these panes is left. */
    private void restoreLayout() {
        Path file = layoutFile();
        WindowState.Read r = WindowState.read(file);
        r.warnings().forEach(w -> pendingWarnings.add(w));
        WindowState st = r.state();
        if (st.bounds() != null) {
            org.eclipse.swt.graphics.Rectangle b = new org.eclipse.swt.graphics.Rectangle(st.bounds()[0], st.bounds()[1],
                    st.bounds()[2], st.bounds()[3]);
            org.eclipse.swt.graphics.Rectangle screen = display.getClientArea();
            if (!screen.intersects(b)) { // a monitor that is gone: the same size where it can be seen
                b.x = screen.x;
                b.y = screen.y;
            }
            shell.setBounds(b);
        }
        st.sashes().forEach((name, w) -> {
            SashForm f = sashes.get(name);
            if (f != null && f.getWeights().length == w.length) {
                f.setWeights(w);
            } else if (f != null) {
                pendingWarnings.add(file + ": sashes." + name + " has " + w.length + " weights, the pane has "
                        + f.getWeights().length + "; left out");
            }
        });
        normalBounds = shell.getBounds();
        if (st.maximized()) {
            shell.setMaximized(true);
        }
    }

    private void rememberNormalBounds() {
        if (!shell.isDisposed() && !shell.getMaximized() && !shell.getMinimized()) {
            normalBounds = shell.getBounds();
        }
    }

    /** Writes the window's size, position and pane weights for the next session; a failure goes to standard error. */
    private void saveLayout() {
        Map<String, int[]> weights = new java.util.LinkedHashMap<>();
        sashes.forEach((name, f) -> {
            if (!f.isDisposed()) {
                weights.put(name, f.getWeights());
            }
        });
        org.eclipse.swt.graphics.Rectangle b = normalBounds != null ? normalBounds : shell.getBounds();
        Path file = layoutFile();
        try {
            new WindowState(new int[] { b.x, b.y, b.width, b.height }, shell.getMaximized(), weights).write(file);
        } catch (java.io.IOException | RuntimeException e) {
            System.err.println("ringlab console: cannot remember the window's layout in " + file + ": " + describe(e));
        }
    }

    private void disposed() {
        saveLayout();
        runPanel.disposed();
        paletteView.close();
    }

    Display display() {
        return display;
    }

    Shell shell() {
        return shell;
    }
}

package io.ringlab.console;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.jface.resource.JFaceResources;
import org.eclipse.jface.viewers.ITreeContentProvider;
import org.eclipse.jface.viewers.LabelProvider;
import org.eclipse.jface.viewers.TreeViewer;
import org.eclipse.swt.SWT;
import org.eclipse.swt.SWTException;
import org.eclipse.swt.custom.SashForm;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.ImageLoader;
import org.eclipse.swt.layout.FillLayout;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Combo;
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
import org.osgi.framework.Bundle;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;

import io.ringlab.console.api.ConsoleService;
import io.ringlab.pipeline.format.OutputFile;
import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.pipeline.format.SwapText;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.RunState;
import io.ringlab.sim.api.SimulationRun;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.RunSnapshotDTO;
import io.ringlab.sim.api.dto.SeriesDTO;
import io.ringlab.sim.api.dto.SwapDTO;

/**
 * The console's main window: palette and samples on the left, the pipeline and the live charts in the middle, tabs on
 * the right (Run: run controls, status and summary; Properties: the form of the element selected in the pipeline;
 * Bundles: the bundles view), the log at the bottom.
 * <p>
 * Threads: everything here runs on the UI thread. The engine runs a started run on its own thread; the window polls the
 * run's latest immutable snapshot with {@link Display#timerExec} every {@value #POLL_MILLIS} ms while the run goes on and
 * stops polling when it is paused or has ended. The run's completion comes on the engine thread and is handed over with
 * {@link Display#asyncExec}; element type changes come on a framework thread and are handed over the same way. Nothing
 * here waits for the engine.
 */
final class ConsoleWindow {
    /** Snapshot polling interval: 10 Hz, the rate at which the engine publishes snapshots. */
    static final int POLL_MILLIS = 100;
    /** Delay between an element type change and the palette's refresh (the engine learns of it in the same dispatch). */
    static final int PALETTE_REFRESH_MILLIS = 250;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");
    /** The time in a streamed file's name. */
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private final ConsoleContext context;
    private final Display display;
    private Shell shell;
    private TreeViewer palette;
    private org.eclipse.swt.widgets.List samples;
    private final List<Path> sampleFiles = new ArrayList<>();
    private PipelineEditor editor;
    private LiveCharts charts;
    private Text duration, seed, summary, log;
    private Combo speed;
    /** Run in a separate process ({@link IsolatedRun}); chosen by default for pipelines with bundles not Ringlab's own. */
    private Button isolate;
    /** The session runs in a separate process: pause, step and swap only once its child runs. */
    private boolean isolatedSession;
    private Button runButton, pauseButton, resumeButton, stepButton, stopButton, swapButton;
    private Combo swapElement, swapTarget;
    /** The choices {@link #swapTarget} shows, for the element {@link #swapElement} shows. */
    private List<SwapChoices.Choice> swapChoices = List.of();
    /** Element name to its type in the live run (a swap may change it). */
    private final Map<String, String> liveTypes = new LinkedHashMap<>();
    private Label status;
    private String paletteSignature = "";
    private Map<String, String> categoryOfType = Map.of();
    private AutoCloseable typesSubscription;
    private TabFolder tabs;
    private TabItem propertiesTab, abTab;
    private PropertiesView properties;
    /** The A/B panel: its set-up is the tab A/B on the right, its result a tab of the chart folder. */
    private AbPanel ab;
    /** The property forms of the editor's pipeline (see {@link #forms()}); {@code null} before the first is needed. */
    private PropertyFormModel forms;
    /** The editor's model the forms belong to. */
    private EditablePipeline formsOf;
    /** Set while a form's edit goes into the editor, so the form is not rebuilt under the user's typing. */
    private boolean applyingForm;

    private PipelineDTO pipeline;
    private RunSession session;
    /** The session whose result the summary shows; a late poll of it must not overwrite the result's status line. */
    private RunSession resultShown;
    private boolean polling;
    private final Runnable pollTask = this::pollOnce;
    private final Runnable paletteTask = this::refreshPalette;

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
        buildLeft(main);
        SashForm middle = new SashForm(main, SWT.VERTICAL);
        editor = new PipelineEditor(middle, m -> log("INFO", m), this::error, () -> {
            if (runButton != null) {
                updateButtons();
            }
            if (properties != null && !applyingForm) {
                properties.refresh(); // an undo, a rename or a delete changed what the form shows
            }
        });
        editor.acceptTypesFrom(palette);
        editor.onSelection(this::elementSelected);
        charts = new LiveCharts(middle);
        middle.setWeights(2, 3);
        buildRight(main);
        main.setWeights(24, 48, 28);
        log = new Text(vertical, SWT.MULTI | SWT.READ_ONLY | SWT.V_SCROLL | SWT.H_SCROLL | SWT.BORDER);
        id(log, ConsoleService.ID_LOG);
        log.setFont(JFaceResources.getTextFont());
        vertical.setWeights(82, 18);
        shell.addDisposeListener(e -> disposed());
        buildMenu();

        refreshPalette();
        typesSubscription = context.onElementTypesChanged(this::typesChanged);
        loadSamples();
        updateButtons();
        charts.reset(null);
        shell.open();
        log("INFO", "console ready: " + categoryOfType.size() + " element types" + (context.home() == null ? ""
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
        id(item(file, "Export Chart as &PNG...", 0, this::exportPng), ConsoleService.ID_MENU_EXPORT_PNG);
        id(item(file, "Export Series as &CSV...", 0, this::exportCsv), ConsoleService.ID_MENU_EXPORT_CSV);
        id(item(file, "Export Result as &JSON...", 0, this::exportJson), ConsoleService.ID_MENU_EXPORT_JSON);
        new MenuItem(file, SWT.SEPARATOR);
        item(file, "E&xit", 0, () -> shell.close());
        editor.fillEditMenu(bar);
        Menu run = submenu(bar, "&Run");
        item(run, "&Run\tF5", SWT.F5, this::runPipeline);
        item(run, "&Pause", 0, this::pause);
        item(run, "Res&ume", 0, this::resume);
        item(run, "S&tep", 0, this::step);
        item(run, "&Stop", 0, this::stop);
        item(run, "S&wap the Selected Implementation", 0, this::swap);
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

    private void buildLeft(Composite parent) {
        SashForm left = new SashForm(parent, SWT.VERTICAL);
        Group types = group(left, "Element types");
        palette = new TreeViewer(types, SWT.BORDER | SWT.SINGLE | SWT.V_SCROLL | SWT.H_SCROLL);
        id(palette.getTree(), ConsoleService.ID_PALETTE);
        palette.getTree().setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
        palette.setContentProvider(new PaletteContent());
        palette.setLabelProvider(new LabelProvider() {
            @Override
            public String getText(Object o) {
                return o instanceof ElementDescriptorDTO d ? PaletteModel.label(d) : o instanceof Category c ? c.label() : String.valueOf(o);
            }
        });
        palette.addSelectionChangedListener(e -> {
            if (e.getStructuredSelection().getFirstElement() instanceof ElementDescriptorDTO d) {
                palette.getTree().setToolTipText(PaletteModel.tooltip(d));
            }
        });
        Group sampleGroup = group(left, "Sample pipelines (click to open)");
        samples = new org.eclipse.swt.widgets.List(sampleGroup, SWT.BORDER | SWT.SINGLE | SWT.V_SCROLL);
        id(samples, ConsoleService.ID_SAMPLES);
        samples.setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
        samples.addListener(SWT.Selection, e -> {
            int i = samples.getSelectionIndex();
            if (i >= 0 && i < sampleFiles.size()) {
                openPipeline(sampleFiles.get(i));
            }
        });
        left.setWeights(65, 35);
    }

    private void buildRight(Composite parent) {
        tabs = new TabFolder(parent, SWT.TOP);
        id(tabs, ConsoleService.ID_TABS);
        TabItem runTab = new TabItem(tabs, SWT.NONE);
        runTab.setText("Run");
        Composite right = new Composite(tabs, SWT.NONE);
        runTab.setControl(right);
        right.setLayout(new GridLayout(1, false));
        Group run = group(right, "Run");
        run.setLayout(new GridLayout(2, false));
        run.setLayoutData(new GridData(SWT.FILL, SWT.TOP, true, false));
        new Label(run, SWT.NONE).setText("Duration");
        duration = new Text(run, SWT.BORDER);
        id(duration, ConsoleService.ID_DURATION);
        duration.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        duration.setToolTipText("Virtual time, e.g. 20ms or 2s; empty: the pipeline's duration");
        new Label(run, SWT.NONE).setText("Seed");
        seed = new Text(run, SWT.BORDER);
        id(seed, ConsoleService.ID_SEED);
        seed.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        seed.setToolTipText("A whole number; empty: the pipeline's seed");
        new Label(run, SWT.NONE).setText("Speed");
        speed = new Combo(run, SWT.READ_ONLY);
        id(speed, ConsoleService.ID_SPEED);
        speed.setItems(RunInputs.SPEEDS.toArray(String[]::new));
        speed.select(0);
        speed.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        new Label(run, SWT.NONE);
        isolate = new Button(run, SWT.CHECK);
        id(isolate, ConsoleService.ID_ISOLATE);
        isolate.setText("Separate process");
        isolate.setToolTipText("Run in a child process (java -jar app/target/ringlab.jar run): an element that never returns"
                + " takes that process, not the console. Live views, pause, step and swap go through the child, which runs as"
                + " fast as it can; Stop ends its run with its result.");
        Composite buttons = new Composite(run, SWT.NONE);
        buttons.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false, 2, 1));
        buttons.setLayout(new GridLayout(3, true));
        runButton = button(buttons, "Run", ConsoleService.ID_RUN, this::runPipeline);
        pauseButton = button(buttons, "Pause", ConsoleService.ID_PAUSE, this::pause);
        resumeButton = button(buttons, "Resume", ConsoleService.ID_RESUME, this::resume);
        stepButton = button(buttons, "Step", ConsoleService.ID_STEP, this::step);
        stopButton = button(buttons, "Stop", ConsoleService.ID_STOP, this::stop);
        new Label(run, SWT.NONE).setText("Swap");
        Composite swap = new Composite(run, SWT.NONE);
        swap.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        GridLayout swapLayout = new GridLayout(3, false);
        swapLayout.marginWidth = 0;
        swap.setLayout(swapLayout);
        swapElement = new Combo(swap, SWT.READ_ONLY);
        id(swapElement, ConsoleService.ID_SWAP_ELEMENT);
        swapElement.setToolTipText("The element whose implementation to replace while the run goes on");
        GridData elementData = new GridData(SWT.LEFT, SWT.CENTER, false, false);
        elementData.widthHint = 90;
        swapElement.setLayoutData(elementData);
        swapElement.addListener(SWT.Selection, e -> fillSwapTargets());
        swapTarget = new Combo(swap, SWT.READ_ONLY);
        id(swapTarget, ConsoleService.ID_SWAP_TARGET);
        GridData targetData = new GridData(SWT.FILL, SWT.CENTER, true, false);
        targetData.widthHint = 120;
        swapTarget.setLayoutData(targetData);
        swapTarget.setToolTipText("The implementation to swap to; the old instance hands its state over (docs/hot-swap.md)");
        swapButton = button(swap, "Swap", ConsoleService.ID_SWAP, this::swap);
        status = new Label(run, SWT.WRAP);
        id(status, ConsoleService.ID_STATUS);
        status.setData(ConsoleService.POLLS_DATA, 0);
        GridData statusData = new GridData(SWT.FILL, SWT.CENTER, true, false, 2, 1);
        statusData.widthHint = 200; // a wrapping label needs a width hint in a GridLayout, or it never wraps
        status.setLayoutData(statusData);
        status.setText("no run");
        Group sum = group(right, "Summary");
        sum.setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
        summary = new Text(sum, SWT.MULTI | SWT.READ_ONLY | SWT.WRAP | SWT.V_SCROLL | SWT.BORDER);
        id(summary, ConsoleService.ID_SUMMARY);
        summary.setFont(JFaceResources.getTextFont());
        summary.setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));

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

    private static Group group(Composite parent, String title) {
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

    // ------------------------------------------------------------------ palette

    /** A palette category node. */
    record Category(String name, List<ElementDescriptorDTO> types) {
        String label() {
            return name + " (" + types.size() + ")";
        }
    }

    private static final class PaletteContent implements ITreeContentProvider {
        @Override
        public Object[] getElements(Object input) {
            return input instanceof PaletteModel m
                    ? m.categories().entrySet().stream().map(e -> new Category(e.getKey(), e.getValue())).toArray()
                    : new Object[0];
        }

        @Override
        public Object[] getChildren(Object parent) {
            return parent instanceof Category c ? c.types().toArray() : new Object[0];
        }

        @Override
        public Object getParent(Object element) {
            return null;
        }

        @Override
        public boolean hasChildren(Object element) {
            return element instanceof Category c && !c.types().isEmpty();
        }
    }

    /** Called on a framework thread when an element type came or went. */
    private void typesChanged() {
        try {
            if (!display.isDisposed()) {
                display.asyncExec(() -> {
                    if (!shell.isDisposed()) {
                        display.timerExec(PALETTE_REFRESH_MILLIS, paletteTask); // re-arming replaces a pending refresh
                    }
                });
            }
        } catch (SWTException e) {
            // the display was disposed between the check and the call: the window is gone, nothing to refresh
        }
    }

    private void refreshPalette() {
        if (shell.isDisposed()) {
            return;
        }
        List<ElementDescriptorDTO> installed = context.simulator().elementTypes();
        PaletteModel m = PaletteModel.of(installed);
        if (m.signature().equals(paletteSignature)) {
            return;
        }
        boolean first = paletteSignature.isEmpty();
        paletteSignature = m.signature();
        Map<String, String> cats = new HashMap<>();
        m.categories().forEach((c, types) -> types.forEach(d -> cats.put(d.type, c)));
        categoryOfType = cats;
        editor.setTypes(context.simulator().elementTypes(), categoryOfType);
        palette.setInput(m);
        palette.expandAll();
        if (!first) {
            log("INFO", "element types changed: " + cats.size() + " installed");
            if (forms != null) {
                forms.types(installed);
                properties.refresh();
            }
        }
    }

    // ------------------------------------------------------------------ files

    private void loadSamples() {
        Path home = context.home();
        if (home == null) {
            return;
        }
        Path dir = home.resolve("pipelines");
        if (!Files.isDirectory(dir)) {
            log("WARN", "no sample folder " + dir);
            return;
        }
        try (Stream<Path> s = Files.list(dir)) {
            s.filter(p -> p.getFileName().toString().endsWith(".pipeline")).sorted().forEach(p -> {
                sampleFiles.add(p);
                samples.add(p.getFileName().toString().replaceFirst("\\.pipeline$", ""));
            });
        } catch (IOException e) {
            error("Cannot list the sample pipelines", dir + ": " + e.getMessage());
        }
    }

    private void chooseFile() {
        Path f = FileChooser.choose(null, shell, SWT.OPEN, "Open a pipeline", "pipeline", null,
                context.home() == null ? null : context.home().resolve("pipelines"));
        if (f != null) {
            openPipeline(f);
        }
    }

    /** File > Open Experiment: an experiment file into the A/B panel, which is shown. */
    private void chooseExperiment() {
        Path f = FileChooser.choose(menuItem(shell.getMenuBar(), ConsoleService.ID_MENU_OPEN_EXPERIMENT), shell, SWT.OPEN,
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
        if (session != null && !RunSession.ended(session.state())) {
            session.stop();
            log("INFO", "stopped the run of " + pipeline.name + " to open " + file);
        }
        pipeline = p;
        session = null;
        isolate.setSelection(!thirdPartyBundles(p).isEmpty());
        editor.open(file, p); // also the window's title
        properties.show(forms(), editor.singleSelection());
        duration.setMessage(p.duration == null ? "1s" : p.duration.text);
        seed.setMessage(p.seed == null ? "1" : p.seed.text);
        charts.reset(p.headline == null ? null : p.headline.text);
        summary.setText("");
        summary.setData(ConsoleService.RESULT_DATA, null);
        setStatus("ready: " + p.elements.size() + " elements, " + p.connections.size() + " connections");
        log("INFO", "opened " + file + ": " + p.elements.size() + " elements, " + p.connections.size() + " connections");
        updateButtons();
    }

    // ------------------------------------------------------------------ running

    private void runPipeline() {
        if (editor.isEmpty()) {
            error("Nothing to run", "Open a pipeline first (File > Open, or a sample on the left), or place elements.");
            return;
        }
        if (session != null && !RunSession.ended(session.state())) {
            return;
        }
        RunOptionsDTO options;
        try {
            options = RunInputs.options(duration.getText(), seed.getText(), speed.getSelectionIndex());
        } catch (IllegalArgumentException e) {
            error("Invalid run settings", e.getMessage());
            return;
        }
        PropertyFormModel forms = forms();
        List<String> invalid = forms == null ? List.of() : forms.errors();
        if (!invalid.isEmpty()) {
            error("Invalid property values", "The run needs valid values; fix these in the Properties tab:\n"
                    + String.join("\n", invalid));
            return;
        }
        boolean edited = forms != null && forms.edited();
        PipelineDTO p;
        SimulationRun run;
        try {
            p = editor.pipeline(); // what the editor shows, saved or not, with the forms' edits
            if (isolate.getSelection()) {
                if (context.home() == null) {
                    error("Cannot run in a separate process", "The console has no ringlab.home, so it cannot find"
                            + " app/target/ringlab.jar; clear 'Separate process' to run here.");
                    return;
                }
                options.realTimeFactor = 0; // the child runs as fast as it can
                run = new IsolatedRun(context.home(), p, options, bundlesForAChild(p),
                        context.bundleContext().getProperty(IsolatedRun.WATCHDOG_PROPERTY));
            } else {
                run = context.simulator().prepare(p, options);
            }
        } catch (PipelineException e) {
            error("Cannot run " + editor.displayName(), e.getMessage());
            return;
        } catch (RuntimeException e) {
            error("Cannot run " + editor.displayName(), describe(e));
            return;
        }
        pipeline = p;
        if (edited) {
            log("INFO", "running the pipeline as edited (not saved to its file): " + String.join(", ", forms.changes()));
        }
        RunSession s = new RunSession(run);
        session = s;
        isolatedSession = run instanceof IsolatedRun;
        if (isolatedSession) {
            List<String> thirdParty = thirdPartyBundles(p).stream().map(ThirdPartyBundle::label).toList();
            log("INFO", "running in a separate process" + (thirdParty.isEmpty() ? "" : " (bundles not Ringlab's own: "
                    + String.join(", ", thirdParty) + ")") + ", as fast as it can");
        }
        charts.reset(p.headline == null ? null : p.headline.text);
        summary.setText("");
        summary.setData(ConsoleService.RESULT_DATA, null);
        summary.setData(ConsoleService.STREAM_DATA, null);
        s.stream(openStream(p));
        run.completion().thenAccept(r -> ended(s, r));
        s.start();
        log("INFO", "run started: " + p.name + (options.durationPicos > 0 ? ", duration " + duration.getText().strip() : "")
                + (options.seed != null ? ", seed " + options.seed : "") + ", " + RunInputs.SPEEDS.get(speed.getSelectionIndex()));
        liveTypes.clear();
        p.elements.forEach(e -> liveTypes.put(e.name, e.type));
        swapElement.setItems(liveTypes.keySet().toArray(String[]::new));
        swapElement.select(0);
        fillSwapTargets();
        startPolling();
        updateButtons();
    }

    /** @return the bundles of the pipeline's element types that are not Ringlab's own, with their locations here */
    private List<ThirdPartyBundle> thirdPartyBundles(PipelineDTO p) {
        return ThirdPartyBundle.of(p, context.simulator().elementTypes(), this::bundleLocation);
    }

    /**
     * @return what a child process needs that is not Ringlab's own: the bundles of the pipeline's element types, then
     *         every bundle providing a pool kind, a qdisc kind or queue limits (the pipeline does not say which kinds its
     *         elements use, so all of them: the child installs them and uses what it needs)
     */
    private List<ThirdPartyBundle> bundlesForAChild(PipelineDTO p) {
        return ThirdPartyBundle.forAChild(thirdPartyBundles(p), this::providers);
    }

    /** @return the bundles that register a service of that class, as they are installed here */
    private List<ThirdPartyBundle> providers(String service) {
        List<ThirdPartyBundle> out = new ArrayList<>();
        try {
            ServiceReference<?>[] refs = context.bundleContext().getServiceReferences(service, null);
            for (ServiceReference<?> r : refs == null ? new ServiceReference<?>[0] : refs) {
                Bundle b = r.getBundle();
                if (b != null) { // null: unregistered meanwhile
                    out.add(new ThirdPartyBundle(b.getSymbolicName(), b.getVersion().toString(), b.getLocation()));
                }
            }
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException(e); // no filter: cannot happen
        }
        return out;
    }

    /** @return the location of the installed bundle with that symbolic name and version, or {@code null} */
    private String bundleLocation(String symbolicName, String version) {
        for (Bundle b : context.bundleContext().getBundles()) {
            if (symbolicName.equals(b.getSymbolicName()) && version.equals(b.getVersion().toString())) {
                return b.getLocation();
            }
        }
        return null;
    }

    /** Shows the implementations the selected element can swap to (its type's category, its own type first). */
    private void fillSwapTargets() {
        int i = swapElement.getSelectionIndex();
        String type = i < 0 ? null : liveTypes.get(swapElement.getItem(i));
        swapChoices = type == null ? List.of() : SwapChoices.of(type, swappable());
        swapTarget.setItems(swapChoices.stream().map(SwapChoices.Choice::label).toArray(String[]::new));
        if (!swapChoices.isEmpty()) {
            swapTarget.select(0);
        }
        updateButtons();
    }

    /**
     * @return the element types a swap of this run can go to: every installed one, or for a run in a separate process
     *         those the child has (Ringlab's own, and those of the bundles it was given)
     */
    private List<io.ringlab.sim.api.dto.ElementDescriptorDTO> swappable() {
        List<io.ringlab.sim.api.dto.ElementDescriptorDTO> all = context.simulator().elementTypes();
        if (!isolatedSession || pipeline == null) {
            return all;
        }
        java.util.Set<String> given = new java.util.HashSet<>();
        thirdPartyBundles(pipeline).forEach(b -> given.add(b.label()));
        return all.stream().filter(d -> d.bundle == null || ThirdPartyBundle.isRinglabs(d.bundle)
                || given.contains(d.bundle + " " + d.bundleVersion)).toList();
    }

    /** Asks the run to swap the selected element to the selected implementation at its next safe point. */
    private void swap() {
        RunSession s = session;
        int e = swapElement.getSelectionIndex(), t = swapTarget.getSelectionIndex();
        if (s == null || RunSession.ended(s.state()) || e < 0 || t < 0 || t >= swapChoices.size()) {
            return;
        }
        String element = swapElement.getItem(e);
        SwapChoices.Choice c = swapChoices.get(t);
        log("INFO", "swap of " + element + " to " + c.label() + " requested; it happens at the run's next safe point");
        s.run().swap(element, c.type(), c.version()).thenAccept(d -> {
            try {
                if (!display.isDisposed()) {
                    display.asyncExec(() -> swapped(d));
                }
            } catch (SWTException gone) {
                // the window closed meanwhile
            }
        });
        startPolling(); // a paused run applies it and publishes a snapshot
    }

    private void swapped(SwapDTO d) {
        log(d.applied ? "INFO" : "WARN", SwapText.of(d));
        if (d.applied && d.to != null && d.to.indexOf('@') > 0) {
            liveTypes.put(d.element, d.to.substring(0, d.to.indexOf('@')));
        }
        if (!d.applied) {
            error("The swap was not applied", d.message == null ? "The swap was not applied." : d.message);
        }
        fillSwapTargets();
    }

    private void pause() {
        if (session != null && !RunSession.ended(session.state())) {
            session.pause();
            log("INFO", "pause requested");
            startPolling(); // until the engine shows PAUSED
        }
    }

    private void resume() {
        if (session != null && session.state() == RunState.PAUSED) {
            session.resume();
            log("INFO", "resumed");
            startPolling();
        }
    }

    private void step() {
        if (session != null && session.state() == RunState.PAUSED) {
            session.step();
            startPolling(); // until the step's event shows
        }
    }

    private void stop() {
        if (session != null && !RunSession.ended(session.state())) {
            session.stop();
            log("INFO", "stop requested");
            startPolling();
        }
    }

    private void startPolling() {
        if (!polling) {
            polling = true;
            display.timerExec(POLL_MILLIS, pollTask);
        }
    }

    private void pollOnce() {
        RunSession s = session;
        if (shell.isDisposed() || s == null) {
            polling = false;
            return;
        }
        RunState before = s.last().state;
        boolean again = s.poll();
        RunState now = s.last().state;
        if (now == RunState.PAUSED && before != RunState.PAUSED) {
            log("INFO", String.format(Locale.ROOT, "paused at %.3f ms virtual", s.last().simulatedSeconds * 1e3));
        }
        status.setData(ConsoleService.POLLS_DATA, ((Integer) status.getData(ConsoleService.POLLS_DATA)) + 1);
        if (resultShown != s) {
            showSnapshot(s.last());
            if (s.stream() != null) {
                s.stream().offer(s.last().series); // hands the new rows to the stream's thread; never waits
            }
        }
        if (again) {
            display.timerExec(POLL_MILLIS, pollTask);
        } else {
            polling = false;
        }
        updateButtons();
    }

    private void setStatus(String text) {
        status.setText(text);
        status.requestLayout();
    }

    private void showSnapshot(RunSnapshotDTO snap) {
        setStatus(String.format(Locale.ROOT, "%s  %.3f / %.3f ms virtual, %,d events", snap.state, snap.simulatedSeconds * 1e3,
                snap.durationSeconds * 1e3, snap.events));
        charts.swaps(snap.swaps);
        charts.show(ChartData.of(snap.series, pipeline.headline == null ? null : pipeline.headline.text), snap.simulatedSeconds,
                snap.elements, CpuTable.ofSnapshot(snap.elements));
    }

    /** Called on the engine thread when a run ends; hands the result to the UI thread. */
    private void ended(RunSession s, RunResultDTO r) {
        try {
            if (!display.isDisposed()) {
                display.asyncExec(() -> showResult(s, r));
            }
        } catch (SWTException e) {
            // the display was disposed between the check and the call: the window is gone with its run
        }
    }

    private void showResult(RunSession s, RunResultDTO r) {
        finishStream(s, r);
        if (shell.isDisposed() || s != session) {
            return; // a result of a run the user has moved on from (another file opened)
        }
        setStatus(String.format(Locale.ROOT, "%s  %.3f ms virtual in %.3f s wall, %,d events", r.state, r.simulatedSeconds * 1e3,
                r.wallSeconds, r.events));
        charts.swaps(r.swaps);
        charts.show(ChartData.of(r.series, r.headline == null ? null : r.headline.metric), r.simulatedSeconds, r.elements,
                CpuTable.ofResult(r.runtime));
        summary.setText(SummaryText.of(r));
        summary.setData(ConsoleService.RESULT_DATA, r);
        resultShown = s;
        String h = SummaryText.headline(r);
        log("INFO", "run ended: " + r.state + (h == null ? "" : ", headline " + h));
        if ("FAILED".equals(r.state)) {
            error("The run failed", r.error == null ? "The run failed without a message." : r.error);
        } else if (!r.invariants.packetConservation || !r.invariants.bufferConservation) {
            error("An invariant is broken", String.join("\n", r.invariants.violations));
        }
        updateButtons();
    }

    private void updateButtons() {
        if (shell.isDisposed()) {
            return;
        }
        RunState st = session == null ? null : session.state();
        boolean live = st != null && !RunSession.ended(st);
        runButton.setEnabled(!editor.isEmpty() && !live);
        // a separate process takes pause, step and swap once its run runs (IsolatedRun sends them to the child)
        pauseButton.setEnabled(st == RunState.RUNNING || (!isolatedSession && st == RunState.READY));
        resumeButton.setEnabled(st == RunState.PAUSED);
        stepButton.setEnabled(st == RunState.PAUSED);
        stopButton.setEnabled(live);
        swapButton.setEnabled(live && st != RunState.READY && swapTarget.getSelectionIndex() >= 0);
        swapElement.setEnabled(live);
        swapTarget.setEnabled(live);
        isolate.setEnabled(!live);
    }

    // ------------------------------------------------------------------ streaming

    /**
     * @return a stream of the run's series to {@code results/<pipeline>-<time>.csv} in ringlab.home, or {@code null}
     *         without a home (then the log says so)
     */
    private SeriesStream openStream(PipelineDTO p) {
        Path home = context.home();
        if (home == null) {
            log("WARN", "no ringlab.home: the run's series are not streamed to disk");
            return null;
        }
        String time = LocalDateTime.now().format(STAMP);
        Path f = SeriesStream.fileFor(home, p.name, time);
        for (int i = 2; Files.exists(f); i++) { // two runs in the same second
            f = SeriesStream.fileFor(home, p.name, time + "-" + i);
        }
        log("INFO", "streaming the series to " + f);
        return new SeriesStream(f);
    }

    /** Streams what the result adds and closes the file on the stream's thread; reports back on the UI thread. */
    private void finishStream(RunSession s, RunResultDTO r) {
        SeriesStream stream = s.stream();
        if (stream == null) {
            return;
        }
        s.stream(null);
        stream.finish(r.series).whenComplete((file, failure) -> {
            try {
                if (!display.isDisposed()) {
                    display.asyncExec(() -> streamDone(s, stream, failure));
                }
            } catch (SWTException e) {
                // the display went away: nothing to report to
            }
        });
    }

    private void streamDone(RunSession s, SeriesStream stream, Throwable failure) {
        if (shell.isDisposed()) {
            return;
        }
        if (failure != null) {
            Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            error("Cannot stream the series to " + stream.file(), stream.file() + ": " + describe(cause));
            return;
        }
        log("INFO", "series streamed to " + stream.file() + ": " + String.format(Locale.ROOT, "%,d", stream.rowsWritten()) + " rows");
        if (s == session) {
            summary.setData(ConsoleService.STREAM_DATA, stream.file().toString());
        }
    }

    // ------------------------------------------------------------------ exports

    /** @return the file from the automation hook on the menu item, else from a save dialog; {@code null} if cancelled. */
    private Path exportFile(String itemId, String title, String extension) {
        String base = pipeline == null || pipeline.name == null ? "ringlab" : pipeline.name;
        return FileChooser.choose(menuItem(shell.getMenuBar(), itemId), shell, SWT.SAVE, title, extension, base + "." + extension,
                context.home() == null ? null : context.home().resolve("results"));
    }

    private static MenuItem menuItem(Menu m, String id) {
        for (MenuItem i : m.getItems()) {
            if (id.equals(i.getData(ConsoleService.WIDGET_ID))) {
                return i;
            }
            if (i.getMenu() != null) {
                MenuItem k = menuItem(i.getMenu(), id);
                if (k != null) {
                    return k;
                }
            }
        }
        return null;
    }

    private RunResultDTO lastResult() {
        return summary.getData(ConsoleService.RESULT_DATA) instanceof RunResultDTO r ? r : null;
    }

    private void exportPng() {
        Path f = exportFile(ConsoleService.ID_MENU_EXPORT_PNG, "Export the chart as PNG", "png");
        if (f == null) {
            return;
        }
        String tab = charts.visibleTab();
        try {
            ImageLoader loader = new ImageLoader();
            loader.data = new ImageData[] { charts.snapshotOfVisibleTab() };
            loader.save(f.toString(), SWT.IMAGE_PNG);
            log("INFO", "exported the " + tab + " charts to " + f);
        } catch (SWTException | IllegalArgumentException e) {
            error("Cannot export the chart to " + f, f + ": " + describe(e));
        }
    }

    private void exportCsv() {
        RunResultDTO r = lastResult();
        SeriesDTO series = r != null ? r.series : session != null ? session.last().series : null;
        if (series == null || series.columns.isEmpty()) {
            error("No series to export", "Run a pipeline first: the CSV holds the sampled series of the last run.");
            return;
        }
        Path f = exportFile(ConsoleService.ID_MENU_EXPORT_CSV, "Export the series as CSV", "csv");
        if (f == null) {
            return;
        }
        try {
            OutputFile.write(f, out -> {
                Writer w = new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8);
                ResultFiles.csv(series, w);
                w.flush();
            });
            log("INFO", "exported " + String.format(Locale.ROOT, "%,d", series.rows.size()) + " rows of " + (series.columns.size() - 1)
                    + " series to " + f + (r == null ? " (the run goes on: the rows so far)" : ""));
        } catch (IOException | RuntimeException e) {
            error("Cannot export the series to " + f, f + ": " + describe(e));
        }
    }

    private void exportJson() {
        RunResultDTO r = lastResult();
        if (r == null) {
            error("No result to export", "The JSON is the result of a run: run a pipeline to its end (or Stop it) first.");
            return;
        }
        Path f = exportFile(ConsoleService.ID_MENU_EXPORT_JSON, "Export the result as JSON", "json");
        if (f == null) {
            return;
        }
        try {
            OutputFile.write(f, ResultFiles.json(r));
            log("INFO", "exported the result to " + f);
        } catch (IOException | RuntimeException e) {
            error("Cannot export the result to " + f, f + ": " + describe(e));
        }
    }

    // ------------------------------------------------------------------ errors and log

    /** Shows an error in a dialog (which does not block the caller) and in the log. */
    private void error(String title, String message) {
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

    private void log(String level, String message) {
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

    private void disposed() {
        if (session != null && !RunSession.ended(session.state())) {
            session.stop();
        }
        if (typesSubscription != null) {
            try {
                typesSubscription.close();
            } catch (Exception e) {
                System.err.println("ringlab console: closing the element type listener failed: " + describe(e));
            }
        }
    }

    Shell shell() {
        return shell;
    }
}

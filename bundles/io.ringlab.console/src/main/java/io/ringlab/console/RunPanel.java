package io.ringlab.console;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.eclipse.jface.resource.JFaceResources;
import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Group;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.TabFolder;
import org.eclipse.swt.widgets.TabItem;
import org.eclipse.swt.widgets.Text;

import io.ringlab.console.api.ConsoleService;
import io.ringlab.pipeline.format.SwapText;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.RunState;
import io.ringlab.sim.api.SimulationRun;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.RunSnapshotDTO;
import io.ringlab.sim.api.dto.SeriesDTO;
import io.ringlab.sim.api.dto.SwapDTO;

/**
 * The Run tab and the run it starts: duration, seed, speed and Separate process; Run, Pause, Resume, Step, Stop and
 * Swap; the status line and the summary. It controls one run at a time (a {@link RunSession}): it polls the run's
 * latest immutable snapshot with {@link Display#timerExec} every {@value #POLL_MILLIS} ms while the run goes on, shows
 * it in the live charts, streams the series to a file, and shows the result when the run ends.
 * <p>
 * Threads: everything here runs on the UI thread. The run's completion, a swap's outcome and the stream's end come on
 * other threads and are handed over with {@link UiExecutor}. Nothing here waits for the engine.
 */
final class RunPanel {
    /** Snapshot polling interval: 10 Hz, the rate at which the engine publishes snapshots. */
    static final int POLL_MILLIS = 100;
    /** The time in a streamed file's name. */
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    /** What the panel needs from the window. */
    interface Host {
        /** @return the pipeline editor, whose pipeline a run runs */
        PipelineEditor editor();

        /** @return the live charts a run shows */
        LiveCharts charts();

        /** @return the property forms of the editor's pipeline, or {@code null} without one */
        PropertyFormModel forms();

        /** Opens the model page of an element's type (an inspector's link). */
        void openModelPage(String element, String type);
    }

    private final ConsoleContext context;
    private final Display display;
    private final Host host;
    private final Feedback feedback;
    private final BundleInventory bundles;
    private Text duration, seed, summary;
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

    private PipelineDTO pipeline;
    /** The run's pipeline and types as the canvas shows their state; {@code null} before a run. */
    private CanvasState.Layout canvasLayout;
    /** The canvas at the run's end or pause: the time slider's last position. */
    private CanvasState endState = CanvasState.EMPTY;
    /** The series the time slider picks rows of: the result's, or the paused run's; {@code null} while none. */
    private SeriesDTO sliderSeries;
    /** The latest moment the panel showed, which the inspectors show: its time, metrics, drops, series, properties. */
    private double shownSeconds;
    private Map<String, Map<String, Double>> shownMetrics = Map.of();
    private Map<String, Map<String, Long>> shownDrops = Map.of();
    private SeriesDTO shownSeries;
    /** The result's properties as run, or {@code null} while the run goes on (the file's values and defaults then). */
    private Map<String, Map<String, String>> shownProperties;
    /** The open inspectors, by element. */
    private final Map<String, Inspector> inspectors = new LinkedHashMap<>();
    private RunSession session;
    /** The session whose result the summary shows; a late poll of it must not overwrite the result's status line. */
    private RunSession resultShown;
    private boolean polling;
    /** Whether the engine is preparing a run (off the UI thread); which preparation is wanted (opening a file moves on). */
    private boolean preparing;
    private int preparations;
    /** Set when the window closes: a run prepared after that is closed, not started. */
    private volatile boolean closed;
    private final Runnable pollTask = this::pollOnce;

    /** Builds the Run tab as the first tab of {@code tabs}. */
    RunPanel(TabFolder tabs, ConsoleContext context, Display display, Host host, Feedback feedback, BundleInventory bundles) {
        this.context = context;
        this.display = display;
        this.host = host;
        this.feedback = feedback;
        this.bundles = bundles;
        TabItem runTab = new TabItem(tabs, SWT.NONE);
        runTab.setText("Run");
        Composite right = new Composite(tabs, SWT.NONE);
        runTab.setControl(right);
        right.setLayout(new GridLayout(1, false));
        Group run = ConsoleWindow.group(right, "Run");
        run.setLayout(new GridLayout(2, false));
        run.setLayoutData(new GridData(SWT.FILL, SWT.TOP, true, false));
        new Label(run, SWT.NONE).setText("Duration");
        duration = new Text(run, SWT.BORDER);
        ConsoleWindow.id(duration, ConsoleService.ID_DURATION);
        duration.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        duration.setToolTipText("Virtual time, e.g. 20ms or 2s; empty: the pipeline's duration");
        new Label(run, SWT.NONE).setText("Seed");
        seed = new Text(run, SWT.BORDER);
        ConsoleWindow.id(seed, ConsoleService.ID_SEED);
        seed.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        seed.setToolTipText("A whole number; empty: the pipeline's seed");
        new Label(run, SWT.NONE).setText("Speed");
        speed = new Combo(run, SWT.READ_ONLY);
        ConsoleWindow.id(speed, ConsoleService.ID_SPEED);
        speed.setItems(RunInputs.SPEEDS.toArray(String[]::new));
        speed.select(0);
        speed.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        ConsoleWindow.fitCombo(speed);
        new Label(run, SWT.NONE);
        isolate = new Button(run, SWT.CHECK);
        ConsoleWindow.id(isolate, ConsoleService.ID_ISOLATE);
        isolate.setText("Separate process");
        isolate.setToolTipText("Run in a child process (java -jar app/target/ringlab.jar run): an element that never returns"
                + " takes that process, not the console. Live views, pause, step and swap go through the child, which runs as"
                + " fast as it can; Stop ends its run with its result.");
        Composite buttons = new Composite(run, SWT.NONE);
        buttons.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false, 2, 1));
        buttons.setLayout(new GridLayout(3, true));
        runButton = ConsoleWindow.button(buttons, "Run", ConsoleService.ID_RUN, this::run);
        pauseButton = ConsoleWindow.button(buttons, "Pause", ConsoleService.ID_PAUSE, this::pause);
        resumeButton = ConsoleWindow.button(buttons, "Resume", ConsoleService.ID_RESUME, this::resume);
        stepButton = ConsoleWindow.button(buttons, "Step", ConsoleService.ID_STEP, this::step);
        stopButton = ConsoleWindow.button(buttons, "Stop", ConsoleService.ID_STOP, this::stop);
        new Label(run, SWT.NONE).setText("Swap");
        Composite swap = new Composite(run, SWT.NONE);
        swap.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        GridLayout swapLayout = new GridLayout(3, false);
        swapLayout.marginWidth = 0;
        swap.setLayout(swapLayout);
        swapElement = new Combo(swap, SWT.READ_ONLY);
        ConsoleWindow.id(swapElement, ConsoleService.ID_SWAP_ELEMENT);
        swapElement.setToolTipText("The element whose implementation to replace while the run goes on");
        GridData elementData = new GridData(SWT.LEFT, SWT.CENTER, false, false);
        elementData.widthHint = 90;
        swapElement.setLayoutData(elementData);
        swapElement.addListener(SWT.Selection, e -> fillSwapTargets());
        swapTarget = new Combo(swap, SWT.READ_ONLY);
        ConsoleWindow.id(swapTarget, ConsoleService.ID_SWAP_TARGET);
        GridData targetData = new GridData(SWT.FILL, SWT.CENTER, true, false);
        targetData.widthHint = 120;
        swapTarget.setLayoutData(targetData);
        swapTarget.setToolTipText("The implementation to swap to; the old instance hands its state over (docs/hot-swap.md)");
        swapButton = ConsoleWindow.button(swap, "Swap", ConsoleService.ID_SWAP, this::swap);
        status = new Label(run, SWT.WRAP);
        ConsoleWindow.id(status, ConsoleService.ID_STATUS);
        status.setData(ConsoleService.POLLS_DATA, 0);
        GridData statusData = new GridData(SWT.FILL, SWT.CENTER, true, false, 2, 1);
        statusData.widthHint = 200; // a wrapping label needs a width hint in a GridLayout, or it never wraps
        status.setLayoutData(statusData);
        status.setText("no run");
        Group sum = ConsoleWindow.group(right, "Summary");
        sum.setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
        summary = new Text(sum, SWT.MULTI | SWT.READ_ONLY | SWT.WRAP | SWT.V_SCROLL | SWT.BORDER);
        ConsoleWindow.id(summary, ConsoleService.ID_SUMMARY);
        summary.setFont(JFaceResources.getTextFont());
        summary.setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
        host.editor().timeSlider().onMove(this::sliderMoved);
        host.editor().onInspect(this::inspect);
    }

    /**
     * A pipeline was opened (or File > New made one): a run in progress stops, and the tab shows the new pipeline's
     * settings and nothing of the previous one's: duration and seed as its file says (what was typed for the previous
     * pipeline goes), no swap choices, the charts and the CPU table cleared, no summary, the status line about it.
     *
     * @param p the pipeline
     */
    void opened(PipelineDTO p) {
        preparations++; // a run still being prepared is for the previous pipeline: closed when ready, never started
        preparing = false;
        if (session != null && !RunSession.ended(session.state())) {
            session.stop();
            feedback.log("INFO", "stopped the run of " + pipeline.name + " to open " + p.file);
        }
        pipeline = p;
        session = null;
        isolate.setSelection(!bundles.thirdParty(p).isEmpty());
        duration.setText(p.duration == null ? "" : p.duration.text);
        duration.setMessage(p.duration == null ? "1s" : p.duration.text);
        seed.setText(p.seed == null ? "" : p.seed.text);
        seed.setMessage(p.seed == null ? "1" : p.seed.text);
        liveTypes.clear(); // the swap choices were the last run's elements
        swapElement.setItems(new String[0]);
        swapChoices = List.of();
        swapTarget.setItems(new String[0]);
        host.charts().reset(p.headline == null ? null : p.headline.text);
        forgetRunState("no run");
        summary.setText("");
        summary.setData(ConsoleService.RESULT_DATA, null);
        setStatus("ready: " + p.elements.size() + " elements, " + p.connections.size() + " connections");
        updateButtons();
    }

    /** @return the name of the pipeline last opened or run, or {@code null} */
    String pipelineName() {
        return pipeline == null ? null : pipeline.name;
    }

    /** @return the result the summary shows, or {@code null} */
    RunResultDTO lastResult() {
        return summary.getData(ConsoleService.RESULT_DATA) instanceof RunResultDTO r ? r : null;
    }

    /** @return the series of the result shown, else of the run's latest snapshot, or {@code null} */
    SeriesDTO lastSeries() {
        RunResultDTO r = lastResult();
        return r != null ? r.series : session != null ? session.last().series : null;
    }

    /** The window closes: a run in progress stops. */
    void disposed() {
        closed = true;
        inspectors.clear(); // their windows are the console's children, disposed with it
        if (session != null && !RunSession.ended(session.state())) {
            session.stop();
        }
    }

    /** Runs the editor's pipeline, as it shows it, with the tab's settings. */
    void run() {
        if (host.editor().isEmpty()) {
            feedback.error("Nothing to run", "Open a pipeline first (File > Open, or a sample on the left), or place elements.");
            return;
        }
        if (preparing || session != null && !RunSession.ended(session.state())) {
            return;
        }
        RunOptionsDTO options;
        try {
            options = RunInputs.options(duration.getText(), seed.getText(), speed.getSelectionIndex());
        } catch (IllegalArgumentException e) {
            feedback.error("Invalid run settings", e.getMessage());
            return;
        }
        PropertyFormModel forms = host.forms();
        List<String> invalid = forms == null ? List.of() : forms.errors();
        if (!invalid.isEmpty()) {
            feedback.error("Invalid property values", "The run needs valid values; fix these in the Properties tab:\n"
                    + String.join("\n", invalid));
            return;
        }
        boolean edited = forms != null && forms.edited();
        PipelineDTO p;
        try {
            p = host.editor().pipeline(); // what the editor shows, saved or not, with the forms' edits
            if (isolate.getSelection()) {
                if (context.home() == null) {
                    feedback.error("Cannot run in a separate process", "The console has no ringlab.home, so it cannot find"
                            + " app/target/ringlab.jar; clear 'Separate process' to run here.");
                    return;
                }
                options.realTimeFactor = 0; // the child runs as fast as it can
                started(p, new IsolatedRun(context.home(), p, options, bundles.forAChild(p),
                        context.bundleContext().getProperty(ChildCommand.WATCHDOG_PROPERTY)), options, edited ? forms.changes() : null);
                return;
            }
        } catch (RuntimeException e) {
            feedback.error("Cannot run " + host.editor().displayName(), ConsoleWindow.describe(e));
            return;
        }
        // the engine builds the run off the UI thread (a large pipeline takes tens of milliseconds: the window would stall)
        int generation = ++preparations;
        preparing = true;
        session = null; // the last run is no longer the one shown: its result's last steps must not write it back
        summary.setText(""); // the last result is no longer the one shown: this run's will be
        summary.setData(ConsoleService.RESULT_DATA, null);
        summary.setData(ConsoleService.STREAM_DATA, null);
        setStatus("preparing the run of " + p.name + "...");
        updateButtons();
        List<String> changes = edited ? forms.changes() : null;
        String name = host.editor().displayName();
        Thread.ofVirtual().name("ringlab prepare " + p.name).start(() -> {
            SimulationRun run = null;
            String problem = null;
            try {
                run = context.simulator().prepare(p, options);
            } catch (PipelineException e) {
                problem = e.getMessage();
            } catch (Throwable e) { // an Error too: the Run button must come back whatever happened
                problem = ConsoleWindow.describe(e);
            }
            SimulationRun prepared = run;
            String refused = problem;
            if (closed || display.isDisposed()) { // the window closed meanwhile: nobody will start it
                if (prepared != null) {
                    prepared.close();
                }
                return;
            }
            UiExecutor.later(display, null, () -> {
                if (status.isDisposed() || generation != preparations) { // closed, or another pipeline opened meanwhile
                    if (prepared != null) {
                        prepared.close();
                    }
                    return;
                }
                preparing = false;
                if (refused != null) {
                    feedback.error("Cannot run " + name, refused);
                    setStatus("not run: " + p.name);
                    updateButtons();
                } else {
                    started(p, prepared, options, changes);
                }
            });
        });
    }

    /**
     * Starts a prepared run and follows it: the views reset, the stream opened, the swap choices filled, polling begun.
     *
     * @param changes the forms' edits the run has (not saved to the file), or {@code null}
     */
    private void started(PipelineDTO p, SimulationRun run, RunOptionsDTO options, List<String> changes) {
        pipeline = p;
        if (changes != null) {
            feedback.log("INFO", "running the pipeline as edited (not saved to its file): " + String.join(", ", changes));
        }
        RunSession s = new RunSession(run);
        session = s;
        isolatedSession = run instanceof IsolatedRun;
        if (isolatedSession) {
            List<String> thirdParty = bundles.thirdParty(p).stream().map(ThirdPartyBundle::label).toList();
            feedback.log("INFO", "running in a separate process" + (thirdParty.isEmpty() ? "" : " (bundles not Ringlab's own: "
                    + String.join(", ", thirdParty) + ")") + ", as fast as it can");
        }
        host.charts().reset(p.headline == null ? null : p.headline.text);
        canvasLayout = new CanvasState.Layout(p, context.simulator().elementTypes());
        host.editor().showState(CanvasState.EMPTY);
        host.editor().timeSlider().disable("following the run");
        sliderSeries = null;
        shownProperties = null;
        summary.setText("");
        summary.setData(ConsoleService.RESULT_DATA, null);
        summary.setData(ConsoleService.STREAM_DATA, null);
        s.stream(openStream(p));
        run.completion().thenAccept(r -> ended(s, r));
        s.start();
        feedback.log("INFO", "run started: " + p.name + (options.durationPicos > 0 ? ", duration " + duration.getText().strip() : "")
                + (options.seed != null ? ", seed " + options.seed : "") + ", " + RunInputs.SPEEDS.get(speed.getSelectionIndex()));
        liveTypes.clear();
        p.elements.forEach(e -> liveTypes.put(e.name, e.type));
        setItems(swapElement, liveTypes.keySet().toArray(String[]::new));
        swapElement.select(0);
        fillSwapTargets();
        startPolling();
        updateButtons();
    }

    /**
     * Sets a read-only combo's items and fits it to them, only when they changed: the same pipeline run again keeps its
     * combos, and re-fitting one lays the whole Run tab out again at the moment the run starts (ConsoleBenchmarkGuiTest).
     */
    private static void setItems(org.eclipse.swt.widgets.Combo c, String[] items) {
        if (!java.util.Arrays.equals(c.getItems(), items)) {
            c.setItems(items);
            ConsoleWindow.fitCombo(c);
        }
    }

    /** Shows the implementations the selected element can swap to (its type's category, its own type first). */
    private void fillSwapTargets() {
        int i = swapElement.getSelectionIndex();
        String type = i < 0 ? null : liveTypes.get(swapElement.getItem(i));
        swapChoices = type == null ? List.of() : SwapChoices.of(type, swappable());
        setItems(swapTarget, swapChoices.stream().map(SwapChoices.Choice::label).toArray(String[]::new));
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
        bundles.thirdParty(pipeline).forEach(b -> given.add(b.label()));
        return all.stream().filter(d -> d.bundle == null || ThirdPartyBundle.isRinglabs(d.bundle)
                || given.contains(d.bundle + " " + d.bundleVersion)).toList();
    }

    /** Asks the run to swap the selected element to the selected implementation at its next safe point. */
    void swap() {
        RunSession s = session;
        int e = swapElement.getSelectionIndex(), t = swapTarget.getSelectionIndex();
        if (s == null || RunSession.ended(s.state()) || e < 0 || t < 0 || t >= swapChoices.size()) {
            return;
        }
        String element = swapElement.getItem(e);
        SwapChoices.Choice c = swapChoices.get(t);
        feedback.log("INFO", "swap of " + element + " to " + c.label() + " requested; it happens at the run's next safe point");
        s.run().swap(element, c.type(), c.version()).thenAccept(d -> UiExecutor.later(display, status, () -> swapped(d)));
        startPolling(); // a paused run applies it and publishes a snapshot
    }

    private void swapped(SwapDTO d) {
        feedback.log(d.applied ? "INFO" : "WARN", SwapText.of(d));
        if (d.applied && d.to != null && d.to.indexOf('@') > 0) {
            liveTypes.put(d.element, d.to.substring(0, d.to.indexOf('@')));
        }
        if (!d.applied) {
            feedback.error("The swap was not applied", d.message == null ? "The swap was not applied." : d.message);
        }
        fillSwapTargets();
    }

    void pause() {
        if (session != null && !RunSession.ended(session.state())) {
            session.pause();
            feedback.log("INFO", "pause requested");
            startPolling(); // until the engine shows PAUSED
        }
    }

    void resume() {
        if (session != null && session.state() == RunState.PAUSED) {
            session.resume();
            feedback.log("INFO", "resumed");
            startPolling();
        }
    }

    void step() {
        if (session != null && session.state() == RunState.PAUSED) {
            session.step();
            startPolling(); // until the step's event shows
        }
    }

    void stop() {
        if (session != null && !RunSession.ended(session.state())) {
            session.stop();
            feedback.log("INFO", "stop requested");
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
        if (status.isDisposed() || s == null) {
            polling = false;
            return;
        }
        RunState before = s.last().state;
        boolean again = s.poll();
        RunState now = s.last().state;
        if (now == RunState.PAUSED && before != RunState.PAUSED) {
            feedback.log("INFO", String.format(Locale.ROOT, "paused at %.3f ms virtual", s.last().simulatedSeconds * 1e3));
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
        ConsoleWindow.setText(status, text);
    }

    private void showSnapshot(RunSnapshotDTO snap) {
        setStatus(String.format(Locale.ROOT, "%s  %.3f / %.3f ms virtual, %,d events", snap.state, snap.simulatedSeconds * 1e3,
                snap.durationSeconds * 1e3, snap.events));
        host.charts().swaps(snap.swaps);
        String headline = pipeline.headline == null ? null : pipeline.headline.text;
        host.charts().show(() -> ChartData.of(snap.series, headline), () -> LatencyData.of(snap.series, snap.distributions),
                snap.simulatedSeconds, snap.elements, () -> CpuTable.ofSnapshot(snap.elements));
        if (canvasLayout != null) {
            CanvasState st = CanvasState.now(canvasLayout, snap.simulatedSeconds, snap.elements, snap.droppedByElement, snap.series);
            host.editor().showState(st);
            shown(snap.simulatedSeconds, snap.elements, snap.droppedByElement, snap.series, null);
            if (snap.state == RunState.PAUSED) { // the slider picks any sampled time up to the pause
                endState = st;
                sliderSeries = snap.series;
                host.editor().timeSlider().enable(times(snap.series), snap.simulatedSeconds);
            } else if (sliderSeries != null) {
                sliderSeries = null;
                host.editor().timeSlider().disable("following the run");
            }
        }
    }

    /** @return the sample times of a series, in seconds */
    private static double[] times(SeriesDTO s) {
        double[] t = new double[s == null ? 0 : s.rows.size()];
        for (int i = 0; i < t.length; i++) {
            t[i] = s.rows.get(i)[0];
        }
        return t;
    }

    /** The time slider moved: the canvas shows the series' row, or the end (or pause) at its last position. */
    private void sliderMoved(int row) {
        if (sliderSeries == null || canvasLayout == null) {
            return;
        }
        host.editor().showState(row >= sliderSeries.rows.size() ? endState : CanvasState.at(canvasLayout, sliderSeries, row));
    }

    /** Remembers the moment shown and shows it in every open inspector. */
    private void shown(double seconds, Map<String, Map<String, Double>> metrics, Map<String, Map<String, Long>> drops,
            SeriesDTO series, Map<String, Map<String, String>> properties) {
        shownSeconds = seconds;
        shownMetrics = metrics == null ? Map.of() : metrics;
        shownDrops = drops == null ? Map.of() : drops;
        shownSeries = series;
        shownProperties = properties;
        for (Map.Entry<String, Inspector> e : inspectors.entrySet()) {
            e.getValue().show(inspectorModel(e.getKey()), shownSeries);
        }
    }

    private InspectorModel inspectorModel(String element) {
        Map<String, String> asRun = shownProperties != null && shownProperties.containsKey(element) ? shownProperties.get(element)
                : canvasLayout.asRun(element);
        return InspectorModel.of(element, canvasLayout.type(element), shownSeconds, shownMetrics, asRun,
                shownDrops.get(element), shownSeries);
    }

    /**
     * Opens (or brings to the front) the inspector of an element of the run shown: Run > Inspect the Selected Element,
     * or a double-click on the element while the canvas shows a run's state.
     *
     * @param element the element's name, or {@code null} when none is selected
     */
    void inspect(String element) {
        if (element == null) {
            feedback.error("No element selected", "Select one element on the canvas: its inspector shows it in the run.");
            return;
        }
        if (canvasLayout == null || !shownMetrics.containsKey(element)) {
            feedback.error("Nothing to inspect yet", "An inspector shows an element in a run: run the pipeline first (Run, F5),"
                    + " then double-click " + element + " or press Ctrl+I.");
            return;
        }
        Inspector i = inspectors.get(element);
        if (i == null) {
            io.ringlab.sim.api.dto.ElementDescriptorDTO type = canvasLayout.type(element);
            i = new Inspector(status.getShell(), element, () -> host.openModelPage(element, type == null ? null : type.type),
                    host.charts()::color);
            i.onClose(closed -> inspectors.values().remove(closed));
            inspectors.put(element, i);
        }
        i.show(inspectorModel(element), shownSeries);
        i.open();
    }

    /** Forgets the run shown: the canvas's state, the slider, the inspectors (another pipeline was opened). */
    private void forgetRunState(String why) {
        canvasLayout = null;
        endState = CanvasState.EMPTY;
        sliderSeries = null;
        shownMetrics = Map.of();
        shownDrops = Map.of();
        shownSeries = null;
        shownProperties = null;
        host.editor().timeSlider().disable(why);
        for (Inspector i : List.copyOf(inspectors.values())) {
            i.close();
        }
        inspectors.clear();
    }

    /** Called on the engine thread when a run ends; hands the result to the UI thread. */
    private void ended(RunSession s, RunResultDTO r) {
        UiExecutor.later(display, null, () -> showResult(s, r)); // also when the window is gone: the stream is closed
    }

    private void showResult(RunSession s, RunResultDTO r) {
        finishStream(s, r);
        if (status.isDisposed() || s != session) {
            return; // a result of a run the user has moved on from (another file opened)
        }
        resultShown = s; // a poll still queued shows no snapshot over the result
        setStatus(String.format(Locale.ROOT, "%s  %.3f ms virtual in %.3f s wall, %,d events", r.state, r.simulatedSeconds * 1e3,
                r.wallSeconds, r.events));
        host.charts().swaps(r.swaps);
        host.charts().show(() -> ChartData.of(r.series, r.headline == null ? null : r.headline.metric),
                () -> LatencyData.of(r.series, r.distributions), r.simulatedSeconds, r.elements, () -> CpuTable.ofResult(r.runtime));
        if (canvasLayout != null) {
            Map<String, Map<String, Long>> drops = r.invariants == null ? Map.of() : r.invariants.droppedByElement;
            endState = CanvasState.now(canvasLayout, r.simulatedSeconds, r.elements, drops, r.series);
            host.editor().showState(endState);
            sliderSeries = r.series;
            host.editor().timeSlider().enable(times(r.series), r.simulatedSeconds);
            shown(r.simulatedSeconds, r.elements, drops, r.series, r.properties);
        }
        finishResult(s, r);
    }

    /**
     * Draws the result's other chart tabs one per turn of the event loop (each is tens of milliseconds for a long run:
     * all at once stalled the window), then the summary; the result is shown ({@code RESULT_DATA}) once every view has it.
     */
    private void finishResult(RunSession s, RunResultDTO r) {
        UiExecutor.later(display, status, () -> {
            if (s != session) {
                return; // the user moved on (another run, another file)
            }
            boolean more;
            try {
                more = host.charts().drawOneStale();
            } catch (RuntimeException e) { // a view that cannot draw must not keep the result from being shown
                feedback.log("WARN", "a chart could not be drawn: " + ConsoleWindow.describe(e));
                more = false;
            }
            if (more) {
                finishResult(s, r);
                return;
            }
            summary.setText(SummaryText.of(r) + SummaryText.views(r, context.simulator().elementTypes()));
            summary.setData(ConsoleService.RESULT_DATA, r);
            String h = SummaryText.headline(r);
            feedback.log("INFO", "run ended: " + r.state + (h == null ? "" : ", headline " + h));
            if ("FAILED".equals(r.state)) {
                feedback.error("The run failed", r.error == null ? "The run failed without a message." : r.error);
            } else if (!r.invariants.packetConservation || !r.invariants.bufferConservation) {
                feedback.error("An invariant is broken", String.join("\n", r.invariants.violations));
            }
            updateButtons();
        });
    }

    void updateButtons() {
        if (status.isDisposed()) {
            return;
        }
        RunState st = session == null ? null : session.state();
        boolean live = st != null && !RunSession.ended(st);
        runButton.setEnabled(!host.editor().isEmpty() && !live && !preparing);
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


    /**
     * @return a stream of the run's series to {@code results/<pipeline>-<time>.csv} in ringlab.home (or in the folder
     *         the framework property {@value SeriesStream#FOLDER_PROPERTY} names), or {@code null} without either (then
     *         the log says so)
     */
    private SeriesStream openStream(PipelineDTO p) {
        Path home = context.home();
        String property = context.bundleContext() == null ? null : context.bundleContext().getProperty(SeriesStream.FOLDER_PROPERTY);
        Path folder = property != null && !property.isBlank() ? Path.of(property) : home == null ? null : home.resolve("results");
        if (folder == null) {
            feedback.log("WARN", "no ringlab.home: the run's series are not streamed to disk");
            return null;
        }
        String time = LocalDateTime.now().format(STAMP);
        Path f = SeriesStream.fileFor(folder, p.name, time);
        for (int i = 2; Files.exists(f); i++) { // two runs in the same second
            f = SeriesStream.fileFor(folder, p.name, time + "-" + i);
        }
        feedback.log("INFO", "streaming the series to " + f);
        return new SeriesStream(f);
    }

    /** Streams what the result adds and closes the file on the stream's thread; reports back on the UI thread. */
    private void finishStream(RunSession s, RunResultDTO r) {
        SeriesStream stream = s.stream();
        if (stream == null) {
            return;
        }
        s.stream(null);
        stream.finish(r.series).whenComplete((file, failure) -> UiExecutor.later(display, null,
                () -> streamDone(s, stream, failure)));
    }

    private void streamDone(RunSession s, SeriesStream stream, Throwable failure) {
        if (status.isDisposed()) {
            return;
        }
        if (failure != null) {
            Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            feedback.error("Cannot stream the series to " + stream.file(), stream.file() + ": " + ConsoleWindow.describe(cause));
            return;
        }
        feedback.log("INFO", "series streamed to " + stream.file() + ": " + String.format(Locale.ROOT, "%,d", stream.rowsWritten()) + " rows");
        if (s == session) {
            summary.setData(ConsoleService.STREAM_DATA, stream.file().toString());
        }
    }
}

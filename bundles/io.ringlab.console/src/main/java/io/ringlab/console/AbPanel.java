package io.ringlab.console;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.eclipse.jface.resource.JFaceResources;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.ScrolledComposite;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Group;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.ProgressBar;
import org.eclipse.swt.widgets.Text;

import io.ringlab.console.api.ConsoleService;
import io.ringlab.experiment.api.ExperimentListener;
import io.ringlab.experiment.api.ExperimentService;
import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.pipeline.format.Units;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.SimulationRun;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * The A/B panel: its set-up in a tab on the right (an experiment file, or one made from the editor's pipeline with the
 * form of {@link AbForm}; Run, Cancel, progress) and its result in a tab of the chart folder (a chart per metric side by
 * side from {@link AbCharts}, the table and problems of {@link AbTable}, exports).
 * <p>
 * Threads: {@link ExperimentService#run} blocks until every run has ended, so it runs on a thread of its own ("ringlab
 * console experiment", a daemon); the listener's calls and the result are handed to the UI thread with
 * {@link Display#asyncExec}. Cancel interrupts that thread, which is how the service is cancelled. The metrics of the
 * form's list come from a short run of the pipeline ({@value AbForm#PROBE_DURATION}) on the engine's own thread. Nothing
 * on the UI thread waits for either.
 */
final class AbPanel {
    /** What the panel needs from the window. */
    interface Host extends Feedback {
        /** @return the pipeline in the editor as edited now, or {@code null} if there is none */
        PipelineDTO editorPipeline();

        /** @return the editor's file, or {@code null} for an untitled pipeline */
        Path editorFile();
    }

    private final ConsoleContext context;
    private final Host host;
    private final Display display;
    private final ScrolledComposite scroller;
    private final Composite setup;
    private final LiveCharts chartTabs;
    /** The result: its tab of the chart folder, charts, table and exports. */
    private final AbResultView resultView;
    /** The results database opened for browsing, or {@code null}. */
    private Path database;
    private Button openDb;
    private org.eclipse.swt.widgets.Combo dbExperiments;

    private org.eclipse.swt.widgets.List files;
    private final List<Path> experimentFiles = new ArrayList<>();
    private Text source, types, overrides, seeds, duration, warmup, moreMetrics;
    /** The form's titles: an experiment made from the editor's pipeline, or a file's with its run settings overridable. */
    private static final String FORM_TITLE = "Made from the editor: A as it is, B with these changes",
            FILE_TITLE = "The file's experiment: seeds, duration and warm-up may be overridden (empty: the file's)";
    private org.eclipse.swt.widgets.List metrics;
    private Label message, status;
    private Button runButton, cancelButton;
    private ProgressBar progress;
    private Group form;

    /** The experiment read from a file, or {@code null} when the form makes it from the editor's pipeline. */
    private ExperimentDTO fromFile;
    /** Whether the form is in use (after "From the Editor's Pipeline"). */
    private boolean formMode;
    /** The thread running an experiment, or {@code null}. */
    private Thread worker;
    private long probeToken;

    AbPanel(ConsoleContext context, Host host, Composite setupParent, LiveCharts chartTabs) {
        this.context = context;
        this.host = host;
        this.display = setupParent.getDisplay();
        this.chartTabs = chartTabs;
        scroller = new ScrolledComposite(setupParent, SWT.V_SCROLL);
        scroller.setExpandHorizontal(true);
        scroller.setExpandVertical(true);
        setup = new Composite(scroller, SWT.NONE);
        setup.setLayout(new GridLayout(1, false));
        scroller.setContent(setup);
        buildSetup();
        // taller than the tab on a small screen: scroll rather than clip the run controls
        scroller.addListener(SWT.Resize, e -> fitScroller());
        resultView = new AbResultView(chartTabs.addTab("A/B"), context, host, chartTabs, setup);
        setup.addDisposeListener(e -> cancel());
        loadExperimentFiles();
        formEnabled(false);
        updateButtons();
    }

    /** @return the set-up (in its scroller), the right tab's control */
    Control control() {
        return scroller;
    }

    private void fitScroller() {
        int width = scroller.getClientArea().width;
        scroller.setMinSize(setup.computeSize(width, SWT.DEFAULT));
    }

    // ------------------------------------------------------------------ building

    private void buildSetup() {
        Group exp = group(setup, "Experiment", 1);
        exp.setLayoutData(new GridData(SWT.FILL, SWT.TOP, true, false));
        new Label(exp, SWT.NONE).setText("Files in experiments/ (click to open)");
        files = new org.eclipse.swt.widgets.List(exp, SWT.BORDER | SWT.SINGLE | SWT.V_SCROLL);
        ConsoleWindow.id(files, ConsoleService.ID_AB_EXPERIMENTS);
        GridData fd = new GridData(SWT.FILL, SWT.TOP, true, false);
        fd.heightHint = files.getItemHeight() * 3;
        files.setLayoutData(fd);
        files.addListener(SWT.Selection, e -> {
            int i = files.getSelectionIndex();
            if (i >= 0 && i < experimentFiles.size()) {
                openFile(experimentFiles.get(i));
            }
        });
        Button fromEditor = new Button(exp, SWT.PUSH);
        fromEditor.setText("Make One from the Editor's Pipeline");
        ConsoleWindow.id(fromEditor, ConsoleService.ID_AB_FROM_EDITOR);
        fromEditor.setToolTipText("Variant A: the pipeline as it is in the editor; variant B: the changes typed below");
        fromEditor.addListener(SWT.Selection, e -> fromEditor());
        Composite db = new Composite(exp, SWT.NONE);
        db.setLayoutData(new GridData(SWT.FILL, SWT.TOP, true, false));
        GridLayout dl = new GridLayout(2, false);
        dl.marginWidth = dl.marginHeight = 0;
        db.setLayout(dl);
        openDb = new Button(db, SWT.PUSH);
        openDb.setText("Open Results Database...");
        ConsoleWindow.id(openDb, ConsoleService.ID_AB_OPEN_DB);
        openDb.setToolTipText("Browse and plot an experiment kept in a results database (ringlab ab --db FILE)");
        openDb.addListener(SWT.Selection, e -> chooseDatabase());
        dbExperiments = new org.eclipse.swt.widgets.Combo(db, SWT.READ_ONLY);
        ConsoleWindow.id(dbExperiments, ConsoleService.ID_AB_DB_EXPERIMENTS);
        dbExperiments.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        dbExperiments.setToolTipText("The experiments the database holds: choose one to show it");
        dbExperiments.setEnabled(false);
        dbExperiments.addListener(SWT.Selection, e -> showStored());
        source = new Text(exp, SWT.MULTI | SWT.READ_ONLY | SWT.WRAP | SWT.V_SCROLL | SWT.BORDER);
        ConsoleWindow.id(source, ConsoleService.ID_AB_SOURCE);
        source.setFont(JFaceResources.getTextFont());
        GridData sd = new GridData(SWT.FILL, SWT.TOP, true, false);
        sd.heightHint = source.getLineHeight() * 4;
        sd.widthHint = 200;
        source.setLayoutData(sd);
        source.setText("No experiment: open a file above or with File > Open Experiment, or make one from the editor's pipeline.");

        Group run = group(setup, "Run", 2);
        run.setLayoutData(new GridData(SWT.FILL, SWT.TOP, true, false));
        runButton = ConsoleWindow.button(run, "Run", ConsoleService.ID_AB_RUN, this::run);
        cancelButton = ConsoleWindow.button(run, "Cancel", ConsoleService.ID_AB_CANCEL, this::cancel);
        progress = new ProgressBar(run, SWT.HORIZONTAL | SWT.SMOOTH);
        ConsoleWindow.id(progress, ConsoleService.ID_AB_PROGRESS);
        progress.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false, 2, 1));
        status = new Label(run, SWT.WRAP);
        ConsoleWindow.id(status, ConsoleService.ID_AB_STATUS);
        GridData st = new GridData(SWT.FILL, SWT.TOP, true, false, 2, 1);
        st.widthHint = 200;
        status.setLayoutData(st);
        status.setText("no experiment run");

        form = group(setup, FORM_TITLE, 2);
        form.setLayoutData(new GridData(SWT.FILL, SWT.TOP, true, false));
        types = field(form, "B types", ConsoleService.ID_AB_TYPES, 2,
                "Element type replacements of variant B, one a line: ELEMENT=TYPE (eth0=stmmac)");
        overrides = field(form, "B sets", ConsoleService.ID_AB_OVERRIDES, 2,
                "Property overrides of variant B, one a line, as --set: ELEMENT.PROPERTY=VALUE (eth0.bql=true)");
        seeds = field(form, "Seeds", ConsoleService.ID_AB_SEEDS, 1, "How many seeds: N runs seeds 1 to N in each variant");
        seeds.setText("3");
        duration = field(form, "Duration", ConsoleService.ID_AB_DURATION, 1,
                "Simulated time of each run, e.g. 20ms or 2s; empty: the pipeline's duration");
        warmup = field(form, "Warm-up", ConsoleService.ID_AB_WARMUP, 1,
                "What each run's results leave out, e.g. 5ms; less than the duration; empty: none");
        warmup.setMessage("0s");
        Label ml = new Label(form, SWT.NONE);
        ml.setText("Metrics");
        ml.setLayoutData(new GridData(SWT.LEFT, SWT.TOP, false, false));
        metrics = new org.eclipse.swt.widgets.List(form, SWT.BORDER | SWT.MULTI | SWT.V_SCROLL | SWT.H_SCROLL);
        ConsoleWindow.id(metrics, ConsoleService.ID_AB_METRICS);
        metrics.setToolTipText("What the pipeline's elements report (after a short run); Ctrl-click for several");
        GridData md = new GridData(SWT.FILL, SWT.TOP, true, false);
        md.heightHint = metrics.getItemHeight() * 5;
        md.widthHint = 150;
        metrics.setLayoutData(md);
        moreMetrics = field(form, "More", ConsoleService.ID_AB_MORE_METRICS, 1,
                "More metrics, comma separated: ELEMENT.METRIC, pool:ELEMENT.POOL.METRIC, cpuN.METRIC or l3.METRIC");
        message = new Label(form, SWT.WRAP);
        ConsoleWindow.id(message, ConsoleService.ID_AB_MESSAGE);
        message.setForeground(display.getSystemColor(SWT.COLOR_RED));
        GridData msg = new GridData(SWT.FILL, SWT.TOP, true, false, 2, 1);
        msg.widthHint = 200;
        message.setLayoutData(msg);

        for (Text t : List.of(types, overrides, seeds, duration, warmup, moreMetrics)) {
            t.addListener(SWT.Modify, e -> validateIfForm());
        }
        metrics.addListener(SWT.Selection, e -> validateIfForm());

    }

    private static Group group(Composite parent, String title, int columns) {
        Group g = new Group(parent, SWT.NONE);
        g.setText(title);
        g.setLayout(new GridLayout(columns, false));
        return g;
    }

    private static Text field(Composite parent, String label, String id, int lines, String tip) {
        Label l = new Label(parent, SWT.NONE);
        l.setText(label);
        l.setLayoutData(new GridData(SWT.LEFT, lines > 1 ? SWT.TOP : SWT.CENTER, false, false));
        Text t = new Text(parent, SWT.BORDER | (lines > 1 ? SWT.MULTI | SWT.V_SCROLL : SWT.SINGLE));
        ConsoleWindow.id(t, id);
        t.setToolTipText(tip);
        GridData d = new GridData(SWT.FILL, SWT.CENTER, true, false);
        if (lines > 1) {
            d.heightHint = t.getLineHeight() * lines;
        }
        d.widthHint = 150;
        t.setLayoutData(d);
        return t;
    }

    private void formEnabled(boolean on) {
        for (Control c : form.getChildren()) {
            c.setEnabled(on);
        }
    }

    /**
     * A file's experiment runs as the file says, but for its seeds, duration and warm-up, which the panel may override:
     * those fields are enabled and empty, their hints the file's values.
     */
    private void fileOverridesEnabled(ExperimentDTO e) {
        for (Text t : List.of(seeds, duration, warmup)) {
            t.setEnabled(true);
            t.setText("");
        }
        form.setText(FILE_TITLE);
        seeds.setMessage(e.seeds.size() + " (the file's: " + (e.seeds.size() <= 5 ? e.seeds.toString()
                : e.seeds.subList(0, 3) + "...") + ")");
        duration.setMessage(e.durationPicos > 0 ? Units.formatPicos(e.durationPicos) + " (the file's)"
                : (e.pipeline != null && e.pipeline.duration != null ? e.pipeline.duration.text : "1s") + " (the pipeline's)");
        warmup.setMessage(e.warmupPicos > 0 ? Units.formatPicos(e.warmupPicos) + " (the file's)" : "none (the file's)");
        for (Control c : form.getChildren()) { // and their labels
            if (c instanceof org.eclipse.swt.widgets.Label l && List.of("Seeds", "Duration", "Warm-up").contains(l.getText())) {
                l.setEnabled(true);
            }
        }
    }

    // ------------------------------------------------------------------ the experiment

    private void loadExperimentFiles() {
        Path home = context.home();
        Path dir = home == null ? null : home.resolve("experiments");
        if (dir == null || !Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> s = Files.list(dir)) {
            s.filter(p -> p.getFileName().toString().endsWith(".experiment")).sorted().forEach(p -> {
                experimentFiles.add(p);
                files.add(p.getFileName().toString().replaceFirst("\\.experiment$", ""));
            });
        } catch (IOException e) {
            host.error("Cannot list the experiments", dir + ": " + e.getMessage());
        }
    }

    /** Reads an experiment file into the panel; a bad file is reported in a dialog and the log, and the panel keeps what it had. */
    void openFile(Path file) {
        ExperimentService service = service();
        if (service == null || running()) {
            return;
        }
        try {
            ExperimentDTO e = service.read(file);
            fromFile = e;
            formMode = false;
            formEnabled(false);
            fileOverridesEnabled(e);
            message.setText("");
            source.setText(AbForm.describe(e));
            host.log("INFO", "opened experiment " + file + ": " + e.variants.size() + " variants x " + e.seeds.size() + " seeds");
        } catch (PipelineException e) {
            host.error("Cannot open " + file.getFileName(), e.getMessage());
        } catch (RuntimeException e) {
            host.error("Cannot open " + file.getFileName(), file + ": " + describe(e));
        }
        updateButtons();
    }

    /** Asks for a results database (the button's {@code FILE_DATA} stands in for the dialog) and lists its experiments. */
    private void chooseDatabase() {
        Path f = FileChooser.choose(openDb, openDb.getShell(), SWT.OPEN, "Open a results database", "duckdb", null,
                context.home() == null ? null : context.home().resolve("results"));
        if (f != null) {
            openDatabase(f);
        }
    }

    /** Lists the experiments a results database holds and shows the first; a file that is none is reported. */
    void openDatabase(Path f) {
        io.ringlab.experiment.api.ResultsService results = context.results();
        if (results == null) {
            host.error("No results service", "Browsing a results database needs the bundle io.ringlab.results, which is not "
                    + "installed or not active (see the Bundles tab).");
            return;
        }
        try {
            List<String> names = results.experiments(f);
            database = f;
            dbExperiments.setItems(names.toArray(String[]::new));
            ConsoleWindow.fitCombo(dbExperiments);
            dbExperiments.setEnabled(!names.isEmpty());
            host.log("INFO", "results database " + f + ": " + names.size() + " experiment(s)");
            if (names.isEmpty()) {
                host.error("No experiments in " + f.getFileName(), f + " holds no experiment's runs.");
                return;
            }
            dbExperiments.select(0);
            showStored();
        } catch (io.ringlab.experiment.api.ResultsException e) {
            host.error("Cannot open " + f.getFileName(), e.getMessage());
        } catch (RuntimeException e) {
            host.error("Cannot open " + f.getFileName(), f + ": " + describe(e));
        }
    }

    /** Shows the experiment chosen in the database: its runs summarised as a result (charts, table, problems). */
    private void showStored() {
        io.ringlab.experiment.api.ResultsService results = context.results();
        ExperimentService service = service();
        int i = dbExperiments.getSelectionIndex();
        if (results == null || service == null || database == null || i < 0) {
            return;
        }
        String name = dbExperiments.getItem(i);
        try {
            List<RunSummaryDTO> runs = results.runs(database, name);
            ExperimentResultDTO r = ResultsBrowse.result(name, runs, service::summarize, service::compare);
            source.setText("From the results database " + database + ": experiment " + name + ", " + runs.size() + " runs"
                    + (r.parameters.isEmpty() ? "" : ", swept over " + String.join(", ", r.parameters)));
            setStatus(AbTable.outcome(r));
            status.setData(ConsoleService.AB_RESULT_DATA, r);
            resultView.show(r);
            host.log("INFO", "showing " + name + " from " + database + ": " + runs.size() + " runs");
        } catch (io.ringlab.experiment.api.ResultsException e) {
            host.error("Cannot read " + name + " from " + database.getFileName(), e.getMessage());
        }
    }

    /** Switches to the form, for the editor's pipeline, and finds the metrics it reports with a short run. */
    private void fromEditor() {
        PipelineDTO p = host.editorPipeline();
        if (p == null) {
            host.error("No pipeline in the editor", "Open a pipeline first (File > Open, or a sample on the left), then make "
                    + "an experiment from it.");
            return;
        }
        fromFile = null;
        formMode = true;
        formEnabled(true);
        form.setText(FORM_TITLE);
        if (seeds.getText().isBlank()) { // emptied for a file: the form's default again
            seeds.setText("3");
        }
        seeds.setMessage("");
        warmup.setMessage("0s");
        duration.setMessage(p.duration == null ? "1s" : p.duration.text);
        source.setText("Made from the editor's pipeline " + p.name + (host.editorFile() == null ? " (untitled)" : " (" + host.editorFile()
                + ")") + ": variant A is the pipeline as it is now, variant B the pipeline with the changes below.");
        probeMetrics(p, p.headline == null ? null : p.headline.text);
        validate();
        updateButtons();
    }

    /** Starts a short run of the pipeline; its element metrics fill the list when it ends. */
    private void probeMetrics(PipelineDTO p, String preselect) {
        long token = ++probeToken;
        metrics.setItems("(finding the metrics: a " + AbForm.PROBE_DURATION + " run of " + p.name + ")");
        metrics.setEnabled(false);
        RunOptionsDTO o = new RunOptionsDTO();
        o.durationPicos = Units.parsePicos(AbForm.PROBE_DURATION);
        o.snapshotIntervalMillis = 0;
        SimulationRun run;
        try {
            run = context.simulator().prepare(p, o);
        } catch (PipelineException | RuntimeException e) {
            metrics.setItems(new String[0]);
            message.setText("Metrics: the pipeline does not run, so its metrics are unknown; type them under More (" + e.getMessage() + ")");
            return;
        }
        run.completion().thenAccept(r -> asyncExec(() -> metricsFound(token, r, preselect)));
        run.start();
    }

    private void metricsFound(long token, RunResultDTO r, String preselect) {
        if (token != probeToken || metrics.isDisposed()) {
            return; // a later probe replaced this one
        }
        metrics.setEnabled(formMode);
        List<String> found = AbForm.reportedMetrics(r);
        metrics.setItems(found.toArray(String[]::new));
        if (preselect != null && found.contains(preselect)) {
            metrics.select(found.indexOf(preselect));
            metrics.showSelection();
        }
        if ("FAILED".equals(r.state)) {
            message.setText("Metrics: the short run of the pipeline failed (" + r.error + "); the list holds what it reported");
        }
        validateIfForm();
    }

    /** Validation follows every keystroke and selection while the form is in use. */
    private void validateIfForm() {
        if (formMode && !running()) {
            validate();
        }
    }

    /** @return the form's experiment, or {@code null} with the messages shown under the form */
    private ExperimentDTO validate() {
        PipelineDTO p = host.editorPipeline();
        if (p == null) {
            message.setText("The editor holds no pipeline: open one first.");
            return null;
        }
        List<String> chosen = metrics.isEnabled() ? Arrays.asList(metrics.getSelection()) : List.of();
        AbForm.Built b = AbForm.build(new AbForm.Fields(types.getText(), overrides.getText(), seeds.getText(), duration.getText(),
                warmup.getText(), chosen, moreMetrics.getText()), p, host.editorFile() == null ? null : host.editorFile().toString(),
                context.simulator().elementTypes());
        List<String> lines = new ArrayList<>(b.errors());
        lines.addAll(b.warnings());
        message.setText(String.join("\n", lines));
        message.requestLayout();
        fitScroller();
        return b.experiment();
    }

    private ExperimentService service() {
        ExperimentService s = context.experiments();
        if (s == null) {
            host.error("No experiment service", "The A/B panel needs the bundle io.ringlab.experiment, which is not installed or "
                    + "not active (see the Bundles tab).");
        }
        return s;
    }

    private boolean running() {
        return worker != null;
    }

    private void run() {
        if (running()) {
            return;
        }
        ExperimentService service = service();
        if (service == null) {
            return;
        }
        ExperimentDTO e = fromFile;
        if (e != null) { // the file's, with the panel's seeds, duration and warm-up where given
            AbForm.Built b = AbForm.overrideFile(e, seeds.getText(), duration.getText(), warmup.getText());
            if (b.experiment() == null) {
                message.setText(String.join("\n", b.errors()));
                message.requestLayout();
                host.error("Invalid experiment settings", "Fix these in the A/B tab:\n" + String.join("\n", b.errors()));
                return;
            }
            e = b.experiment();
            message.setText("");
            source.setText(AbForm.describe(e));
        } else {
            if (!formMode) {
                host.error("No experiment", "Open an experiment file, or make one from the editor's pipeline first.");
                return;
            }
            e = validate();
            if (e == null) {
                host.error("Invalid experiment", "Fix these in the A/B tab:\n" + message.getText());
                return;
            }
            source.setText(AbForm.describe(e));
        }
        ExperimentDTO experiment = e;
        progress.setSelection(0);
        long points = 1;
        for (var sweep : experiment.sweeps) {
            points *= sweep.values.size();
        }
        progress.setMaximum((int) Math.max(1, Math.min(Integer.MAX_VALUE, points * experiment.variants.size() * experiment.seeds.size())));
        setStatus("preparing the variants of " + experiment.name + "...");
        ProgressListener listener = new ProgressListener();
        Thread t = new Thread(() -> work(service, experiment, listener), "ringlab console experiment");
        t.setDaemon(true);
        worker = t;
        t.start();
        host.log("INFO", "experiment " + experiment.name + " started: " + experiment.variants.size() + " variants x "
                + experiment.seeds.size() + " seeds");
        updateButtons();
    }

    /** On the experiment's thread: runs it and hands the outcome to the UI thread. */
    private void work(ExperimentService service, ExperimentDTO e, ProgressListener listener) {
        try {
            ExperimentResultDTO r = service.run(e, 0, listener);
            asyncExec(() -> finished(r));
        } catch (PipelineException x) {
            asyncExec(() -> refused(e, x));
        } catch (RuntimeException x) {
            x.printStackTrace(); // a bug: its stack trace goes to standard error, the dialog gets the message
            asyncExec(() -> failed(e, x));
        }
    }

    /** The experiment's progress, told on its worker threads (serialized by the service), shown on the UI thread. */
    private final class ProgressListener implements ExperimentListener {
        private long startNanos = System.nanoTime();
        /** A sweep's targets and metrics, and its runs ended so far (UI thread): its charts are drawn as they come. */
        private List<String> parameters = List.of(), sweepMetrics = List.of();
        private final List<RunSummaryDTO> ended = new ArrayList<>();

        @Override
        public void started(ExperimentDTO experiment, int runs, int threads) {
            startNanos = System.nanoTime();
            List<String> targets = new ArrayList<>();
            experiment.sweeps.forEach(w -> targets.addAll(w.targets));
            List<String> ms = experiment.metrics.stream().map(v -> v.text).toList();
            asyncExec(() -> {
                parameters = List.copyOf(targets);
                sweepMetrics = ms;
            });
            String text = String.format("%d runs on %d thread%s", runs, threads, threads == 1 ? "" : "s");
            asyncExec(() -> {
                progress.setMaximum(Math.max(1, runs));
                setStatus(text);
            });
        }

        @Override
        public void runEnded(RunSummaryDTO run, RunResultDTO result, int done, int total) {
            String text = AbForm.progress(done, total, (System.nanoTime() - startNanos) / 1_000_000_000L, run.variant, run.seed,
                    run.state);
            boolean failed = RunSummaryDTO.FAILED.equals(run.state);
            String error = run.error;
            asyncExec(() -> {
                progress.setSelection(done);
                setStatus(text);
                if (failed) {
                    host.log("WARN", "variant " + run.variant + ", seed " + run.seed + " FAILED: " + error);
                }
                if (!parameters.isEmpty()) { // a sweep: its charts as the runs end, the means so far
                    ended.add(run);
                    resultView.showLive(parameters, sweepMetrics, ended);
                }
            });
        }
    }

    private void cancel() {
        Thread t = worker;
        if (t != null) {
            t.interrupt();
            if (!status.isDisposed()) {
                setStatus("cancelling: the running runs stop at their next safe point...");
                host.log("INFO", "experiment cancel requested");
            }
        }
    }

    private void finished(ExperimentResultDTO r) {
        worker = null;
        status.setData(ConsoleService.AB_RESULT_DATA, r);
        setStatus(AbTable.outcome(r));
        resultView.show(r);
        host.log(r.cancelled ? "WARN" : "INFO", "experiment " + AbTable.outcome(r));
        if (!r.problems.isEmpty() || r.runs.stream().anyMatch(s -> RunSummaryDTO.FAILED.equals(s.state))) {
            host.log("WARN", "experiment problems: " + String.join("; ", AbTable.problems(r)));
        }
        updateButtons();
    }

    private void refused(ExperimentDTO e, PipelineException x) {
        worker = null;
        setStatus("not run: the engine refused a variant");
        resultView.problems(x.getMessage().split("\n"));
        host.error("Cannot run experiment " + e.name, x.getMessage());
        updateButtons();
    }

    private void failed(ExperimentDTO e, RuntimeException x) {
        worker = null;
        setStatus("failed: " + describe(x));
        host.error("The experiment " + e.name + " failed", describe(x));
        updateButtons();
    }

    private void setStatus(String text) {
        status.setText(text);
        status.requestLayout();
        fitScroller();
    }

    private void updateButtons() {
        if (runButton.isDisposed()) {
            return;
        }
        runButton.setEnabled(!running() && (fromFile != null || formMode));
        cancelButton.setEnabled(running());
        files.setEnabled(!running());
    }

    private void asyncExec(Runnable r) {
        UiExecutor.later(display, setup, r);
    }

    private static String describe(Throwable t) {
        return ConsoleWindow.describe(t);
    }
}

package io.ringlab.console;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.FieldPosition;
import java.text.Format;
import java.text.ParsePosition;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.eclipse.jface.resource.JFaceResources;
import org.eclipse.swt.SWT;
import org.eclipse.swt.SWTException;
import org.eclipse.swt.custom.SashForm;
import org.eclipse.swt.custom.ScrolledComposite;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.ImageLoader;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Group;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.ProgressBar;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.swt.widgets.Text;
import org.eclipse.swt.widgets.Widget;
import org.eclipse.swtchart.Chart;
import org.eclipse.swtchart.IAxis;
import org.eclipse.swtchart.IAxisTick;
import org.eclipse.swtchart.IErrorBar;
import org.eclipse.swtchart.ILineSeries;
import org.eclipse.swtchart.ILineSeries.PlotSymbolType;
import org.eclipse.swtchart.ISeries.SeriesType;
import org.eclipse.swtchart.LineStyle;
import org.eclipse.swtchart.Range;

import io.ringlab.console.api.ConsoleService;
import io.ringlab.experiment.api.ExperimentListener;
import io.ringlab.experiment.api.ExperimentService;
import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.pipeline.format.OutputFile;
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
    interface Host {
        /** @return the pipeline in the editor as edited now, or {@code null} if there is none */
        PipelineDTO editorPipeline();

        /** @return the editor's file, or {@code null} for an untitled pipeline */
        Path editorFile();

        void error(String title, String message);

        void log(String level, String message);
    }

    /** At most this many charts side by side in a row. */
    private static final int CHARTS_PER_ROW = 3;

    private final ConsoleContext context;
    private final Host host;
    private final Display display;
    private final ScrolledComposite scroller;
    private final Composite setup;
    private final Composite result;
    private final LiveCharts chartTabs;

    private org.eclipse.swt.widgets.List files;
    private final List<Path> experimentFiles = new ArrayList<>();
    private Text source, types, overrides, seeds, duration, warmup, moreMetrics;
    private org.eclipse.swt.widgets.List metrics;
    private Label message, status;
    private Button runButton, cancelButton;
    private ProgressBar progress;
    private Group form;
    private Composite charts;
    private Table table;
    private org.eclipse.swt.widgets.List problems;

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
        result = chartTabs.addTab("A/B");
        buildResult();
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

        form = group(setup, "Made from the editor: A as it is, B with these changes", 2);
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

    private void buildResult() {
        SashForm split = new SashForm(result, SWT.VERTICAL);
        charts = new Composite(split, SWT.NONE);
        ConsoleWindow.id(charts, ConsoleService.ID_AB_CHARTS);
        charts.setLayout(new GridLayout(1, true));
        Composite bottom = new Composite(split, SWT.NONE);
        bottom.setLayout(new GridLayout(4, false));
        table = new Table(bottom, SWT.BORDER | SWT.FULL_SELECTION | SWT.H_SCROLL | SWT.V_SCROLL);
        ConsoleWindow.id(table, ConsoleService.ID_AB_TABLE);
        table.setHeaderVisible(true);
        table.setLinesVisible(true);
        table.setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true, 4, 1));
        int[] widths = { 130, 90, 35, 110, 170, 70, 60, 260 };
        for (int i = 0; i < AbTable.COLUMNS.size(); i++) {
            TableColumn c = new TableColumn(table, i < 2 || i == AbTable.COLUMNS.size() - 1 ? SWT.LEFT : SWT.RIGHT);
            c.setText(AbTable.COLUMNS.get(i));
            c.setWidth(widths[i]);
        }
        problems = new org.eclipse.swt.widgets.List(bottom, SWT.BORDER | SWT.V_SCROLL | SWT.H_SCROLL);
        ConsoleWindow.id(problems, ConsoleService.ID_AB_PROBLEMS);
        GridData pd = new GridData(SWT.FILL, SWT.FILL, true, false, 4, 1);
        pd.heightHint = problems.getItemHeight() * 2;
        problems.setLayoutData(pd);
        problems.setToolTipText("Runs that failed, broke an invariant or were cancelled, and metrics some runs did not report");
        new Label(bottom, SWT.NONE).setText("Export the result:");
        exportButton(bottom, "JSON...", ConsoleService.ID_AB_EXPORT_JSON, this::exportJson);
        exportButton(bottom, "CSV...", ConsoleService.ID_AB_EXPORT_CSV, this::exportCsv);
        exportButton(bottom, "PNG...", ConsoleService.ID_AB_EXPORT_PNG, this::exportPng);
        split.setWeights(1, 1);
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

    private void exportButton(Composite parent, String text, String id, Runnable action) {
        Button b = new Button(parent, SWT.PUSH);
        b.setText(text);
        ConsoleWindow.id(b, id);
        b.addListener(SWT.Selection, e -> action.run());
    }

    private void formEnabled(boolean on) {
        for (Control c : form.getChildren()) {
            c.setEnabled(on);
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
        if (e == null) {
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
        progress.setMaximum(Math.max(1, experiment.variants.size() * experiment.seeds.size()));
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

        @Override
        public void started(ExperimentDTO experiment, int runs, int threads) {
            startNanos = System.nanoTime();
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
        chartTabs.select(result); // shown first, so that the charts and the table are laid out at their size
        show(r);
        host.log(r.cancelled ? "WARN" : "INFO", "experiment " + AbTable.outcome(r));
        if (!r.problems.isEmpty() || r.runs.stream().anyMatch(s -> RunSummaryDTO.FAILED.equals(s.state))) {
            host.log("WARN", "experiment problems: " + String.join("; ", AbTable.problems(r)));
        }
        updateButtons();
    }

    private void refused(ExperimentDTO e, PipelineException x) {
        worker = null;
        setStatus("not run: the engine refused a variant");
        problems.setItems(x.getMessage().split("\n"));
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

    // ------------------------------------------------------------------ the result

    private void show(ExperimentResultDTO r) {
        for (Control c : charts.getChildren()) {
            c.dispose();
        }
        List<AbCharts.Chart> data = AbCharts.of(r);
        ((GridLayout) charts.getLayout()).numColumns = Math.max(1, Math.min(CHARTS_PER_ROW, data.size()));
        for (AbCharts.Chart d : data) {
            chart(d).setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
        }
        charts.layout(true, true); // not SWTChart's own layout here: while the tab is not on screen it leaves the axes unpainted
        List<AbTable.Row> rows = AbTable.rows(r);
        table.setRedraw(false); // as the live views fill theirs: GTK then lays the rows out once, when redrawing resumes
        try {
            table.setItemCount(rows.size());
            for (int i = 0; i < rows.size(); i++) {
                TableItem item = table.getItem(i);
                item.setText(rows.get(i).cells().toArray(String[]::new));
                item.setData(ConsoleService.AB_ROW_DATA, rows.get(i).source());
            }
        } finally {
            table.setRedraw(true);
        }
        if (!rows.isEmpty()) {
            table.setTopIndex(0); // GTK keeps a previous result's scroll position past the new rows' end otherwise
            table.showItem(table.getItem(0));
        }
        List<String> p = AbTable.problems(r);
        problems.setItems(p.isEmpty() ? new String[] { "no problems: every run counted, every metric was reported" }
                : p.toArray(String[]::new));
        problems.setTopIndex(0);
        result.layout(true, true);
    }

    /**
     * Lays the charts out now, axes and tick marks included: SWTChart computes its tick marks in its own layout, and a
     * chart printed (the PNG export) before it was ever painted would otherwise have none.
     */
    private void layoutCharts() {
        charts.layout(true, true);
        for (Control c : charts.getChildren()) {
            if (c instanceof Chart chart) {
                chart.updateLayout();
            }
        }
    }

    private Chart chart(AbCharts.Chart d) {
        Chart c = new Chart(charts, SWT.NONE);
        ConsoleWindow.id(c, ConsoleService.AB_CHART_PREFIX + d.metric());
        c.getTitle().setText(d.metric());
        IAxis x = c.getAxisSet().getXAxis(0);
        x.getTitle().setText("variant");
        x.getTick().setFormat(new VariantFormat(d));
        x.getTick().setTickMarkStepHint((int) Math.ceil(IAxisTick.MIN_GRID_STEP_HINT)); // a tick for every variant, even in a narrow chart
        c.getLegend().setVisible(false); // the x axis names the variants; the plot keeps the width
        c.getAxisSet().getYAxis(0).getTitle().setText("mean, 95 % CI");
        for (AbCharts.Point p : d.points()) {
            @SuppressWarnings("unchecked")
            ILineSeries<Object> s = (ILineSeries<Object>) c.getSeriesSet().createSeries(SeriesType.LINE, p.variant());
            Color color = chartTabs.color(p.x());
            s.setLineStyle(LineStyle.NONE);
            s.setSymbolType(PlotSymbolType.CIRCLE);
            s.setSymbolSize(5);
            s.setSymbolColor(color);
            s.setLineColor(color);
            s.setXSeries(p.mean() == null ? new double[0] : new double[] { p.x() });
            s.setYSeries(p.mean() == null ? new double[0] : new double[] { p.mean() });
            IErrorBar bar = s.getYErrorBar();
            if (p.hasInterval()) {
                bar.setType(IErrorBar.ErrorBarType.BOTH);
                bar.setMinusErrors(new double[] { p.minus() });
                bar.setPlusErrors(new double[] { p.plus() });
                bar.setColor(color);
                bar.setLineWidth(2);
                bar.setVisible(true);
            } else {
                bar.setVisible(false);
            }
        }
        x.setRange(new Range(d.xLow(), d.xHigh()));
        c.getAxisSet().getYAxis(0).setRange(new Range(d.yLow(), d.yHigh()));
        return c;
    }

    /** Labels the x axis' whole-number ticks with the variants' names and leaves the others empty. */
    private static final class VariantFormat extends Format {
        private static final long serialVersionUID = 1L;
        private final transient AbCharts.Chart chart;

        VariantFormat(AbCharts.Chart chart) {
            this.chart = chart;
        }

        @Override
        public StringBuffer format(Object o, StringBuffer to, FieldPosition pos) {
            return to.append(o instanceof Number n ? chart.tickLabel(n.doubleValue()) : "");
        }

        @Override
        public Object parseObject(String source, ParsePosition pos) {
            return null;
        }
    }

    // ------------------------------------------------------------------ exports

    private ExperimentResultDTO last(String what) {
        if (status.getData(ConsoleService.AB_RESULT_DATA) instanceof ExperimentResultDTO r) {
            return r;
        }
        host.error("No A/B result to export", "The " + what + " is the result of an experiment: run one in the A/B tab first.");
        return null;
    }

    private Path exportFile(String id, String title, String extension, ExperimentResultDTO r) {
        Widget hook = find(result, id);
        return FileChooser.choose(hook, setup.getShell(), SWT.SAVE, title, extension, r.name + "." + extension,
                context.home() == null ? null : context.home().resolve("results"));
    }

    private static Widget find(Composite root, String id) {
        for (Control c : root.getChildren()) {
            if (id.equals(c.getData(ConsoleService.WIDGET_ID))) {
                return c;
            }
            if (c instanceof Composite k && find(k, id) instanceof Widget w) {
                return w;
            }
        }
        return null;
    }

    private void exportJson() {
        ExperimentResultDTO r = last("JSON");
        Path f = r == null ? null : exportFile(ConsoleService.ID_AB_EXPORT_JSON, "Export the A/B result as JSON", "json", r);
        if (f != null) {
            try {
                OutputFile.write(f, ResultFiles.json(r));
                host.log("INFO", "exported the A/B result to " + f);
            } catch (IOException | RuntimeException e) {
                host.error("Cannot export the A/B result to " + f, f + ": " + describe(e));
            }
        }
    }

    private void exportCsv() {
        ExperimentResultDTO r = last("CSV");
        Path f = r == null ? null : exportFile(ConsoleService.ID_AB_EXPORT_CSV, "Export the A/B runs as CSV", "csv", r);
        if (f != null) {
            try {
                OutputFile.write(f, out -> {
                    Writer w = new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8);
                    ResultFiles.csv(r, w);
                    w.flush();
                });
                host.log("INFO", "exported " + r.runs.size() + " runs x " + r.metrics.size() + " metrics to " + f);
            } catch (IOException | RuntimeException e) {
                host.error("Cannot export the A/B runs to " + f, f + ": " + describe(e));
            }
        }
    }

    private void exportPng() {
        ExperimentResultDTO r = last("PNG");
        Path f = r == null ? null : exportFile(ConsoleService.ID_AB_EXPORT_PNG, "Export the A/B charts as PNG", "png", r);
        if (f != null) {
            try {
                chartTabs.select(result);
                layoutCharts();
                ImageLoader loader = new ImageLoader();
                loader.data = new ImageData[] { LiveCharts.print(charts) };
                loader.save(f.toString(), SWT.IMAGE_PNG);
                host.log("INFO", "exported the A/B charts to " + f);
            } catch (SWTException | IllegalArgumentException e) {
                host.error("Cannot export the A/B charts to " + f, f + ": " + describe(e));
            }
        }
    }

    private static String describe(Throwable t) {
        return ConsoleWindow.describe(t);
    }
}

package io.ringlab.console.api;

import java.nio.file.Path;

import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Shell;
import org.osgi.annotation.versioning.ProviderType;

/**
 * Opens Ringlab console windows. The console bundle registers this service while the engine's
 * {@code io.ringlab.sim.api.Simulator} is there; its windows close when the service goes away.
 * <p>
 * Widgets carry an id under the data key {@link #WIDGET_ID} ({@code widget.getData(WIDGET_ID)}), so tests and automation
 * find them without depending on the layout. The ids below are part of this API.
 * <p>
 * Thread-safe to obtain; {@link #open} must be called on the display's thread (SWT's rule).
 */
@ProviderType
public interface ConsoleService {
    /** Data key under which a console widget carries its id, a {@code String}. */
    String WIDGET_ID = "ringlab.id";
    /**
     * Data key under which the summary widget ({@link #ID_SUMMARY}) carries the last run's result, an
     * {@code io.ringlab.sim.api.dto.RunResultDTO}; absent until a run has ended.
     */
    String RESULT_DATA = "ringlab.result";
    /** Data key under which the status label ({@link #ID_STATUS}) carries the number of snapshot polls so far, an {@code Integer}. */
    String POLLS_DATA = "ringlab.polls";

    /** Tree of element types by category (JFace TreeViewer's tree). */
    String ID_PALETTE = "palette";
    /** List of the sample pipelines in {@code ringlab.home}/pipelines; a click opens one. */
    String ID_SAMPLES = "samples";
    /**
     * Canvas of the pipeline editor. It carries the edited pipeline under {@link #PIPELINE_DATA}: place (double-click a
     * palette type or drag it here), move (drag), connect (drag from an output port to an input port), select (click,
     * Ctrl/Shift-click, rubber band), delete (Del), zoom (Ctrl+wheel, Ctrl+plus/minus/0), rename (double-click a box).
     */
    String ID_PIPELINE = "pipeline";
    /**
     * Data key under which the editor canvas ({@link #ID_PIPELINE}) carries the pipeline as edited now, a fresh
     * {@code io.ringlab.sim.api.dto.PipelineDTO} copy after every change (with a layout entry for every element): what
     * File > Save writes and what Run runs.
     */
    String PIPELINE_DATA = "ringlab.pipeline";
    /** Label under the editor with its last message, such as why a connection was refused. */
    String ID_EDITOR_MESSAGE = "editor.message";
    /** Menu items (File and Edit menus): new, save, save as, undo, redo, delete, select all, automatic layout. */
    String ID_MENU_NEW = "menu.new", ID_MENU_SAVE = "menu.save", ID_MENU_SAVE_AS = "menu.saveAs", ID_MENU_UNDO = "menu.undo",
            ID_MENU_REDO = "menu.redo", ID_MENU_DELETE = "menu.delete", ID_MENU_SELECT_ALL = "menu.selectAll",
            ID_MENU_LAYOUT = "menu.layout";
    /** The shell of the question asked before unsaved edits are discarded (Save, Discard, Cancel); it blocks. */
    String ID_QUESTION = "question";
    /** Run controls: buttons. */
    String ID_RUN = "run", ID_PAUSE = "pause", ID_RESUME = "resume", ID_STEP = "step", ID_STOP = "stop";
    /** Run inputs: text fields for the duration (pipeline time grammar, empty for the file's) and seed, a combo for the speed. */
    String ID_DURATION = "duration", ID_SEED = "seed", ID_SPEED = "speed";
    /** SWTChart charts: the headline metric over time, and packets per second per element. */
    String ID_CHART_HEADLINE = "chart.headline", ID_CHART_THROUGHPUT = "chart.throughput";
    /** Read-only text with the last run's headline and invariants. */
    String ID_SUMMARY = "summary";
    /** Read-only text with the console's log. */
    String ID_LOG = "log";
    /** Label with the run's state, virtual time and events. */
    String ID_STATUS = "status";
    /** The shell of an error dialog; its message is the dialog's text. Error dialogs do not block the caller. */
    String ID_ERROR = "error";

    /** The tab folder on the right, with the tabs Run, Properties, Bundles and (since 1.4) A/B in that order. @since 1.1 */
    String ID_TABS = "tabs";
    /**
     * Data key under which the pipeline canvas ({@link #ID_PIPELINE}) carries the selected element's name, a
     * {@code String}; absent or {@code null} when nothing is selected. A click on a box selects it.
     * @since 1.1
     */
    String SELECTION_DATA = "ringlab.selection";
    /**
     * Data key under which the pipeline canvas carries every element's box as drawn, a {@code Map<String, int[]>} from
     * element name to {@code {x, y, width, height}} in the canvas's coordinates (after any scaling to fit).
     * @since 1.1
     */
    String BOUNDS_DATA = "ringlab.bounds";
    /**
     * Data key under which the pipeline canvas carries the run state it draws, a {@code Map<String, Map<String, Double>>}
     * from element name to: {@code METRIC} (a level's value: {@code backlog}, {@code inflight}) and
     * {@code METRIC/capacity} (its bar's bound), {@code METRIC/s} (a throughput: bit/s for a counter of bytes, packets/s
     * otherwise) and {@code METRIC/utilisation} (its share of a link's rate, 0 to 1), {@code pool:SUFFIX} and
     * {@code pool:SUFFIX/capacity} (a pool it owns), {@code drops} and {@code drops:REASON} (its badge); an empty map
     * without a run. The canvas also carries {@link #CANVAS_TIME_DATA}.
     * @since 1.6
     */
    String CANVAS_DATA = "ringlab.canvas";
    /** Data key of the virtual time in seconds the canvas's run state is of, a {@code Double}. @since 1.6 */
    String CANVAS_TIME_DATA = "ringlab.canvasTime";
    /**
     * The canvas's time slider (a {@code Scale}: position {@code i} shows the series' row {@code i}, its maximum the run's
     * end) and the label with the time it shows.
     * @since 1.6
     */
    String ID_TIME_SLIDER = "canvas.time", ID_TIME_LABEL = "canvas.timeLabel";
    /**
     * Prefix of an element's inspector window's id ({@code inspector.q}, a {@code Shell}); in it, the metrics table
     * (each item's data the metric's value, a {@code Double}), the properties table, the CPU and drops labels, its tab
     * folder (Metrics, Properties as run, Series) and the composite of its series' charts (drawn while the Series tab
     * shows). Run > Inspect the Selected Element (Ctrl+I) or a double-click on an element while
     * a run's state is shown opens one.
     * @since 1.6
     */
    /**
     * Prefix of the split panes' ids ({@code SashForm}s): {@code sash.window} (the panes above the log, and the log),
     * {@code sash.main} (palette, middle, tabs), {@code sash.middle} (canvas, charts). Their weights and the window's
     * bounds are remembered between sessions in the file the framework property {@code ringlab.console.state} names,
     * else {@code $XDG_CONFIG_HOME/ringlab/console.properties} ({@code ~/.config/...}).
     * @since 1.6
     */
    String SASH_PREFIX = "sash.";
    /**
     * The A/B result's legend (a composite) and the prefix of its variants' labels ({@code ab.legend.B}).
     * @since 1.6
     */
    String ID_AB_LEGEND = "ab.legend", AB_LEGEND_PREFIX = "ab.legend.";
    /**
     * A sweep's chooser of the parameter on its charts' x axis (a read-only combo of the swept parameters, shown when
     * there are several), as {@code ringlab plot --x}.
     *
     * @since 1.7
     */
    String ID_AB_SWEEP_X = "ab.sweep.x";
    /** The A/B result's two parts, a {@code TabFolder}: Table (shown first) and Charts. @since 1.6 */
    String ID_AB_PARTS = "ab.parts";
    /**
     * The A/B panel's results-database browser: the button that opens a database ({@code FILE_DATA} on it stands in
     * for the dialog) and the combo of the experiments it holds (choosing one shows it).
     * @since 1.6
     */
    String ID_AB_OPEN_DB = "ab.openDb", ID_AB_DB_EXPERIMENTS = "ab.dbExperiments";
    /**
     * The A/B charts' pager: the buttons to the previous and next page and the label saying which charts show
     * ({@code charts 1-4 of 5}).
     * @since 1.6
     */
    String ID_AB_PAGE_PREVIOUS = "ab.pagePrevious", ID_AB_PAGE_NEXT = "ab.pageNext", ID_AB_PAGE = "ab.page";
    /**
     * The Latency tab's charts of each source over time (a ping's echoes as points, series {@code ping.rttMillis}; a
     * histogram's P50 and P99 per interval, {@code sink.latencyP50Micros}) and of each source's CDF (series
     * {@code element.<name><Unit>}), all in milliseconds.
     * @since 1.6
     */
    String ID_CHART_LATENCY_TIME = "chart.latencyTime", ID_CHART_LATENCY_CDF = "chart.latencyCdf";
    String INSPECTOR_PREFIX = "inspector.", ID_INSPECTOR_METRICS = "inspector.metrics",
            ID_INSPECTOR_PROPERTIES = "inspector.properties", ID_INSPECTOR_CPU = "inspector.cpu",
            ID_INSPECTOR_DROPS = "inspector.drops", ID_INSPECTOR_SERIES = "inspector.series", ID_INSPECTOR_TABS = "inspector.tabs",
            ID_MENU_INSPECT = "menu.inspect";
    /** The composite of the properties form of the selected element. @since 1.1 */
    String ID_PROPERTIES = "properties";
    /**
     * Prefix of a property form's widget ids: {@code property.NAME} is the field (a check box {@code Button} for a
     * boolean, a read-only {@code Combo} for a choice, a {@code Text} in the pipeline files' grammar otherwise),
     * {@code property.NAME.error} the label with its validation message (empty while valid), {@code property.NAME.default}
     * the button that resets it to the default.
     * @since 1.1
     */
    String PROPERTY_PREFIX = "property.";
    /** Table of the installed bundles, a row each, columns id, symbolic name, state, version. @since 1.1 */
    String ID_BUNDLES = "bundles";
    /** Bundles view buttons: install from a file (and start), update the selected bundle from a file, uninstall it. @since 1.1 */
    String ID_BUNDLE_INSTALL = "bundles.install", ID_BUNDLE_UPDATE = "bundles.update", ID_BUNDLE_UNINSTALL = "bundles.uninstall";
    /**
     * Data key for automation: a file path ({@code String}) set on the Install or Update button, or on an export menu
     * item (since 1.2), is used by its next click instead of asking with a native file dialog (which a test cannot
     * drive), and then cleared.
     * @since 1.1
     */
    String FILE_DATA = "ringlab.file";

    /**
     * The tab folder of the charts (middle, under the editor), with the tabs Overview (the headline and throughput charts),
     * Latency, Queues, Pools, Cache, CPU and (since 1.4) A/B in that order.
     * @since 1.2
     */
    String ID_CHART_TABS = "chart.tabs";
    /**
     * SWTChart charts of the live views: latency percentiles (P50, P90, P99 of every latency histogram in microseconds,
     * as of each snapshot; series ids {@code element.histogram P99}), queues (qdisc backlog and device TX queue in
     * packets on the left axis, BQL {@code limit} and {@code inflight} in bytes on the right; series ids are the series
     * columns), pool occupancy ({@code pool:NAME.inUse}, {@code pool:NAME.available}) and cache hit rate per core
     * ({@code cpuN.l1dHitPercent}).
     * @since 1.2
     */
    String ID_CHART_LATENCY = "chart.latency", ID_CHART_QUEUES = "chart.queues", ID_CHART_POOLS = "chart.pools",
            ID_CHART_CACHE = "chart.cache";
    /**
     * The swap controls of a running pipeline: the element combo, the implementation combo ({@code type@version}) and the
     * button that asks the run to swap at its next safe point.
     *
     * @since 1.3
     */
    String ID_SWAP_ELEMENT = "swap.element", ID_SWAP_TARGET = "swap.target", ID_SWAP = "swap";
    /**
     * The "Separate process" check box: the next run goes to a child process (docs/engine.md, "Fault isolation").
     *
     * @since 1.3
     */
    String ID_ISOLATE = "isolate";
    /**
     * Data key under which the chart tabs ({@link #ID_CHART_TABS}) carry the number of swaps marked on the charts, an
     * {@code Integer}.
     *
     * @since 1.3
     */
    String SWAPS_DATA = "ringlab.swaps";
    /**
     * Tables: the latency percentiles (element, histogram, unit, count, min, P50, P90, P99, max, mean) of the latest
     * snapshot or the result, and the CPU per element (element, calls, packets, cycles, cycles/pkt, ns/pkt, as
     * {@code ringlab run} prints them; calls show {@code -} until the run has ended).
     * @since 1.2
     */
    String ID_LATENCY_TABLE = "table.latency", ID_CPU_TABLE = "table.cpu";
    /**
     * File menu items: export the chart tab shown as PNG, the series as CSV, the result as JSON. Each takes its file
     * from {@link #FILE_DATA} on the item when set (and clears it), else from a save dialog.
     * @since 1.2
     */
    String ID_MENU_EXPORT_PNG = "menu.exportPng", ID_MENU_EXPORT_CSV = "menu.exportCsv", ID_MENU_EXPORT_JSON = "menu.exportJson";
    /**
     * Data key under which the summary widget ({@link #ID_SUMMARY}) carries the path ({@code String}) of the CSV file the
     * last run's series were streamed to, once that file is complete and closed; absent before.
     * @since 1.2
     */
    String STREAM_DATA = "ringlab.stream";

    /**
     * The A/B panel, set-up side (the tab A/B, the fourth of {@link #ID_TABS}): the list of the experiment files in
     * {@code ringlab.home}/experiments (a click opens one), the button that makes an experiment from the pipeline in the
     * editor, and the read-only text that describes the experiment the panel will run.
     *
     * @since 1.4
     */
    String ID_AB_EXPERIMENTS = "ab.experiments", ID_AB_FROM_EDITOR = "ab.fromEditor", ID_AB_SOURCE = "ab.source";
    /**
     * The A/B panel's form, for an experiment made from the editor's pipeline (variant A the pipeline as it is): text
     * fields for variant B's element type replacements ({@code ELEMENT=TYPE}, one a line) and property overrides
     * ({@code ELEMENT.PROPERTY=VALUE}, one a line), the number of seeds, the duration and the warm-up; a multi-selection
     * list of the metrics the pipeline reports (filled after a short run of it), a text field for more metrics, and the
     * label with the form's validation messages (empty while valid).
     *
     * @since 1.4
     */
    String ID_AB_TYPES = "ab.types", ID_AB_OVERRIDES = "ab.overrides", ID_AB_SEEDS = "ab.seeds", ID_AB_DURATION = "ab.duration",
            ID_AB_WARMUP = "ab.warmup", ID_AB_METRICS = "ab.metrics", ID_AB_MORE_METRICS = "ab.moreMetrics",
            ID_AB_MESSAGE = "ab.message";
    /**
     * The A/B panel's run controls: Run (on a background thread), Cancel (interrupts it), the progress bar (runs ended out
     * of all) and the status label, which carries the last result under {@link #AB_RESULT_DATA}.
     *
     * @since 1.4
     */
    String ID_AB_RUN = "ab.run", ID_AB_CANCEL = "ab.cancel", ID_AB_PROGRESS = "ab.progress", ID_AB_STATUS = "ab.status";
    /**
     * Data key under which the A/B status label ({@link #ID_AB_STATUS}) carries the last experiment's result, an
     * {@code io.ringlab.experiment.api.dto.ExperimentResultDTO}; absent until an experiment has ended.
     *
     * @since 1.4
     */
    String AB_RESULT_DATA = "ringlab.abResult";
    /**
     * The A/B panel's result (the tab A/B, the last of {@link #ID_CHART_TABS}): the composite of the charts, one SWTChart
     * chart per metric side by side with the id {@code ab.chart.METRIC} and one series per variant (its id the variant's
     * name: the mean as one point, the 95 % interval as its y error bar); the table of each variant's mean and each
     * comparison (its items carry the {@code MetricSummaryDTO} or {@code ComparisonDTO} they show under
     * {@link #AB_ROW_DATA}); the list of problems (failed, stopped or cancelled runs, broken invariants, metrics not
     * reported); and the export buttons (JSON, CSV, PNG; each takes {@link #FILE_DATA} as the export menu items do).
     *
     * @since 1.4
     */
    String ID_AB_CHARTS = "ab.charts", AB_CHART_PREFIX = "ab.chart.", ID_AB_TABLE = "ab.table", ID_AB_PROBLEMS = "ab.problems",
            ID_AB_EXPORT_JSON = "ab.exportJson", ID_AB_EXPORT_CSV = "ab.exportCsv", ID_AB_EXPORT_PNG = "ab.exportPng";
    /** Data key of the A/B table's items: the DTO of the result that the row shows. @since 1.4 */
    String AB_ROW_DATA = "ringlab.abRow";
    /**
     * File menu item: open an experiment file in the A/B panel; takes {@link #FILE_DATA} when set, else asks with a
     * file dialog.
     *
     * @since 1.4
     */
    String ID_MENU_OPEN_EXPERIMENT = "menu.openExperiment";

    /**
     * Ids of File > Exit (Ctrl+Q), Help > Documentation, Help > Model Page of the Selected Element, Help > About, and
     * of the About dialog's shell.
     *
     * @since 1.5
     */
    String ID_MENU_EXIT = "menu.exit", ID_MENU_DOCS = "menu.docs", ID_MENU_MODEL_PAGE = "menu.modelPage",
            ID_MENU_ABOUT = "menu.about", ID_ABOUT = "about";

    /**
     * Opens a console window.
     *
     * @param display the display to open it on; the caller runs its event loop
     * @param pipeline a pipeline file to open, or {@code null} for none
     * @return the window's shell, open; it is disposed when the user closes the window or the service goes away
     */
    Shell open(Display display, Path pipeline);
}

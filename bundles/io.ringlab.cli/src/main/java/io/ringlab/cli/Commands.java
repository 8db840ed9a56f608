package io.ringlab.cli;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import io.ringlab.experiment.api.ClusterException;
import io.ringlab.experiment.api.ClusterService;
import io.ringlab.experiment.api.ExperimentService;
import io.ringlab.experiment.api.RunExecutor;
import io.ringlab.experiment.api.ResultsException;
import io.ringlab.experiment.api.RunStore;
import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.pipeline.format.Numbers;
import io.ringlab.pipeline.format.OutputFile;
import io.ringlab.pipeline.format.ResultJson;
import io.ringlab.pipeline.format.TestbedViews;
import io.ringlab.pipeline.format.Units;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.RunControlProtocol;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.ValueDTO;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The {@code ringlab} command line, parsed with picocli. */
@Command(name = "ringlab", mixinStandardHelpOptions = true, versionProvider = Versions.class,
        description = "NIC-driver buffer and queue models as deterministic discrete-event simulations.",
        subcommands = {Commands.Run.class, Commands.Ab.class, ResultsCommand.class, PlotCommand.class, StatsCommand.class, BenchCommand.class, WorkerCommand.class, Commands.Elements.class,
            Commands.Pools.class, Commands.Shell.class, Commands.Gui.class, Commands.Test.class},
        footer = {"%nExamples:",
            "  ./ringlab run pipelines/netdev-bql.pipeline --set eth0.bql=true",
            "  ./ringlab ab experiments/stmmac-bql.experiment --seeds 5",
            "  ./ringlab worker --cluster cluster.yaml    (and ./ringlab ab FILE --cluster cluster.yaml elsewhere)",
            "  ./ringlab elements",
            "%nEach command's --help lists its options with an example; docs/index.md lists the documentation."})
final class Commands implements Callable<Integer> {
    /**
     * System property the launcher script sets to {@code true} when standard error is a terminal (Java 21 cannot tell
     * by itself once standard input or output is redirected): {@code ringlab ab} then draws its progress bar in place.
     */
    static final String TERMINAL_PROPERTY = "ringlab.stderrIsTerminal";

    final Runner runner;
    final PrintStream out;
    final PrintStream err;
    final Path home;
    /** Whether {@link #err} is a terminal ({@link #TERMINAL_PROPERTY}). */
    final boolean terminal;

    Commands(Runner runner, PrintStream out, PrintStream err, Path home) {
        this.runner = runner;
        this.out = out;
        this.err = err;
        this.home = home;
        this.terminal = Boolean.getBoolean(TERMINAL_PROPERTY);
    }

    /** This command as picocli built it, with the subcommands the factory of {@link #execute} made. */
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(err);
        return Runner.INVALID;
    }

    /** @return the exit code of the command line {@code args}. */
    static int execute(Runner runner, PrintStream out, PrintStream err, Path home, String... args) {
        Commands root = new Commands(runner, out, err, home);
        CommandLine cl = new CommandLine(root, new CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> cls) throws Exception {
                if (cls == Run.class || cls == Ab.class || cls == ResultsCommand.class || cls == PlotCommand.class
                        || cls == StatsCommand.class
                        || cls == BenchCommand.class || cls == WorkerCommand.class
                        || cls == Elements.class || cls == Pools.class
                        || LauncherCommand.class.isAssignableFrom(cls)) {
                    return cls.cast(cls.getDeclaredConstructor(Commands.class).newInstance(root));
                }
                return CommandLine.defaultFactory().create(cls);
            }
        });
        cl.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
        cl.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        // picocli answers invalid input with ExitCode.USAGE, which is 2, our INVALID
        cl.setExecutionExceptionHandler((ex, line, parse) -> {
            err.println("ringlab: " + ex);
            return Runner.FAILED;
        });
        return cl.execute(args);
    }

    /** @return where the human summary goes: standard error when the JSON goes to standard output ({@code --json -}) */
    PrintStream human(String json) {
        return "-".equals(json) ? err : out;
    }

    /**
     * Checks output paths before any work, so that a run never ends with its result lost to a typo: each pair is an
     * option and its value ({@code null}: not given; {@code -}: standard output, where {@code allowsStdout}).
     *
     * @return whether every path given can be written; each that cannot is named on standard error with the reason
     */
    boolean outputsWritable(String... optionsAndPaths) {
        boolean ok = true;
        for (int i = 0; i < optionsAndPaths.length; i += 2) {
            String option = optionsAndPaths[i], path = optionsAndPaths[i + 1];
            if (path == null || "-".equals(path) && option.equals("--json")) {
                continue;
            }
            String problem = OutputFile.problem(path);
            if (problem != null) {
                err.println(option + " " + (path.isEmpty() ? "''" : path) + ": " + problem);
                ok = false;
            }
        }
        return ok;
    }

    /**
     * Writes an output file by {@link OutputFile}'s rules, or the content to standard output when {@code target} is
     * {@code -}.
     *
     * @param option the option that named the file, for the message
     * @param human where to say that the file was written; {@code null} to say nothing
     * @param what what was written, for that line ("result", "plot")
     * @return whether it was written; if not, standard error says which file and why
     */
    boolean writeOutput(String option, String target, OutputFile.Content content, PrintStream human, String what) {
        try {
            if ("-".equals(target)) {
                BufferedOutputStream o = new BufferedOutputStream(out, 1 << 16); // out stays open
                content.write(o);
                o.flush();
                return true;
            }
            OutputFile.write(Path.of(target), content);
        } catch (IOException e) {
            err.println("ringlab: " + option + " " + target + ": " + what + " not written: " + OutputFile.reason(e));
            return false;
        }
        if (human != null) {
            human.println(what + " written to " + target);
        }
        return true;
    }

    /** @return the JSON of {@code value} and a line end, streamed, as {@link #writeOutput} content */
    static OutputFile.Content json(Object value) {
        return ResultJson.file(value);
    }

    /** An integer option in the integer grammar of pipeline files ({@link Units#parseInteger}: {@code 0x10}, {@code 10k}). */
    static final class FileInteger implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                return Units.parseInteger(value.strip());
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** {@code --plugins DIR}, shared by every command. */
    static final class PluginsOption {
        @Option(names = "--plugins", paramLabel = "DIR", description = "install and start the bundles (*.jar) in DIR"
                + " for this command, before a pipeline is read, and wait until their element types are registered"
                + " (repeatable; plugins/ stays installed as always). A jar that does not resolve or start is named with"
                + " what it misses, and the command exits with 2.")
        List<Path> folders = new ArrayList<>();
    }

    /** Work of a command that may write files. */
    @FunctionalInterface
    interface Body {
        Integer call() throws IOException;
    }

    /**
     * Runs a command's work with the bundles of its plugin folders installed, and uninstalls them after.
     *
     * @return the work's exit code, or {@link Runner#INVALID} with each refused jar on standard error
     */
    int withPlugins(PluginsOption option, Body body) throws IOException {
        if (option.folders.isEmpty()) {
            return body.call();
        }
        for (Path folder : option.folders) {
            if (folder.toString().isBlank()) { // Path.of("") is the working folder: a script's empty variable
                err.println("ringlab: --plugins '" + folder + "': the folder name is empty; give the folder of the plugin"
                        + " jars, as in --plugins samples/ixgbe/target");
                return Runner.INVALID;
            }
        }
        PluginLoader.Session session;
        try {
            session = runner.plugins.install(option.folders);
        } catch (PluginLoader.PluginException e) {
            e.getMessage().lines().forEach(l -> err.println("ringlab: --plugins: " + l));
            return Runner.INVALID;
        }
        try (session) {
            session.notes().forEach(n -> err.println("ringlab: --plugins: " + n));
            return body.call();
        }
    }

    /**
     * A command that takes {@code --plugins DIR}: its {@link #work()} runs with the folders' bundles installed
     * ({@link #withPlugins}).
     */
    abstract static class PluginCommand implements Callable<Integer> {
        final Commands root;
        @Mixin
        PluginsOption plugins;

        PluginCommand(Commands root) {
            this.root = root;
        }

        @Override
        public final Integer call() throws IOException {
            return root.withPlugins(plugins, this::work);
        }

        /** @return the command's exit code */
        abstract Integer work() throws IOException;
    }

    @Command(name = "run", mixinStandardHelpOptions = true, header = "run a pipeline file and print its summary, JSON or plot", description = "Run a pipeline file and print a summary; optionally write the JSON result.",
            footer = {"%nExamples:",
                "  ./ringlab run pipelines/netdev-bql.pipeline --set eth0.bql=true",
                "  ./ringlab run pipelines/stmmac-bql-100m.pipeline --duration 20s --json out.json --plot out.png",
                "  ./ringlab run pipelines/netdev-bql.pipeline --print sink.latencyP50Micros,q.backlog",
                "  ./ringlab run pipelines/stmmac-bql-100m.pipeline --print tc,ethtool,bql"})
    static final class Run extends PluginCommand {

        @Parameters(index = "0", paramLabel = "FILE", description = "the pipeline file")
        String file;
        @Option(names = "--duration", paramLabel = "D", description = "simulated time, e.g. 20s or 150ms (default: the file's, else 1s)")
        String duration;
        @Option(names = "--seed", paramLabel = "N", converter = FileInteger.class, description = "random seed in the"
                + " file's integer grammar, e.g. 7, 0x10, 10k or 1_000 (default: the file's, else 1)")
        Long seed;
        @Option(names = "--set", paramLabel = "ELEMENT.PROPERTY=VALUE", description = "override a property (repeatable)")
        List<String> sets = new ArrayList<>();
        @Option(names = "--json", paramLabel = "OUT|-", description = "write the JSON result to OUT, or to stdout with -")
        String json;
        @Option(names = "--print", paramLabel = "ELEMENT.METRIC|VIEW", split = ",",
                description = "print only these metrics, one 'element.metric=value' per line (for scripts), and these"
                        + " views of the counters: tc, ethtool, bql (as ringlab stats prints them)")
        List<String> print = new ArrayList<>();
        @Option(names = "--plot", paramLabel = "PNG", description = "draw time series as a PNG chart, one panel per"
                + " unit: the pipeline's plot = [...] series, else its headline")
        String plot;
        @Option(names = "--plot-series", paramLabel = "ELEMENT.METRIC", split = ",",
                description = "the series to draw instead (comma-separated)")
        List<String> plotSeries = new ArrayList<>();
        @Option(names = "--series-interval", paramLabel = "D",
                description = "virtual time between samples of the time series, e.g. 1ms (default: duration / 200)")
        String seriesInterval;
        @Option(names = "--warmup", paramLabel = "D", description = "virtual time the results exclude (counters, rates,"
                + " histograms, CPU and caches; not the series nor the invariants), less than the duration (default: 0s)")
        String warmup;
        @Option(names = "--swap", paramLabel = "AT:ELEMENT[=TYPE[@VERSION]]", description = "hot-swap the implementation"
                + " behind ELEMENT at virtual time AT (e.g. 10s:eth0, 10s:eth0=stmmac@0.1.0; repeatable; default TYPE: its"
                + " own, VERSION: the newest installed); the old instance hands its state over (docs/hot-swap.md)")
        List<String> swaps = new ArrayList<>();
        @Option(names = "--progress", description = "show on standard error how far the run is: when it starts, then"
                + " every second the simulated time reached and the events so far")
        boolean progress;
        @Option(names = "--snapshots", paramLabel = "FILE", description = "while the run runs, keep in FILE its latest"
                + " snapshot as JSON (simulated time, events, every element's metrics, the series so far), replaced"
                + " every " + SnapshotFile.INTERVAL_MILLIS + " ms of wall time (for a dashboard; the console's"
                + " separate-process runs use it)")
        String snapshots;
        @Option(names = RunControlProtocol.OPTION, description = "take commands on standard input while the run runs, one"
                + " per line: " + RunControlProtocol.PAUSE + ", " + RunControlProtocol.RESUME + ", " + RunControlProtocol.STEP
                + ", " + RunControlProtocol.STOP + ", " + RunControlProtocol.SWAP + " ELEMENT [TYPE["
                + RunControlProtocol.VERSION_SEPARATOR + "VERSION]] (a swap's outcome is printed as a line '"
                + RunControlProtocol.SWAP_REPLY + "{json}'); the console's separate-process runs use it")
        boolean control;
        @Option(names = "--flent", paramLabel = "OUT", description = "write the run as a flent data file (.flent.gz, flent"
                + " 2.x's format; the pipeline's ping, and its TCP streams as flent's tcp_1up or tcp_Nup), sampled every"
                + " 0.2 s over the measured window (docs/flent.md)")
        String flent;
        @Option(names = "--pcap", paramLabel = "ELEMENT[.PORT]=FILE", description = "capture the frames that pass a port"
                + " as a pcapng file for tcpdump, tshark and Wireshark, timestamped with virtual time (repeatable); a driver"
                + " without .PORT: what it sends to its wire and what arrives at its rx, as tcpdump -i shows; another"
                + " element: all its ports. Changes no result (docs/pcap.md)")
        List<String> pcaps = new ArrayList<>();
        @Option(names = "--pcap-snaplen", paramLabel = "BYTES", description = "bytes kept of each captured frame (default:"
                + " 128, the headers and a little zero payload)")
        int pcapSnaplen;

        Run(Commands root) {
            super(root);
        }

        @Override
        Integer work() throws IOException {
            PrintStream human = root.human(json);
            StopOnTerm signals = new StopOnTerm(root.err);
            signals.pending("--json", json);
            signals.pending("--plot", plot);
            signals.pending("--flent", flent);
            try {
                return execute(human, signals);
            } finally {
                signals.written();
            }
        }

        private Integer execute(PrintStream human, StopOnTerm signals) throws IOException {
            if (!root.outputsWritable("--json", json, "--snapshots", snapshots, "--plot", plot)
                    || !root.outputsWritable("--flent", flent)) {
                return Runner.INVALID;
            }
            if (flent != null && seriesInterval != null) {
                root.err.println("ringlab run: --flent samples the run every " + FlentFile.STEP_TEXT + " (flent's step):"
                        + " leave --series-interval out");
                return Runner.INVALID;
            }
            FlentFile.Plan[] flentPlan = new FlentFile.Plan[1];
            List<String> views = new ArrayList<>();
            for (java.util.Iterator<String> i = print.iterator(); i.hasNext();) {
                String m = i.next();
                if (m.indexOf('.') < 0) {
                    if (!TestbedViews.ALL.contains(m)) {
                        root.err.println("--print: '" + m + "' is neither ELEMENT.METRIC nor a view (" + String.join(", ",
                                TestbedViews.ALL) + ")");
                        return Runner.INVALID;
                    }
                    views.add(m);
                    i.remove();
                }
            }
            InputWarnings warnings = new InputWarnings(root.err, root.runner.types());
            print = warnings.metrics("--print", print); // old names (rxMbps) read today's metrics
            plotSeries = warnings.metrics("--plot-series", plotSeries);
            List<Runner.Watcher> watchers = new ArrayList<>(List.of(signals, warnings.onPipeline(sets)));
            if (progress) {
                watchers.add(RunProgress.on(root.err, root.terminal));
            }
            if (control) {
                watchers.add(RunControl.from(System.in, human, root.err));
            }
            if (snapshots != null) {
                watchers.add(SnapshotFile.to(Path.of(snapshots), root.err));
            }
            Runner.Request request = new Runner.Request(file, duration, seed, sets, flent != null ? FlentFile.STEP_TEXT
                    : seriesInterval, warmup, swaps, watchers, print, "--print", plot == null ? List.of() : plotSeries,
                    flent == null ? null : p -> flentPlan[0] = FlentFile.plan(p), // refused before the run
                    pcaps, pcapSnaplen);
            Runner.Outcome o = root.runner.run(request);
            if (o.result() == null) {
                root.err.println(o.message());
                return o.exitCode();
            }
            o.result().overrides = RunOverrides.of(request, plugins.folders);
            boolean printed = true; // a name the run did not report still lets the result be written
            if (print.isEmpty() && views.isEmpty()) {
                Summary.print(o.result(), human);
            } else {
                for (String m : print) {
                    int dot = m.lastIndexOf('.'); // metric names have no dots; pool names (pool:eth0.rx) do
                    java.util.Map<String, Double> e = dot < 0 ? null : o.result().elements.get(m.substring(0, dot));
                    Double v = e == null ? null : e.get(m.substring(dot + 1));
                    if (v == null) {
                        root.err.println("--print: the run reported no metric '" + m + "'");
                        printed = false;
                        continue;
                    }
                    human.println(m + "=" + Numbers.exact(v));
                }
                try {
                    human.print(TestbedViews.print(o.result(), views, null, views.size() > 1,
                            root.runner.types()));
                } catch (TestbedViews.NotApplicable e) {
                    root.err.println("--print: " + e.getMessage());
                    printed = false;
                }
            }
            boolean written = json == null || root.writeOutput("--json", json, json(o.result()), human, "result");
            signals.done("--json");
            if (plot != null) {
                try {
                    RunResultDTO r = o.result();
                    List<String> keys = o.pipeline().plot.stream().map(v -> v.text).toList();
                    List<String> series = Plots.chosen(plotSeries, keys, r.headline == null ? null : r.headline.metric,
                            r.series);
                    written &= root.writeOutput("--plot", plot, Plots.run(r, series, Plots.title(r)), human, "plot");
                    signals.done("--plot");
                } catch (IllegalArgumentException e) {
                    root.err.println(e.getMessage());
                    return Runner.INVALID;
                }
            }
            if (flent != null) {
                written &= root.writeOutput("--flent", flent, FlentFile.content(o.result(), flentPlan[0], file,
                        FlentFile.title(o.result())), human,
                        "flent file");
                signals.done("--flent");
            }
            for (String c : pcaps) {
                Path f = Path.of(c.substring(c.indexOf('=') + 1).trim());
                root.err.println("pcap " + c.substring(0, c.indexOf('=')) + ": " + f + (Files.isRegularFile(f)
                        ? " (" + String.format("%,d", Files.size(f)) + " bytes)" : " not written"));
            }
            if (!written) {
                return Runner.FAILED;
            }
            if (!printed) {
                return Runner.INVALID;
            }
            if (o.exitCode() == Runner.INVARIANT) {
                root.err.println("ringlab: an invariant is broken (see the violations above)");
            }
            return o.exitCode();
        }
    }

    @Command(name = "ab", mixinStandardHelpOptions = true, header = "run an A/B experiment: variants x seeds, means, CIs, paired tests", description = "Run an A/B experiment file (docs/experiments.md):"
            + " every variant with every seed, in parallel, on common random numbers; print per metric each variant's mean"
            + " with its 95 %% confidence interval, and each variant's paired difference from the first with its interval"
            + " and p-value.",
            footer = {"%nExamples:",
                "  ./ringlab ab experiments/stmmac-bql.experiment",
                "  ./ringlab ab experiments/stmmac-bql.experiment --seeds 5 --duration 10s --warmup 1s --csv out.csv"})
    static final class Ab extends PluginCommand {

        @Parameters(index = "0", paramLabel = "FILE", description = "the experiment file")
        String file;
        @Option(names = "--json", paramLabel = "OUT|-", description = "write the JSON result to OUT, or to stdout with -")
        String json;
        @Option(names = "--csv", paramLabel = "OUT", description = "write one row per variant, seed and metric to OUT")
        String csv;
        @Option(names = "--plot", paramLabel = "PNG", description = "draw each metric's means with their intervals as a PNG")
        String plot;
        @Option(names = "--seeds", paramLabel = "N|LIST", description = "a count (10: seeds 1 to 10) or a list (1,2,3,7)"
                + " instead of the file's seeds")
        String seeds;
        @Option(names = "--duration", paramLabel = "D", description = "simulated time per run instead of the file's, e.g. 2s")
        String duration;
        @Option(names = "--warmup", paramLabel = "D", description = "virtual time each run's results exclude instead of"
                + " the file's warmup, less than the duration, e.g. 0s or 500ms")
        String warmup;
        @Option(names = "--threads", paramLabel = "N", description = "runs at once (default: one per processor)")
        Integer threads;
        @Option(names = "--dry-run", description = "check the experiment and list the runs it expands to (variant, sweep"
                + " point, seed), one per line, without running them")
        boolean dryRun;
        @Option(names = "--db", paramLabel = "FILE", description = "the results database (DuckDB) the runs go into"
                + " (default: results/NAME.duckdb under the current folder, NAME the experiment's)")
        String db;
        @Option(names = "--rerun", description = "run every run again, even those the database holds, and replace them")
        boolean rerun;
        @Option(names = "--db-wait", paramLabel = "D", description = "how long to wait for another process that writes the"
                + " database (default 10s)")
        String dbWait;
        @Option(names = "--flent", paramLabel = "DIR", description = "write each run that runs as a flent data file in DIR"
                + " (EXPERIMENT-VARIANT-...-seedN.flent.gz; docs/flent.md)")
        String flent;
        @Option(names = "--cluster", paramLabel = "FILE", description = "send the runs to the workers of the cluster FILE"
                + " describes (Hazelcast YAML, docs/cluster.md) instead of this machine's threads; the results still go"
                + " into the local database")
        String cluster;

        Ab(Commands root) {
            super(root);
        }

        @Override
        Integer work() throws IOException {
            StopOnTerm signals = new StopOnTerm(root.err);
            try {
                return execute(signals);
            } finally {
                signals.written();
            }
        }

        private Integer execute(StopOnTerm signals) throws IOException {
            PrintStream human = root.human(json);
            ExperimentService service = root.runner.experiments;
            ExperimentResultDTO r;
            boolean flentFailed = false;
            if (dryRun && (json != null || csv != null || plot != null || flent != null)) {
                root.err.println("ringlab ab: --dry-run runs nothing, so it writes no --json, --csv, --plot or --flent: leave them out");
                return Runner.INVALID;
            }
            if (!root.outputsWritable("--json", json, "--csv", csv, "--plot", plot)) {
                return Runner.INVALID;
            }
            signals.pending("--json", json);
            signals.pending("--csv", csv);
            signals.pending("--plot", plot);
            try {
                ExperimentDTO e = service.read(Path.of(file));
                new InputWarnings(root.err, root.runner.types()).experiment(e);
                if (seeds != null) {
                    e.seeds = seeds(seeds);
                }
                if (duration != null) {
                    e.durationPicos = Runner.picos("--duration", duration, true);
                }
                if (warmup != null) {
                    e.warmupPicos = Runner.picos("--warmup", warmup, false);
                    e.warmupValue = null; // no line of the file sets it now: its messages name the option's value
                }
                if (duration != null && warmup == null && e.warmupPicos >= e.durationPicos) {
                    ValueDTO w = e.warmupValue; // the line that sets the warm-up
                    throw new IllegalArgumentException((w == null ? e.file : e.file + ":" + w.line + ":" + w.column) + ": --duration "
                            + duration + " is not longer than the file's warmup " + Units.formatPicos(e.warmupPicos)
                            + (w == null ? "" : ", which this line sets") + ": give --warmup too (e.g. --warmup 0s, or less"
                            + " than " + duration + ")");
                }
                if (threads != null && threads < 1) {
                    throw new IllegalArgumentException("--threads must be at least 1");
                }
                if (threads != null && cluster != null) {
                    throw new IllegalArgumentException("--threads and --cluster: with a cluster, its workers' threads"
                            + " decide how many runs run at once (ringlab worker --threads N); leave --threads out");
                }
                if (dryRun) {
                    List<RunSummaryDTO> runs = service.runs(e);
                    human.printf(java.util.Locale.ROOT, "experiment %s (%s): %d variants x %s%d seeds = %,d runs%n", e.name,
                            e.file, e.variants.size(), Progress.points(e), e.seeds.size(), runs.size());
                    int n = 0;
                    for (RunSummaryDTO s : runs) {
                        human.printf(java.util.Locale.ROOT, "%6d  %s%n", ++n, Progress.run(s));
                    }
                    return Runner.OK;
                }
                // a signal interrupts this thread: the service stops the runs in progress, starts no more, and
                // reports those that finished (cancelled)
                Thread self = Thread.currentThread();
                boolean[] running = {true}; // guarded by itself: no interrupt once the runs are over
                signals.arm(() -> {
                    synchronized (running) {
                        if (running[0]) {
                            self.interrupt();
                        }
                    }
                });
                if (root.runner.results == null) {
                    root.err.println("ringlab ab: no results database service is installed (bundle io.ringlab.results)");
                    return Runner.FAILED;
                }
                Path database = db != null ? Path.of(db) : Path.of("results", e.name + ".duckdb");
                java.time.Duration wait = java.time.Duration.ofNanos(dbWait == null ? 10_000_000_000L
                        : Runner.picos("--db-wait", dbWait, false) / 1000);
                Progress progress = new Progress(root.err, root.terminal);
                FlentRuns flentRuns = null;
                if (flent != null) {
                    String cannot = FlentRuns.prepare(Path.of(flent));
                    if (cannot != null) {
                        root.err.println("ringlab ab: " + cannot);
                        return Runner.INVALID;
                    }
                    flentRuns = new FlentRuns(Path.of(flent), e.pipelineFile);
                }
                io.ringlab.experiment.api.ExperimentListener listener = flentRuns == null ? progress
                        : FlentRuns.both(progress, flentRuns);
                ClusterService clusters = root.runner.cluster.get();
                if (cluster != null && clusters == null) {
                    root.err.println("ringlab ab: no cluster service is installed (bundle io.ringlab.cluster)");
                    return Runner.FAILED;
                }
                try (RunExecutor executor = cluster == null ? null : clusters.connect(Path.of(cluster), root.err);
                        RunStore store = root.runner.results.openForWriting(database, wait)) {
                    try {
                        r = executor == null ? service.run(e, threads == null ? 0 : threads, listener, store, rerun)
                                : service.run(e, executor, listener, store, rerun);
                    } finally {
                        synchronized (running) {
                            running[0] = false;
                            Thread.interrupted(); // the report is written next: an interrupted thread's file channels refuse
                        }
                    }
                }
                long stored = r.runs.stream().filter(s -> s.stored).count();
                long recorded = r.runs.stream().filter(s -> !s.stored && !RunSummaryDTO.CANCELLED.equals(s.state)).count();
                root.err.printf(java.util.Locale.ROOT, "results: %s: %d run%s recorded now, %d taken from it%n", database,
                        recorded, recorded == 1 ? "" : "s", stored);
                if (flentRuns != null) {
                    flentRuns.report().forEach(root.err::println);
                    flentFailed = flentRuns.failed();
                }
            } catch (PipelineException | IllegalArgumentException | ResultsException e) {
                root.err.println(e.getMessage());
                return Runner.INVALID;
            } catch (ClusterException e) {
                root.err.println("ringlab ab: " + e.getMessage());
                return Runner.INVALID;
            }
            AbSummary.print(r, human);
            boolean written = json == null || root.writeOutput("--json", json, json(r), human, "result");
            signals.done("--json");
            written &= csv == null || root.writeOutput("--csv", csv, AbSummary.csv(r), human, "CSV");
            signals.done("--csv");
            written &= plot == null || root.writeOutput("--plot", plot, Plots.experiment(r), human, "plot");
            signals.done("--plot");
            written &= !flentFailed;
            if (!written) {
                r.problems.forEach(root.err::println);
                return Runner.FAILED;
            }
            r.problems.forEach(root.err::println);
            long failed = r.runs.stream().filter(s -> RunSummaryDTO.FAILED.equals(s.state)).count();
            long broken = r.runs.stream().filter(s -> RunSummaryDTO.FINISHED.equals(s.state)
                    && !(s.packetConservation && s.bufferConservation)).count();
            if (failed > 0 || r.cancelled) {
                root.err.println("ringlab ab: " + (r.cancelled ? "stopped before every run ended (incomplete; missing: "
                        + AbSummary.missing(r) + ")" : failed + " run" + (failed == 1 ? "" : "s")
                        + " failed (see the runs above); the statistics leave them out"));
                return Runner.FAILED;
            }
            if (broken > 0) {
                root.err.println("ringlab ab: an invariant is broken in " + broken + " run" + (broken == 1 ? "" : "s")
                        + " (see the runs above); the statistics leave them out");
                return Runner.INVARIANT;
            }
            return r.problems.isEmpty() ? Runner.OK : Runner.INVALID;
        }

        private static final String MOST_SEEDS = String.format(java.util.Locale.ROOT, "%,d", ExperimentDTO.MAX_SEEDS)
                + ", the most an experiment runs";

        /** @return the seeds of {@code --seeds}: a count N (1 to N) or a comma-separated list, optionally in brackets */
        static List<Long> seeds(String text) {
            String t = text.strip();
            boolean bracketed = t.startsWith("[") && t.endsWith("]");
            if (bracketed) {
                t = t.substring(1, t.length() - 1);
            }
            List<Long> seeds = new ArrayList<>();
            try {
                if (!bracketed && !t.contains(",")) {
                    long n = Units.parseInteger(t);
                    if (n < 1) {
                        throw new IllegalArgumentException("a count of " + n + " is less than 1");
                    }
                    if (n > ExperimentDTO.MAX_SEEDS) {
                        throw new IllegalArgumentException("a count of " + n + " is more than " + MOST_SEEDS);
                    }
                    for (long s = 1; s <= n; s++) {
                        seeds.add(s);
                    }
                    return seeds;
                }
                String[] parts = t.split(",", -1);
                if (parts.length > ExperimentDTO.MAX_SEEDS) {
                    throw new IllegalArgumentException("the list has " + String.format(java.util.Locale.ROOT, "%,d", parts.length) + " seeds, more than " + MOST_SEEDS);
                }
                for (String part : parts) {
                    long s = Units.parseInteger(part.strip());
                    if (seeds.contains(s)) {
                        throw new IllegalArgumentException("seed " + s + " is listed twice; runs are paired by seed");
                    }
                    seeds.add(s);
                }
                return seeds;
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--seeds '" + text + "': " + e.getMessage() + "; write a count (--seeds"
                        + " 10 runs seeds 1 to 10) or a list (--seeds 1,2,3,7)");
            }
        }
    }

    @Command(name = "elements", mixinStandardHelpOptions = true, header = "list the element types: properties, metrics, model pages", description = "List the installed element types with their properties.",
            footer = {"%nExamples:", "  ./ringlab elements", "  ./ringlab elements --plugins samples/ixgbe/target"})
    static final class Elements extends PluginCommand {
        Elements(Commands root) {
            super(root);
        }

        @Override
        Integer work() {
            root.runner.printElements(root.out);
            return Runner.OK;
        }
    }

    @Command(name = "pools", mixinStandardHelpOptions = true, header = "list the buffer pool kinds", description = "List the installed buffer pool kinds.",
            footer = {"%nExample:", "  ./ringlab pools"})
    static final class Pools extends PluginCommand {
        Pools(Commands root) {
            super(root);
        }

        @Override
        Integer work() {
            root.runner.printPools(root.out);
            return Runner.OK;
        }
    }

    /**
     * A command the {@code ./ringlab} launcher starts itself (another jar, or Maven): listed in {@code --help} with the
     * others; run through this jar it says how to start it.
     */
    abstract static class LauncherCommand implements Callable<Integer> {
        final Commands root;
        @Spec
        CommandSpec spec;

        LauncherCommand(Commands root) {
            this.root = root;
        }

        @Override
        public Integer call() {
            root.err.println("ringlab " + spec.name() + ": the ./ringlab launcher starts it: ./ringlab " + spec.name()
                    + " (" + how() + ")");
            return Runner.INVALID;
        }

        /** @return what the launcher runs for it */
        abstract String how();
    }

    @Command(name = "shell", mixinStandardHelpOptions = true, header = "the same commands in an interactive Gogo shell", description = "The same commands in a Gogo shell"
            + " (ringlab:run, ringlab:ab, ringlab:bench, ringlab:elements, ringlab:pools, ringlab:results, ringlab:plot, ringlab:stats); bundles dropped into plugins/"
            + " join while it runs.", footer = {"%nExample:", "  ./ringlab shell --plugins samples/ixgbe/target"})
    static final class Shell extends LauncherCommand {
        Shell(Commands root) {
            super(root);
        }

        @Override
        String how() {
            return "app/target/shell.jar";
        }
    }

    @Command(name = "gui", mixinStandardHelpOptions = true, header = "the desktop console (SWT), with FILE open if given", description = "The desktop console (SWT): compose, run and"
            + " watch pipelines, with FILE open if given (needs a display: xvfb-run -a ./ringlab gui on a machine without).",
            footer = {"%nExample:", "  ./ringlab gui pipelines/netdev-bql.pipeline"})
    static final class Gui extends LauncherCommand {
        Gui(Commands root) {
            super(root);
        }

        @Override
        String how() {
            return "app/target/console.jar";
        }
    }

    @Command(name = "test", mixinStandardHelpOptions = true, header = "build and run every test", description = "Build and run every test (unit, OSGi"
            + " integration, GUI under Xvfb, the samples); the last line is \"N passed, N failed, N skipped\".",
            footer = {"%nExample:", "  ./ringlab test"})
    static final class Test extends LauncherCommand {
        Test(Commands root) {
            super(root);
        }

        @Override
        String how() {
            return "Maven: ./mvnw clean install, then the samples";
        }
    }
}

package io.ringlab.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.ringlab.experiment.api.ExperimentService;
import io.ringlab.experiment.api.ResultsService;
import io.ringlab.pipeline.format.MetricNames;
import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.pipeline.format.Syntax;
import io.ringlab.pipeline.format.Units;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.SimulationRun;
import io.ringlab.sim.api.Simulator;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.MetricDescriptorDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * What the commands do, shared by the command line and the Gogo shell: read a pipeline, run it, report; the services
 * the commands use. Exit codes: 0 success, 2 invalid input, 3 broken invariant, 1 anything else. Thread-safe (no state).
 */
final class Runner {
    static final int OK = 0, FAILED = 1, INVALID = 2, INVARIANT = 3;
    /** The file name suffix of experiment files ({@code ringlab ab}), which {@code ringlab run} points to. */
    static final String EXPERIMENT_SUFFIX = ".experiment";

    private final Simulator simulator;
    /** The A/B experiments ({@code ringlab ab}). */
    final ExperimentService experiments;
    /** Installs the bundles of {@code --plugins} folders. */
    final PluginLoader plugins;
    /** The results databases ({@code ringlab ab}, {@code ringlab results}); {@code null} where none is offered. */
    final ResultsService results;
    /**
     * The cluster ({@code ringlab worker}, {@code ringlab ab --cluster}): its service now, {@code null} where none is
     * offered; set by the component that makes the runner.
     */
    volatile java.util.function.Supplier<io.ringlab.experiment.api.ClusterService> cluster = () -> null;

    Runner(Simulator simulator, ExperimentService experiments) {
        this(simulator, experiments, null, PluginLoader.NONE);
    }

    Runner(Simulator simulator, ExperimentService experiments, ResultsService results, PluginLoader plugins) {
        this.simulator = simulator;
        this.experiments = experiments;
        this.results = results;
        this.plugins = plugins;
    }

    /**
     * The outcome of one run: its result, or the exit code and message of a failure before it ran.
     *
     * @param pipeline the pipeline as read from its file (its {@code plot} list, say); {@code null} if it could not be
     *        read
     */
    record Outcome(RunResultDTO result, int exitCode, String message, PipelineDTO pipeline) {
        Outcome(RunResultDTO result, int exitCode, String message) {
            this(result, exitCode, message, null);
        }
    }

    /**
     * What {@code ringlab run} runs: a pipeline file (or {@code builtin:NAME}) and the options that override the file's;
     * {@code null} options keep the file's values.
     *
     * @param swaps hot swaps, {@code AT:ELEMENT[=TYPE[@VERSION]]} each ({@code RunOptionsDTO.swaps})
     * @param watchers watch the run while it runs ({@code --progress}, {@code --snapshots})
     * @param metrics {@code ELEMENT.METRIC} names the caller will read from the result ({@code --print}): checked against
     *        what the prepared run can report before it starts, named by {@code option} in the message
     * @param option the option that gave {@link #metrics}, for the message
     * @param series series names the caller will draw ({@code --plot-series}): checked against the prepared run's
     *        series before it starts
     */
    /**
     * @param adjust changes the pipeline as read before the run is prepared (the series a flent file needs); {@code null}
     *        for none; an {@link IllegalArgumentException} it throws is invalid input
     * @param captures packet captures, {@code ELEMENT[.PORT]=FILE} each ({@code RunOptionsDTO.captures})
     * @param captureSnaplen bytes kept of each captured frame, 0 for the default ({@code RunOptionsDTO.captureSnaplen})
     */
    record Request(String file, String duration, Long seed, List<String> sets, String seriesInterval, String warmup,
            List<String> swaps, List<Watcher> watchers, List<String> metrics, String option, List<String> series,
            java.util.function.Consumer<PipelineDTO> adjust, List<String> captures, int captureSnaplen) {
        /** @return the file with its own settings, or with another duration when {@code duration} is not null */
        static Request of(String file, String duration) {
            return of(file, duration, List.of());
        }

        /** @return the same, with {@code --set} overrides ({@code ELEMENT.PROPERTY=VALUE}) */
        static Request of(String file, String duration, List<String> sets) {
            return new Request(file, duration, null, List.copyOf(sets), null, null, List.of(), List.of(), List.of(), null,
                    List.of(), null, List.of(), 0);
        }
    }

    /**
     * @param names the series a prepared run will have ({@code SimulationRun.seriesNames}); empty when it cannot tell,
     *        and then nothing is checked
     * @return why {@code series} is not among them, with the closest names, or {@code null} when it is
     */
    static String unknownSeries(String series, List<String> names) {
        if (names.isEmpty() || names.contains(series)) {
            return null;
        }
        return "--plot-series " + series + ": the run has no series '" + series + "'" + Syntax.didYouMean(series, names)
                + "; its series: " + String.join(", ", names);
    }

    /**
     * @param names what a prepared run can report ({@code SimulationRun.metricNames}); empty when it cannot tell (a run
     *        in another process), and then nothing is checked
     * @return why {@code metric} is not among them, with the closest names, or {@code null} when it is
     */
    static String unknownMetric(String option, String metric, Map<String, java.util.Set<String>> names) {
        if (names.isEmpty()) {
            return null;
        }
        int dot = metric.lastIndexOf('.'); // metric names have no dots; pool names (pool:eth0.rx) do
        if (dot <= 0 || dot == metric.length() - 1) {
            return option + " " + metric + ": expected ELEMENT.METRIC";
        }
        String problem = MetricNames.unknown(metric, names, "");
        return problem == null ? null : option + " " + metric + ": " + problem;
    }

    /** Watches a run from its start to its end on another thread ({@link RunProgress}, {@link SnapshotFile}). */
    interface Watcher {
        /**
         * @return how often, in wall time, the watcher reads the run's snapshot (the engine publishes that often), or
         *         {@code Long.MAX_VALUE} for a watcher that reads none
         */
        long intervalMillis();

        /**
         * Called once the pipeline is read and prepared, just before the run starts.
         *
         * @return closed when the run has ended
         */
        AutoCloseable watch(SimulationRun run, PipelineDTO pipeline);

        /**
         * @param intervalMillis how often it reads the run's snapshot
         * @param start starts watching a run (see {@link #watch})
         * @return a watcher of that interval
         */
        static Watcher every(long intervalMillis, java.util.function.BiFunction<SimulationRun, PipelineDTO,
                AutoCloseable> start) {
            return new Watcher() {
                @Override
                public long intervalMillis() {
                    return intervalMillis;
                }

                @Override
                public AutoCloseable watch(SimulationRun run, PipelineDTO pipeline) {
                    return start.apply(run, pipeline);
                }
            };
        }
    }

    Outcome run(Request q) {
        String file = q.file();
        PipelineDTO pipeline;
        RunOptionsDTO options = new RunOptionsDTO();
        if (file.endsWith(EXPERIMENT_SUFFIX)) {
            return new Outcome(null, INVALID, file + ": this is an experiment file: use ringlab ab " + file);
        }
        try {
            pipeline = file.startsWith("builtin:") ? PipelineReader.read(file, builtin(file.substring(8)))
                    : PipelineReader.readRunnable(Path.of(file));
            try {
                if (q.duration() != null) {
                    options.durationPicos = picos("--duration", q.duration(), true);
                }
                if (q.seriesInterval() != null) {
                    options.seriesIntervalPicos = picos("--series-interval", q.seriesInterval(), true);
                }
                if (q.warmup() != null) {
                    options.warmupPicos = picos("--warmup", q.warmup(), false);
                }
            } catch (IllegalArgumentException e) {
                return new Outcome(null, INVALID, e.getMessage());
            }
            if (q.adjust() != null) {
                q.adjust().accept(pipeline);
            }
            options.seed = q.seed();
            options.overrides.addAll(q.sets());
            options.swaps.addAll(q.swaps());
            options.captures.addAll(q.captures());
            options.captureSnaplen = q.captureSnaplen();
            // snapshots only for a watcher, as often as the most eager one reads them: a headless run publishes none
            long interval = q.watchers().stream().mapToLong(Watcher::intervalMillis).min().orElse(Long.MAX_VALUE);
            options.snapshotIntervalMillis = interval == Long.MAX_VALUE ? 0 : interval;
            SimulationRun run = simulator.prepare(pipeline, options);
            List<String> problems = new ArrayList<>();
            for (String m : q.metrics()) {
                String problem = unknownMetric(q.option(), m, run.metricNames());
                if (problem != null) {
                    problems.add(problem);
                }
            }
            for (String s : q.series()) {
                String problem = unknownSeries(s, run.seriesNames());
                if (problem != null) {
                    problems.add(problem);
                }
            }
            if (!problems.isEmpty()) {
                run.close(); // nothing ran: a misspelt name costs no run
                return new Outcome(null, INVALID, String.join("\n", problems));
            }
            List<AutoCloseable> watching = new ArrayList<>();
            RunResultDTO r;
            try {
                for (Watcher w : q.watchers()) {
                    watching.add(w.watch(run, pipeline));
                }
                r = run.run();
            } finally {
                closeAll(watching); // every one, whatever the others do; a watcher's trouble never costs the result
            }
            int code = "FAILED".equals(r.state) ? FAILED
                    : (!r.invariants.packetConservation || !r.invariants.bufferConservation) ? INVARIANT : OK;
            return new Outcome(r, code, r.error, pipeline);
        } catch (PipelineException e) {
            return new Outcome(null, INVALID, e.getMessage());
        } catch (IllegalArgumentException e) {
            return new Outcome(null, INVALID, file + ": " + e.getMessage());
        }
    }

    private static void closeAll(List<AutoCloseable> watching) {
        for (AutoCloseable w : watching) {
            try {
                w.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // kept for the caller; the other watchers still close
            } catch (Exception e) {
                // a watcher's own thread: it only stops printing or writing
            }
        }
    }

    /**
     * @param option the option's name, for the message
     * @param text the option's value, in the time grammar of pipeline files
     * @param positive whether 0 is refused
     * @return the time in picoseconds
     * @throws IllegalArgumentException naming the option and what is wrong
     */
    static long picos(String option, String text, boolean positive) {
        long p;
        try {
            p = Units.parsePicos(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + ": " + e.getMessage());
        }
        if (positive && p <= 0) {
            throw new IllegalArgumentException(option + " must be more than 0s");
        }
        return p;
    }

    static String builtin(String name) {
        if (name.matches(BenchChains.PREFIX + "[0-9]{1,9}")) {
            return BenchChains.pipeline(Integer.parseInt(name.substring(BenchChains.PREFIX.length())));
        }
        try (InputStream in = Runner.class.getResourceAsStream(name + ".pipeline")) {
            if (in == null) {
                throw new IllegalArgumentException("no built-in pipeline " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return the installed element types' descriptors by type name, as now installed */
    Function<String, ElementDescriptorDTO> types() {
        Map<String, ElementDescriptorDTO> byName = new HashMap<>();
        for (ElementDescriptorDTO d : simulator.elementTypes()) {
            byName.putIfAbsent(d.type, d);
        }
        return byName::get;
    }

    void printElements(PrintStream out) {
        String category = null;
        for (ElementDescriptorDTO d : simulator.elementTypes()) {
            if (!d.category.equals(category)) {
                category = d.category;
                out.println(category + ":");
            }
            out.printf("  %-12s %s  [%s %s]%n", d.type, d.summary, d.bundle, d.bundleVersion);
            for (PropertyDescriptorDTO p : d.properties) {
                String range = p.options != null ? String.join("|", p.options)
                        : p.min != null && p.max != null ? p.min + " to " + p.max
                        : p.min != null ? "at least " + p.min
                        : p.max != null ? "at most " + p.max : "";
                out.printf("      %-14s %-9s default %-12s %s%s%n", p.name, p.kind.name().toLowerCase(), p.defaultValue,
                        range.isEmpty() ? "" : "(" + range + ") ", p.description);
            }
            if (!d.metricDescriptors.isEmpty()) {
                out.println("    metrics (name, unit, kind, meaning):");
            }
            for (MetricDescriptorDTO m : d.metricDescriptors) {
                out.printf("      %-30s %-8s %-9s %s%n", m.name, m.unit == null || m.unit.isEmpty() ? "-" : m.unit,
                        m.kind == null ? "-" : m.kind, m.description == null ? "" : m.description);
            }
            if (d.modelPage != null) {
                out.println("    model: " + d.modelPage);
            }
        }
    }

    void printPools(PrintStream out) {
        for (String k : simulator.poolKinds()) {
            String about = simulator.poolKindDescription(k);
            out.println(about.isEmpty() ? k : String.format("%-10s %s", k, about));
        }
    }

    /** @return every pipeline file in a folder, sorted, or an empty list. */
    static List<String> pipelinesIn(Path dir) {
        List<String> files = new ArrayList<>();
        if (Files.isDirectory(dir)) {
            try (var s = Files.list(dir)) {
                s.filter(p -> p.toString().endsWith(".pipeline")).sorted().forEach(p -> files.add(p.toString()));
            } catch (IOException e) {
                throw new IllegalStateException("cannot list " + dir + ": " + e.getMessage());
            }
        }
        return files;
    }

    static String format(Map<String, Double> m, String key, String fmt) {
        Double v = m == null ? null : m.get(key);
        return v == null ? "-" : String.format(fmt, v);
    }
}

package io.ringlab.console;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import io.ringlab.pipeline.format.PipelineWriter;
import io.ringlab.sim.api.RunControlProtocol;
import io.ringlab.sim.api.RunState;
import io.ringlab.sim.api.SimulationRun;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.RunSnapshotDTO;
import io.ringlab.sim.api.dto.SwapDTO;

/**
 * A run in a child process: the pipeline as the editor has it is written to a temporary file and run by
 * {@code java -jar app/target/ringlab.jar run FILE --json OUT} with the run's duration, seed and warm-up, in a JVM of its
 * own. An element that loops for ever then takes that process, not the console: the child's per-event watchdog ends the
 * run and the process with a report. Stop sends the child SIGTERM, on which it stops its run and writes the STOPPED
 * result with its metrics and invariants; a child still there {@value #KILL_AFTER_SECONDS} s later is killed. Used for
 * pipelines with bundles that are not Ringlab's own (docs/engine.md, "Fault isolation").
 * <p>
 * The child has Ringlab's own bundles, {@code home/plugins} (its fileinstall folder) and the session's
 * {@value ChildCommand#PLUGINS_PROPERTY} folders; its command line is {@link ChildCommand}'s. Every other bundle that
 * provides one of the pipeline's element types (installed from the bundles view, or dropped into a folder the console's
 * fileinstall watches) is copied from its location into a temporary folder that the child gets as one more
 * {@code --plugins}; a bundle whose location is not a file cannot be copied, and the run then fails before the child
 * starts, saying which bundle and why. Third-party providers of pool kinds, qdisc kinds and queue limits are copied too,
 * and left out when they cannot be ({@link ChildBundles}).
 * <p>
 * While the child runs it keeps its latest snapshot in a file ({@code ringlab run --snapshots}, rewritten every 250 ms);
 * {@link #snapshot()} gives what that file held when last read (every {@value #READ_MILLIS} ms, {@link SnapshotPoller}),
 * so the console's live views follow a separate-process run as they follow one here. Pause, Resume, Step and Swap go to
 * the child's standard input ({@code ringlab run --control}), which answers a swap with a line of its output
 * ({@link ChildControl}); the child's snapshots say when it is paused. The real-time speeds are not offered: the child
 * runs as fast as it can. The result comes when the child ends. This class is the run's life: the runner thread that
 * starts the child, polls it, stops or kills it and reads its result. Thread-safe.
 */
final class IsolatedRun implements SimulationRun {
    private final Path home;
    private final PipelineDTO pipeline;
    private final RunOptionsDTO options;
    private final ChildCommand command;
    private final ChildBundles bundles;
    private final SnapshotPoller snapshots = new SnapshotPoller();
    private final ChildControl control = new ChildControl(snapshots::simulatedSeconds);
    private final CompletableFuture<RunResultDTO> completion = new CompletableFuture<>();
    /**
     * How long after Stop a child that has not ended is killed: longer than it waits for its own outputs (the cli
     * bundle's {@code StopOnTerm}, 10 s).
     */
    static final long KILL_AFTER_SECONDS = 15;
    /** How often the runner thread reads the child's snapshot file. */
    static final long READ_MILLIS = 100;
    private volatile RunState state = RunState.READY;
    private volatile Process process;
    private volatile boolean stopRequested;
    private final Object lock = new Object();

    /**
     * @param home the Ringlab installation ({@code ringlab.home}), where {@code app/target/ringlab.jar} is
     * @param pipeline the pipeline to run
     * @param options duration, seed, warm-up (the real-time factor is not supported here)
     * @param bundles the bundles not Ringlab's own that provide the pipeline's element types ({@link ThirdPartyBundle#of})
     * @param watchdogMillis the console's {@value ChildCommand#WATCHDOG_PROPERTY}, for the child; {@code null} when it has
     *            none
     */
    IsolatedRun(Path home, PipelineDTO pipeline, RunOptionsDTO options, List<ThirdPartyBundle> bundles,
            String watchdogMillis) {
        this.home = home;
        this.pipeline = pipeline;
        this.options = options;
        this.command = new ChildCommand(home, options, watchdogMillis);
        this.bundles = new ChildBundles(home, bundles);
    }

    @Override
    public RunState state() {
        return state(snapshots.latest());
    }

    /** The child says when it is paused (its snapshot); ended and not yet started are this run's own to say. */
    private RunState state(RunSnapshotDTO child) {
        RunState own = state;
        return own == RunState.RUNNING && child != null && child.state == RunState.PAUSED ? RunState.PAUSED : own;
    }

    @Override
    public void start() {
        synchronized (lock) {
            if (state != RunState.READY) {
                return;
            }
            state = RunState.RUNNING;
        }
        Thread t = new Thread(this::execute, "ringlab-isolated-" + pipeline.name);
        t.setDaemon(true);
        t.start();
    }

    private void execute() {
        Path dir = null;
        RunResultDTO r;
        try {
            dir = Files.createTempDirectory("ringlab-isolated");
            Leftovers.add(dir);
            r = runChild(dir);
        } catch (InterruptedException e) {
            r = failed(RunState.STOPPED, "stopped before the child process started");
        } catch (IOException | RuntimeException e) {
            r = failed(RunState.FAILED, "the child process could not be run: " + e);
        } finally {
            if (dir != null) {
                deleteQuietly(dir);
                Leftovers.remove(dir);
            }
        }
        state = RunState.valueOf(r.state);
        completion.complete(r);
    }

    /** Gives the child the bundles it lacks, runs it in {@code dir} and reads its result. */
    private RunResultDTO runChild(Path dir) throws IOException, InterruptedException {
        List<String> problems = new ArrayList<>();
        Path given = bundles.give(dir.resolve("bundles"), problems);
        if (!problems.isEmpty()) {
            return failed(RunState.FAILED, String.join("; ", problems) + ". Clear 'Separate process' to run the pipeline"
                    + " in the console's own process.");
        }
        Path file = dir.resolve(pipeline.name + ".pipeline");
        Path json = dir.resolve("result.json");
        Path log = dir.resolve("output.txt");
        Files.writeString(file, PipelineWriter.write(pipeline), StandardCharsets.UTF_8);
        Path snapshotFile = dir.resolve("snapshot.json");
        ProcessBuilder pb = new ProcessBuilder(command.build(file, json, given, snapshotFile)).redirectErrorStream(true);
        pb.directory(home.toFile());
        Thread output;
        synchronized (lock) {
            if (stopRequested) {
                throw new InterruptedException();
            }
            process = pb.start();
            control.attach(process.getOutputStream());
            output = control.readOutput(process.getInputStream(), log);
        }
        long stopSent = 0;
        while (!process.waitFor(READ_MILLIS, TimeUnit.MILLISECONDS)) {
            snapshots.poll(snapshotFile);
            if (stopRequested) {
                if (stopSent == 0) {
                    stopSent = System.nanoTime();
                } else if (System.nanoTime() - stopSent > TimeUnit.SECONDS.toNanos(KILL_AFTER_SECONDS)) {
                    process.destroyForcibly(); // the child could not stop its run (an element that never returns)
                }
            }
        }
        int code = process.exitValue();
        output.join(TimeUnit.SECONDS.toMillis(5)); // the rest of its output, for the log and the last swap replies
        control.childEnded();
        if (Files.isRegularFile(json) && Files.size(json) > 0) {
            try (var in = Files.newBufferedReader(json, StandardCharsets.UTF_8)) {
                return ResultFiles.readJson(in); // streamed: a large result is never a string too
            }
        }
        return failed(stopRequested ? RunState.STOPPED : RunState.FAILED, (stopRequested ? "stopped: the child process was"
                + " ended before it wrote a result" : "the child process ended with exit code " + code + " without a result")
                + "; its output: " + tail(log));
    }

    /**
     * The temporary folders of runs still going (the copied jars, the child's files): deleted when the console's JVM
     * exits while a child runs, whose runner thread, a daemon, never gets to its own clean-up.
     */
    private static final class Leftovers {
        private static final java.util.Set<Path> DIRS = java.util.concurrent.ConcurrentHashMap.newKeySet();

        static {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> DIRS.forEach(IsolatedRun::deleteQuietly),
                    "ringlab-isolated-cleanup"));
        }

        static void add(Path dir) {
            DIRS.add(dir);
        }

        static void remove(Path dir) {
            DIRS.remove(dir);
        }
    }

    private RunResultDTO failed(RunState s, String error) {
        RunResultDTO r = new RunResultDTO();
        r.pipeline = pipeline.name;
        r.pipelineFile = pipeline.file;
        r.state = s.name();
        r.error = error;
        r.invariants.violations.add("invariants not checked: the run in a separate process left no result");
        return r;
    }

    private static String tail(Path log) {
        try {
            String s = Files.readString(log, StandardCharsets.UTF_8).strip();
            return s.length() <= 2000 ? s : "..." + s.substring(s.length() - 2000);
        } catch (IOException e) {
            return "(none)";
        }
    }

    private static void deleteQuietly(Path dir) {
        try (var files = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) { // a folder after its files
                Files.deleteIfExists(f);
            }
        } catch (IOException e) {
            // a temporary directory: the system cleans it up
        }
    }

    @Override
    public RunResultDTO run() {
        start();
        return completion.join();
    }

    @Override
    public void pause() {
        control.send(RunControlProtocol.PAUSE);
    }

    @Override
    public void resume() {
        control.send(RunControlProtocol.RESUME);
    }

    @Override
    public void step() {
        control.send(RunControlProtocol.STEP);
    }

    @Override
    public void stop() {
        synchronized (lock) {
            stopRequested = true;
            if (state == RunState.READY) {
                state = RunState.STOPPED;
                completion.complete(failed(RunState.STOPPED, "stopped before it started"));
                return;
            }
            Process p = process;
            if (p != null) {
                // SIGTERM: the child stops its run and writes its result (StopOnTerm in the cli bundle); through its
                // handle, since Process.destroy would also close the pipe its remaining output comes through
                p.toHandle().destroy();
            }
        }
    }

    @Override
    public CompletionStage<RunResultDTO> completion() {
        return completion.minimalCompletionStage();
    }

    @Override
    public void close() {
        stop();
    }

    @Override
    public RunResultDTO await(long timeout, TimeUnit unit) throws InterruptedException {
        try {
            return completion.get(timeout, unit);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            return null;
        }
    }

    @Override
    public RunSnapshotDTO snapshot() {
        RunSnapshotDTO child = snapshots.latest();
        RunSnapshotDTO s = new RunSnapshotDTO();
        if (child != null) {
            s.simulatedSeconds = child.simulatedSeconds;
            s.durationSeconds = child.durationSeconds;
            s.events = child.events;
            s.elements = child.elements;
            s.series = child.series;
            s.swaps = child.swaps;
        } else {
            s.durationSeconds = options.durationPicos / 1e12;
        }
        s.state = state(child); // of the same snapshot as the counts; the child's file may lag behind its end
        return s;
    }

    @Override
    public void abort(String reason) {
        stop();
    }

    /**
     * @return no names: the child process prepares the run, and the console checks names through the headless
     *         command's own checks there
     */
    @Override
    public java.util.Map<String, java.util.Set<String>> metricNames() {
        return java.util.Map.of();
    }

    @Override
    public java.util.List<String> seriesNames() {
        return java.util.List.of();
    }

    @Override
    public CompletionStage<SwapDTO> swap(String element, String type, String version) {
        return control.swap(element, type, version);
    }
}

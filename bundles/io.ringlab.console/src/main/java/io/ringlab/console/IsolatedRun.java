package io.ringlab.console;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import io.ringlab.pipeline.format.PipelineWriter;
import io.ringlab.pipeline.format.Units;
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
 * run and the process with a report, and Stop kills the process. Used for pipelines with bundles that are not
 * Ringlab's own (docs/engine.md, "Fault isolation").
 * <p>
 * What a run in its own process cannot do: pause, step, live snapshots (the console shows the state only), swaps; the
 * result (with the series) comes when the child ends. Thread-safe.
 */
final class IsolatedRun implements SimulationRun {
    /** The launcher script's property naming {@code ringlab gui --plugins} folders, separated by the path separator. */
    static final String PLUGINS_PROPERTY = "ringlab.plugins";
    private final Path home;
    private final PipelineDTO pipeline;
    private final RunOptionsDTO options;
    private final CompletableFuture<RunResultDTO> completion = new CompletableFuture<>();
    private volatile RunState state = RunState.READY;
    private volatile Process process;
    private volatile boolean stopRequested;
    private final Object lock = new Object();

    /**
     * @param home the Ringlab installation ({@code ringlab.home}), where {@code app/target/ringlab.jar} is
     * @param pipeline the pipeline to run
     * @param options duration, seed, warm-up (the real-time factor is not supported here)
     */
    IsolatedRun(Path home, PipelineDTO pipeline, RunOptionsDTO options) {
        this.home = home;
        this.pipeline = pipeline;
        this.options = options;
    }

    /** @return the child's command line for the pipeline file and the JSON output */
    List<String> command(Path file, Path json) {
        String java = ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString());
        List<String> c = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Dringlab.home=" + home,
                "-Dfelix.fileinstall.dir=" + home.resolve("plugins")));
        if (Runtime.version().feature() >= 24) {
            c.add("--sun-misc-unsafe-memory-access=allow"); // Felix 7 on Java 24+, as the launcher script does
        }
        c.addAll(List.of("-jar", home.resolve("app/target/ringlab.jar").toString(), "run", file.toString(), "--json",
                json.toString()));
        // the session's own plugin folders (ringlab gui --plugins DIR): the child installs them before it reads the file
        String folders = System.getProperty(PLUGINS_PROPERTY);
        if (folders != null) {
            for (String f : folders.split(File.pathSeparator)) {
                if (!f.isBlank()) {
                    c.addAll(List.of("--plugins", f.strip()));
                }
            }
        }
        if (options.durationPicos > 0) {
            c.addAll(List.of("--duration", Units.formatPicos(options.durationPicos)));
        }
        if (options.seed != null) {
            c.addAll(List.of("--seed", Long.toString(options.seed)));
        }
        if (options.warmupPicos > 0) {
            c.addAll(List.of("--warmup", Units.formatPicos(options.warmupPicos)));
        }
        for (String s : options.overrides) {
            c.addAll(List.of("--set", s));
        }
        return c;
    }

    @Override
    public RunState state() {
        return state;
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
            Path file = dir.resolve(pipeline.name + ".pipeline");
            Path json = dir.resolve("result.json");
            Path log = dir.resolve("output.txt");
            Files.writeString(file, PipelineWriter.write(pipeline), StandardCharsets.UTF_8);
            ProcessBuilder pb = new ProcessBuilder(command(file, json)).redirectErrorStream(true).redirectOutput(log.toFile());
            pb.directory(home.toFile());
            synchronized (lock) {
                if (stopRequested) {
                    throw new InterruptedException();
                }
                process = pb.start();
            }
            int code = process.waitFor();
            if (Files.isRegularFile(json) && Files.size(json) > 0) {
                r = ResultFiles.readJson(Files.readString(json, StandardCharsets.UTF_8));
            } else {
                r = failed(stopRequested ? RunState.STOPPED : RunState.FAILED, (stopRequested ? "stopped: the child process was"
                        + " ended before it wrote a result" : "the child process ended with exit code " + code
                        + " without a result") + "; its output: " + tail(log));
            }
        } catch (InterruptedException e) {
            r = failed(RunState.STOPPED, "stopped before the child process started");
        } catch (IOException | RuntimeException e) {
            r = failed(RunState.FAILED, "the child process could not be run: " + e);
        } finally {
            if (dir != null) {
                deleteQuietly(dir);
            }
        }
        state = RunState.valueOf(r.state);
        completion.complete(r);
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
        try (var files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(dir);
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
        // a run in another process has no safe point to pause at from here
    }

    @Override
    public void resume() {
    }

    @Override
    public void step() {
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
                p.destroyForcibly();
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
        RunSnapshotDTO s = new RunSnapshotDTO();
        s.state = state;
        s.durationSeconds = options.durationPicos / 1e12;
        return s;
    }

    @Override
    public void abort(String reason) {
        stop();
    }

    @Override
    public CompletionStage<SwapDTO> swap(String element, String type, String version) {
        SwapDTO d = new SwapDTO();
        d.element = element;
        d.message = "a run in a separate process cannot swap from the console";
        return CompletableFuture.completedFuture(d);
    }
}

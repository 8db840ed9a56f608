package io.ringlab.console;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import io.ringlab.pipeline.format.PipelineWriter;
import io.ringlab.pipeline.format.Units;
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
 * {@value #PLUGINS_PROPERTY} folders. Every other bundle that provides one of the pipeline's element types (installed
 * from the bundles view, or dropped into a folder the console's fileinstall watches) is copied from its location into a
 * temporary folder that the child gets as one more {@code --plugins}; a bundle whose location is not a file cannot be
 * copied, and the run then fails before the child starts, saying which bundle and why. Third-party providers of pool
 * kinds, qdisc kinds and queue limits are copied too, and left out when they cannot be ({@link ThirdPartyBundle}).
 * <p>
 * While the child runs it keeps its latest snapshot in a file ({@code ringlab run --snapshots}, rewritten every 250 ms);
 * {@link #snapshot()} gives what that file held when last read (every {@value #READ_MILLIS} ms), so the console's live
 * views follow a separate-process run as they follow one here. Pause, Resume, Step and Swap go to the child's standard
 * input ({@code ringlab run --control}), which answers a swap with a line of its output; the child's snapshots say when
 * it is paused. The real-time speeds are not offered: the child runs as fast as it can. The result comes when the child
 * ends. Thread-safe.
 */
final class IsolatedRun implements SimulationRun {
    /** The launcher script's property naming {@code ringlab gui --plugins} folders, separated by the path separator. */
    static final String PLUGINS_PROPERTY = "ringlab.plugins";
    /** Framework property: the installation's default of the per-event watchdog, handed on to the child. */
    static final String WATCHDOG_PROPERTY = "ringlab.eventWatchdogMillis";
    /**
     * Location prefixes that wrap a file location: Felix's {@code reference:} (install in place), and the one Ringlab's
     * own {@code --plugins} installs use ({@code io.ringlab.cli}'s {@code FrameworkPluginLoader.LOCATION_PREFIX}).
     */
    private static final List<String> LOCATION_WRAPPERS = List.of("reference:", "ringlab-plugins:");
    /** A URL scheme of two letters or more (one letter is a Windows drive). */
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]+:");
    private final Path home;
    private final PipelineDTO pipeline;
    private final RunOptionsDTO options;
    private final List<ThirdPartyBundle> bundles;
    private final String watchdogMillis;
    private final CompletableFuture<RunResultDTO> completion = new CompletableFuture<>();
    /**
     * How long after Stop a child that has not ended is killed: longer than it waits for its own outputs (the cli
     * bundle's {@code StopOnTerm}, 10 s).
     */
    static final long KILL_AFTER_SECONDS = 15;
    /** How often the runner thread reads the child's snapshot file. */
    static final long READ_MILLIS = 100;
    private volatile RunState state = RunState.READY;
    /** The child's latest snapshot as read, or {@code null} before the first. */
    private volatile RunSnapshotDTO childSnapshot;
    /** The child's standard input ({@code ringlab run --control}); guarded by {@link #lock}. */
    private java.io.Writer control;
    /** Swaps asked for and not yet answered, by the id the child echoes ({@code swap ... #ID}). */
    private final Map<String, PendingSwap> pendingSwaps = new java.util.concurrent.ConcurrentHashMap<>();
    /** Numbers the swaps asked for; guarded by {@link #lock}. */
    private int swapIds;
    /** The child has ended: no command reaches it any more; guarded by {@link #lock}. */
    private boolean childEnded;

    /** A swap sent to the child: its element, for an answer that never comes, and the caller's future. */
    private record PendingSwap(String element, CompletableFuture<SwapDTO> future) {
    }
    private volatile Process process;
    private volatile boolean stopRequested;
    private final Object lock = new Object();

    /**
     * @param home the Ringlab installation ({@code ringlab.home}), where {@code app/target/ringlab.jar} is
     * @param pipeline the pipeline to run
     * @param options duration, seed, warm-up (the real-time factor is not supported here)
     * @param bundles the bundles not Ringlab's own that provide the pipeline's element types ({@link ThirdPartyBundle#of})
     * @param watchdogMillis the console's {@value #WATCHDOG_PROPERTY}, for the child; {@code null} when it has none
     */
    IsolatedRun(Path home, PipelineDTO pipeline, RunOptionsDTO options, List<ThirdPartyBundle> bundles,
            String watchdogMillis) {
        this.home = home;
        this.pipeline = pipeline;
        this.options = options;
        this.bundles = List.copyOf(bundles);
        this.watchdogMillis = watchdogMillis;
    }

    /**
     * @param file the pipeline file
     * @param json where the child writes its result
     * @param given the folder of the bundles copied for the child ({@link #giveBundles}), or {@code null}
     * @param snapshots where the child keeps its latest snapshot
     * @return the child's command line
     */
    List<String> command(Path file, Path json, Path given, Path snapshots) {
        String java = ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString());
        List<String> c = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Dringlab.home=" + home,
                "-Dfelix.fileinstall.dir=" + home.resolve("plugins")));
        if (watchdogMillis != null) {
            c.add("-D" + WATCHDOG_PROPERTY + "=" + watchdogMillis.strip()); // a stuck child ends as soon as a run here would
        }
        // the child's temporary files (its framework cache) go to this process's temporary folder, which the launcher
        // made and this process keeps (io.ringlab.cli.ProcessTempFolder); the child claims none of its own
        c.add("-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"));
        if (Runtime.version().feature() >= 24) {
            c.add("--sun-misc-unsafe-memory-access=allow"); // Felix 7 on Java 24+, as the launcher script does
        }
        c.addAll(List.of("-jar", home.resolve("app/target/ringlab.jar").toString(), "run", file.toString(), "--json",
                json.toString(), "--snapshots", snapshots.toString(), RunControlProtocol.OPTION));
        // the session's own plugin folders (ringlab gui --plugins DIR): the child installs them before it reads the file
        for (Path f : sessionFolders()) {
            c.addAll(List.of("--plugins", f.toString()));
        }
        if (given != null) {
            c.addAll(List.of("--plugins", given.toString()));
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

    /** @return the folders of {@value #PLUGINS_PROPERTY}, in its order; empty when it is not set */
    private static List<Path> sessionFolders() {
        String folders = System.getProperty(PLUGINS_PROPERTY);
        List<Path> out = new ArrayList<>();
        if (folders != null) {
            for (String f : folders.split(File.pathSeparator)) {
                if (!f.isBlank()) {
                    out.add(Path.of(f.strip()));
                }
            }
        }
        return out;
    }

    /** @return the folders whose jars the child installs by itself: {@code home/plugins} and the session's folders */
    private List<Path> childFolders() {
        List<Path> out = new ArrayList<>(List.of(home.resolve("plugins")));
        out.addAll(sessionFolders());
        return out;
    }

    /**
     * @param location a bundle location
     * @return the file it names (a {@code file:} URL or a path, possibly wrapped in {@link #LOCATION_WRAPPERS}), or
     *         {@code null} when it names no file (another URL scheme, or a name the installer chose)
     */
    static Path file(String location) {
        String l = location;
        for (String w : LOCATION_WRAPPERS) {
            if (l.startsWith(w)) {
                l = l.substring(w.length());
            }
        }
        try {
            if (l.startsWith("file:")) {
                return Path.of(URI.create(l));
            }
            return SCHEME.matcher(l).find() ? null : Path.of(l);
        } catch (IllegalArgumentException | FileSystemNotFoundException e) {
            return null; // not a well-formed file URL or path
        }
    }

    /**
     * Decides which bundles the child needs copies of: those whose jar is not in one of the child's own folders.
     *
     * @param problems receives one sentence per bundle that cannot be given to the child, saying why
     * @return the jars to copy, by bundle, in the order of the bundles; empty when the child has them all
     */
    Map<ThirdPartyBundle, Path> jarsToGive(List<String> problems) {
        Map<ThirdPartyBundle, Path> out = new LinkedHashMap<>();
        for (ThirdPartyBundle b : bundles) {
            String why = whyNotCopyable(b);
            if (why != null) {
                if (b.required()) { // a kind provider the run may not use is left out: a run that needs it says so
                    problems.add("bundle " + b.label() + " cannot be given to a separate process: " + why);
                }
            } else if (!inChildFolder(file(b.location()))) {
                out.put(b, file(b.location()));
            }
        }
        return out;
    }

    /** @return why the bundle's jar cannot be copied, or {@code null} when its location is a jar file that exists */
    private static String whyNotCopyable(ThirdPartyBundle b) {
        if (b.location() == null) {
            return "it is no longer installed in the console";
        }
        Path jar = file(b.location());
        if (jar == null) {
            return "its location " + b.location() + " is not a file (only a file: URL or a path can be copied)";
        }
        if (!Files.isRegularFile(jar)) {
            return "its jar " + jar + (Files.exists(jar) ? " is not a file (a folder cannot be copied as a bundle)"
                    : " is not there any more");
        }
        return null;
    }

    private boolean inChildFolder(Path jar) {
        Path parent = jar.toAbsolutePath().normalize().getParent();
        for (Path f : childFolders()) {
            Path folder = f.toAbsolutePath().normalize();
            try {
                if (parent.equals(folder) || Files.isDirectory(folder) && Files.isSameFile(parent, folder)) {
                    return true;
                }
            } catch (IOException e) {
                // cannot compare: copy the jar, which is at worst one install the child skips
            }
        }
        return false;
    }

    /**
     * Copies the jars the child needs ({@link #jarsToGive}) into {@code folder}, one {@code NAME-VERSION.jar} per bundle.
     *
     * @param folder a folder to create, used for no other files
     * @param problems receives the bundles that cannot be given, as {@link #jarsToGive} says
     * @return {@code folder}, or {@code null} when there is nothing to copy or something cannot be given
     * @throws IOException when a copy fails
     */
    Path giveBundles(Path folder, List<String> problems) throws IOException {
        Map<ThirdPartyBundle, Path> jars = jarsToGive(problems);
        if (jars.isEmpty() || !problems.isEmpty()) {
            return null;
        }
        Files.createDirectories(folder);
        for (Map.Entry<ThirdPartyBundle, Path> e : jars.entrySet()) {
            ThirdPartyBundle b = e.getKey();
            Files.copy(e.getValue(), folder.resolve(b.symbolicName() + "-" + b.version() + ".jar"),
                    StandardCopyOption.REPLACE_EXISTING);
        }
        return folder;
    }

    @Override
    public RunState state() {
        return state(childSnapshot);
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
        Path given = giveBundles(dir.resolve("bundles"), problems);
        if (!problems.isEmpty()) {
            return failed(RunState.FAILED, String.join("; ", problems) + ". Clear 'Separate process' to run the pipeline"
                    + " in the console's own process.");
        }
        Path file = dir.resolve(pipeline.name + ".pipeline");
        Path json = dir.resolve("result.json");
        Path log = dir.resolve("output.txt");
        Files.writeString(file, PipelineWriter.write(pipeline), StandardCharsets.UTF_8);
        Path snapshots = dir.resolve("snapshot.json");
        ProcessBuilder pb = new ProcessBuilder(command(file, json, given, snapshots)).redirectErrorStream(true);
        pb.directory(home.toFile());
        Thread output;
        synchronized (lock) {
            if (stopRequested) {
                throw new InterruptedException();
            }
            process = pb.start();
            control = new java.io.OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            output = readOutput(process, log);
        }
        long read = -1;
        long stopSent = 0;
        while (!process.waitFor(READ_MILLIS, TimeUnit.MILLISECONDS)) {
            read = readSnapshot(snapshots, read);
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
        childEnded();
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
     * Reads the child's output on a thread of its own: every line goes to {@code log} (for a failure's message), except a
     * swap's outcome ({@code ringlab run --control}), which completes the swap of its id.
     */
    private Thread readOutput(Process p, Path log) {
        Thread t = new Thread(() -> {
            try (var in = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                    var out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
                for (String line; (line = in.readLine()) != null;) {
                    // anywhere in the line: an element's output without a newline may come before it
                    int reply = line.indexOf(RunControlProtocol.SWAP_REPLY);
                    if (reply < 0 || !answer(line.substring(reply + RunControlProtocol.SWAP_REPLY.length()))) {
                        log(out, line);
                    }
                }
            } catch (IOException e) {
                // the child is gone; what it printed so far is in the log
            }
        }, "ringlab-isolated-output");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /**
     * Completes the swap a reply is for ({@code #ID {json}}).
     *
     * @return whether the text was such a reply
     */
    private boolean answer(String reply) {
        int space = reply.indexOf(' ');
        PendingSwap p = reply.startsWith(RunControlProtocol.ID_PREFIX) && space > 0 ? pendingSwaps.remove(reply.substring(0, space)) : null;
        if (p == null) {
            return false;
        }
        try {
            p.future().complete(ResultFiles.readSwap(reply.substring(space + 1)));
        } catch (RuntimeException e) { // a reply cut short: the swap's outcome is unknown here, the result will say
            p.future().complete(notAnswered(p.element(), "the separate process's answer could not be read: " + e));
        }
        return true;
    }

    /** Writes a line of the child's output to the log; a log that cannot be written loses the line, not the child. */
    private static void log(java.io.Writer out, String line) {
        try {
            out.write(line);
            out.write('\n');
            out.flush();
        } catch (IOException e) {
            // the temporary folder is gone: the output is read on, so that the child never blocks on a full pipe
        }
    }

    /**
     * Sends the child one control line; a child that is gone or not yet started ignores it.
     *
     * @return whether the child got it
     */
    private boolean send(String command) {
        synchronized (lock) {
            if (control == null || childEnded) {
                return false;
            }
            try {
                control.write(command + "\n");
                control.flush();
                return true;
            } catch (IOException e) {
                return false; // the child has ended: its result says how
            }
        }
    }

    /** The child has ended: every swap still waiting for it is answered as not applied. */
    private void childEnded() {
        synchronized (lock) {
            childEnded = true;
        }
        for (String id : List.copyOf(pendingSwaps.keySet())) {
            PendingSwap p = pendingSwaps.remove(id);
            if (p != null) {
                p.future().complete(notAnswered(p.element(), "the run in the separate process ended first"));
            }
        }
    }

    private SwapDTO notAnswered(String element, String why) {
        SwapDTO d = new SwapDTO();
        d.element = element;
        d.message = why;
        RunSnapshotDTO child = childSnapshot;
        d.atSimulatedSeconds = child == null ? 0 : child.simulatedSeconds;
        return d;
    }

    /**
     * Reads the child's snapshot file if it changed since {@code lastModified}.
     *
     * @return the file's modification time read now, or {@code lastModified} when nothing new was read
     */
    private long readSnapshot(Path file, long lastModified) {
        try {
            long m = Files.getLastModifiedTime(file).toMillis();
            if (m == lastModified) {
                return m;
            }
            childSnapshot = ResultFiles.readSnapshot(Files.readString(file, StandardCharsets.UTF_8));
            return m;
        } catch (IOException | RuntimeException e) {
            return lastModified; // not written yet, or moved over while read: the next read gets it
        }
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
        send(RunControlProtocol.PAUSE);
    }

    @Override
    public void resume() {
        send(RunControlProtocol.RESUME);
    }

    @Override
    public void step() {
        send(RunControlProtocol.STEP);
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
        RunSnapshotDTO child = childSnapshot;
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
        CompletableFuture<SwapDTO> f = new CompletableFuture<>();
        synchronized (lock) {
            String id = RunControlProtocol.ID_PREFIX + ++swapIds;
            pendingSwaps.put(id, new PendingSwap(element, f));
            if (!send(RunControlProtocol.SWAP + " " + element + (type == null ? "" : " " + type
                    + (version == null ? "" : RunControlProtocol.VERSION_SEPARATOR + version)) + " " + id)) {
                pendingSwaps.remove(id);
                f.complete(notAnswered(element, control == null ? "the run has not started in its process yet"
                        : "the run in the separate process has ended"));
            }
        }
        return f.minimalCompletionStage();
    }
}

package io.ringlab.console;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.ringlab.pipeline.format.Units;
import io.ringlab.sim.api.RunControlProtocol;
import io.ringlab.sim.api.dto.RunOptionsDTO;

/**
 * The command line of a separate-process run's child ({@link IsolatedRun}): {@code java -jar app/target/ringlab.jar run
 * FILE --json OUT --snapshots FILE --control} in a JVM like this one, with the installation's plugin folder, the session's
 * {@value #PLUGINS_PROPERTY} folders, the folder of the bundles copied for it ({@link ChildBundles}), the run's duration,
 * seed, warm-up and overrides, and the console's {@value #WATCHDOG_PROPERTY}. Immutable; reads the system properties
 * when it builds.
 */
final class ChildCommand {
    /** The launcher script's property naming {@code ringlab gui --plugins} folders, separated by the path separator. */
    static final String PLUGINS_PROPERTY = "ringlab.plugins";
    /** Framework property: the installation's default of the per-event watchdog, handed on to the child. */
    static final String WATCHDOG_PROPERTY = "ringlab.eventWatchdogMillis";

    private final Path home;
    private final RunOptionsDTO options;
    private final String watchdogMillis;

    /**
     * @param home the Ringlab installation ({@code ringlab.home}), where {@code app/target/ringlab.jar} is
     * @param options duration, seed, warm-up, overrides
     * @param watchdogMillis the console's {@value #WATCHDOG_PROPERTY}, for the child; {@code null} when it has none
     */
    ChildCommand(Path home, RunOptionsDTO options, String watchdogMillis) {
        this.home = home;
        this.options = options;
        this.watchdogMillis = watchdogMillis;
    }

    /**
     * @param file the pipeline file
     * @param json where the child writes its result
     * @param given the folder of the bundles copied for the child ({@link ChildBundles#give}), or {@code null}
     * @param snapshots where the child keeps its latest snapshot
     * @return the child's command line
     */
    List<String> build(Path file, Path json, Path given, Path snapshots) {
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
    static List<Path> sessionFolders() {
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

    /**
     * @param home the Ringlab installation
     * @return the folders whose jars the child installs by itself: {@code home/plugins} and the session's folders
     */
    static List<Path> childFolders(Path home) {
        List<Path> out = new ArrayList<>(List.of(home.resolve("plugins")));
        out.addAll(sessionFolders());
        return out;
    }
}

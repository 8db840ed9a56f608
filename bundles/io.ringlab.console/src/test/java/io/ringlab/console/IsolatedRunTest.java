package io.ringlab.console;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * {@link IsolatedRun}: the child's command line, and the jars of bundles not Ringlab's own that it gets copies of.
 */
class IsolatedRunTest {
    @TempDir
    Path tmp;

    @AfterEach
    void clear() {
        System.clearProperty(IsolatedRun.PLUGINS_PROPERTY);
    }

    private static IsolatedRun run(Path home, List<ThirdPartyBundle> bundles, String watchdogMillis) {
        PipelineDTO p = new PipelineDTO();
        p.name = "p";
        return new IsolatedRun(home, p, new RunOptionsDTO(), bundles, watchdogMillis);
    }

    private static List<String> command(Path given) {
        return run(Path.of("/opt/ringlab"), List.of(), null).command(Path.of("/tmp/p.pipeline"), Path.of("/tmp/r.json"), given,
                Path.of("/tmp/s.json"));
    }

    /** @return a jar file of a few bytes at {@code dir/name} */
    private static Path jar(Path dir, String name) throws IOException {
        Files.createDirectories(dir);
        return Files.write(dir.resolve(name), new byte[] { 'P', 'K', 3, 4 });
    }

    private static ThirdPartyBundle bundle(String location) {
        return new ThirdPartyBundle("org.example.x", "1.0.0", location);
    }

    @Test
    void theSessionsPluginFoldersGoToTheChildAsPluginsOptions() {
        System.setProperty(IsolatedRun.PLUGINS_PROPERTY, "/a/drivers" + File.pathSeparator + "/b/pools");

        List<String> c = command(null);

        assertEquals(List.of("--plugins", "/a/drivers", "--plugins", "/b/pools"), c.subList(c.indexOf("--plugins"), c.indexOf("--plugins") + 4), c.toString());
    }

    @Test
    void theChildsTemporaryFilesGoToThisProcesssTemporaryFolder() {
        List<String> c = command(null);

        assertTrue(c.contains("-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir")), c.toString());
        assertTrue(c.indexOf("-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir")) < c.indexOf("-jar"), c.toString());
        assertTrue(c.stream().noneMatch(a -> a.startsWith("-Dringlab.tmp")), "the child claims no folder: " + c);
    }

    @Test
    void theChildWritesItsResultKeepsItsLatestSnapshotInFilesOfTheRunAndTakesCommands() {
        List<String> c = command(null);

        int run = c.indexOf("run");
        assertEquals(List.of("run", "/tmp/p.pipeline", "--json", "/tmp/r.json", "--snapshots", "/tmp/s.json", "--control"),
                c.subList(run, run + 7), c.toString());
    }

    @Test
    void withoutPluginFoldersTheChildGetsNone() {
        assertFalse(command(null).contains("--plugins"));
    }

    @Test
    void theFolderOfCopiedBundlesIsTheLastPluginsOption() {
        System.setProperty(IsolatedRun.PLUGINS_PROPERTY, "/a/drivers");

        List<String> c = command(Path.of("/tmp/run/bundles"));

        assertEquals(List.of("--plugins", "/a/drivers", "--plugins", "/tmp/run/bundles"), c.subList(c.indexOf("--plugins"), c.indexOf("--plugins") + 4),
                c.toString());
    }

    @Test
    void theConsolesWatchdogGoesToTheChildAsAPropertyBeforeTheJar() {
        List<String> c = run(Path.of("/opt/ringlab"), List.of(), " 1000 ").command(Path.of("/tmp/p.pipeline"),
                Path.of("/tmp/r.json"), null, Path.of("/tmp/s.json"));

        int option = c.indexOf("-Dringlab.eventWatchdogMillis=1000");
        assertTrue(option > 0 && option < c.indexOf("-jar"), c.toString());
        assertTrue(command(null).stream().noneMatch(a -> a.contains("eventWatchdogMillis")), "none when the console has none");
    }

    @Test
    void fileReadsFileUrlsPathsAndTheirWrappers() {
        Path expected = Path.of("/a/b c.jar");
        assertEquals(expected, IsolatedRun.file("file:/a/b%20c.jar"));
        assertEquals(expected, IsolatedRun.file("reference:file:/a/b%20c.jar"));
        assertEquals(expected, IsolatedRun.file("ringlab-plugins:file:/a/b%20c.jar"));
        assertEquals(expected, IsolatedRun.file("/a/b c.jar"));
        assertNull(IsolatedRun.file("https://example.org/b.jar"));
        assertNull(IsolatedRun.file("inputstream:b.jar"));
    }

    @Test
    void aJarOutsideTheChildsFoldersIsCopiedUnderItsNameAndVersion() throws IOException {
        Path jar = jar(tmp.resolve("elsewhere"), "x.jar");
        List<String> problems = new ArrayList<>();

        Path given = run(tmp.resolve("home"), List.of(bundle(jar.toUri().toString())), null)
                .giveBundles(tmp.resolve("run/bundles"), problems);

        assertEquals(List.of(), problems);
        assertEquals(tmp.resolve("run/bundles"), given);
        assertArrayEquals(Files.readAllBytes(jar), Files.readAllBytes(given.resolve("org.example.x-1.0.0.jar")));
    }

    @Test
    void aJarInHomePluginsOrInASessionFolderIsNotCopied() throws IOException {
        Path home = tmp.resolve("home");
        Path inHome = jar(home.resolve("plugins"), "x.jar");
        Path inSession = jar(tmp.resolve("session"), "y.jar");
        System.setProperty(IsolatedRun.PLUGINS_PROPERTY, tmp.resolve("session").toString());
        List<String> problems = new ArrayList<>();

        Path given = run(home, List.of(bundle(inHome.toUri().toString()), new ThirdPartyBundle("org.example.y", "2.0.0",
                "ringlab-plugins:" + inSession.toUri())), null).giveBundles(tmp.resolve("run/bundles"), problems);

        assertEquals(List.of(), problems);
        assertNull(given, "the child installs those folders itself");
        assertFalse(Files.exists(tmp.resolve("run/bundles")));
    }

    @Test
    void aBundleThatCannotBeCopiedIsNamedWithWhy() throws IOException {
        Path folder = Files.createDirectories(tmp.resolve("exploded"));
        List<String> problems = new ArrayList<>();

        Path given = run(tmp.resolve("home"), List.of(bundle("https://example.org/x.jar"), bundle(null),
                bundle(tmp.resolve("gone.jar").toString()), bundle("reference:" + folder.toUri())), null)
                .giveBundles(tmp.resolve("run/bundles"), problems);

        assertNull(given);
        String prefix = "bundle org.example.x 1.0.0 cannot be given to a separate process: ";
        assertEquals(List.of(prefix + "its location https://example.org/x.jar is not a file (only a file: URL or a path can be"
                + " copied)", prefix + "it is no longer installed in the console", prefix + "its jar " + tmp.resolve("gone.jar")
                + " is not there any more", prefix + "its jar " + folder + " is not a file (a folder cannot be copied as a"
                + " bundle)"), problems);
    }

    @Test
    void aKindProviderThatCannotBeCopiedIsLeftOutWithoutAProblem() throws IOException {
        Path jar = jar(tmp.resolve("drivers"), "x.jar");
        List<String> problems = new ArrayList<>();

        Path given = run(tmp.resolve("home"), List.of(bundle(jar.toString()), new ThirdPartyBundle("org.example.pools",
                "1.0.0", "https://example.org/pools.jar", false)), null).giveBundles(tmp.resolve("run/bundles"), problems);

        assertEquals(List.of(), problems, "a pool kind the run may not use");
        assertEquals(List.of("org.example.x-1.0.0.jar"), Files.list(given).map(p -> p.getFileName().toString()).toList());
    }

    @Test
    void aRunWhoseBundleCannotBeGivenFailsBeforeAChildStarts() {
        RunResultDTO r = run(tmp.resolve("home"), List.of(bundle("https://example.org/x.jar")), null).run();

        assertEquals("FAILED", r.state);
        assertTrue(r.error.startsWith("bundle org.example.x 1.0.0 cannot be given to a separate process: its location"
                + " https://example.org/x.jar is not a file") && r.error.endsWith("Clear 'Separate process' to run the"
                + " pipeline in the console's own process."), r.error);
    }
}

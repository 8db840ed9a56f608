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

/** {@link ChildBundles}: the jars of bundles not Ringlab's own that a separate-process run's child gets copies of. */
class ChildBundlesTest {
    @TempDir
    Path tmp;

    @AfterEach
    void clear() {
        System.clearProperty(ChildCommand.PLUGINS_PROPERTY);
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
    void fileReadsFileUrlsPathsAndTheirWrappers() {
        Path expected = Path.of("/a/b c.jar");
        assertEquals(expected, ChildBundles.file("file:/a/b%20c.jar"));
        assertEquals(expected, ChildBundles.file("reference:file:/a/b%20c.jar"));
        assertEquals(expected, ChildBundles.file("ringlab-plugins:file:/a/b%20c.jar"));
        assertEquals(expected, ChildBundles.file("/a/b c.jar"));
        assertNull(ChildBundles.file("https://example.org/b.jar"));
        assertNull(ChildBundles.file("inputstream:b.jar"));
    }

    @Test
    void aJarOutsideTheChildsFoldersIsCopiedUnderItsNameAndVersion() throws IOException {
        Path jar = jar(tmp.resolve("elsewhere"), "x.jar");
        List<String> problems = new ArrayList<>();

        Path given = new ChildBundles(tmp.resolve("home"), List.of(bundle(jar.toUri().toString())))
                .give(tmp.resolve("run/bundles"), problems);

        assertEquals(List.of(), problems);
        assertEquals(tmp.resolve("run/bundles"), given);
        assertArrayEquals(Files.readAllBytes(jar), Files.readAllBytes(given.resolve("org.example.x-1.0.0.jar")));
    }

    @Test
    void aJarInHomePluginsOrInASessionFolderIsNotCopied() throws IOException {
        Path home = tmp.resolve("home");
        Path inHome = jar(home.resolve("plugins"), "x.jar");
        Path inSession = jar(tmp.resolve("session"), "y.jar");
        System.setProperty(ChildCommand.PLUGINS_PROPERTY, tmp.resolve("session").toString());
        List<String> problems = new ArrayList<>();

        Path given = new ChildBundles(home, List.of(bundle(inHome.toUri().toString()), new ThirdPartyBundle("org.example.y", "2.0.0",
                "ringlab-plugins:" + inSession.toUri()))).give(tmp.resolve("run/bundles"), problems);

        assertEquals(List.of(), problems);
        assertNull(given, "the child installs those folders itself");
        assertFalse(Files.exists(tmp.resolve("run/bundles")));
    }

    @Test
    void aBundleThatCannotBeCopiedIsNamedWithWhy() throws IOException {
        Path folder = Files.createDirectories(tmp.resolve("exploded"));
        List<String> problems = new ArrayList<>();

        Path given = new ChildBundles(tmp.resolve("home"), List.of(bundle("https://example.org/x.jar"), bundle(null),
                bundle(tmp.resolve("gone.jar").toString()), bundle("reference:" + folder.toUri())))
                .give(tmp.resolve("run/bundles"), problems);

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

        Path given = new ChildBundles(tmp.resolve("home"), List.of(bundle(jar.toString()), new ThirdPartyBundle("org.example.pools",
                "1.0.0", "https://example.org/pools.jar", false))).give(tmp.resolve("run/bundles"), problems);

        assertEquals(List.of(), problems, "a pool kind the run may not use");
        assertEquals(List.of("org.example.x-1.0.0.jar"), Files.list(given).map(p -> p.getFileName().toString()).toList());
    }
}

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

/** {@link ChildCommand}: the command line of a separate-process run's child. */
class ChildCommandTest {
    @AfterEach
    void clear() {
        System.clearProperty(ChildCommand.PLUGINS_PROPERTY);
    }

    private static List<String> command(Path given) {
        return new ChildCommand(Path.of("/opt/ringlab"), new RunOptionsDTO(), null).build(Path.of("/tmp/p.pipeline"),
                Path.of("/tmp/r.json"), given, Path.of("/tmp/s.json"));
    }

    @Test
    void theSessionsPluginFoldersGoToTheChildAsPluginsOptions() {
        System.setProperty(ChildCommand.PLUGINS_PROPERTY, "/a/drivers" + File.pathSeparator + "/b/pools");

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
        System.setProperty(ChildCommand.PLUGINS_PROPERTY, "/a/drivers");

        List<String> c = command(Path.of("/tmp/run/bundles"));

        assertEquals(List.of("--plugins", "/a/drivers", "--plugins", "/tmp/run/bundles"), c.subList(c.indexOf("--plugins"), c.indexOf("--plugins") + 4),
                c.toString());
    }

    @Test
    void theConsolesWatchdogGoesToTheChildAsAPropertyBeforeTheJar() {
        List<String> c = new ChildCommand(Path.of("/opt/ringlab"), new RunOptionsDTO(), " 1000 ").build(Path.of("/tmp/p.pipeline"),
                Path.of("/tmp/r.json"), null, Path.of("/tmp/s.json"));

        int option = c.indexOf("-Dringlab.eventWatchdogMillis=1000");
        assertTrue(option > 0 && option < c.indexOf("-jar"), c.toString());
        assertTrue(command(null).stream().noneMatch(a -> a.contains("eventWatchdogMillis")), "none when the console has none");
    }

    @Test
    void theRunsDurationSeedWarmupAndOverridesGoToTheChildInTheFileGrammar() {
        RunOptionsDTO o = new RunOptionsDTO();
        o.durationPicos = 1_500_000_000_000L;
        o.seed = 7L;
        o.warmupPicos = 250_000_000_000L;
        o.overrides.add("eth0.bql=true");

        List<String> c = new ChildCommand(Path.of("/opt/ringlab"), o, null).build(Path.of("/tmp/p.pipeline"),
                Path.of("/tmp/r.json"), null, Path.of("/tmp/s.json"));

        int d = c.indexOf("--duration");
        assertEquals(List.of("--duration", "1.5s", "--seed", "7", "--warmup", "250ms", "--set", "eth0.bql=true"),
                c.subList(d, c.size()), c.toString());
        assertFalse(command(null).contains("--duration"), "none when the run has none");
    }
}

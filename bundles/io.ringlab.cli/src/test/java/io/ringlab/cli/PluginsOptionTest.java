package io.ringlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --plugins DIR} on every command: the folders are installed before the command's work (before the pipeline is
 * read and prepared) and uninstalled after it; a refused plugin ends the command with exit code 2 and one line per jar,
 * without running anything. The OSGi side ({@link FrameworkPluginLoader}) is tested inside Felix by workspace-tests/osgi
 * {@code PluginsOptionTest}.
 */
class PluginsOptionTest {
    @TempDir
    Path dir;

    private FakeSimulator sim;
    private Cli cli;
    private String tiny;
    /** What happened, in order: "install [folders]", "prepare", "close". */
    private final List<String> events = new ArrayList<>();

    /** Records calls; refuses with {@link #refusal} when it is set. */
    private final class RecordingPlugins implements PluginLoader {
        String refusal;
        List<String> notes = List.of();

        @Override
        public Session install(List<Path> folders) throws PluginException {
            events.add("install " + folders);
            if (refusal != null) {
                throw new PluginException(refusal);
            }
            return new Session() {
                @Override
                public void close() {
                    events.add("close");
                }

                @Override
                public List<String> notes() {
                    return notes;
                }
            };
        }
    }

    private RecordingPlugins plugins;

    @BeforeEach
    void setUp() throws IOException {
        sim = new FakeSimulator() {
            @Override
            public io.ringlab.sim.api.SimulationRun prepare(io.ringlab.sim.api.dto.PipelineDTO pipeline,
                    io.ringlab.sim.api.dto.RunOptionsDTO options) throws io.ringlab.sim.api.PipelineException {
                events.add("prepare");
                return super.prepare(pipeline, options);
            }
        };
        cli = new Cli(sim, dir);
        plugins = new RecordingPlugins();
        cli.plugins = plugins;
        tiny = Cli.write(dir, "tiny.pipeline", Cli.TINY);
    }

    @Test
    void runInstallsThePluginFoldersBeforeThePipelineIsPreparedAndUninstallsThemAfter() {
        int code = cli.execute("run", tiny, "--plugins", "drivers", "--plugins", "pools");

        assertEquals(Runner.OK, code, cli.err());
        assertEquals(List.of("install [drivers, pools]", "prepare", "close"), events);
    }

    @Test
    void anEmptyPluginsFolderNameIsAnErrorNotTheWorkingFolder() {
        int code = cli.execute("run", tiny, "--plugins", "");

        assertEquals(Runner.INVALID, code, cli.err());
        assertEquals(List.of(), events, "nothing installed, nothing prepared");
        assertTrue(cli.err().contains("ringlab: --plugins '': the folder name is empty; give the folder of the plugin"
                + " jars"), cli.err());
        assertEquals("", cli.out());
    }

    @Test
    void withoutPluginsNothingIsInstalled() {
        assertEquals(Runner.OK, cli.execute("run", tiny), cli.err());
        assertEquals(List.of("prepare"), events);
    }

    @Test
    void aRefusedPluginEndsTheCommandWithExitTwoNamingEachJarWithoutAStackTrace() {
        plugins.refusal = "drivers/broken.jar: io.example.broken 1.0.0 does not resolve: missing Import-Package"
                + " com.example.gone: no installed bundle exports it\ndrivers/notes.txt.jar: not a jar file (zip END header"
                + " not found)";

        int code = cli.execute("run", tiny, "--plugins", "drivers");

        assertEquals(Runner.INVALID, code);
        assertEquals(List.of("install [drivers]"), events, "nothing was prepared");
        String err = cli.err();
        assertTrue(err.contains("ringlab: --plugins: drivers/broken.jar: io.example.broken 1.0.0 does not resolve: missing"
                + " Import-Package com.example.gone"), err);
        assertTrue(err.contains("ringlab: --plugins: drivers/notes.txt.jar: not a jar file"), err);
        assertFalse(Cli.hasStackTrace(err), err);
        assertEquals("", cli.out());
    }

    @Test
    void notesGoToStandardErrorAndTheRunGoesOn() {
        plugins.notes = List.of("drivers/x.jar: io.example.x 1.0.0 is installed already (file:plugins/x.jar); that bundle"
                + " is used");

        assertEquals(Runner.OK, cli.execute("run", tiny, "--plugins", "drivers"), cli.err());
        assertTrue(cli.err().contains("ringlab: --plugins: drivers/x.jar: io.example.x 1.0.0 is installed already"),
                cli.err());
    }

    @Test
    void abBenchElementsAndPoolsTakeThePluginFoldersToo() throws IOException {
        String experiment = Cli.write(dir, "tiny.experiment", """
                pipeline = "tiny.pipeline"
                seeds = 2
                duration = 1ms
                metrics = sink.rxMpps
                variant base { }
                """);
        cli.execute("ab", experiment, "--plugins", "a");
        cli.execute("bench", "--repeat", "1", tiny, "--plugins", "b");
        cli.execute("elements", "--plugins", "c");
        cli.execute("pools", "--plugins", "d");

        assertEquals(List.of("install [a]", "close", "install [b]", "prepare", "prepare", "close", "install [c]", "close",
                "install [d]", "close"), events);
    }

    @Test
    void withoutAnOsgiRuntimeThePluginsOptionIsRefused() {
        cli.plugins = PluginLoader.NONE;

        assertEquals(Runner.INVALID, cli.execute("run", tiny, "--plugins", "drivers"));
        assertTrue(cli.err().contains("--plugins needs the OSGi runtime"), cli.err());
    }

    @Test
    void versionFiltersReadAsManifestRanges() {
        assertEquals(";version=\"[1.3.0,2.0.0)\"",
                FrameworkPluginLoader.range("(&(osgi.wiring.package=a)(version>=1.3.0)(!(version>=2.0.0)))"));
        assertEquals(";version=\"1.0.0\"", FrameworkPluginLoader.range("(&(osgi.wiring.package=a)(version>=1.0.0))"));
        assertEquals("", FrameworkPluginLoader.range("(osgi.wiring.package=a)"));
        assertEquals(";version=\"[1.2.0,1.2.0]\"", FrameworkPluginLoader.range("(&(osgi.wiring.package=a)(version=1.2.0))"));
    }
}

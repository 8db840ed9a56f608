package io.ringlab.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.File;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;

/** {@link IsolatedRun#command}: the child's command line. */
class IsolatedRunTest {
    @AfterEach
    void clear() {
        System.clearProperty(IsolatedRun.PLUGINS_PROPERTY);
    }

    private static List<String> command() {
        return new IsolatedRun(Path.of("/opt/ringlab"), new PipelineDTO(), new RunOptionsDTO())
                .command(Path.of("/tmp/p.pipeline"), Path.of("/tmp/r.json"));
    }

    @Test
    void theSessionsPluginFoldersGoToTheChildAsPluginsOptions() {
        System.setProperty(IsolatedRun.PLUGINS_PROPERTY, "/a/drivers" + File.pathSeparator + "/b/pools");

        List<String> c = command();

        int run = c.indexOf("run");
        assertEquals(List.of("--plugins", "/a/drivers", "--plugins", "/b/pools"), c.subList(run + 4, run + 8), c.toString());
    }

    @Test
    void withoutPluginFoldersTheChildGetsNone() {
        assertFalse(command().contains("--plugins"));
    }
}

package io.ringlab.workspace.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.BundleContext;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.junit5.context.BundleContextExtension;

/**
 * A pipeline's {@code plot = [...]} must name series its run has, which exist only once the engine has built it:
 * {@code ringlab run} refuses an unknown one before the run, with exit code 2 and the file, line and series that exist.
 * Runs {@code app/target/ringlab.jar} of this checkout in a process of its own.
 */
@ExtendWith(BundleContextExtension.class)
class PlotRunTest {
    @InjectBundleContext
    BundleContext context;

    @TempDir
    Path dir;

    @Test
    void anUnknownPlotSeriesIsInvalidInputBeforeTheRun() throws Exception {
        Path file = dir.resolve("typo.pipeline");
        Files.writeString(file, """
                duration = 1ms
                plot = [src.txPackets,
                        sink.latencyP50Micros, sink.latncyP99Micros]
                element src : source { rate = 1Gbit }
                element sink : sink
                src -> sink
                """);
        Process p = new ProcessBuilder(App.command(context, dir, "run", file.toString(), "--plot",
                dir.resolve("x.png").toString())).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the process ended");
        assertEquals(2, p.exitValue(), output);
        assertTrue(output.contains(file + ":3:32: plot names no series 'sink.latncyP99Micros' (did you mean 'sink.latencyP99Micros'?) of this run; sink has "), output);
        assertTrue(output.contains("sink.latencyP99Micros") && output.contains("pool:src.pool.inUse"), output);
        assertFalse(output.contains("\tat "), output);
        assertFalse(Files.exists(dir.resolve("x.png")), "nothing ran, nothing drawn");
    }
}

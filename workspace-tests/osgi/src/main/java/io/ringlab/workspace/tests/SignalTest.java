package io.ringlab.workspace.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.BundleContext;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.junit5.context.BundleContextExtension;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * {@code ringlab run} ended by a signal (SIGTERM: {@code kill}, the console's Stop of a separate-process run) stops the
 * run and still writes what it was asked for: the JSON result (STOPPED, both invariants) and the plot, drawn while the
 * JVM is already shutting down. Runs {@code app/target/ringlab.jar} of this checkout in a process of its own.
 */
@ExtendWith(BundleContextExtension.class)
class SignalTest {
    @InjectBundleContext
    BundleContext context;

    @TempDir
    Path dir;

    @Test
    void aSignalledRunStopsAndStillWritesItsJsonAndPlot() throws Exception {
        Path json = dir.resolve("result.json");
        Path png = dir.resolve("plot.png");
        List<String> cmd = App.command(context, dir, "run",
                App.home(context).resolve("pipelines/netdev-bql.pipeline").toString(), "--duration", "3600s", "--progress",
                "--json", json.toString(), "--plot", png.toString());
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        StringBuilder output = new StringBuilder();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String l; (l = r.readLine()) != null;) {
                output.append(l).append('\n');
                if (l.startsWith("progress: started netdev-bql")) {
                    p.toHandle().destroy(); // SIGTERM (Process.destroy would close our end of its output too)
                }
            }
        }
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the process ended");

        JsonObject r = JsonParser.parseString(Files.readString(json)).getAsJsonObject();
        assertEquals("STOPPED", r.get("state").getAsString(), output.toString());
        assertTrue(r.get("simulatedSeconds").getAsDouble() < 3600, output.toString());
        JsonObject inv = r.getAsJsonObject("invariants");
        assertTrue(inv.get("packetConservation").getAsBoolean() && inv.get("bufferConservation").getAsBoolean(),
                inv.toString());
        assertTrue(Files.size(png) > 1000, "the plot drawn during the shutdown: " + Files.size(png) + " bytes\n" + output);
        assertTrue(output.toString().contains("plot written to " + png), output.toString());
    }

    @Test
    void aSignalledExperimentStopsItsRunsAndWritesTheReportOfThoseThatFinished() throws Exception {
        Path json = dir.resolve("ab.json");
        List<String> cmd = App.command(context, dir, "ab",
                App.home(context).resolve("experiments/stmmac-bql.experiment").toString(), "--seeds", "40", "--duration",
                "200ms", "--warmup", "0s", "--threads", "1", "--json", json.toString());
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        StringBuilder output = new StringBuilder();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String l; (l = r.readLine()) != null;) {
                output.append(l).append('\n');
                if (l.startsWith("2/80 runs")) { // two runs finished, one running, 77 not started
                    p.toHandle().destroy(); // SIGTERM
                }
            }
        }
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the process ended");
        assertEquals(143, p.exitValue(), "128 + SIGTERM's 15\n" + output);

        String out = output.toString();
        // the progress lines come after a run is recorded (the recorder gathers runs for up to 50 ms), so more runs may
        // have ended by the time the signal arrives: at least the two reported, not all
        java.util.regex.Matcher counted = java.util.regex.Pattern.compile("runs: (\\d+) of 80 counted").matcher(out);
        assertTrue(counted.find(), out);
        int n = Integer.parseInt(counted.group(1));
        assertTrue(n >= 2 && n < 80, out);
        assertTrue(out.contains("incomplete: stopped before every run ended; missing: "), out);
        assertTrue(out.contains("result written to " + json), out);
        JsonObject r = JsonParser.parseString(Files.readString(json)).getAsJsonObject();
        assertTrue(r.get("cancelled").getAsBoolean(), "marked incomplete");
        long finished = 0, missing = 0;
        for (var run : r.getAsJsonArray("runs")) {
            String state = run.getAsJsonObject().get("state").getAsString();
            finished += state.equals("FINISHED") ? 1 : 0;
            missing += state.equals("STOPPED") || state.equals("CANCELLED") ? 1 : 0;
        }
        assertEquals(n, finished, "the runs that finished are in the report");
        assertEquals(80, finished + missing, "every other run is named as missing");
    }
}

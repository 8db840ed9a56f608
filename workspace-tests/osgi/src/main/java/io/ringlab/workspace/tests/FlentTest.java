package io.ringlab.workspace.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.BundleContext;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.junit5.context.BundleContextExtension;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * {@code ringlab run --flent} (issue 19, section 2), judged by the real flent (Debian's {@code flent} 2.1.1 with
 * {@code python3-matplotlib}, which {@code ./ringlab test} installs as root): {@code flent -f stats} prints for every
 * series the mean Ringlab reports for the same run, and every plot flent offers for the file's test draws. Without
 * flent the test fails, naming the packages.
 */
@ExtendWith(BundleContextExtension.class)
class FlentTest {
    @InjectBundleContext
    BundleContext context;

    @TempDir
    Path dir;

    @Test
    void fourTcpStreamsAndAPingAreFlentsTcp4upWithRinglabsMeans() throws Exception {
        JsonObject r = run("stmmac-bql-100m", "3s");
        Map<String, Double> means = stats();
        JsonObject iperf = r.getAsJsonObject("elements").getAsJsonObject("iperf");
        for (int i = 0; i < 4; i++) {
            // no warm-up: the window flent sees is the whole run, over which Ringlab's per-stream goodput counts
            double ours = iperf.get("stream" + i + "GoodputMbitPerSecond").getAsDouble();
            assertEquals(ours, means.get("TCP upload::" + (i + 1)), ours * 1e-6, "stream " + i + ": " + means);
        }
        assertPing(r, means);
        // the socket statistics flent's tcp_cwnd and tcp_rtt plots draw, read back with flent's own loader
        String ss = exec(List.of("python3", "-c", "import sys; sys.path.insert(0, '/usr/share/flent');"
                + " from flent.resultset import load; r = load(sys.argv[1]);"
                + " print(len([v for v in r.raw_series('TCP upload::1', raw_key='tcp_cwnd') if v[1] > 0]),"
                + " len([v for v in r.raw_series('TCP upload::1', raw_key='tcp_rtt') if v[1] > 0]))",
                dir.resolve("r.flent.gz").toString())).strip();
        assertEquals("15 15", ss, "every 0.2 s step of the 3 s run has a window and an RTT");
        drawsEveryPlot("tcp_4up");
    }

    @Test
    void tcpBothWaysInFourClassesWithFourPingsIsFlentsRrulWithRinglabsMeans() throws Exception {
        JsonObject r = run("stmmac-rrul-100m", "3s");
        Map<String, Double> means = stats();
        JsonObject elements = r.getAsJsonObject("elements");
        for (String dir : List.of("upload", "download")) {
            for (String c : List.of("BE", "BK", "CS5", "EF")) {
                String e = (dir.equals("upload") ? "up_" : "dn_") + c.toLowerCase(java.util.Locale.ROOT);
                double ours = elements.getAsJsonObject(e).get("stream0GoodputMbitPerSecond").getAsDouble();
                assertEquals(ours, means.get("TCP " + dir + " " + c), Math.max(ours * 1e-6, 1e-6), e + ": " + means);
                assertTrue(ours > 0.5, e + " moved data: " + ours + " Mbit/s");
            }
        }
        for (String[] p : new String[][] {{"ping", "Ping (ms) ICMP"}, {"ping_ef", "Ping (ms) UDP EF"},
            {"ping_bk", "Ping (ms) UDP BK"}, {"ping_be", "Ping (ms) UDP BE"}}) {
            double ours = elements.getAsJsonObject(p[0]).get("rttMeanMillis").getAsDouble();
            assertEquals(ours, means.get(p[1]), ours * 1e-3, p[0] + ": " + means);
        }
        assertEquals(12, means.size(), "rrul's twelve series: " + means.keySet());
        drawsEveryPlot("rrul");
    }

    @Test
    void aPingAloneIsFlentsPing() throws Exception {
        JsonObject r = run("netdev-bql", "2s");
        Map<String, Double> means = stats();
        assertEquals(List.of("Ping (ms) ICMP"), List.copyOf(means.keySet()));
        assertPing(r, means);
        drawsEveryPlot("ping");
    }

    @Test
    void abWritesAFileForEachRunItRuns() throws Exception {
        Path experiment = Files.writeString(dir.resolve("f.experiment"), """
                name = "f"
                pipeline = "%s"
                duration = 2s
                warmup = 500ms
                seeds = 1
                metrics = [ping.rttP50Millis]
                variant off { set eth0.bql = false }
                variant on { set eth0.bql = true }
                """.formatted(App.home(context).resolve("pipelines/stmmac-bql-100m.pipeline")));
        List<String> ab = App.command(context, dir, "ab", experiment.toString(), "--db", dir.resolve("f.duckdb").toString(),
                "--flent", dir.resolve("out").toString());
        assertTrue(exec(ab).contains("flent: 2 files written to " + dir.resolve("out")));
        for (String v : List.of("off", "on")) {
            String summary = exec(flent("-i", dir.resolve("out/f-" + v + "-seed1.flent.gz").toString()));
            assertTrue(summary.contains("Title: 'f " + v + " seed 1'")
                    && summary.contains("TCP upload::4"), summary);
        }
        assertTrue(exec(ab).contains("flent: 0 files written to " + dir.resolve("out") + "; 2 runs taken from the results"
                + " database have none (--rerun writes them)"));
    }

    /** The ping's mean: flent's is exact, Ringlab's from its HdrHistogram (3 significant digits per bucket). */
    private static void assertPing(JsonObject r, Map<String, Double> means) {
        double ours = r.getAsJsonObject("elements").getAsJsonObject("ping").get("rttMeanMillis").getAsDouble();
        assertEquals(ours, means.get("Ping (ms) ICMP"), ours * 1e-3, means.toString());
    }

    private JsonObject run(String pipeline, String duration) throws Exception {
        Path json = dir.resolve("r.json");
        String said = exec(App.command(context, dir, "run", App.home(context).resolve("pipelines/" + pipeline + ".pipeline")
                .toString(), "--duration", duration, "--warmup", "0s", "--flent", dir.resolve("r.flent.gz").toString(),
                "--json", json.toString()));
        assertTrue(Files.size(dir.resolve("r.flent.gz")) > 0, said);
        return JsonParser.parseString(Files.readString(json)).getAsJsonObject();
    }

    /** @return each series' mean as {@code flent -f stats} prints it */
    private Map<String, Double> stats() throws Exception {
        String out = exec(flent("-i", dir.resolve("r.flent.gz").toString(), "-f", "stats"));
        Map<String, Double> means = new LinkedHashMap<>();
        Matcher m = Pattern.compile("(?m)^ (\\S[^\\n]*):\\n(?:  [^\\n]*\\n)*?  Mean:\\s+([-0-9.]+)").matcher(out);
        while (m.find()) {
            if (!m.group(1).endsWith(" avg") && !m.group(1).endsWith(" sum") && !m.group(1).equals("TCP totals")) {
                // the others are flent's own, computed from these
                means.put(m.group(1), Double.parseDouble(m.group(2)));
            }
        }
        assertTrue(!means.isEmpty(), out);
        return means;
    }

    private void drawsEveryPlot(String test) throws Exception {
        String listed = exec(flent("--list-plots", test));
        List<String> plots = new ArrayList<>();
        for (String line : listed.split("\n")) {
            Matcher m = Pattern.compile("^  (\\S+)\\s+:").matcher(line);
            if (m.find()) {
                plots.add(m.group(1));
            }
        }
        assertTrue(plots.size() > 1, listed);
        for (String p : plots) {
            Path png = dir.resolve(p + ".png");
            String said = exec(flent("-i", dir.resolve("r.flent.gz").toString(), "-p", p, "-o", png.toString()));
            assertTrue(Files.size(png) > 1000 && !said.contains("Traceback") && !said.contains("ERROR"), p + ": " + said);
        }
    }

    private static List<String> flent(String... args) {
        List<String> cmd = new ArrayList<>(List.of("flent"));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** @return what the command printed (both streams); fails unless it exits with 0 */
    private String exec(List<String> cmd) throws Exception {
        Process p;
        try {
            p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new AssertionError(cmd.get(0) + " is not installed: ./ringlab test installs it as root; otherwise run"
                    + " sudo apt-get install -y --no-install-recommends flent python3-matplotlib (" + e.getMessage() + ")");
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), out);
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ":\n" + out);
        return out;
    }
}

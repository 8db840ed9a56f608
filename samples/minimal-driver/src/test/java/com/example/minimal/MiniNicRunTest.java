package com.example.minimal;

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

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringlab.conformance.Prerequisites;

// tag::runtest[]
/**
 * The driver inside Ringlab: each test runs {@code ringlab.jar} of a Ringlab checkout ({@code -Dringlab.home}, by default
 * the one this sample lives in) with this project's jar as its only plugin ({@code --plugins}), on
 * {@code minimal.pipeline}. Skipped when that checkout has no built {@code ringlab.jar}.
 */
class MiniNicRunTest {
    static final String[] METRICS = {"eth0.txPackets", "eth0.txCompletions", "eth0.limit", "eth1.rxPackets",
        "eth1.irqs", "sink.rxPackets"};

    @TempDir
    static Path plugins;

    static Path ringlabJar;

    @BeforeAll
    static void pluginFolder() throws IOException {
        ringlabJar = Path.of(System.getProperty("ringlab.home", "../..")).resolve("app/target/ringlab.jar");
        Path jar = Path.of(System.getProperty("plugin.jar"));
        Files.copy(jar, plugins.resolve(jar.getFileName())); // a folder holding only this driver
    }

    /** Output and exit code of one command. */
    record Result(int code, String out, String err) {
    }

    /** Runs {@code ringlab ARGS --plugins <this driver>}, with an empty plugins/ folder of its own. */
    static Result ringlab(String... args) throws Exception {
        Prerequisites.require(Files.isRegularFile(ringlabJar), "no " + ringlabJar + ": build Ringlab first (./mvnw install)");
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "--enable-native-access=ALL-UNNAMED", "-Dfelix.fileinstall.dir=" + Files.createTempDirectory("plugins")));
        if (Runtime.version().feature() >= 24) {
            cmd.add("--sun-misc-unsafe-memory-access=allow"); // Felix uses sun.misc.Unsafe
        }
        cmd.addAll(List.of("-jar", ringlabJar.toString()));
        cmd.addAll(List.of(args));
        cmd.addAll(List.of("--plugins", plugins.toString()));
        Path out = Files.createTempFile("ringlab", ".out");
        Path err = Files.createTempFile("ringlab", ".err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "ringlab " + String.join(" ", args) + " ended in time");
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    /** Runs the sample pipeline and returns {@link #METRICS}, as {@code --print} writes them. */
    static Map<String, Double> run(String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("run", "minimal.pipeline", "--print", String.join(",", METRICS)));
        args.addAll(List.of(options));
        Result r = ringlab(args.toArray(String[]::new));
        assertEquals(0, r.code(), "exit code 0: the run finished and both invariants hold\n" + r.out() + r.err());
        Map<String, Double> metrics = new LinkedHashMap<>();
        for (String line : r.out().strip().split("\n")) {
            String[] kv = line.split("=", 2);
            metrics.put(kv[0], Double.parseDouble(kv[1]));
        }
        return metrics;
    }

    @Test
    void packetsGoFromEth0OverTheWireToEth1AndUpItsStack() throws Exception {
        Map<String, Double> m = run();

        assertTrue(m.get("eth0.txPackets") > 1000, m.toString()); // 20 ms at 1 Gbit/s: 1,644 frames of 1518 bytes
        assertTrue(m.get("eth0.txCompletions") >= m.get("eth0.txPackets") - 256, m.toString());
        assertTrue(m.get("eth0.limit") > 0, "BQL set a limit: " + m);
        assertEquals(m.get("eth1.rxPackets"), m.get("sink.rxPackets"), m.toString());
        // a frame every 12 us and no interrupt coalescing: each frame raises its own interrupt, none is lost
        assertTrue(m.get("eth1.irqs") > 0 && m.get("eth1.irqs") <= m.get("eth1.rxPackets"), m.toString());
    }
    // end::runtest[]

    @Test
    void withoutBqlTheLimitIsZero() throws Exception {
        assertEquals(0.0, run("--set", "eth0.bql=false").get("eth0.limit"));
    }

    @Test
    void aSameVersionSwapOfEitherPortHandsOverAndChangesNoMetric() throws Exception {
        Map<String, Double> plain = run();

        assertEquals(plain, run("--swap", "7ms:eth0"), "eth0 swapped with handover");
        assertEquals(plain, run("--swap", "7ms:eth1"), "eth1 swapped with handover");
    }

    @Test
    void theSwapIsAHandover() throws Exception {
        Result r = ringlab("run", "minimal.pipeline", "--swap", "7ms:eth0");

        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("swap at 7ms: eth0 mininic@1.0.0 -> mininic@1.0.0: handover"), r.out());
    }

    @Test
    void elementsListsTheTypeWithItsPropertiesAndBundle() throws Exception {
        Result r = ringlab("elements");

        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("mininic") && r.out().contains("[com.example.minimal 1.0.0]"), r.out());
        assertTrue(r.out().contains("bulkFree"), r.out());
    }
}

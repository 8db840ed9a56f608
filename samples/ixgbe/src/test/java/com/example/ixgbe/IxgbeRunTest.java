package com.example.ixgbe;

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

/**
 * The driver inside Ringlab: each test runs {@code ringlab.jar} of a Ringlab checkout ({@code -Dringlab.home}, by default
 * the one this sample lives in) with this project's jar as its only plugin ({@code --plugins}), on
 * {@code ixgbe.pipeline}. Skipped when that checkout has no built {@code ringlab.jar}. Each run prints its figures to
 * standard output (surefire's report keeps them).
 */
class IxgbeRunTest {
    static final String[] METRICS = {"eth0.txPackets", "eth0.txCompletions", "eth0.txMpps", "eth0.limit",
        "eth0.doorbells", "eth0.irqs", "sink.rxPackets", "pool:eth0.tx.slabFastFrees", "pool:eth0.tx.slabSlowFrees",
        "pool:eth0.tx.slabBulkFreeCalls", "pool:eth0.tx.napiDeferredFrees"};

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
        List<String> cmd = java(Files.createTempDirectory("plugins"), ringlabJar);
        cmd.addAll(List.of(args));
        cmd.addAll(List.of("--plugins", plugins.toString()));
        Path out = Files.createTempFile("ringlab", ".out");
        Path err = Files.createTempFile("ringlab", ".err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "ringlab " + String.join(" ", args) + " ended in time");
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    /**
     * @param plugins the folder Felix fileinstall watches
     * @param jar one of Ringlab's executable jars ({@code app/target/ringlab.jar}, {@code shell.jar})
     * @param jvmOptions more options for the JVM
     * @return {@code java [options] -jar JAR}, to which the jar's arguments are added
     */
    static List<String> java(Path plugins, Path jar, String... jvmOptions) {
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "--enable-native-access=ALL-UNNAMED", "-Dfelix.fileinstall.dir=" + plugins));
        cmd.addAll(List.of(jvmOptions));
        if (Runtime.version().feature() >= 24) {
            cmd.add("--sun-misc-unsafe-memory-access=allow"); // Felix uses sun.misc.Unsafe
        }
        cmd.addAll(List.of("-jar", jar.toString()));
        return cmd;
    }

    /** Runs the sample pipeline and returns {@link #METRICS}, as {@code --print} writes them. */
    static Map<String, Double> run(String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("run", "ixgbe.pipeline", "--print", String.join(",", METRICS)));
        args.addAll(List.of(options));
        Result r = ringlab(args.toArray(String[]::new));
        assertEquals(0, r.code(), "exit code 0: the run finished and both invariants hold\n" + r.out() + r.err());
        Map<String, Double> metrics = new LinkedHashMap<>();
        for (String line : r.out().strip().split("\n")) {
            String[] kv = line.split("=", 2);
            metrics.put(kv[0], Double.parseDouble(kv[1]));
        }
        System.out.println("ringlab " + String.join(" ", args) + ": " + metrics);
        return metrics;
    }

    @Test
    void packetsGoAtTenGigabitLineRateWithBqlAndBatchedDoorbells() throws Exception {
        Map<String, Double> m = run();

        // 20 ms at 10 Gbit/s: 1518-byte frames take 1538 bytes of wire time each, 812,743 frames/s, 16,254 frames
        double pps = m.get("eth0.txPackets") / 0.020;
        assertTrue(pps > 0.95 * 812_743 && pps <= 812_743 + 100, "line rate: " + pps + " packets/s, " + m);
        assertTrue(m.get("eth0.txCompletions") >= m.get("eth0.txPackets") - Ixgbe.DEFAULT_TX_DESCRIPTORS, m.toString());
        assertTrue(m.get("eth0.limit") > 0, "BQL set a limit: " + m);
        assertTrue(m.get("sink.rxPackets") > 0 && m.get("sink.rxPackets") <= m.get("eth0.txPackets"), m.toString());
        // one tail write per qdisc run, and the EITR throttle (50 us) gathers some 40 completions per interrupt
        assertTrue(m.get("eth0.doorbells") < m.get("eth0.txPackets") / 10, m.toString());
        assertTrue(m.get("eth0.irqs") < m.get("eth0.txPackets") / 10, m.toString());
    }

    @Test
    void withoutBqlTheDriverStopsTheQueueBelowDescNeededAndWakesItAtTheThreshold() throws Exception {
        Result r = ringlab("run", "ixgbe.pipeline", "--set", "eth0.bql=false", "--print",
                "eth0.txQueued,eth0.txRestarts,eth0.limit");

        assertEquals(0, r.code(), r.out() + r.err());
        Map<String, Double> m = new LinkedHashMap<>();
        for (String line : r.out().strip().split("\n")) {
            String[] kv = line.split("=", 2);
            m.put(kv[0], Double.parseDouble(kv[1]));
        }
        assertEquals(0.0, m.get("eth0.limit"), m.toString());
        // the ring fills up to the stop: the last skb posted left DESC_NEEDED - 1 unused (one slot always stays empty)
        assertEquals(Ixgbe.DEFAULT_TX_DESCRIPTORS - 1 - (Ixgbe.DESC_NEEDED - 1), m.get("eth0.txQueued"), 0.0,
                m.toString());
        assertTrue(m.get("eth0.txRestarts") > 0, "netif_wake_subqueue at TX_WAKE_THRESHOLD: " + m);
    }

    @Test
    void napiConsumeSkbTakesFewerSlowPathFreesPerPacketThanDevKfreeSkb() throws Exception {
        Map<String, Double> bulk = run();
        Map<String, Double> single = run("--set", "eth0.bulkFree=false");

        double bulkPerPacket = slowFreesPerPacket(bulk);
        double singlePerPacket = slowFreesPerPacket(single);
        System.out.println("slow-path frees per completed packet: napi_consume_skb " + bulkPerPacket + ", dev_kfree_skb "
                + singlePerPacket);
        assertTrue(bulk.get("pool:eth0.tx.slabBulkFreeCalls") > 0, "napi_consume_skb frees in bulk: " + bulk);
        assertEquals(bulk.get("eth0.txCompletions"), bulk.get("pool:eth0.tx.napiDeferredFrees"), bulk.toString());
        assertEquals(0.0, single.get("pool:eth0.tx.slabBulkFreeCalls"), "dev_kfree_skb frees one at a time: " + single);
        assertEquals(0.0, single.get("pool:eth0.tx.napiDeferredFrees"), single.toString());
        assertTrue(bulkPerPacket < singlePerPacket, "napi_consume_skb " + bulkPerPacket + " < dev_kfree_skb "
                + singlePerPacket);
    }

    static double slowFreesPerPacket(Map<String, Double> m) {
        return m.get("pool:eth0.tx.slabSlowFrees") / m.get("eth0.txCompletions");
    }

    @Test
    void aSameVersionSwapHandsOverAndChangesNoMetric() throws Exception {
        Result r = ringlab("run", "ixgbe.pipeline", "--swap", "7ms:eth0");

        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("swap at 7ms: eth0 ixgbe@1.0.0 -> ixgbe@1.0.0: handover"), r.out());
        assertEquals(run(), run("--swap", "7ms:eth0"), "eth0 swapped with handover");
    }

    @Test
    void elementsListsTheTypeWithItsPropertiesAndBundle() throws Exception {
        Result r = ringlab("elements");

        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("ixgbe") && r.out().contains("[com.example.ixgbe 1.0.0]"), r.out());
        assertTrue(r.out().contains("bulkFree"), r.out());
    }
}

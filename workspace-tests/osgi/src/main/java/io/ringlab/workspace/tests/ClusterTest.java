package io.ringlab.workspace.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.BundleContext;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.common.annotation.InjectService;
import org.osgi.test.junit5.context.BundleContextExtension;
import org.osgi.test.junit5.service.ServiceExtension;

import io.ringlab.experiment.api.ResultsService;
import io.ringlab.experiment.api.dto.TableDTO;
import io.ringlab.workspace.tests.dropin.PlugSinkFactory;

/**
 * A sweep on a cluster (issue 18, section 3), on 127.0.0.1 only: three {@code ringlab worker} processes of this
 * checkout, one of them killed with SIGKILL half-way through a sweep of 200 runs that {@code ringlab ab --cluster}
 * submits; every run is then in the database exactly once, equal in every result to the same sweep run locally. A
 * member of another Ringlab version is refused by a worker and by a client, each with a message that says so. Neither
 * the client nor a local {@code ab} opens a listening socket (read from /proc while they run).
 */
@ExtendWith({BundleContextExtension.class, ServiceExtension.class})
class ClusterTest {
    /** 2 variants x 5 ring sizes x 20 seeds = 200 runs of 20 ms. */
    private static final String EXPERIMENT = """
            name = "cluster"
            pipeline = "%s"
            duration = 20ms
            seeds = 20
            metrics = [ping.rttP50Millis, eth0.ringUsed, sink.rxPackets]
            sweep eth0.ring = 16..256 *2
            variant off { set eth0.bql = false }
            variant on { set eth0.bql = true }
            """;
    private static final int RUNS = 200;
    /** The test plug-in's symbolic name (PluginsOptionTest's). */
    private static final String PLUGIN = "io.ringlab.test.plugin";
    /** Every column of a run the engine decides (not the wall-clock ones, nor the worker), and every metric. */
    private static final String RUNS_QUERY = "SELECT key, experiment, variant, seed, point, state, packet_conservation,"
            + " buffer_conservation, simulated_s, events, packets, \"eth0.ring\" FROM runs ORDER BY key";
    private static final String SCALARS = "SELECT run, element, metric, unit, value FROM scalars ORDER BY run, element,"
            + " metric";
    private static final String SERIES = "SELECT run, element, metric, t, value FROM series ORDER BY ALL";

    @InjectBundleContext
    BundleContext context;

    @TempDir
    Path dir;

    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void stop() throws InterruptedException {
        for (Process p : started) {
            p.toHandle().destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aSweepSurvivesAKilledWorkerAndEqualsTheLocalSweep(@InjectService ResultsService results) throws Exception {
        Path cluster = clusterFile("ringlab-ci", "");
        Path experiment = dir.resolve("cluster.experiment");
        Files.writeString(experiment, EXPERIMENT.formatted(App.home(context).resolve("pipelines/netdev-bql.pipeline")));
        List<Path> logs = new ArrayList<>();
        List<Process> workers = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            Path log = dir.resolve("worker" + i + ".log");
            workers.add(start(log, "worker", "--cluster", cluster.toString(), "--threads", "1"));
            logs.add(log);
            awaitLine(log, "waiting for runs", workers.get(i - 1));
        }
        awaitLine(logs.get(0), "3 members", workers.get(0));
        Set<String> bound = listening(workers.get(0).pid());
        assertTrue(!bound.isEmpty() && bound.stream().allMatch(x -> x.contains("0100007F:")), "a worker listens, on"
                + " 127.0.0.1 only (the cluster file's interface): " + bound);

        Path onCluster = dir.resolve("cluster.duckdb");
        Process ab = new ProcessBuilder(App.command(context, dir, "ab", experiment.toString(), "--db",
                onCluster.toString(), "--cluster", cluster.toString())).directory(dir.toFile()).redirectErrorStream(true)
                .start();
        started.add(ab);
        StringBuilder output = new StringBuilder();
        Pattern ended = Pattern.compile("^(\\d+)/" + RUNS + " runs");
        boolean killed = false;
        boolean checkedSockets = false;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(ab.getInputStream(), StandardCharsets.UTF_8))) {
            for (String l; (l = r.readLine()) != null;) {
                output.append(l).append('\n');
                Matcher m = ended.matcher(l);
                if (m.find() && !checkedSockets) {
                    assertEquals(Set.of(), listening(ab.pid()), "a cluster client opens no listening socket");
                    checkedSockets = true;
                }
                if (m.find(0) && !killed && Integer.parseInt(m.group(1)) >= RUNS / 3) {
                    workers.get(2).toHandle().destroyForcibly(); // SIGKILL: the member leaves without a word
                    killed = true;
                }
            }
        }
        assertTrue(ab.waitFor(300, TimeUnit.SECONDS), "ab ended:\n" + output);
        assertEquals(0, ab.exitValue(), output.toString());
        assertTrue(killed, output.toString());
        assertTrue(output.toString().contains(RUNS + " runs recorded now, 0 taken from it"), output.toString());
        assertTrue(output.toString().contains("runs per worker: "), output.toString());

        Path local = dir.resolve("local.duckdb");
        Process here = new ProcessBuilder(App.command(context, dir, "ab", experiment.toString(), "--db", local.toString(),
                "--threads", "2")).directory(dir.toFile()).redirectErrorStream(true).redirectOutput(dir.resolve("local.log")
                        .toFile()).start();
        started.add(here);
        boolean checkedLocal = false;
        while (!here.waitFor(100, TimeUnit.MILLISECONDS)) {
            if (!checkedLocal && Files.readString(dir.resolve("local.log")).contains("/" + RUNS + " runs")) {
                assertEquals(Set.of(), listening(here.pid()), "a local ab opens no listening socket");
                checkedLocal = true;
            }
        }
        assertEquals(0, here.exitValue(), Files.readString(dir.resolve("local.log")));
        assertTrue(checkedLocal, "the local ab was seen running");

        TableDTO a = results.query(local, RUNS_QUERY);
        TableDTO b = results.query(onCluster, RUNS_QUERY);
        assertEquals(RUNS, a.rows.size());
        assertEquals(RUNS, results.query(onCluster, "SELECT DISTINCT key FROM runs").rows.size(), "every run once");
        assertEquals(a.rows, b.rows, "the same runs, with the same results");
        assertEquals(results.query(local, SCALARS).rows, results.query(onCluster, SCALARS).rows, "every metric the same");
        assertEquals(results.query(local, SERIES).rows, results.query(onCluster, SERIES).rows, "every series the same");
    }

    @Test
    void aMemberOfAnotherVersionIsRefused() throws Exception {
        // a Hazelcast member that says it runs Ringlab 0.1.0, started from Hazelcast's own jar
        Path foreignFile = clusterFile("ringlab-old", """
                  member-attributes:
                    ringlab.version:
                      value: 0.1.0
                    ringlab.build:
                      value: 0123456789abcdef
                    ringlab.threads:
                      value: 1
                """);
        Path log = dir.resolve("old.log");
        Process old = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"),
                "-Dhazelcast.config=" + foreignFile, "-Dhazelcast.phone.home.enabled=false", "-cp",
                App.home(context).resolve("app/target/lib/hazelcast.jar").toString(),
                "com.hazelcast.core.server.HazelcastMemberStarter").redirectErrorStream(true).redirectOutput(log.toFile())
                .start();
        started.add(old);
        awaitLine(log, "is STARTED", old);

        Path cluster = dir.resolve("same-cluster.yaml");
        Files.writeString(cluster, Files.readString(foreignFile).substring(0, Files.readString(foreignFile).indexOf(
                "  member-attributes:")));
        Process worker = new ProcessBuilder(App.command(context, dir, "worker", "--cluster", cluster.toString()))
                .directory(dir.toFile()).redirectErrorStream(true).start();
        started.add(worker);
        String said = new String(worker.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(worker.waitFor(120, TimeUnit.SECONDS), said);
        assertEquals(2, worker.exitValue(), said);
        assertTrue(said.contains("it runs Ringlab 0.1.0 (build 0123456789abcdef), this process Ringlab ")
                && said.contains("every worker of a cluster must run the same Ringlab build; this worker left it"), said);

        Path experiment = dir.resolve("x.experiment");
        Files.writeString(experiment, EXPERIMENT.formatted(App.home(context).resolve("pipelines/netdev-bql.pipeline")));
        Process ab = new ProcessBuilder(App.command(context, dir, "ab", experiment.toString(), "--db",
                dir.resolve("x.duckdb").toString(), "--cluster", cluster.toString())).directory(dir.toFile())
                .redirectErrorStream(true).start();
        started.add(ab);
        String abSaid = new String(ab.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(ab.waitFor(120, TimeUnit.SECONDS), abSaid);
        assertEquals(2, ab.exitValue(), abSaid);
        assertTrue(abSaid.contains("no member of cluster 'ringlab-old' runs Ringlab ")
                && abSaid.contains("it runs Ringlab 0.1.0 (build 0123456789abcdef)"), abSaid);
        assertTrue(!Files.exists(dir.resolve("x.duckdb")), "nothing was recorded");
    }

    @Test
    void aSubmittersPlugInIsShippedToAWorkerThatLacksItAndRefusedByOneThatHasAnother(@InjectService ResultsService results)
            throws Exception {
        String component = TestBundles.component(PlugSinkFactory.class.getName(), PlugSinkFactory.class,
                PlugSinkFactory.TYPE, null, "");
        Path ours = TestBundles.write(context.getBundle(), dir.resolve("ours/plugsink.jar"), PLUGIN, PlugSinkFactory.class,
                Map.of("plugsink.xml", component), TestBundles.imports(""));
        Map<String, String> otherHeaders = new java.util.HashMap<>(TestBundles.imports(""));
        otherHeaders.put("Bundle-Name", "another build of the same plug-in");
        TestBundles.write(context.getBundle(), dir.resolve("other/plugsink.jar"), PLUGIN, PlugSinkFactory.class,
                Map.of("plugsink.xml", component), otherHeaders);
        Path cluster = clusterFile("ringlab-plugins", "");
        Path withOther = dir.resolve("with-other.log");
        Process other = start(withOther, "worker", "--cluster", cluster.toString(), "--threads", "1", "--plugins",
                dir.resolve("other").toString());
        awaitLine(withOther, "waiting for runs", other);
        Path without = dir.resolve("without.log");
        Process bare = start(without, "worker", "--cluster", cluster.toString(), "--threads", "1");
        awaitLine(without, "waiting for runs", bare);
        awaitLine(withOther, "2 members", other);

        Files.writeString(dir.resolve("plug.pipeline"), """
                element src : source { rate = 1Gbit; size = 1500B }
                element snk : plugsink
                src -> snk
                """);
        Path experiment = Files.writeString(dir.resolve("plug.experiment"), """
                name = "plug"
                pipeline = "plug.pipeline"
                duration = 2ms
                seeds = 5
                metrics = [snk.received]
                variant fast { set src.rate = 1Gbit }
                variant slow { set src.rate = 100Mbit }
                """);
        Path abErr = dir.resolve("ab.err");
        Process ab = new ProcessBuilder(App.command(context, dir, "ab", experiment.toString(), "--db",
                dir.resolve("c.duckdb").toString(), "--cluster", cluster.toString(), "--plugins", ours.getParent()
                        .toString(), "--json", "-")).directory(dir.toFile()).redirectError(abErr.toFile()).start();
        started.add(ab);
        String json = new String(ab.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(ab.waitFor(120, TimeUnit.SECONDS), json);
        String said = Files.readString(abErr);
        assertEquals(0, ab.exitValue(), said);
        // Hazelcast's logging, the progress and the summary go to standard error: standard output is the JSON alone
        assertEquals(10, com.google.gson.JsonParser.parseString(json).getAsJsonObject().getAsJsonArray("runs").size(),
                json);
        String bareAddress = address(without);
        assertTrue(said.contains("runs per worker: " + bareAddress + " 10\n"), "every run on the worker without the"
                + " plug-in, which installed the submitter's: " + said);
        assertTrue(said.contains("worker " + address(withOther) + " is sent no further run: plug-in " + PLUGIN
                + " 1.0.0 here (") && said.contains("is not the submitter's: its content differs"), said);
        assertTrue(Files.readString(without).contains("plug-ins of the submitter here: " + PLUGIN + "@1.0.0#"),
                Files.readString(without));

        Process here = new ProcessBuilder(App.command(context, dir, "ab", experiment.toString(), "--db",
                dir.resolve("l.duckdb").toString(), "--threads", "1", "--plugins", ours.getParent().toString()))
                .directory(dir.toFile()).redirectErrorStream(true).start();
        started.add(here);
        String local = new String(here.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(here.waitFor(120, TimeUnit.SECONDS), local);
        assertEquals(0, here.exitValue(), local);
        assertEquals(results.query(dir.resolve("l.duckdb"), RUNS_QUERY.replace(", \"eth0.ring\"", "")).rows,
                results.query(dir.resolve("c.duckdb"), RUNS_QUERY.replace(", \"eth0.ring\"", "")).rows,
                "the same keys (the plug-in's fingerprint on the worker is the submitter's) and results");
        assertEquals(results.query(dir.resolve("l.duckdb"), SCALARS).rows, results.query(dir.resolve("c.duckdb"), SCALARS)
                .rows);
    }

    /** @return the address a worker's log says it joined at */
    private static String address(Path log) throws IOException {
        Matcher m = Pattern.compile("worker (\\S+) joined cluster").matcher(Files.readString(log));
        assertTrue(m.find(), Files.readString(log));
        return m.group(1);
    }

    @Test
    void aCommandThatUsesNoClusterNeitherInstallsNorLoadsHazelcast() throws Exception {
        Process p = new ProcessBuilder(App.command(context, dir, "-V")).directory(dir.toFile()).redirectErrorStream(true)
                .start();
        started.add(p);
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), said);
        assertTrue(said.contains("io.ringlab.cluster"), "the cluster bundle is there: " + said);
        assertTrue(!said.contains("com.hazelcast") && !said.contains("org.duckdb"), "Hazelcast and DuckDB are installed"
                + " only when a command uses them: " + said);
    }

    /**
     * @return a cluster file for three members on free ports of 127.0.0.1, with {@code extra} at its end. The ports are
     *         below the kernel's ephemeral range (net.ipv4.ip_local_port_range): a port from that range, free when it was
     *         checked, could become the local port of one member's connection to another before the last member binds
     *         it (a worker once failed to start so in CI)
     */
    private Path clusterFile(String name, String extra) throws IOException {
        int ephemeral = 32768;
        try {
            ephemeral = Integer.parseInt(Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).strip()
                    .split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            // not Linux's /proc: keep Linux's default start of the range
        }
        java.util.Random random = new java.util.Random();
        int low = 10_000;
        int high = Math.max(low + 100, ephemeral - 3);
        for (int attempt = 0; attempt < 50; attempt++) {
            int base = low + random.nextInt(high - low);
            if (!free(base) || !free(base + 1) || !free(base + 2)) {
                continue;
            }
            return Files.writeString(dir.resolve(name + ".yaml"), """
                    hazelcast:
                      cluster-name: %s
                      network:
                        port:
                          port: %d
                          auto-increment: true
                          port-count: 3
                        interfaces:
                          enabled: true
                          interfaces:
                            - 127.0.0.1
                        join:
                          tcp-ip:
                            enabled: true
                            member-list:
                              - 127.0.0.1:%d
                              - 127.0.0.1:%d
                              - 127.0.0.1:%d
                    """.formatted(name, base, base, base + 1, base + 2) + extra);
        }
        throw new IllegalStateException("no three free ports in a row on 127.0.0.1");
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private Process start(Path log, String... args) throws IOException {
        Process p = new ProcessBuilder(App.command(context, dir, args)).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        started.add(p);
        return p;
    }

    /** Waits (120 s at most) until the log has a line containing {@code text}, failing if the process ends first. */
    private static void awaitLine(Path log, String text, Process p) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!(Files.exists(log) && Files.readString(log).contains(text))) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("no '" + text + "' in " + log + (p.isAlive() ? " within 120 s" : ", and the"
                        + " process ended with " + p.exitValue()) + ":\n" + (Files.exists(log) ? Files.readString(log) : ""));
            }
            p.waitFor(100, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * @return the local addresses ({@code hex-address:hex-port}) of the TCP sockets the process listens on, from its
     *         file descriptors and /proc/PID/net/tcp and tcp6
     */
    static Set<String> listening(long pid) throws IOException {
        Set<String> inodes = new HashSet<>();
        try (var fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring(8, target.length() - 1));
                    }
                } catch (IOException e) {
                    // closed meanwhile
                }
            }
        }
        Set<String> out = new HashSet<>();
        for (String table : List.of("tcp", "tcp6")) {
            Path p = Path.of("/proc", Long.toString(pid), "net", table);
            if (!Files.exists(p)) {
                continue;
            }
            for (String line : Files.readAllLines(p).subList(1, Files.readAllLines(p).size())) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 9 && "0A".equals(f[3]) && inodes.contains(f[9])) {
                    out.add(f[1]);
                }
            }
        }
        return out;
    }
}

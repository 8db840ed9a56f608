package io.ringlab.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringlab.experiment.api.ClusterException;
import io.ringlab.experiment.api.ClusterService;
import io.ringlab.experiment.api.ExperimentListener;
import io.ringlab.experiment.api.ExperimentService;
import io.ringlab.experiment.api.RunExecutor;
import io.ringlab.experiment.api.RunStore;
import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.experiment.api.dto.MetricSummaryDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.experiment.api.dto.RunTaskDTO;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.ProblemDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * Real Hazelcast members and a real client in this JVM, on 127.0.0.1: a task goes through the durable executor and its
 * result comes back whole; a worker of another build is refused; a refusal by the worker comes back as its message.
 */
class LoopbackClusterTest {
    @TempDir
    Path dir;
    private final List<AutoCloseable> open = new ArrayList<>();
    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private final PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);

    @AfterEach
    void close() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    /** Runs a task as the result {@link WireTest#result()} with the task's seed; refuses seed 13. */
    static final class FakeExperiments implements ExperimentService {
        final Map<String, String> bundles = new TreeMap<>(Map.of("io.ringlab.engine", "0.2.0#aaaa"));

        @Override
        public RunResultDTO execute(RunTaskDTO task) throws PipelineException {
            if (task.seed == 13) {
                throw new PipelineException(List.of(new ProblemDTO(task.experiment, 0, 0, "refused: bundle x differs")));
            }
            RunResultDTO r = WireTest.result();
            r.seed = task.options.seed;
            return r;
        }

        @Override
        public Map<String, String> bundles() {
            return bundles;
        }

        @Override
        public ExperimentDTO read(Path file) {
            throw new UnsupportedOperationException();
        }

        @Override
        public ExperimentDTO read(String fileName, String text, Path directory) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<RunSummaryDTO> runs(ExperimentDTO experiment) {
            throw new UnsupportedOperationException();
        }

        @Override
        public MetricSummaryDTO summarize(double[] values) {
            throw new UnsupportedOperationException();
        }

        @Override
        public io.ringlab.experiment.api.dto.ComparisonDTO compare(double[] a, double[] b) {
            throw new UnsupportedOperationException();
        }

        @Override
        public ExperimentResultDTO run(ExperimentDTO experiment, int threads, ExperimentListener listener) {
            throw new UnsupportedOperationException();
        }

        @Override
        public ExperimentResultDTO run(ExperimentDTO experiment, int threads, ExperimentListener listener, RunStore store,
                boolean rerun) {
            throw new UnsupportedOperationException();
        }

        @Override
        public ExperimentResultDTO run(ExperimentDTO experiment, RunExecutor executor, ExperimentListener listener,
                RunStore store, boolean rerun) {
            throw new UnsupportedOperationException();
        }
    }

    private static ClusterComponent component(FakeExperiments experiments) {
        ClusterComponent c = new ClusterComponent();
        c.experiments = experiments;
        return c;
    }

    /** @return a cluster file for two members on free ports of 127.0.0.1 */
    private Path clusterFile() throws Exception {
        for (int attempt = 0; attempt < 20; attempt++) {
            int base;
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                base = s.getLocalPort();
            }
            if (base > 65000 || !free(base + 1) || !free(base + 2)) {
                continue;
            }
            return Files.writeString(dir.resolve("cluster.yaml"), ClusterFileTest.loopback("test-" + base, base));
        }
        throw new IllegalStateException("no three free ports in a row on 127.0.0.1");
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    private static RunTaskDTO task(long seed) {
        RunTaskDTO t = new RunTaskDTO();
        t.key = "k" + seed;
        t.experiment = "e";
        t.variant = "on";
        t.seed = seed;
        t.options = new RunOptionsDTO();
        t.options.seed = seed;
        return t;
    }

    @Test
    void aRunGoesToAWorkerAndItsResultComesBackWhole() throws Exception {
        Path file = clusterFile();
        FakeExperiments same = new FakeExperiments();
        ClusterService.Worker w = component(same).startWorker(file, 2, log);
        open.add(w);
        RunExecutor x = component(same).connect(file, log);
        open.add(x);
        assertEquals(2, x.parallelism(), "the worker's threads");
        List<String> sent = new ArrayList<>();
        RunResultDTO r = x.run(task(42), sent::add);
        assertEquals(List.of(w.address()), sent);
        assertEquals(42, r.seed);
        assertEquals(Wire.answer("w", WireTest.result(), null).replace("\"seed\":" + Long.MAX_VALUE, "\"seed\":42"),
                Wire.answer("w", r, null), "every field as the worker's engine gave it");
        PipelineException refused = assertThrows(PipelineException.class, () -> x.run(task(13), s -> { }));
        assertEquals("worker " + w.address() + ": e: refused: bundle x differs", refused.problems().get(0).message);
        assertTrue(logBytes.toString(StandardCharsets.UTF_8).contains("ran e, variant on, seed 42: FINISHED"),
                logBytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aWorkerOfAnotherBuildLeavesAndAClientSendsItNothing() throws Exception {
        Path file = clusterFile();
        FakeExperiments first = new FakeExperiments();
        ClusterService.Worker w = component(first).startWorker(file, 1, log);
        open.add(w);
        FakeExperiments other = new FakeExperiments();
        other.bundles.put("io.ringlab.engine", "0.1.0#bbbb");
        ClusterException e = assertThrows(ClusterException.class, () -> component(other).startWorker(file, 1, log));
        assertTrue(e.getMessage().contains("has member " + w.address() + ", and it runs Ringlab 0.2.0 (build "
                + Build.of(first.bundles).hash() + "), this process Ringlab 0.1.0 (build " + Build.of(other.bundles).hash()
                + "): every worker of a cluster must run the same Ringlab build; this worker left it"), e.getMessage());
        long deadline = System.nanoTime() + 30_000_000_000L; // the remaining member hears of the leave shortly after
        while (w.members().size() > 1 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            Thread.sleep(20);
        }
        assertEquals(List.of(w.address()), w.members(), "the refused worker left");
        ClusterException c = assertThrows(ClusterException.class, () -> component(other).connect(file, log));
        assertTrue(c.getMessage().contains("no member of cluster 'test-") && c.getMessage().contains("runs Ringlab 0.1.0"),
                c.getMessage());
    }
}

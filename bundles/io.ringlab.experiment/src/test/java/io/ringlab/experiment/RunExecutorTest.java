package io.ringlab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringlab.experiment.api.ExperimentListener;
import io.ringlab.experiment.api.RunExecutor;
import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.experiment.api.dto.RunTaskDTO;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * Runs sent to an executor ({@link ExperimentService#run(ExperimentDTO, RunExecutor, ExperimentListener,
 * io.ringlab.experiment.api.RunStore, boolean)}): each goes as a task with its key to another installation's
 * {@link ExperimentComponent#execute}, and the experiment's result equals a local run's; a task whose key the receiving
 * installation computes differently is refused, naming the bundles that differ.
 */
class RunExecutorTest {
    @TempDir
    Path dir;

    private ExperimentComponent submitter;
    private ExperimentComponent worker;

    @BeforeEach
    void setUp() throws Exception {
        Files.createDirectories(dir.resolve("pipelines"));
        Files.writeString(dir.resolve("pipelines/ab.pipeline"), ExperimentReaderTest.PIPELINE);
        submitter = new ExperimentComponent();
        submitter.simulator = new ModelSimulator(ExperimentReaderTest.TYPES, ExperimentComponentTest::ringModel);
        worker = new ExperimentComponent();
        worker.simulator = new ModelSimulator(ExperimentReaderTest.TYPES, ExperimentComponentTest::ringModel);
    }

    /** Sends every task to {@link #worker}, as a cluster would, from several threads; records what it was sent. */
    private final class Remote implements RunExecutor {
        final List<RunTaskDTO> tasks = new ArrayList<>();

        @Override
        public int parallelism() {
            return 3;
        }

        @Override
        public RunResultDTO run(RunTaskDTO task, Consumer<String> sent) throws PipelineException {
            synchronized (this) {
                tasks.add(task);
            }
            sent.accept("10.0.0." + (task.seed % 2 + 1) + ":5701");
            return worker.execute(task);
        }

        @Override
        public void close() {
        }
    }

    @Test
    void runsSentToAnExecutorGiveTheLocalResult() throws Exception {
        ExperimentDTO e = submitter.read("sweep.experiment", ExperimentComponentTest.SWEEP, dir);
        RunStoreTest.MemoryStore local = new RunStoreTest.MemoryStore();
        ExperimentResultDTO here = submitter.run(e, 2, null, local, false);
        Remote remote = new Remote();
        RunStoreTest.MemoryStore sent = new RunStoreTest.MemoryStore();
        List<String> started = new ArrayList<>();
        ExperimentResultDTO there = submitter.run(e, remote, new ExperimentListener() {
            @Override
            public void runStarted(RunSummaryDTO run) {
                started.add(run.key + "@" + run.worker);
            }

            @Override
            public void runEnded(RunSummaryDTO run, RunResultDTO result, int done, int total) {
            }
        }, sent, false);
        assertEquals(16, remote.tasks.size(), "every run sent once");
        assertEquals(16, started.size(), "and each told as started, with its worker");
        assertEquals(local.runs.keySet(), sent.runs.keySet(), "the same keys");
        for (RunSummaryDTO s : there.runs) {
            RunSummaryDTO l = local.runs.get(s.key);
            assertEquals(l.metrics, s.metrics, s.key);
            assertEquals(l.state, s.state);
            assertEquals(l.events, s.events);
            assertEquals("10.0.0." + (s.seed % 2 + 1) + ":5701", s.worker);
            assertTrue(started.contains(s.key + "@" + s.worker));
        }
        assertEquals(here.runs.stream().map(s -> s.key).toList(), there.runs.stream().map(s -> s.key).toList(),
                "reported in the same order");
        assertEquals(here.points.size(), there.points.size());
        here.runs.forEach(s -> assertNull(s.worker, "a local run has no worker"));
    }

    @Test
    void aTaskWhoseKeyDiffersHereIsRefusedNamingTheBundles() throws Exception {
        ExperimentDTO e = submitter.read("sweep.experiment", ExperimentComponentTest.SWEEP, dir);
        Remote remote = new Remote();
        submitter.run(e, remote, null, new RunStoreTest.MemoryStore(), false);
        RunTaskDTO t = remote.tasks.get(0);
        assertEquals(t.seed, worker.execute(t).seed, "as sent, it runs");
        t.bundles.put("io.ringlab.engine", "0.2.0#0123456789abcdef0123");
        t.key = RunKeys.of(t.pipeline, t.options, t.bundles); // what a submitter with that engine computes
        PipelineException x = assertThrows(PipelineException.class, () -> worker.execute(t));
        assertEquals("sweep: run of variant " + t.variant + ", seed " + t.seed + " refused: its bundles differ from the"
                + " submitter's (io.ringlab.engine 0.2.0#0123456789ab is missing here): a worker must run the same Ringlab"
                + " build and the same plug-ins as the submitter", x.getMessage());
        t.bundles.clear();
        t.options.seed = t.options.seed + 1; // changed after the key was computed
        x = assertThrows(PipelineException.class, () -> worker.execute(t));
        assertTrue(x.getMessage().endsWith("the task changed on its way"), x.getMessage());
    }

    @Test
    void differencesNameEachBundleWithBothVersions() {
        Map<String, String> theirs = new TreeMap<>(Map.of("a", "1.0.0#aaaaaaaaaaaaaaaa", "b", "1.0.0#bbbbbbbbbbbbbbbb"));
        Map<String, String> own = new TreeMap<>(Map.of("b", "1.0.1#cccccccccccccccc", "c", "2.0.0#dddddddddddddddd"));
        assertEquals("its bundles differ from the submitter's (a 1.0.0#aaaaaaaaaaaa is missing here; b is"
                + " 1.0.1#cccccccccccc here and 1.0.0#bbbbbbbbbbbb on the submitter; c 2.0.0#dddddddddddd is here but not on"
                + " the submitter): a worker must run the same Ringlab build and the same plug-ins as the submitter",
                ExperimentComponent.differences(theirs, own));
    }
}

package io.ringlab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringlab.experiment.api.ResultsException;
import io.ringlab.experiment.api.RunStore;
import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * {@link ExperimentComponent} with a {@link RunStore}: every run gets its key, what the store holds is not run again and
 * counts as run, an interrupted experiment resumes with the same statistics, {@code rerun} runs everything, and a run
 * that cannot be recorded stops the rest. Runs on {@link ExperimentComponentTest}'s model and sweep.
 */
class RunStoreTest {
    @TempDir
    Path dir;

    private ExperimentComponent component;
    private ModelSimulator sim;

    /** A store in memory: key to summary, the finished ones found; counts what it was asked. */
    static final class MemoryStore implements RunStore {
        final Map<String, RunSummaryDTO> runs = new LinkedHashMap<>();
        final List<String> asked = new ArrayList<>();
        /** Fail the batch that holds the run with this number (from 1, in the order handed over); 0 never. */
        int failAt;
        int records;
        int batches;

        @Override
        public synchronized RunSummaryDTO find(String key) {
            asked.add(key);
            RunSummaryDTO s = runs.get(key);
            if (s == null || !RunSummaryDTO.FINISHED.equals(s.state)) {
                return null;
            }
            RunSummaryDTO copy = new RunSummaryDTO();
            copy.key = key;
            copy.stored = true;
            copy.variant = s.variant;
            copy.seed = s.seed;
            copy.point.putAll(s.point);
            copy.state = s.state;
            copy.packetConservation = s.packetConservation;
            copy.bufferConservation = s.bufferConservation;
            copy.metrics.putAll(s.metrics);
            copy.metrics.put("sink.rxPackets", 1.0); // a store holds every metric: the service takes the experiment's
            copy.events = s.events;
            copy.packets = s.packets;
            return copy;
        }

        @Override
        public synchronized void record(ExperimentDTO experiment, List<RunSummaryDTO> summaries,
                List<RunResultDTO> results) throws ResultsException {
            batches++;
            if (failAt > records && failAt <= records + summaries.size()) {
                records += summaries.size();
                throw new ResultsException("x.duckdb: the disk is full"); // all of the batch or nothing
            }
            records += summaries.size();
            summaries.forEach(s -> runs.put(s.key, s));
        }

        @Override
        public void close() {
        }
    }

    @BeforeEach
    void setUp() throws IOException {
        Files.createDirectories(dir.resolve("pipelines"));
        Files.writeString(dir.resolve("pipelines/ab.pipeline"), ExperimentReaderTest.PIPELINE);
        sim = new ModelSimulator(ExperimentReaderTest.TYPES, ExperimentComponentTest::ringModel);
        component = new ExperimentComponent();
        component.simulator = sim;
    }

    private ExperimentDTO experiment(String text) throws Exception {
        return component.read("sweep.experiment", text, dir);
    }

    @Test
    void everyRunHasItsOwnKeyAndTheSameRunTheSameKey() throws Exception {
        MemoryStore store = new MemoryStore();
        ExperimentResultDTO r = component.run(experiment(ExperimentComponentTest.SWEEP), 1, null, store, false);
        Set<String> keys = new HashSet<>();
        r.runs.forEach(s -> keys.add(s.key));
        assertEquals(16, keys.size(), "variants x points x seeds, each its own key");
        assertTrue(keys.stream().allMatch(k -> k.matches("[0-9a-f]{64}")), keys.toString());
        assertEquals(16, store.runs.size());
        // the same file with another description and name: the same runs, the same keys
        MemoryStore again = new MemoryStore();
        component.run(experiment(ExperimentComponentTest.SWEEP.replace("duration = 20ms", "name = \"other\"\n"
                + "description = \"the same runs\"\nduration = 20ms")), 2, null, again, false);
        assertEquals(store.runs.keySet(), again.runs.keySet());
        // another seed, another duration: other keys
        MemoryStore other = new MemoryStore();
        component.run(experiment(ExperimentComponentTest.SWEEP.replace("duration = 20ms", "duration = 21ms")), 1, null, other,
                false);
        assertTrue(other.runs.keySet().stream().noneMatch(store.runs::containsKey));
    }

    @Test
    void whatTheStoreHoldsIsNotRunAgainAndGivesTheSameStatistics() throws Exception {
        ExperimentDTO e = experiment(ExperimentComponentTest.SWEEP);
        MemoryStore store = new MemoryStore();
        String whole = ExperimentComponentTest.fingerprint(component.run(e, 1, null, store, false));
        // an interrupted experiment: only the first 5 runs were recorded
        MemoryStore half = new MemoryStore();
        store.runs.entrySet().stream().limit(5).forEach(x -> half.runs.put(x.getKey(), x.getValue()));
        int prepared = sim.prepared.size();
        ExperimentResultDTO resumed = component.run(e, 2, null, half, false);
        assertEquals(4 + 11, sim.prepared.size() - prepared, "the checks, then only the 11 runs not in the store");
        assertEquals(5, resumed.runs.stream().filter(s -> s.stored).count());
        assertEquals(whole, ExperimentComponentTest.fingerprint(resumed), "the same result as the uninterrupted one");
        assertEquals(16, half.runs.size());

        int before = sim.prepared.size();
        component.run(e, 1, null, half, true);
        assertEquals(4 + 16, sim.prepared.size() - before, "rerun runs every run");
    }

    @Test
    void aRunThatCannotBeRecordedStopsTheRest() throws Exception {
        MemoryStore store = new MemoryStore();
        store.failAt = 3;
        ExperimentResultDTO r = component.run(experiment(ExperimentComponentTest.SWEEP), 1, null, store, false);
        assertTrue(r.cancelled);
        assertTrue(store.runs.size() <= 2, "nothing of the failed batch, nothing after it: " + store.runs.size());
        assertTrue(r.problems.stream().anyMatch(p -> p.message.contains("could not be recorded: x.duckdb: the disk is full")
                && p.message.contains("the runs after it were not started")), r.problems.toString());
        // the runs that ended are reported whether or not they could be recorded (the recorder gathers the runs that
        // end within 50 ms into one transaction, so here the failed batch may hold all of them)
        assertEquals(16, r.runs.size());
    }
}

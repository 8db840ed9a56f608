package io.ringlab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringlab.experiment.api.ResultsException;
import io.ringlab.experiment.api.RunStore;
import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.experiment.api.dto.ScalarDTO;
import io.ringlab.experiment.api.dto.TableDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * Writing runs ({@link DuckStore} through {@link ResultsComponent#openForWriting}) and finding them again: the schema,
 * a run's round trip, replacement under one key, atomicity, the typed parameter columns, units and concurrent writers.
 */
class DuckStoreTest {
    @TempDir
    Path dir;

    private ResultsComponent results;
    private Path db;

    @BeforeEach
    void setUp() {
        results = new ResultsComponent();
        results.simulator = new FakeSimulator(Fixtures.TYPES);
        db = dir.resolve("new/folder/results.duckdb");
    }

    @Test
    void createsTheSchemaInANewFileAndItsFoldersAndOpensItAgain() throws Exception {
        results.openForWriting(db, Duration.ZERO).close();
        assertTrue(Files.isRegularFile(db));
        TableDTO meta = results.query(db, "SELECT schema_version, created_by FROM meta");
        assertEquals(List.of(List.of(1L, "Ringlab")), meta.rows);
        TableDTO tables = results.query(db, "SELECT table_name FROM information_schema.tables ORDER BY table_name");
        assertEquals(List.of("experiments", "meta", "parameters", "runs", "sample_warnings", "scalars", "series", "series_lists", "swaps",
                "timed_points", "timed_series", "violations", "warnings"), tables.rows.stream().map(r -> r.get(0)).toList());

        ExperimentDTO e = Fixtures.experiment("plain");
        RunSummaryDTO s = Fixtures.summary("k1", "base", 1);
        try (RunStore store = results.openForWriting(db, Duration.ZERO)) {
            store.record(e, s, Fixtures.result(s, Fixtures.metrics()));
        }
        try (RunStore store = results.openForWriting(db, Duration.ZERO)) { // a second open keeps what is there
            assertNotNull(store.find("k1"));
        }
        assertEquals(List.of(List.of(1L)), results.query(db, "SELECT count(*) FROM meta").rows);
        assertEquals(List.of("plain"), results.experiments(db));
    }

    @Test
    void findGivesBackTheRecordedSummaryWithEveryScalar() throws Exception {
        ExperimentDTO e = Fixtures.experiment("ring", new String[][] {{"eth0.txRing"}, {"64"}, {"256"}});
        RunSummaryDTO s = Fixtures.summary("k1", "base", 7, "eth0.txRing", "256");
        s.violations.add("generated 10 != delivered 9 + dropped 0 + in flight 0");
        s.packetConservation = false;
        RunResultDTO r = Fixtures.result(s, Fixtures.metrics());
        try (RunStore store = results.openForWriting(db, Duration.ZERO)) {
            assertNull(store.find("k1"));
            store.record(e, s, r);
            RunSummaryDTO f = store.find("k1");
            assertNotNull(f);
            assertEquals("k1", f.key);
            assertTrue(f.stored);
            assertEquals("base", f.variant);
            assertEquals(7, f.seed);
            assertEquals(Map.of("eth0.txRing", "256"), f.point);
            assertEquals(RunSummaryDTO.FINISHED, f.state);
            assertNull(f.error);
            assertFalse(f.packetConservation);
            assertTrue(f.bufferConservation);
            assertEquals(s.violations, f.violations);
            assertEquals(s.simulatedSeconds, f.simulatedSeconds);
            assertEquals(s.wallSeconds, f.wallSeconds);
            assertEquals(s.events, f.events);
            assertEquals(s.packets, f.packets);
            assertEquals(s.forkStateHash, f.forkStateHash);
            assertNull(f.headline);
            assertEquals(1, f.swaps.size());
            assertEquals(List.of("eth0", "netdev@0.2.0", "fastnic@0.2.0", "true", "true", "0.5", "12", "0", "13",
                    "0123456789abcdef", "1.0"), swapFields(f.swaps.get(0)));
            assertEquals(1, f.sampleWarnings.size());
            assertEquals("run at least 10s", f.sampleWarnings.get(0).advice);
            assertEquals(100, f.sampleWarnings.get(0).needed);
            Map<String, Double> expected = new LinkedHashMap<>();
            r.elements.forEach((element, m) -> m.forEach((metric, v) -> expected.put(element + "." + metric,
                    v.isNaN() ? null : v)));
            assertEquals(expected, f.metrics);
            assertEquals(new ArrayList<>(expected.keySet()), new ArrayList<>(f.metrics.keySet()), "in the order recorded");
            assertTrue(f.metrics.containsKey("sink.rxBytes") && f.metrics.get("sink.rxBytes") == null, "NaN is null");
            assertNull(store.find("k2"));

            // many keys at once: the same summary, the keys it does not hold absent, an unfinished run absent too
            RunSummaryDTO failed = Fixtures.summary("k3", "base", 8, "eth0.txRing", "64");
            failed.state = RunSummaryDTO.FAILED;
            store.record(e, failed, null);
            Map<String, RunSummaryDTO> many = store.find(List.of("k2", "k1", "k3"));
            assertEquals(List.of("k1"), new ArrayList<>(many.keySet()));
            RunSummaryDTO g = many.get("k1");
            assertTrue(g.stored);
            assertEquals(f.metrics, g.metrics);
            assertEquals(f.violations, g.violations);
            assertEquals(f.point, g.point);
            assertEquals(swapFields(f.swaps.get(0)), swapFields(g.swaps.get(0)));
            assertEquals(f.sampleWarnings.get(0).advice, g.sampleWarnings.get(0).advice);
            assertEquals(Map.of(), store.find(List.of()));
        }
    }

    @Test
    void findIgnoresARunThatDidNotFinish() throws Exception {
        ExperimentDTO e = Fixtures.experiment("plain");
        RunSummaryDTO s = Fixtures.summary("k1", "base", 1);
        s.state = RunSummaryDTO.FAILED;
        s.error = "eth0: ring size 0";
        try (RunStore store = results.openForWriting(db, Duration.ZERO)) {
            store.record(e, s, null);
            assertNull(store.find("k1"));
        }
        List<RunSummaryDTO> runs = results.runs(db, "plain");
        assertEquals(1, runs.size());
        assertEquals("eth0: ring size 0", runs.get(0).error);
        assertEquals(RunSummaryDTO.FAILED, runs.get(0).state);
    }

    @Test
    void aRunRecordedTwiceUnderOneKeyIsThereOnce() throws Exception {
        ExperimentDTO e = Fixtures.experiment("plain");
        RunSummaryDTO s = Fixtures.summary("k1", "base", 1);
        RunSummaryDTO other = Fixtures.summary("k2", "fast", 1);
        try (RunStore store = results.openForWriting(db, Duration.ZERO)) {
            store.record(e, s, Fixtures.result(s, Fixtures.metrics()));
            store.record(e, other, Fixtures.result(other, Fixtures.metrics()));
            s.wallSeconds = 9;
            store.record(e, s, Fixtures.result(s, Map.of("sink.rxMpps", 2.5)));
            assertEquals(Map.of("sink.rxMpps", 2.5), store.find("k1").metrics);
        }
        for (String table : List.of("runs WHERE key", "scalars WHERE run", "series WHERE run", "swaps WHERE run",
                "warnings WHERE run", "timed_points WHERE run")) {
            long expected = switch (table) {
                case "scalars WHERE run" -> 1;
                case "series WHERE run" -> 8; // 4 rows of 2 columns
                case "timed_points WHERE run" -> 2;
                default -> 1;
            };
            assertEquals(List.of(List.of(expected)), results.query(db, "SELECT count(*) FROM " + table + " = 'k1'").rows,
                    table);
        }
        assertEquals(List.of(List.of("k2", 2L), List.of("k1", 3L)),
                results.query(db, "SELECT key, seq FROM runs ORDER BY seq").rows, "the replaced run is recorded anew");
        assertEquals(9.0, results.runs(db, "plain").get(1).wallSeconds);
    }

    @Test
    void aRunThatFailsMidwayLeavesNothingOfItself() throws Exception {
        ExperimentDTO e = Fixtures.experiment("ring", new String[][] {{"eth0.txRing"}, {"64"}});
        RunSummaryDTO first = Fixtures.summary("k0", "base", 1, "eth0.txRing", "64");
        RunSummaryDTO s = Fixtures.summary("k1", "base", 2, "eth0.txRing", "64");
        // a warning without text: its row breaks NOT NULL after the run's row, scalars and series are written
        RunResultDTO badWarning = Fixtures.result(s, Fixtures.metrics());
        badWarning.warnings = new HashMap<>(badWarning.warnings);
        badWarning.warnings.put(null, 1L);
        // an element without name: the scalars break NOT NULL
        RunResultDTO badScalar = Fixtures.result(s, Map.of("sink.rxMpps", 1.0));
        badScalar.elements = new HashMap<>(badScalar.elements);
        badScalar.elements.put(null, Map.of("x", 1.0));
        try (RunStore store = results.openForWriting(db, Duration.ZERO)) {
            store.record(e, first, Fixtures.result(first, Fixtures.metrics()));
            for (RunResultDTO bad : List.of(badWarning, badScalar)) {
                ResultsException x = assertThrows(ResultsException.class, () -> store.record(e, s, bad));
                assertTrue(x.getMessage().startsWith(db + ": run k1 (variant base, seed 2) could not be recorded"),
                        x.getMessage());
                assertNull(store.find("k1"));
            }
            store.record(e, s, Fixtures.result(s, Map.of("sink.rxMpps", 1.0))); // the store still works
            assertNotNull(store.find("k1"));
        }
        assertEquals(List.of(List.of("k0"), List.of("k1")), results.query(db, "SELECT key FROM runs ORDER BY seq").rows);
        // and when the failed record was replacing a run, the run it replaced stays
        try (RunStore store = results.openForWriting(db, Duration.ZERO)) {
            assertThrows(ResultsException.class, () -> store.record(e, s, badWarning));
            assertEquals(Map.of("sink.rxMpps", 1.0), store.find("k1").metrics);
        }
        for (String table : Schema.RUN_TABLES) {
            TableDTO t = results.query(db, "SELECT count(*) FROM " + table + " WHERE run = 'k1'");
            long expected = switch (table) {
                case "scalars", "swaps", "warnings", "sample_warnings", "timed_series" -> 1;
                case "series_lists" -> 2; // two columns of four samples: eight rows of the view series
                case "timed_points" -> 2;
                default -> 0;
            };
            assertEquals(expected, t.rows.get(0).get(0), table);
        }
    }

    @Test
    void sweepParametersGetTypedColumnsAsExperimentsBringThem() throws Exception {
        ExperimentDTO ring = Fixtures.experiment("ring", new String[][] {{"eth0.txRing"}, {"64"}, {"1k"}});
        ExperimentDTO rates = Fixtures.experiment("rates", new String[][] {{"wire.rate"}, {"100Mbit"}, {"1Gbit"}},
                new String[][] {{"q"}, {"pfifo_fast"}, {"fq_codel"}}, new String[][] {{"src.label"}, {"\"a \\\"b\\\"\""}},
                new String[][] {{"eth0.coalesce"}, {"10us"}}, new String[][] {{"eth0.bql"}, {"false"}},
                new String[][] {{"eth0.weight"}, {"0.5"}});
        try (RunStore store = results.openForWriting(db, Duration.ZERO)) {
            store.record(ring, Fixtures.summary("r1", "base", 1, "eth0.txRing", "1k"), null);
            assertEquals(List.of(List.of("eth0.txRing", "BIGINT")), columns("eth0.txRing"));
            RunSummaryDTO s = Fixtures.summary("p1", "fast", 1, "wire.rate", "100Mbit", "q", "fq_codel", "src.label",
                    "\"a \\\"b\\\"\"", "eth0.coalesce", "10us", "eth0.bql", "false", "eth0.weight", "0.5");
            store.record(rates, s, null);
            assertEquals(new ArrayList<>(s.point.keySet()), new ArrayList<>(store.find("p1").point.keySet()));
            assertEquals("\"a \\\"b\\\"\"", store.find("p1").point.get("src.label"), "the point keeps the value as written");
        }
        // eth0.weight: DECIMAL in netdev, but the variant fast retypes eth0 to fastnic, which has no weight: still DOUBLE
        assertEquals(List.of(List.of("eth0.txRing", "BIGINT"), List.of("wire.rate", "BIGINT"), List.of("q", "VARCHAR"),
                List.of("src.label", "VARCHAR"), List.of("eth0.coalesce", "BIGINT"), List.of("eth0.bql", "BOOLEAN"),
                List.of("eth0.weight", "DOUBLE")), columns(null));
        assertEquals(List.of(Arrays.asList(1000L, null, null)),
                results.query(db, "SELECT \"eth0.txRing\", \"wire.rate\", q FROM runs WHERE key = 'r1'").rows);
        assertEquals(List.of(List.<Object>of(100_000_000L, "fq_codel", "a \"b\"", 10_000_000L, false, 0.5)), results.query(db, "SELECT \"wire.rate\", q, \"src.label\", \"eth0.coalesce\","
                        + " \"eth0.bql\", \"eth0.weight\" FROM runs WHERE key = 'p1'").rows);
        TableDTO parameters = results.query(db, "SELECT experiment, name, position, kind, unit, column_name FROM parameters"
                + " ORDER BY experiment, position");
        List<List<Object>> expected = new ArrayList<>();
        expected.add(List.of("rates", "wire.rate", 0L, "RATE", "bit/s", "wire.rate"));
        expected.add(List.of("rates", "q", 1L, "TYPE", "q"));
        expected.add(List.of("rates", "src.label", 2L, "STRING", "src.label"));
        expected.add(List.of("rates", "eth0.coalesce", 3L, "DURATION", "ps", "eth0.coalesce"));
        expected.add(List.of("rates", "eth0.bql", 4L, "BOOLEAN", "eth0.bql"));
        expected.add(List.of("rates", "eth0.weight", 5L, "DECIMAL", "eth0.weight"));
        expected.add(List.of("ring", "eth0.txRing", 0L, "INTEGER", "eth0.txRing"));
        List<List<Object>> actual = new ArrayList<>();
        for (List<Object> row : parameters.rows) {
            List<Object> r = new ArrayList<>(row);
            r.remove(null); // the unit of kinds without one
            actual.add(r);
        }
        assertEquals(expected, actual);
    }

    @Test
    void aParameterNamedLikeARunsColumnAndAKindThatDiffersBetweenTypesAreText() throws Exception {
        // q.limit is an INTEGER in pfifo_fast and a SIZE in fq_codel; an element named "state" swept by type
        ExperimentDTO e = Fixtures.experiment("odd", new String[][] {{"q"}, {"pfifo_fast"}, {"fq_codel"}},
                new String[][] {{"q.limit"}, {"100"}}, new String[][] {{"state"}, {"sink"}});
        try (RunStore store = results.openForWriting(db, Duration.ZERO)) {
            store.record(e, Fixtures.summary("o1", "base", 1, "q", "fq_codel", "q.limit", "100", "state", "sink"), null);
        }
        assertEquals(List.of(List.of("q", "VARCHAR"), List.of("q.limit", "VARCHAR"), List.of("sweep:state", "VARCHAR")),
                columns(null));
        assertEquals(List.of(List.of("fq_codel", "100", "sink", "FINISHED")), results.query(db,
                "SELECT q, \"q.limit\", \"sweep:state\", state FROM runs").rows);
    }

    @Test
    void scalarsCarryTheUnitOfTheTypeTheElementHadInTheRun() throws Exception {
        ExperimentDTO e = Fixtures.experiment("units", new String[][] {{"q"}, {"pfifo_fast"}, {"fq_codel"}});
        RunSummaryDTO base = Fixtures.summary("u1", "base", 1, "q", "pfifo_fast");
        RunSummaryDTO fast = Fixtures.summary("u2", "fast", 1, "q", "fq_codel");
        try (RunStore store = results.openForWriting(db, Duration.ZERO)) {
            store.record(e, base, Fixtures.result(base, Fixtures.metrics()));
            store.record(e, fast, Fixtures.result(fast, Fixtures.metrics()));
        }
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("sink.rxMpps", "Mpps"); // declared without unit: from the name's suffix
        expected.put("sink.latencyP50Micros", "us");
        expected.put("src.txPackets", "packets");
        expected.put("eth0.stream3Cwnd", ""); // a family member, declared a plain number
        expected.put("pool:eth0.rx.allocs", null); // pseudo-elements declare nothing
        expected.put("cpu0.busyPercent", null);
        for (Map.Entry<String, String> m : expected.entrySet()) {
            for (ScalarDTO d : results.scalars(db, "units", m.getKey())) {
                assertEquals(m.getValue(), d.unit, m.getKey() + " in " + d.run);
            }
        }
        // the variant's type and the point's type decide: netdev's limit is B, fastnic's KiB; pfifo_fast's backlog
        // packets, fq_codel's B
        List<ScalarDTO> limit = results.scalars(db, "units", "eth0.limit");
        assertEquals(List.of("u1 base B", "u2 fast KiB"), limit.stream().map(d -> d.run + " " + d.variant + " " + d.unit)
                .toList());
        List<ScalarDTO> backlog = results.scalars(db, "units", "q.backlog");
        assertEquals(List.of("{q=pfifo_fast} packets 4.0", "{q=fq_codel} B 4.0"), backlog.stream()
                .map(d -> d.point + " " + d.unit + " " + d.value).toList());
        List<ScalarDTO> pool = results.scalars(db, "units", "pool:eth0.rx.allocs");
        assertEquals(2, pool.size());
        assertEquals("pool:eth0.rx", pool.get(0).element);
        assertEquals("allocs", pool.get(0).metric);
        assertEquals(2048.0, pool.get(0).value);
        assertNull(results.scalars(db, "units", "sink.rxBytes").get(0).value, "NaN is NULL");
        assertEquals(List.of(), results.scalars(db, "units", "sink.nothing"));
    }

    @Test
    void runsListsAnExperimentsRunsAsRecordedWithItsMetrics() throws Exception {
        ExperimentDTO a = Fixtures.experiment("a");
        ExperimentDTO b = Fixtures.experiment("b");
        try (RunStore store = results.openForWriting(db, Duration.ZERO)) {
            for (String key : List.of("z", "y", "x")) {
                RunSummaryDTO s = Fixtures.summary(key, "base", key.charAt(0));
                store.record(a, s, Fixtures.result(s, Fixtures.metrics()));
            }
            RunSummaryDTO s = Fixtures.summary("w", "fast", 1);
            store.record(b, s, Fixtures.result(s, Map.of("sink.rxMpps", 3.0)));
        }
        assertEquals(List.of("a", "b"), results.experiments(db));
        List<RunSummaryDTO> runs = results.runs(db, "a");
        assertEquals(List.of("z", "y", "x"), runs.stream().map(r -> r.key).toList());
        Map<String, Double> metrics = new LinkedHashMap<>();
        metrics.put("sink.rxMpps", 1.25);
        metrics.put("eth0.limit", 3028.0);
        assertEquals(metrics, runs.get(0).metrics);
        assertEquals(new ArrayList<>(metrics.keySet()), new ArrayList<>(runs.get(0).metrics.keySet()),
                "in the experiment's order");
        assertEquals(Map.of("sink.rxMpps", 3.0), results.runs(db, "b").get(0).metrics);
        assertEquals(List.of(), results.runs(db, "c"));
    }

    @Test
    void workersRecordingAtOnceAreWrittenOneAtATime() throws Exception {
        ExperimentDTO e = Fixtures.experiment("parallel", new String[][] {{"eth0.txRing"}, {"64"}, {"128"}});
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (RunStore store = results.openForWriting(db, Duration.ZERO)) {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < 10; i++) {
                        RunSummaryDTO s = Fixtures.summary("t" + thread + "-" + i, "base", i, "eth0.txRing", "64");
                        store.record(e, s, Fixtures.result(s, Fixtures.metrics()));
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(List.of(List.of(40L, 40L, 1L, 40L)), results.query(db,
                "SELECT count(*), count(DISTINCT seq), min(seq), max(seq) FROM runs").rows);
        assertEquals(List.of(List.of(40L * Fixtures.metrics().size())), results.query(db, "SELECT count(*) FROM scalars").rows);
    }

    @Test
    void inOneProcessAFileHasOneWriterAndReadersSeeWhatItCommitted() throws Exception {
        ExperimentDTO e = Fixtures.experiment("plain");
        RunSummaryDTO s = Fixtures.summary("k1", "base", 1);
        try (RunStore store = results.openForWriting(db, Duration.ZERO)) {
            ResultsException x = assertThrows(ResultsException.class, () -> results.openForWriting(db, Duration.ZERO));
            assertTrue(x.getMessage().startsWith(db + ": already open for writing in this process"), x.getMessage());
            store.record(e, s, Fixtures.result(s, Fixtures.metrics()));
            assertEquals(List.of("k1"), results.runs(db, "plain").stream().map(r -> r.key).toList());
            results.query(db, "DELETE FROM runs"); // the reader's transaction is rolled back
            assertNotNull(store.find("k1"));
        }
        assertEquals(1, results.runs(db, "plain").size());
        results.openForWriting(db, Duration.ZERO).close(); // closed: the file can be opened again
    }

    @Test
    void aClosedStoreRefusesAndClosesTwice() throws Exception {
        RunStore store = results.openForWriting(db, Duration.ZERO);
        store.close();
        store.close();
        ResultsException x = assertThrows(ResultsException.class, () -> store.find("k"));
        assertTrue(x.getMessage().startsWith(db.toString()), x.getMessage());
    }

    private static List<String> swapFields(io.ringlab.sim.api.dto.SwapDTO w) {
        return List.of(w.element, w.from, w.to, String.valueOf(w.handover), String.valueOf(w.applied),
                String.valueOf(w.pauseWallMillis), String.valueOf(w.packetsTransferred), String.valueOf(w.packetsDropped),
                String.valueOf(w.buffersTransferred), w.stateHash, String.valueOf(w.atSimulatedSeconds));
    }

    /** @return runs' parameter columns (after its own), or the one named, with their types */
    private List<List<Object>> columns(String name) throws ResultsException {
        TableDTO t = results.query(db, "SELECT column_name, data_type FROM information_schema.columns WHERE table_name ="
                + " 'runs' ORDER BY ordinal_position");
        List<List<Object>> columns = new ArrayList<>();
        for (List<Object> row : t.rows) {
            if (!Schema.RUNS_COLUMNS.contains(row.get(0)) && (name == null || name.equals(row.get(0)))) {
                columns.add(row);
            }
        }
        return columns;
    }
}

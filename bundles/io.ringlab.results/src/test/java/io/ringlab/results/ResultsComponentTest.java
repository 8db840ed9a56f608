package io.ringlab.results;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringlab.experiment.api.ResultsException;
import io.ringlab.experiment.api.RunStore;
import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.experiment.api.dto.TableDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.SeriesDTO;

/**
 * Reading a results database ({@link ResultsComponent}): series rebuilt, queries with their value types, exports to CSV
 * and Parquet that replace the target only when complete, and files that are not results databases.
 */
class ResultsComponentTest {
    @TempDir
    Path dir;

    private ResultsComponent results;
    private Path db;
    private RunResultDTO recorded;

    @BeforeEach
    void setUp() throws Exception {
        results = new ResultsComponent();
        results.simulator = new FakeSimulator(Fixtures.TYPES);
        db = dir.resolve("results.duckdb");
        ExperimentDTO e = Fixtures.experiment("ring", new String[][] {{"eth0.txRing"}, {"64"}, {"256"}});
        try (RunStore store = results.openForWriting(db, Duration.ZERO)) {
            for (int i = 0; i < 3; i++) {
                RunSummaryDTO s = Fixtures.summary("k" + i, i % 2 == 0 ? "base" : "fast", i, "eth0.txRing", "64");
                RunResultDTO r = Fixtures.result(s, Fixtures.metrics());
                if (i == 0) {
                    r.series = Fixtures.series(600, List.of("sink.rxMpps", "eth0.limit", "pool:eth0.rx.inUse", "cpu0",
                            "q.backlog"));
                    r.series.points.putAll(Fixtures.result(s, Fixtures.metrics()).series.points);
                    recorded = r;
                }
                store.record(e, s, r);
            }
        }
    }

    @Test
    void seriesComeBackAsTheRunReportedThem() throws Exception {
        SeriesDTO s = results.series(db, "k0");
        assertEquals(recorded.series.columns, s.columns);
        assertEquals(recorded.series.rows.size(), s.rows.size());
        for (int i = 0; i < s.rows.size(); i++) {
            assertArrayEquals(recorded.series.rows.get(i), s.rows.get(i), "row " + i); // NaN where it was NaN
        }
        assertEquals(0.001, s.intervalSeconds, 1e-12);
        assertEquals(recorded.series.points.keySet(), s.points.keySet());
        assertArrayEquals(recorded.series.points.get("ping.rttMillis").timeSeconds, s.points.get("ping.rttMillis").timeSeconds);
        assertArrayEquals(recorded.series.points.get("ping.rttMillis").values, s.points.get("ping.rttMillis").values);
        assertEquals(7, s.points.get("ping.rttMillis").dropped);
        assertNull(results.series(db, "nope"));
    }

    @Test
    void queriesGiveLongsDoublesTextBooleansAndNulls() throws Exception {
        TableDTO t = results.query(db, "SELECT key, seed, wall_s, packet_conservation, error, \"eth0.txRing\","
                + " 1.5::DECIMAL(4,2) AS d, 3::HUGEINT AS h, DATE '2026-01-02' AS day FROM runs ORDER BY seq;");
        assertEquals(List.of("key", "seed", "wall_s", "packet_conservation", "error", "eth0.txRing", "d", "h", "day"),
                t.columns);
        assertEquals(Arrays.asList("k0", 0L, 0.25, true, null, 64L, 1.5, 3L, "2026-01-02"), t.rows.get(0));
        assertEquals(3, t.rows.size());
        ResultsException x = assertThrows(ResultsException.class, () -> results.query(db, "SELEC 1"));
        assertTrue(x.getMessage().startsWith(db + ": the query failed: Parser Error: syntax error"), x.getMessage());
        x = assertThrows(ResultsException.class, () -> results.query(db, "DELETE FROM runs"));
        assertTrue(x.getMessage().startsWith(db + ": the query failed: "), x.getMessage());
        assertEquals(3, results.runs(db, "ring").size(), "read-only: nothing deleted");
    }

    @Test
    void exportsCsvWithAHeader() throws Exception {
        Path out = dir.resolve("out.csv");
        Files.writeString(out, "an older export\n");
        long rows = results.export(db, "SELECT key, seed, \"eth0.txRing\" FROM runs ORDER BY seq", out, "CSV");
        assertEquals(3, rows);
        assertEquals(List.of("key,seed,eth0.txRing", "k0,0,64", "k1,1,64", "k2,2,64"), Files.readAllLines(out));
        assertEquals(List.of(out, db), folder(), "no temporary file left");
    }

    @Test
    void exportsParquetThatDuckDbReadsBack() throws Exception {
        Path out = dir.resolve("scalars.parquet");
        long rows = results.export(db, "SELECT run, element, metric, unit, value FROM scalars ORDER BY run, element, metric",
                out, "parquet");
        assertEquals(3L * Fixtures.metrics().size(), rows);
        try (Connection c = DriverManager.getConnection(DuckDb.URL_PREFIX); Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*), count(value), max(value) FILTER (WHERE metric = 'limit'),"
                        + " min(unit) FILTER (WHERE metric = 'limit') FROM read_parquet('" + out + "')")) {
            r.next();
            assertEquals(rows, r.getLong(1));
            assertEquals(rows - 3, r.getLong(2), "sink.rxBytes, NaN, is NULL in every run");
            assertEquals(3028.0, r.getDouble(3));
            assertEquals("B", r.getString(4));
        }
    }

    @Test
    void aFailedExportLeavesNoFileAndTheTargetAsItWas() throws Exception {
        Path out = dir.resolve("out.csv");
        Files.writeString(out, "an older export\n");
        ResultsException x = assertThrows(ResultsException.class, () -> results.export(db, "SELECT nope FROM runs", out,
                "csv"));
        assertTrue(x.getMessage().startsWith(db + ": the query failed: Binder Error"), x.getMessage());
        assertEquals("an older export\n", Files.readString(out));

        x = assertThrows(ResultsException.class, () -> results.export(db, "SELECT 1", dir.resolve("new.xlsx"), "xlsx"));
        assertEquals(dir.resolve("new.xlsx") + ": cannot export as 'xlsx': the formats are csv and parquet", x.getMessage());

        Path missing = dir.resolve("missing/folder/out.csv");
        x = assertThrows(ResultsException.class, () -> results.export(db, "SELECT 1", missing, "csv"));
        assertTrue(x.getMessage().startsWith(missing + ": cannot export there: the folder"), x.getMessage());
        assertFalse(Files.exists(missing.getParent()));
        assertEquals(List.of(out, db), folder(), "no temporary file left");
    }

    @Test
    void aFileThatIsNoResultsDatabaseIsRefusedByName() throws Exception {
        Path other = dir.resolve("other.duckdb");
        try (Connection c = DriverManager.getConnection(DuckDb.URL_PREFIX + other); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE x(a INTEGER)");
        }
        Path text = dir.resolve("notes.txt");
        Files.writeString(text, "not a database\n");
        Path version2 = dir.resolve("v2.duckdb");
        try (Connection c = DriverManager.getConnection(DuckDb.URL_PREFIX + version2); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE meta(schema_version INTEGER, created_by VARCHAR)");
            s.execute("INSERT INTO meta VALUES (2, 'Ringlab')");
        }
        for (Path p : List.of(other, text)) {
            ResultsException w = assertThrows(ResultsException.class, () -> results.openForWriting(p, Duration.ZERO));
            assertTrue(w.getMessage().startsWith(p + ": not a Ringlab results database"), w.getMessage());
            ResultsException r = assertThrows(ResultsException.class, () -> results.experiments(p));
            assertTrue(r.getMessage().startsWith(p + ": not a Ringlab results database"), r.getMessage());
        }
        assertEquals("not a database\n", Files.readString(text), "left as it was");
        ResultsException v = assertThrows(ResultsException.class, () -> results.runs(version2, "x"));
        assertTrue(v.getMessage().startsWith(version2 + ": a Ringlab results database of schema version 2, this Ringlab"
                + " reads 1"), v.getMessage());
        v = assertThrows(ResultsException.class, () -> results.openForWriting(version2, Duration.ZERO));
        assertTrue(v.getMessage().contains("schema version 2, this Ringlab reads 1"), v.getMessage());
        Path missing = dir.resolve("missing.duckdb");
        ResultsException m = assertThrows(ResultsException.class, () -> results.query(missing, "SELECT 1"));
        assertEquals(missing + ": no such results database", m.getMessage());
        assertFalse(Files.exists(missing), "a reader creates nothing");
    }

    /** @return the files in the test's folder, sorted */
    private List<Path> folder() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.sorted().toList();
        }
    }
}

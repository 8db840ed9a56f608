package io.ringlab.results;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.ringlab.experiment.api.ResultsException;
import io.ringlab.experiment.api.RunStore;
import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.pipeline.format.Units;
import io.ringlab.sim.api.dto.PointsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.SampleWarningDTO;
import io.ringlab.sim.api.dto.SeriesDTO;
import io.ringlab.sim.api.dto.SwapDTO;
import io.ringlab.sim.api.dto.ValueDTO;

/**
 * A results database open for writing ({@link Schema} has the tables): one DuckDB connection, and with it DuckDB's lock
 * on the file, held from {@link #open} to {@link #close()}. A process opens a file for writing once at a time; its
 * readers meanwhile share the writer's database ({@link Database#openForReading}).
 * <p>
 * {@link #record} writes a run in one transaction: the experiment's row and its parameters' columns the first time the
 * store sees the experiment, then the run's rows in every table, after deleting what an earlier run under the same key
 * left. Scalars and series go through DuckDB's appender ({@link Rows}).
 * <p>
 * Thread-safe: the experiment's workers record from several threads; every call holds the store's lock, so runs are
 * written one at a time.
 */
final class DuckStore implements RunStore {
    /** The files open for writing in this process, absolute and normalised. */
    private static final Set<Path> OPEN = ConcurrentHashMap.newKeySet();

    private final Path file;
    private final Catalog catalog;
    private final Object lock = new Object();
    /** The connection, auto-commit off; {@code null} once closed. Guarded by {@link #lock}. */
    private Connection connection;
    /**
     * The experiments whose row, parameters and columns are committed in this file, with the type of each parameter's
     * column as the file has it. Guarded by {@link #lock}.
     */
    private final Map<ExperimentDTO, Map<Parameters.Parameter, String>> prepared = new IdentityHashMap<>();

    private DuckStore(Path file, Connection connection, Catalog catalog) {
        this.file = file;
        this.connection = connection;
        this.catalog = catalog;
    }

    /**
     * @param driver DuckDB's driver
     * @param file the database; created with its folders if need be
     * @param wait how long to wait for another process to let go of the file
     * @param catalog the element types, for units and the parameters' kinds
     * @return the store, open
     * @throws ResultsException naming the file and why it cannot be written
     */
    static DuckStore open(Driver driver, Path file, Duration wait, Catalog catalog) throws ResultsException {
        Path id = id(file);
        if (!OPEN.add(id)) {
            throw new ResultsException(file + ": already open for writing in this process (an experiment records into"
                    + " it); one writer at a time: wait for it to end, or give another file with --db");
        }
        try {
            return new DuckStore(file, Database.openForWriting(driver, file, wait), catalog);
        } catch (ResultsException | RuntimeException e) {
            OPEN.remove(id);
            throw e;
        }
    }

    /**
     * @param file a database
     * @return whether a store of this process has it open for writing
     */
    static boolean openHere(Path file) {
        return OPEN.contains(id(file));
    }

    private static Path id(Path file) {
        return file.toAbsolutePath().normalize();
    }

    @Override
    public RunSummaryDTO find(String key) throws ResultsException {
        Objects.requireNonNull(key, "key");
        synchronized (lock) {
            Connection c = connection();
            try {
                List<RunSummaryDTO> runs = Reading.summaries(c, Reading.KEY, key, null);
                c.rollback(); // ends the read's transaction: nothing to undo
                if (runs.isEmpty() || !RunSummaryDTO.FINISHED.equals(runs.get(0).state)) {
                    return null;
                }
                RunSummaryDTO d = runs.get(0);
                d.stored = true;
                return d;
            } catch (SQLException | RuntimeException e) {
                rollback(c);
                throw new ResultsException(file + ": cannot read run " + key + ": " + e.getMessage(), e);
            }
        }
    }

    /** The finished runs among the keys, read a thousand keys at a time: a few queries, not a few per run. */
    @Override
    public Map<String, RunSummaryDTO> find(java.util.Collection<String> keys) throws ResultsException {
        Map<String, RunSummaryDTO> found = new LinkedHashMap<>();
        List<String> all = new ArrayList<>(keys);
        synchronized (lock) {
            Connection c = connection();
            try {
                for (int from = 0; from < all.size(); from += 1000) {
                    List<String> part = all.subList(from, Math.min(all.size(), from + 1000));
                    for (RunSummaryDTO d : Reading.summaries(c, Reading.keys(part), null, null)) {
                        if (RunSummaryDTO.FINISHED.equals(d.state)) {
                            d.stored = true;
                            found.put(d.key, d);
                        }
                    }
                }
                c.rollback(); // ends the read's transaction: nothing to undo
            } catch (SQLException | RuntimeException e) {
                rollback(c);
                throw new ResultsException(file + ": the runs could not be looked up: "
                        + Database.firstLine(String.valueOf(e.getMessage())), e);
            }
        }
        return found;
    }

    @Override
    public void record(ExperimentDTO experiment, List<RunSummaryDTO> summaries, List<RunResultDTO> results)
            throws ResultsException {
        Objects.requireNonNull(experiment, "experiment");
        Objects.requireNonNull(summaries, "summaries");
        Objects.requireNonNull(results, "results");
        if (summaries.size() != results.size()) {
            throw new IllegalArgumentException(summaries.size() + " summaries but " + results.size() + " results");
        }
        for (RunSummaryDTO summary : summaries) {
            Objects.requireNonNull(summary.key, "summary.key");
        }
        synchronized (lock) {
            Connection c = connection();
            Map<Parameters.Parameter, String> columns = prepared.get(experiment);
            boolean first = columns == null;
            RunSummaryDTO current = null;
            boolean flushing = false;
            try {
                if (first) {
                    columns = prepare(c, experiment);
                }
                try (Sink sink = new Sink(c)) {
                    sink.start(summaries);
                    for (int i = 0; i < summaries.size(); i++) {
                        current = summaries.get(i);
                        write(c, sink, experiment, current, results.get(i), columns);
                    }
                    flushing = summaries.size() > 1;
                    sink.finish(); // the appenders' rows reach the transaction (a row that breaks a rule fails here)
                }
                c.commit();
                if (first) {
                    prepared.put(experiment, columns);
                }
            } catch (SQLException | RuntimeException e) {
                rollback(c);
                String which = current == null ? "" : "run " + current.key + " (variant " + current.variant + ", seed "
                        + current.seed + ")";
                String what = summaries.size() == 1 ? which : flushing ? summaries.size() + " runs recorded together"
                        : summaries.size() + " runs recorded together, at " + which + ",";
                throw new ResultsException(file + ": " + what + " could not be recorded, nothing of "
                        + (summaries.size() == 1 ? "it" : "them") + " is in the database: "
                        + Database.firstLine(String.valueOf(e.getMessage())), e);
            }
        }
    }

    @Override
    public void close() {
        synchronized (lock) {
            if (connection != null) {
                Database.close(connection);
                connection = null;
                OPEN.remove(id(file));
            }
        }
    }

    @Override
    public String toString() {
        return "results database " + file;
    }

    private Connection connection() throws ResultsException {
        if (connection == null) {
            throw new ResultsException(file + ": the results database was closed");
        }
        return connection;
    }

    /**
     * The experiment's row, its parameters, and a column in {@code runs} for each parameter the file has no column for.
     *
     * @return each parameter to its column's type in the file
     */
    private Map<Parameters.Parameter, String> prepare(Connection c, ExperimentDTO e) throws SQLException {
        String name = name(e);
        Map<String, String> existing = new LinkedHashMap<>();
        Schema.columns(c, "runs").forEach((column, type) -> existing.put(column.toLowerCase(Locale.ROOT), type));
        Map<Parameters.Parameter, String> columns = new LinkedHashMap<>();
        for (Parameters.Parameter p : Parameters.of(e, catalog).list()) {
            String type = existing.get(p.column().toLowerCase(Locale.ROOT));
            if (type == null) {
                Schema.addColumn(c, p.column(), p.sqlType());
                type = p.sqlType();
                existing.put(p.column().toLowerCase(Locale.ROOT), type);
            }
            columns.put(p, type);
        }
        try (PreparedStatement s = c.prepareStatement("INSERT OR REPLACE INTO experiments VALUES (?, ?, ?, ?, ?)")) {
            s.setString(1, name);
            s.setString(2, e.file);
            s.setString(3, e.description);
            s.setString(4, e.pipelineFile);
            List<String> metrics = new ArrayList<>();
            for (ValueDTO m : e.metrics) {
                metrics.add(m.text);
            }
            s.setString(5, Json.list(metrics));
            s.execute();
        }
        try (PreparedStatement s = c.prepareStatement("DELETE FROM parameters WHERE experiment = ?")) {
            s.setString(1, name);
            s.execute();
        }
        try (PreparedStatement s = c.prepareStatement("INSERT INTO parameters VALUES (?, ?, ?, ?, ?, ?)")) {
            for (Parameters.Parameter p : columns.keySet()) {
                s.setString(1, name);
                s.setString(2, p.target());
                s.setInt(3, p.position());
                s.setString(4, p.kind());
                s.setString(5, p.unit());
                s.setString(6, p.column());
                s.addBatch();
            }
            if (!columns.isEmpty()) {
                s.executeBatch();
            }
        }
        return columns;
    }

    private void write(Connection c, Sink sink, ExperimentDTO e, RunSummaryDTO summary, RunResultDTO result,
            Map<Parameters.Parameter, String> columns) throws SQLException {
        String key = summary.key;
        long seq = sink.seq++; // the next in the file; a replaced run is recorded anew, after the others
        if (sink.existing.contains(key)) {
            try (Statement s = c.createStatement()) {
                for (String table : Schema.RUN_TABLES) {
                    s.execute("DELETE FROM " + table + " WHERE run = " + Schema.literal(key));
                }
                s.execute("DELETE FROM runs WHERE key = " + Schema.literal(key));
            }
        }
        Map<String, List<String>> types = Catalog.runTypes(e, summary.variant, summary.point);
        insertRun(sink, e, summary, result, columns, seq, types);
        List<String> violations = !summary.violations.isEmpty() || result == null ? summary.violations
                : result.invariants.violations;
        List<SwapDTO> swaps = !summary.swaps.isEmpty() || result == null ? summary.swaps : result.swaps;
        List<SampleWarningDTO> sampleWarnings = !summary.sampleWarnings.isEmpty() || result == null
                ? summary.sampleWarnings : result.sampleWarnings;
        if (result != null) {
            scalars(sink, key, result, types);
            if (result.series != null) {
                series(sink, key, result.series);
            }
            if (!result.warnings.isEmpty()) {
                Rows w = sink.rows("warnings", 3);
                for (Map.Entry<String, Long> m : result.warnings.entrySet()) {
                    w.begin();
                    w.text(key);
                    w.text(m.getKey());
                    w.integer(m.getValue() == null ? 0 : m.getValue());
                    w.end();
                }
            }
        }
        if (!violations.isEmpty()) {
            Rows w = sink.rows("violations", 3);
            for (int i = 0; i < violations.size(); i++) {
                w.begin();
                w.text(key);
                w.ordinal(i);
                w.text(violations.get(i));
                w.end();
            }
        }
        if (!swaps.isEmpty()) {
            swaps(sink, key, swaps);
        }
        if (!sampleWarnings.isEmpty()) {
            Rows w = sink.rows("sample_warnings", 6);
            for (int i = 0; i < sampleWarnings.size(); i++) {
                SampleWarningDTO s = sampleWarnings.get(i);
                w.begin();
                w.text(key);
                w.ordinal(i);
                w.text(s.metric);
                w.integer(s.samples);
                w.integer(s.needed);
                w.text(s.advice);
                w.end();
            }
        }
    }

    private void insertRun(Sink sink, ExperimentDTO e, RunSummaryDTO summary, RunResultDTO result,
            Map<Parameters.Parameter, String> columns, long seq, Map<String, List<String>> types) throws SQLException {
        StringBuilder sql = new StringBuilder("INSERT INTO runs (").append(String.join(", ", Schema.RUNS_COLUMNS));
        StringBuilder marks = new StringBuilder("?,".repeat(Schema.RUNS_COLUMNS.size() - 1)).append('?');
        for (Parameters.Parameter p : columns.keySet()) {
            sql.append(", ").append(Schema.quote(p.column()));
            marks.append(", ?");
        }
        PreparedStatement s = sink.statement(sql.append(") VALUES (").append(marks).append(')').toString());
        int i = 0;
        s.setString(++i, summary.key);
        s.setLong(++i, seq);
        s.setString(++i, name(e));
        s.setString(++i, summary.variant);
        s.setLong(++i, summary.seed);
        s.setString(++i, Json.object(summary.point));
        setDouble(s, ++i, durationSeconds(e));
        s.setDouble(++i, e.warmupPicos / 1e12);
        s.setDouble(++i, e.forkPicos / 1e12);
        s.setString(++i, result == null ? null : result.ringlabVersion);
        s.setString(++i, result == null ? null : Json.object(result.bundles));
        s.setString(++i, result != null && result.pipeline != null ? result.pipeline
                : e.pipeline != null ? e.pipeline.name : null);
        s.setString(++i, summary.state);
        s.setString(++i, summary.error);
        s.setBoolean(++i, summary.packetConservation);
        s.setBoolean(++i, summary.bufferConservation);
        setDouble(s, ++i, summary.simulatedSeconds);
        setDouble(s, ++i, summary.wallSeconds);
        s.setLong(++i, summary.events);
        s.setLong(++i, summary.packets);
        s.setString(++i, summary.forkStateHash);
        s.setTimestamp(++i, Schema.utcNow());
        for (Map.Entry<Parameters.Parameter, String> p : columns.entrySet()) {
            String text = summary.point.get(p.getKey().target());
            Object v = text == null ? null : fit(p.getValue(), Parameters.value(p.getKey(), text, catalog, types), text);
            if (v == null) {
                s.setNull(++i, Types.NULL);
            } else {
                s.setObject(++i, v);
            }
        }
        s.addBatch(); // executed with the batch's other runs (Sink.finish)
    }

    /**
     * @return the value for a column of the type the file has: the converted value where it fits, the text as written
     *         (without quotes) in a text column, {@code null} where neither fits (a column an earlier experiment typed
     *         otherwise); the point keeps the text in every case
     */
    private static Object fit(String columnType, Object value, String text) {
        return switch (columnType) {
            case "VARCHAR" -> Parameters.unquote(text);
            case "BIGINT" -> value instanceof Long ? value : null;
            case "DOUBLE" -> value instanceof Long l ? (Object) l.doubleValue() : value instanceof Double ? value : null;
            case "BOOLEAN" -> value instanceof Boolean ? value : null;
            default -> null;
        };
    }

    private void scalars(Sink sink, String key, RunResultDTO result, Map<String, List<String>> types)
            throws SQLException {
        if (result.elements.isEmpty()) {
            return;
        }
        Rows w = sink.rows("scalars", 5);
        for (Map.Entry<String, Map<String, Double>> element : result.elements.entrySet()) {
            List<String> elementTypes = types.getOrDefault(element.getKey(), List.of());
            for (Map.Entry<String, Double> m : element.getValue().entrySet()) {
                w.begin();
                w.text(key);
                w.text(element.getKey());
                w.text(m.getKey());
                w.text(m.getKey() == null ? null : catalog.unit(elementTypes, m.getKey()));
                w.number(m.getValue() == null ? Double.NaN : m.getValue());
                w.end();
            }
        }
    }

    /**
     * The sampled series, one row of {@code series_lists} per column (column 0 is the time): the sample times and the
     * column's values as two lists, NaN as NULL; the view {@code series} unnests them into the long format. Then the
     * series of points.
     */
    private static void series(Sink sink, String key, SeriesDTO series) throws SQLException {
        int n = series.columns.size();
        if (n > 1 && !series.rows.isEmpty()) {
            int rows = series.rows.size();
            double[] t = new double[rows];
            for (int r = 0; r < rows; r++) {
                t[r] = series.rows.get(r)[0];
            }
            Rows w = sink.rows("series_lists", 5);
            double[] v = new double[rows];
            for (int i = 1; i < n; i++) {
                String name = series.columns.get(i);
                int dot = name.lastIndexOf('.');
                for (int r = 0; r < rows; r++) {
                    double[] row = series.rows.get(r);
                    v[r] = i < row.length ? row[i] : Double.NaN;
                }
                w.begin();
                w.text(key);
                w.text(dot < 0 ? "" : name.substring(0, dot));
                w.text(name.substring(dot + 1));
                w.numbers(t);
                w.numbers(v);
                w.end();
            }
        }
        if (series.points == null || series.points.isEmpty()) {
            return;
        }
        Rows named = sink.rows("timed_series", 4);
        Rows w = sink.rows("timed_points", 5);
        for (Map.Entry<String, PointsDTO> p : series.points.entrySet()) {
            int dot = p.getKey().lastIndexOf('.');
            String element = dot < 0 ? "" : p.getKey().substring(0, dot);
            String metric = p.getKey().substring(dot + 1);
            named.begin();
            named.text(key);
            named.text(element);
            named.text(metric);
            named.integer(p.getValue().dropped);
            named.end();
            double[] t = p.getValue().timeSeconds;
            double[] v = p.getValue().values;
            for (int i = 0; i < Math.min(t.length, v.length); i++) {
                w.begin();
                w.text(key);
                w.text(element);
                w.text(metric);
                w.number(t[i]);
                w.number(v[i]);
                w.end();
            }
        }
    }

    private static void swaps(Sink sink, String key, List<SwapDTO> swaps) throws SQLException {
        Rows w = sink.rows("swaps", 14);
        for (int i = 0; i < swaps.size(); i++) {
            SwapDTO s = swaps.get(i);
            w.begin();
            w.text(key);
            w.ordinal(i);
            w.number(s.atSimulatedSeconds);
            w.text(s.element);
            w.text(s.from);
            w.text(s.to);
            w.bool(s.handover);
            w.bool(s.applied);
            w.text(s.message);
            w.number(s.pauseWallMillis);
            w.integer(s.packetsTransferred);
            w.integer(s.packetsDropped);
            w.integer(s.buffersTransferred);
            w.text(s.stateHash);
            w.end();
        }
    }

    /** @return the experiment's name, or its file's when it has none (an experiment built by hand) */
    static String name(ExperimentDTO e) {
        return e.name != null ? e.name : Objects.requireNonNullElse(e.file, "<input>");
    }

    /** @return each run's duration: the experiment's, else its pipeline's, else one second; NaN if unreadable */
    private static double durationSeconds(ExperimentDTO e) {
        if (e.durationPicos > 0) {
            return e.durationPicos / 1e12;
        }
        if (e.pipeline != null && e.pipeline.duration != null && e.pipeline.duration.text != null) {
            try {
                return Units.parsePicos(e.pipeline.duration.text) / 1e12;
            } catch (IllegalArgumentException ex) {
                return Double.NaN;
            }
        }
        return 1;
    }

    private static void setDouble(PreparedStatement s, int i, double v) throws SQLException {
        if (Double.isNaN(v)) {
            s.setNull(i, Types.DOUBLE);
        } else {
            s.setDouble(i, v);
        }
    }

    /**
     * The appenders of one record call, one per table, opened when first asked for and shared by every run of the call:
     * opening and flushing an appender costs about a millisecond, its rows microseconds.
     */
    private static final class Sink implements AutoCloseable {
        private final Connection c;
        private final Map<String, Rows> open = new LinkedHashMap<>();
        private final Map<String, PreparedStatement> statements = new LinkedHashMap<>();
        /** The next run's {@code seq}. */
        long seq;
        /** The keys of the call's runs that the file holds already (their rows are replaced). */
        Set<String> existing = Set.of();

        Sink(Connection c) {
            this.c = c;
        }

        /** Reads, in two queries for the whole call, where {@code seq} goes on and which of the runs are there. */
        void start(List<RunSummaryDTO> summaries) throws SQLException {
            StringBuilder keys = new StringBuilder();
            for (RunSummaryDTO s : summaries) {
                keys.append(keys.length() == 0 ? "" : ", ").append(Schema.literal(s.key));
            }
            Set<String> found = new java.util.HashSet<>();
            try (Statement s = c.createStatement()) {
                try (ResultSet r = s.executeQuery("SELECT coalesce(max(seq), 0) + 1 FROM runs")) {
                    r.next();
                    seq = r.getLong(1);
                }
                try (ResultSet r = s.executeQuery("SELECT key FROM runs WHERE key IN (" + keys + ")")) {
                    while (r.next()) {
                        found.add(r.getString(1));
                    }
                }
            }
            existing = found;
        }

        /** @return the statement for this SQL, prepared once per call: its rows go in as a batch */
        PreparedStatement statement(String sql) throws SQLException {
            PreparedStatement s = statements.get(sql);
            if (s == null) {
                s = c.prepareStatement(sql);
                statements.put(sql, s);
            }
            return s;
        }

        Rows rows(String table, int columns) throws SQLException {
            Rows r = open.get(table);
            if (r == null) {
                r = Rows.into(c, table, columns);
                open.put(table, r);
            }
            return r;
        }

        /** Hands every batched statement's and appender's rows to the transaction. */
        void finish() throws SQLException {
            for (PreparedStatement s : statements.values()) {
                s.executeBatch();
            }
            for (Rows r : open.values()) {
                r.finish();
            }
        }

        @Override
        public void close() {
            open.values().forEach(Rows::close);
            for (PreparedStatement s : statements.values()) {
                try {
                    s.close();
                } catch (SQLException e) {
                    // closing after the transaction's end: nothing of the data depends on it
                }
            }
        }
    }

    private static void rollback(Connection c) {
        try {
            c.rollback();
        } catch (SQLException e) {
            // the failure being reported is the one that matters; a connection that cannot roll back fails next time
        }
    }
}

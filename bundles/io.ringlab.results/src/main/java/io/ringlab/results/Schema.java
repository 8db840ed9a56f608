package io.ringlab.results;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.ringlab.experiment.api.ResultsException;

/**
 * The tables of a results database, version {@value #VERSION} (docs/experiments.md, "The results database"), and the
 * checks that a file is one. Every table that holds a part of a run names it by its key in a column {@code run}; NaN
 * is stored as {@code NULL}; durations are in seconds unless the column's name says otherwise ({@code pause_wall_ms}); timestamps are UTC.
 * <ul>
 * <li>{@code meta}: one row, the schema's version, {@code created_by = 'Ringlab'}, by which a file is known as a
 * results database, and when it was created.</li>
 * <li>{@code experiments}: one row per experiment name, its file and the metrics it compares (a JSON list, in the
 * experiment's order).</li>
 * <li>{@code parameters}: an experiment's sweep targets in order ({@code position}), each with its property's kind (or
 * {@code TYPE} for an element's type), its base unit and its column in {@code runs}.</li>
 * <li>{@code runs}: one row per run key, with a typed column per sweep parameter added as experiments bring new ones
 * ({@link #addColumn}); {@code seq} orders the runs as they were recorded.</li>
 * <li>{@code scalars}, {@code series_lists}: every metric of a run's result, and its sampled series, a row per column
 * with its sample times and values as lists (the view {@code series} gives them in long format, a row per sample and
 * column); {@code timed_series} and {@code timed_points} the series of points at their own times.</li>
 * <li>{@code swaps}, {@code warnings}, {@code violations}, {@code sample_warnings}: the rest of a run's result.</li>
 * </ul>
 * Stateless and thread-safe; the connections passed in are the caller's.
 */
final class Schema {
    /** The version this Ringlab writes and reads. */
    static final int VERSION = 1;
    /** {@code meta.created_by}. */
    static final String CREATED_BY = "Ringlab";

    /** The tables a run has rows in, besides {@code runs}. */
    static final List<String> RUN_TABLES = List.of("scalars", "series_lists", "timed_series", "timed_points", "swaps", "warnings",
            "violations", "sample_warnings");

    /** {@code runs}' own columns, in order, lower case: a sweep parameter's column must not take one's name. */
    static final List<String> RUNS_COLUMNS = List.of("key", "seq", "experiment", "variant", "seed", "point", "duration_s",
            "warmup_s", "fork_s", "ringlab_version", "bundles", "pipeline", "state", "error", "packet_conservation",
            "buffer_conservation", "simulated_s", "wall_s", "events", "packets", "fork_state_hash", "recorded_at");

    /** The statements that create version 1, in order. */
    static final List<String> CREATE = List.of(
            "CREATE TABLE meta(schema_version INTEGER NOT NULL, created_by VARCHAR NOT NULL, created_at TIMESTAMP NOT NULL)",
            "CREATE TABLE experiments(name VARCHAR PRIMARY KEY, file VARCHAR, description VARCHAR, pipeline_file VARCHAR,"
                    + " metrics VARCHAR NOT NULL)",
            "CREATE TABLE parameters(experiment VARCHAR NOT NULL, name VARCHAR NOT NULL, position INTEGER NOT NULL,"
                    + " kind VARCHAR, unit VARCHAR, column_name VARCHAR NOT NULL, PRIMARY KEY(experiment, name))",
            "CREATE TABLE runs(key VARCHAR PRIMARY KEY, seq BIGINT NOT NULL, experiment VARCHAR NOT NULL,"
                    + " variant VARCHAR NOT NULL, seed BIGINT NOT NULL, point VARCHAR NOT NULL, duration_s DOUBLE,"
                    + " warmup_s DOUBLE, fork_s DOUBLE, ringlab_version VARCHAR, bundles VARCHAR, pipeline VARCHAR,"
                    + " state VARCHAR NOT NULL, error VARCHAR, packet_conservation BOOLEAN, buffer_conservation BOOLEAN,"
                    + " simulated_s DOUBLE, wall_s DOUBLE, events BIGINT, packets BIGINT, fork_state_hash VARCHAR,"
                    + " recorded_at TIMESTAMP)",
            "CREATE TABLE scalars(run VARCHAR NOT NULL, element VARCHAR NOT NULL, metric VARCHAR NOT NULL, unit VARCHAR,"
                    + " value DOUBLE)",
            // a series' column per row, its sample times and values as lists: appending a run's thousands of samples
            // row by row costs about 1 µs each (10 ms for a 100 ms netdev-bql run), a list per column a few µs;
            // the view gives the long format
            "CREATE TABLE series_lists(run VARCHAR NOT NULL, element VARCHAR NOT NULL, metric VARCHAR NOT NULL,"
                    + " t DOUBLE[] NOT NULL, value DOUBLE[] NOT NULL)",
            "CREATE VIEW series AS SELECT run, element, metric, unnest(t) AS t, unnest(value) AS value FROM series_lists",
            "CREATE TABLE timed_series(run VARCHAR NOT NULL, element VARCHAR NOT NULL, metric VARCHAR NOT NULL,"
                    + " dropped BIGINT NOT NULL)",
            "CREATE TABLE timed_points(run VARCHAR NOT NULL, element VARCHAR NOT NULL, metric VARCHAR NOT NULL,"
                    + " t DOUBLE NOT NULL, value DOUBLE)",
            "CREATE TABLE swaps(run VARCHAR NOT NULL, n INTEGER NOT NULL, at_s DOUBLE, element VARCHAR, from_impl VARCHAR,"
                    + " to_impl VARCHAR, handover BOOLEAN, applied BOOLEAN, message VARCHAR, pause_wall_ms DOUBLE,"
                    + " packets_transferred BIGINT, packets_dropped BIGINT, buffers_transferred BIGINT, state_hash VARCHAR)",
            "CREATE TABLE warnings(run VARCHAR NOT NULL, name VARCHAR NOT NULL, count BIGINT NOT NULL)",
            "CREATE TABLE violations(run VARCHAR NOT NULL, n INTEGER NOT NULL, text VARCHAR NOT NULL)",
            "CREATE TABLE sample_warnings(run VARCHAR NOT NULL, n INTEGER NOT NULL, metric VARCHAR, samples BIGINT,"
                    + " needed BIGINT, advice VARCHAR)",
            // find() and the replacement of a run read a run's few dozen scalars: an index lookup. The series are
            // read a whole run at a time, thousands of rows, where DuckDB scans anyway (it takes an index only for
            // a few rows), so an index there would only slow every record.
            "CREATE INDEX scalars_run ON scalars(run)");

    private Schema() {
    }

    /**
     * Creates the tables in a file that has none, or checks the version of a results database, in one transaction.
     *
     * @param c a read-write connection with auto-commit off
     * @param file the file, for messages
     * @throws ResultsException if the file holds other tables, or a results database of another version
     * @throws SQLException if DuckDB fails
     */
    static void createOrCheck(Connection c, Path file) throws ResultsException, SQLException {
        try {
            if (tableCount(c) == 0) {
                try (Statement s = c.createStatement()) {
                    for (String sql : CREATE) {
                        s.execute(sql);
                    }
                }
                try (PreparedStatement s = c.prepareStatement("INSERT INTO meta VALUES (?, ?, ?)")) {
                    s.setInt(1, VERSION);
                    s.setString(2, CREATED_BY);
                    s.setTimestamp(3, utcNow());
                    s.execute();
                }
            } else {
                check(c, file);
            }
            c.commit();
        } catch (ResultsException | SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        }
    }

    /**
     * @param c a connection to the file
     * @param file the file, for messages
     * @throws ResultsException if the file is not a results database of version {@value #VERSION}
     * @throws SQLException if DuckDB fails
     */
    static void check(Connection c, Path file) throws ResultsException, SQLException {
        Map<String, String> meta = columns(c, "meta");
        if (!meta.containsKey("schema_version") || !meta.containsKey("created_by")) {
            throw new ResultsException(file + ": not a Ringlab results database (a DuckDB file without Ringlab's meta table)");
        }
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT schema_version, created_by FROM meta")) {
            if (!r.next() || !CREATED_BY.equals(r.getString(2))) {
                throw new ResultsException(file + ": not a Ringlab results database (its meta table names no Ringlab)");
            }
            int version = r.getInt(1);
            if (version != VERSION) {
                throw new ResultsException(file + ": a Ringlab results database of schema version " + version
                        + ", this Ringlab reads " + VERSION + (version > VERSION ? ": read it with a newer Ringlab"
                                : ": record the experiment again into a new file"));
            }
        }
    }

    /**
     * @param c a connection
     * @param table a table of the {@code main} schema
     * @return its columns, lower-cased name to their name as written, in order, each mapped to its SQL type (upper case,
     *         as DuckDB names it); empty if there is no such table
     * @throws SQLException if DuckDB fails
     */
    static Map<String, String> columns(Connection c, String table) throws SQLException {
        Map<String, String> columns = new LinkedHashMap<>();
        try (PreparedStatement s = c.prepareStatement("SELECT column_name, data_type FROM information_schema.columns"
                + " WHERE table_schema = 'main' AND table_name = ? ORDER BY ordinal_position")) {
            s.setString(1, table);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    columns.put(r.getString(1), r.getString(2).toUpperCase(Locale.ROOT));
                }
            }
        }
        return columns;
    }

    /**
     * Adds a sweep parameter's column to {@code runs}.
     *
     * @param c a connection in the caller's transaction
     * @param column the column's name, as the target is written
     * @param sqlType {@code BIGINT}, {@code DOUBLE}, {@code BOOLEAN} or {@code VARCHAR}
     * @throws SQLException if DuckDB fails
     */
    static void addColumn(Connection c, String column, String sqlType) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("ALTER TABLE runs ADD COLUMN " + quote(column) + " " + sqlType);
        }
    }

    /** @return the time now in UTC, as a {@code TIMESTAMP} value (the database's times are UTC, without zone) */
    static Timestamp utcNow() {
        return Timestamp.valueOf(LocalDateTime.now(ZoneOffset.UTC));
    }

    /** @return an SQL identifier in double quotes, its own double quotes doubled */
    static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    /** @return an SQL string literal in single quotes, its own single quotes doubled */
    static String literal(String text) {
        return '\'' + text.replace("'", "''") + '\'';
    }

    private static int tableCount(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'main'")) {
            r.next();
            return r.getInt(1);
        }
    }
}

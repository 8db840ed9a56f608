package io.ringlab.results;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.experiment.api.dto.ScalarDTO;
import io.ringlab.experiment.api.dto.TableDTO;
import io.ringlab.sim.api.dto.PointsDTO;
import io.ringlab.sim.api.dto.SampleWarningDTO;
import io.ringlab.sim.api.dto.SeriesDTO;
import io.ringlab.sim.api.dto.SwapDTO;

/**
 * Reads runs back from a results database into the API's DTOs: summaries (for {@code RunStore.find} and
 * {@code ResultsService.runs}), one metric over an experiment's runs, a run's series, and any query's table. A few
 * queries per call whatever the number of runs: the parts of all the runs asked for are read table by table.
 * <p>
 * Stateless and thread-safe; the connection is the caller's, and used by one thread at a time.
 */
final class Reading {
    /** Which runs: the runs' condition and the same condition on the tables that hold their parts, each with one {@code ?}. */
    record Which(String runs, String parts) {
    }

    /** The run with the key given. */
    static final Which KEY = new Which("key = ?", "run = ?");
    /** The runs of the experiment given. */
    static final Which EXPERIMENT = new Which("experiment = ?", "run IN (SELECT key FROM runs WHERE experiment = ?)");

    private Reading() {
    }

    /**
     * @param keys runs' keys
     * @return the runs with those keys, written into the conditions (no {@code ?}: pass {@code null} as the value)
     */
    static Which keys(java.util.Collection<String> keys) {
        StringBuilder in = new StringBuilder();
        for (String k : keys) {
            in.append(in.length() == 0 ? "" : ", ").append(Schema.literal(k));
        }
        return new Which("key IN (" + in + ")", "run IN (" + in + ")");
    }

    /**
     * @param c a connection
     * @param which which runs
     * @param value the key or the experiment's name; {@code null} for conditions without {@code ?} ({@link #keys})
     * @param metrics the metrics to give each summary ({@code ELEMENT.METRIC}, in this order, those the run reported);
     *        {@code null} for every scalar the run has, in the order recorded
     * @return the runs' summaries in the order recorded, each with its key, variant, seed, point, state, error,
     *         invariants with violations, figures, swaps, sample warnings and metrics (NaN as {@code null}); empty if
     *         there is none
     * @throws SQLException if DuckDB fails
     */
    static List<RunSummaryDTO> summaries(Connection c, Which which, String value, List<String> metrics) throws SQLException {
        Map<String, RunSummaryDTO> runs = new LinkedHashMap<>();
        try (PreparedStatement s = c.prepareStatement("SELECT key, variant, seed, point, state, error, packet_conservation,"
                + " buffer_conservation, simulated_s, wall_s, events, packets, fork_state_hash FROM runs WHERE " + which.runs()
                + " ORDER BY seq")) {
            if (value != null) {
                s.setString(1, value);
            }
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    RunSummaryDTO d = new RunSummaryDTO();
                    d.key = r.getString(1);
                    d.variant = r.getString(2);
                    d.seed = r.getLong(3);
                    d.point.putAll(Json.map(r.getString(4)));
                    d.state = r.getString(5);
                    d.error = r.getString(6);
                    d.packetConservation = r.getBoolean(7);
                    d.bufferConservation = r.getBoolean(8);
                    d.simulatedSeconds = r.getDouble(9);
                    d.wallSeconds = r.getDouble(10);
                    d.events = r.getLong(11);
                    d.packets = r.getLong(12);
                    d.forkStateHash = r.getString(13);
                    runs.put(d.key, d);
                }
            }
        }
        if (runs.isEmpty()) {
            return List.of();
        }
        Map<String, Map<String, Double>> scalars = new LinkedHashMap<>();
        each(c, "SELECT run, element, metric, value FROM scalars WHERE " + which.parts() + " ORDER BY rowid", value, r -> {
            scalars.computeIfAbsent(r.getString(1), k -> new LinkedHashMap<>()).put(r.getString(2) + "." + r.getString(3),
                    number(r, 4));
        });
        for (RunSummaryDTO d : runs.values()) {
            Map<String, Double> all = scalars.getOrDefault(d.key, Map.of());
            if (metrics == null) {
                d.metrics.putAll(all);
            } else {
                for (String m : metrics) {
                    if (all.containsKey(m)) {
                        d.metrics.put(m, all.get(m));
                    }
                }
            }
        }
        each(c, "SELECT run, text FROM violations WHERE " + which.parts() + " ORDER BY run, n", value,
                r -> runs.get(r.getString(1)).violations.add(r.getString(2)));
        each(c, "SELECT run, at_s, element, from_impl, to_impl, handover, applied, message, pause_wall_ms,"
                + " packets_transferred, packets_dropped, buffers_transferred, state_hash FROM swaps WHERE " + which.parts()
                + " ORDER BY run, n", value, r -> {
                    SwapDTO w = new SwapDTO();
                    w.atSimulatedSeconds = r.getDouble(2);
                    w.element = r.getString(3);
                    w.from = r.getString(4);
                    w.to = r.getString(5);
                    w.handover = r.getBoolean(6);
                    w.applied = r.getBoolean(7);
                    w.message = r.getString(8);
                    w.pauseWallMillis = r.getDouble(9);
                    w.packetsTransferred = r.getLong(10);
                    w.packetsDropped = r.getLong(11);
                    w.buffersTransferred = r.getLong(12);
                    w.stateHash = r.getString(13);
                    runs.get(r.getString(1)).swaps.add(w);
                });
        each(c, "SELECT run, metric, samples, needed, advice FROM sample_warnings WHERE " + which.parts() + " ORDER BY run, n",
                value, r -> {
                    SampleWarningDTO w = new SampleWarningDTO();
                    w.metric = r.getString(2);
                    w.samples = r.getLong(3);
                    w.needed = r.getLong(4);
                    w.advice = r.getString(5);
                    runs.get(r.getString(1)).sampleWarnings.add(w);
                });
        return new ArrayList<>(runs.values());
    }

    /**
     * @param c a connection
     * @param experiment an experiment's name
     * @return the metrics the experiment compares, in its order; {@code null} if the database does not know them
     * @throws SQLException if DuckDB fails
     */
    static List<String> metrics(Connection c, String experiment) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT metrics FROM experiments WHERE name = ?")) {
            s.setString(1, experiment);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? Json.strings(r.getString(1)) : null;
            }
        }
    }

    /**
     * @param c a connection
     * @param experiment an experiment's name
     * @param metric {@code ELEMENT.METRIC}, split at its last dot ({@code pool:eth0.rx.allocs}: element
     *        {@code pool:eth0.rx})
     * @return the metric in every run of the experiment that has it, in the order the runs were recorded
     * @throws SQLException if DuckDB fails
     */
    static List<ScalarDTO> scalars(Connection c, String experiment, String metric) throws SQLException {
        int dot = metric.lastIndexOf('.');
        List<ScalarDTO> list = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("SELECT r.key, r.variant, r.point, r.seed, s.element, s.metric, s.unit,"
                + " s.value FROM scalars s JOIN runs r ON s.run = r.key WHERE r.experiment = ? AND s.element = ?"
                + " AND s.metric = ? ORDER BY r.seq")) {
            s.setString(1, experiment);
            s.setString(2, dot < 0 ? "" : metric.substring(0, dot));
            s.setString(3, metric.substring(dot + 1));
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    ScalarDTO d = new ScalarDTO();
                    d.run = r.getString(1);
                    d.variant = r.getString(2);
                    d.point.putAll(Json.map(r.getString(3)));
                    d.seed = r.getLong(4);
                    d.element = r.getString(5);
                    d.metric = r.getString(6);
                    d.unit = r.getString(7);
                    d.value = number(r, 8);
                    list.add(d);
                }
            }
        }
        return list;
    }

    /**
     * Rebuilds a run's series: column {@code timeSeconds} first, then each {@code ELEMENT.METRIC} in the order first
     * seen, one row per sample time (NaN where a column has no value); the interval is the mean spacing of the sample
     * times (0 with fewer than two rows); the series of points with their dropped counts.
     *
     * @param c a connection
     * @param key a run's key
     * @return the series; {@code null} if there is no run with that key; with no rows if the run recorded none
     * @throws SQLException if DuckDB fails
     */
    static SeriesDTO series(Connection c, String key) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT count(*) FROM runs WHERE key = ?")) {
            s.setString(1, key);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                if (r.getLong(1) == 0) {
                    return null;
                }
            }
        }
        SeriesDTO d = new SeriesDTO();
        d.columns.add("timeSeconds");
        List<Double[]> values = new ArrayList<>();
        Double[][] times = new Double[1][];
        each(c, "SELECT element, metric, t, value FROM series_lists WHERE run = ? ORDER BY rowid", key, r -> {
            d.columns.add(r.getString(1).isEmpty() ? r.getString(2) : r.getString(1) + "." + r.getString(2));
            if (times[0] == null) {
                times[0] = doubles(r.getArray(3));
            }
            values.add(doubles(r.getArray(4)));
        });
        int n = times[0] == null ? 0 : times[0].length;
        for (int i = 0; i < n; i++) {
            double[] row = new double[d.columns.size()];
            row[0] = times[0][i];
            for (int col = 0; col < values.size(); col++) {
                Double v = i < values.get(col).length ? values.get(col)[i] : null;
                row[col + 1] = v == null ? Double.NaN : v;
            }
            d.rows.add(row);
        }
        d.intervalSeconds = n < 2 ? 0 : (times[0][n - 1] - times[0][0]) / (n - 1);
        Map<String, List<double[]>> points = new LinkedHashMap<>();
        each(c, "SELECT element, metric, dropped FROM timed_series WHERE run = ? ORDER BY rowid", key, r -> {
            String name = r.getString(1) + "." + r.getString(2);
            PointsDTO p = new PointsDTO();
            p.dropped = r.getLong(3);
            d.points.put(name, p);
            points.put(name, new ArrayList<>());
        });
        each(c, "SELECT element, metric, t, value FROM timed_points WHERE run = ? ORDER BY rowid", key, r -> {
            Double v = number(r, 4);
            points.computeIfAbsent(r.getString(1) + "." + r.getString(2), k -> new ArrayList<>())
                    .add(new double[] {r.getDouble(3), v == null ? Double.NaN : v});
        });
        points.forEach((name, list) -> {
            PointsDTO p = d.points.computeIfAbsent(name, k -> new PointsDTO());
            p.timeSeconds = new double[list.size()];
            p.values = new double[list.size()];
            for (int i = 0; i < list.size(); i++) {
                p.timeSeconds[i] = list.get(i)[0];
                p.values[i] = list.get(i)[1];
            }
        });
        return d;
    }

    /** @return a SQL list of doubles as boxed values, NULL elements as {@code null} */
    private static Double[] doubles(java.sql.Array a) throws SQLException {
        Object[] o = (Object[]) a.getArray();
        Double[] d = new Double[o.length];
        for (int i = 0; i < o.length; i++) {
            d[i] = o[i] == null ? null : ((Number) o[i]).doubleValue();
        }
        return d;
    }

    /**
     * @param c a connection
     * @param sql a query, or any statement (one without a result gives an empty table)
     * @return its columns and rows: whole numbers as {@link Long} (or their text beyond a long), other numbers as
     *         {@link Double}, {@link Boolean}, {@link String}, {@code null}, anything else as its text
     * @throws SQLException if DuckDB refuses the query
     */
    static TableDTO table(Connection c, String sql) throws SQLException {
        TableDTO t = new TableDTO();
        try (Statement s = c.createStatement()) {
            if (!s.execute(sql)) {
                return t;
            }
            try (ResultSet r = s.getResultSet()) {
                ResultSetMetaData m = r.getMetaData();
                int n = m.getColumnCount();
                for (int i = 1; i <= n; i++) {
                    t.columns.add(m.getColumnLabel(i));
                }
                while (r.next()) {
                    List<Object> row = new ArrayList<>(n);
                    for (int i = 1; i <= n; i++) {
                        row.add(value(r.getObject(i)));
                    }
                    t.rows.add(row);
                }
            }
        }
        return t;
    }

    /** @return a JDBC value as one of TableDTO's types */
    static Object value(Object o) {
        if (o == null || o instanceof Long || o instanceof Double || o instanceof Boolean || o instanceof String) {
            return o;
        }
        if (o instanceof Integer || o instanceof Short || o instanceof Byte) {
            return ((Number) o).longValue();
        }
        if (o instanceof Float f) {
            return f.doubleValue();
        }
        if (o instanceof BigInteger b) {
            return b.bitLength() < 64 ? (Object) b.longValue() : b.toString();
        }
        if (o instanceof BigDecimal b) {
            return b.doubleValue();
        }
        return o.toString();
    }

    /**
     * @return a {@code DOUBLE} column's value, {@code null} for {@code NULL} (DuckDB's {@code getDouble} gives NaN for
     *         it, and {@code wasNull} does not tell)
     */
    private static Double number(ResultSet r, int column) throws SQLException {
        Object o = r.getObject(column);
        return o == null ? null : ((Number) o).doubleValue();
    }

    /** One row of a result. */
    private interface RowReader {
        void read(ResultSet r) throws SQLException;
    }

    private static void each(Connection c, String sql, String value, RowReader reader) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            if (value != null) {
                s.setString(1, value);
            }
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    reader.read(r);
                }
            }
        }
    }
}

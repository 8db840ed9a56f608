package io.ringlab.console;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import io.ringlab.sim.api.dto.SeriesDTO;

/**
 * What the live charts plot, computed from a snapshot's (or a result's) sampled series without widgets. Each series
 * column goes to at most one view, picked by its name (see {@link #viewOf}):
 * <ul>
 * <li>the headline chart: the pipeline's headline column, as sampled;</li>
 * <li>throughput: every cumulative packet counter ({@code *.txPackets}, {@code *.rxPackets}) as packets per second
 * over each plotted interval;</li>
 * <li>queues, in packets: qdisc backlogs ({@code *.backlog}, pfifo_fast's {@code *.backlogBandN}) and device TX
 * queue occupancy ({@code *.ringUsed} of netdev, {@code *.txDescUsed} of stmmac and mvneta, {@code *.txBbsUsed} of
 * mlx4); queues, in bytes: BQL's {@code *.limit} and {@code *.inflight};</li>
 * <li>pools: {@code pool:NAME.inUse} and {@code pool:NAME.available};</li>
 * <li>cache: {@code cpuN.l1dHitPercent} (level-1 data cache hits over each sampling interval, per core).</li>
 * </ul>
 * <b>The bound</b>: however many rows the run has sampled, at most {@value #MAX_POINTS} are plotted: every
 * {@code ceil(rows / MAX_POINTS)}-th row from the first, and always the last one. Gauges are shown at those rows as
 * sampled; counters are differentiated between the plotted rows, so a rate is the mean over its stride. Reading a
 * snapshot costs at most {@value #MAX_POINTS} rows per column, however long the run. Immutable.
 *
 * @param timeMillis sample times in ms of virtual time; one per plotted row
 * @param headline the headline column's values, or {@code null} when the pipeline names no headline or it is not sampled
 * @param throughput series name ({@code "sink.rxPackets"}) to packets per second at each plotted row (the first is 0)
 * @param queuePackets queue occupancy series in packets, by column name
 * @param queueBytes BQL series in bytes, by column name
 * @param pools pool occupancy series, by column name
 * @param cache cache hit rate series in percent, by column name
 * @param rows how many rows the series had before decimation
 */
record ChartData(double[] timeMillis, double[] headline, Map<String, double[]> throughput, Map<String, double[]> queuePackets,
        Map<String, double[]> queueBytes, Map<String, double[]> pools, Map<String, double[]> cache, int rows) {

    /** The most rows a chart plots; longer series are decimated to this. */
    static final int MAX_POINTS = 1000;

    /** Suffixes of the cumulative packet counters the throughput chart differentiates. */
    static final List<String> PACKET_COUNTERS = List.of(".txPackets", ".rxPackets");

    /** The views a series column can go to. */
    enum View {
        THROUGHPUT, QUEUE_PACKETS, QUEUE_BYTES, POOLS, CACHE
    }

    private static final Pattern QUEUE_PACKETS = Pattern.compile("[^.:]+\\.(backlog|backlogBand\\d+|ringUsed|txDescUsed|txBbsUsed)");
    private static final Pattern QUEUE_BYTES = Pattern.compile("[^.:]+\\.(limit|inflight)");
    private static final Pattern POOLS = Pattern.compile("pool:.+\\.(inUse|available)");
    private static final Pattern CACHE = Pattern.compile("cpu\\d+\\.l1dHitPercent");

    /**
     * @param column a series column name, {@code element.metric}
     * @return the view it belongs to, or {@code null} when it goes to none (the headline chart apart)
     */
    static View viewOf(String column) {
        if (POOLS.matcher(column).matches()) {
            return View.POOLS;
        }
        if (column.startsWith("pool:")) {
            return null;
        }
        if (CACHE.matcher(column).matches()) {
            return View.CACHE;
        }
        if (PACKET_COUNTERS.stream().anyMatch(column::endsWith)) {
            return View.THROUGHPUT;
        }
        if (QUEUE_PACKETS.matcher(column).matches()) {
            return View.QUEUE_PACKETS;
        }
        if (QUEUE_BYTES.matcher(column).matches()) {
            return View.QUEUE_BYTES;
        }
        return null;
    }

    /**
     * Leaves out the points whose value is NaN (a histogram's percentile over an interval in which nothing was recorded,
     * a metric not there yet), which a chart would otherwise take into its range.
     *
     * @param x the points' times
     * @param y their values, as many
     * @return {x, y} without those points; the arrays given when there is none
     */
    static double[][] withoutNaN(double[] x, double[] y) {
        int n = 0;
        for (double v : y) {
            n += Double.isNaN(v) ? 0 : 1;
        }
        if (n == y.length) {
            return new double[][] {x, y};
        }
        double[] xs = new double[n];
        double[] ys = new double[n];
        for (int i = 0, k = 0; i < y.length; i++) {
            if (!Double.isNaN(y[i])) {
                xs[k] = x[i];
                ys[k++] = y[i];
            }
        }
        return new double[][] {xs, ys};
    }

    /**
     * @param rows how many rows there are
     * @param max the most to keep; at least 2
     * @return the indices of the rows to plot, ascending: all when {@code rows <= max}, else every
     *         {@code ceil(rows / max)}-th from 0 and the last; never more than {@code max}
     */
    static int[] decimate(int rows, int max) {
        if (rows <= max) {
            int[] all = new int[rows];
            for (int i = 0; i < rows; i++) {
                all[i] = i;
            }
            return all;
        }
        int stride = (rows + max - 2) / (max - 1); // keeps room for the last row
        int n = (rows - 1) / stride + 1;
        boolean lastIncluded = (rows - 1) % stride == 0;
        int[] idx = new int[lastIncluded ? n : n + 1];
        for (int i = 0; i < n; i++) {
            idx[i] = i * stride;
        }
        idx[idx.length - 1] = rows - 1;
        return idx;
    }

    /**
     * @param s the series; may be {@code null} (then the data is empty)
     * @param headlineMetric the pipeline's headline as {@code element.metric}, or {@code null}
     * @return the chart data; empty arrays when nothing was sampled yet
     */
    static ChartData of(SeriesDTO s, String headlineMetric) {
        if (s == null || s.rows.isEmpty() || s.columns.isEmpty()) {
            return new ChartData(new double[0], null, Map.of(), Map.of(), Map.of(), Map.of(), Map.of(), 0);
        }
        int[] idx = decimate(s.rows.size(), MAX_POINTS);
        int n = idx.length;
        double[][] rows = new double[n][]; // each plotted row read once: a long run's rows may be in a file
        double[] t = new double[n];
        for (int i = 0; i < n; i++) {
            rows[i] = s.rows.get(idx[i]);
            t[i] = rows[i][0] * 1e3;
        }
        double[] headline = null;
        Map<String, double[]> tp = new LinkedHashMap<>();
        Map<View, Map<String, double[]>> views = new java.util.EnumMap<>(View.class);
        for (View v : View.values()) {
            views.put(v, new LinkedHashMap<>());
        }
        for (int c = 1; c < s.columns.size(); c++) {
            String name = s.columns.get(c);
            if (name.equals(headlineMetric)) {
                headline = column(rows, c);
            }
            View v = viewOf(name);
            if (v == View.THROUGHPUT) {
                double[] val = column(rows, c);
                double[] rate = new double[n];
                for (int i = 1; i < n; i++) {
                    double dt = rows[i][0] - rows[i - 1][0];
                    rate[i] = dt > 0 ? (val[i] - val[i - 1]) / dt : 0;
                }
                tp.put(name, rate);
            } else if (v != null) {
                views.get(v).put(name, column(rows, c));
            }
        }
        return new ChartData(t, headline, Collections.unmodifiableMap(tp), Collections.unmodifiableMap(views.get(View.QUEUE_PACKETS)),
                Collections.unmodifiableMap(views.get(View.QUEUE_BYTES)), Collections.unmodifiableMap(views.get(View.POOLS)),
                Collections.unmodifiableMap(views.get(View.CACHE)), s.rows.size());
    }

    private static double[] column(double[][] rows, int c) {
        double[] v = new double[rows.length];
        for (int i = 0; i < v.length; i++) {
            double[] r = rows[i];
            v[i] = c < r.length ? r[c] : Double.NaN;
        }
        return v;
    }

    /** @return the number of plotted samples. */
    int size() {
        return timeMillis.length;
    }
}

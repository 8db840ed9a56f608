package io.ringlab.console;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.ringlab.sim.api.dto.SeriesDTO;

/**
 * What the live charts plot, computed from a snapshot's (or a result's) sampled series without widgets: the x axis in
 * milliseconds of virtual time, the headline metric's column as sampled, and the throughput of every element that counts
 * packets ({@code *.txPackets}, {@code *.rxPackets}: cumulative counters) as packets per second over each sampling
 * interval. Immutable.
 *
 * @param timeMillis sample times in ms of virtual time; one per row
 * @param headline the headline column's values, or {@code null} when the pipeline names no headline or it is not sampled
 * @param throughput series name ({@code "sink.rxPackets"}) to packets per second at each sample (the first sample is 0);
 *        in column order, never {@code null}
 */
record ChartData(double[] timeMillis, double[] headline, Map<String, double[]> throughput) {

    /** Suffixes of the cumulative packet counters the throughput chart differentiates. */
    static final List<String> PACKET_COUNTERS = List.of(".txPackets", ".rxPackets");

    /**
     * @param s the series; may be {@code null} (then the data is empty)
     * @param headlineMetric the pipeline's headline as {@code element.metric}, or {@code null}
     * @return the chart data; empty arrays when nothing was sampled yet
     */
    static ChartData of(SeriesDTO s, String headlineMetric) {
        if (s == null || s.rows.isEmpty() || s.columns.isEmpty()) {
            return new ChartData(new double[0], null, Map.of());
        }
        List<double[]> rows = s.rows;
        int n = rows.size();
        double[] t = new double[n];
        for (int i = 0; i < n; i++) {
            t[i] = rows.get(i)[0] * 1e3;
        }
        double[] headline = null;
        Map<String, double[]> tp = new LinkedHashMap<>();
        for (int c = 1; c < s.columns.size(); c++) {
            String name = s.columns.get(c);
            if (name.equals(headlineMetric)) {
                headline = column(rows, c);
            }
            if (PACKET_COUNTERS.stream().anyMatch(name::endsWith) && !name.startsWith("pool:")) {
                double[] v = column(rows, c);
                double[] rate = new double[n];
                for (int i = 1; i < n; i++) {
                    double dt = rows.get(i)[0] - rows.get(i - 1)[0];
                    rate[i] = dt > 0 ? (v[i] - v[i - 1]) / dt : 0;
                }
                tp.put(name, rate);
            }
        }
        return new ChartData(t, headline, java.util.Collections.unmodifiableMap(tp));
    }

    private static double[] column(List<double[]> rows, int c) {
        double[] v = new double[rows.size()];
        for (int i = 0; i < v.length; i++) {
            double[] r = rows.get(i);
            v[i] = c < r.length ? r[c] : Double.NaN;
        }
        return v;
    }

    /** @return the number of samples. */
    int size() {
        return timeMillis.length;
    }
}

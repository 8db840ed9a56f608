package io.ringlab.console;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.ringlab.sim.api.dto.PointsDTO;
import io.ringlab.sim.api.dto.SeriesDTO;

/**
 * What the Latency tab's time and CDF charts plot, per latency source, in milliseconds, without widgets.
 * <ul>
 * <li>Over time: a source that keeps its values as points ({@code SeriesDTO.points}: each ping's round-trip time at its
 * time) as those points; any other histogram (a sink's one-way latency: too many values to keep) as its P50 and P99 over
 * each sampling interval, the series columns {@code element.<name>P50<Unit>} and {@code P99}.</li>
 * <li>CDF: each histogram's distribution ({@code RunResultDTO.distributions}), value against the fraction at or below
 * it.</li>
 * </ul>
 * Values are converted from the histogram's unit ({@code Millis}, {@code Micros}, {@code Nanos}) to milliseconds, so
 * that sources of different units share an axis (logarithmic where every value is positive). At most
 * {@link ChartData#MAX_POINTS} points per line. Immutable.
 *
 * @param overTime line name to {times in ms, values in ms}
 * @param cdf line name to {values in ms, fractions}
 */
record LatencyData(Map<String, double[][]> overTime, Map<String, double[][]> cdf) {

    /** Nothing to plot. */
    static final LatencyData EMPTY = new LatencyData(Map.of(), Map.of());

    /** The units a histogram's values can be shown in, with their factor to milliseconds. */
    private static final Map<String, Double> TO_MILLIS = Map.of("Millis", 1.0, "Micros", 1e-3, "Nanos", 1e-6);

    /**
     * @param series the run's series so far; may be {@code null}
     * @param distributions each histogram's distribution, keyed {@code element.<name><Unit>}; may be {@code null}
     */
    static LatencyData of(SeriesDTO series, Map<String, List<double[]>> distributions) {
        Map<String, double[][]> time = new LinkedHashMap<>();
        Map<String, double[][]> cdf = new LinkedHashMap<>();
        Map<String, List<double[]>> dist = distributions == null ? Map.of() : distributions;
        if (series != null) {
            for (Map.Entry<String, PointsDTO> p : series.points.entrySet()) {
                double f = factor(p.getKey());
                if (!Double.isNaN(f)) {
                    PointsDTO d = p.getValue();
                    int n = Math.min(d.timeSeconds.length, d.values.length);
                    int[] idx = ChartData.decimate(n, ChartData.MAX_POINTS);
                    double[] x = new double[idx.length], y = new double[idx.length];
                    for (int i = 0; i < idx.length; i++) {
                        x[i] = d.timeSeconds[idx[i]] * 1e3;
                        y[i] = d.values[idx[i]] * f;
                    }
                    time.put(p.getKey(), new double[][] { x, y });
                }
            }
            for (String h : dist.keySet()) {
                if (series.points.containsKey(h)) {
                    continue;
                }
                String unit = unitOf(h);
                String base = h.substring(0, h.length() - unit.length());
                for (String p : List.of("P50", "P99")) {
                    int c = series.columns.indexOf(base + p + unit);
                    if (c > 0 && !series.rows.isEmpty()) {
                        int[] idx = ChartData.decimate(series.rows.size(), ChartData.MAX_POINTS);
                        double[] x = new double[idx.length], y = new double[idx.length];
                        for (int i = 0; i < idx.length; i++) {
                            double[] row = series.rows.get(idx[i]);
                            x[i] = row[0] * 1e3;
                            y[i] = c < row.length ? row[c] * TO_MILLIS.get(unit) : Double.NaN;
                        }
                        time.put(base + p + unit, new double[][] { x, y });
                    }
                }
            }
        }
        for (Map.Entry<String, List<double[]>> d : dist.entrySet()) {
            double f = factor(d.getKey());
            if (Double.isNaN(f)) {
                continue;
            }
            List<double[]> pts = d.getValue();
            double[] x = new double[pts.size()], y = new double[pts.size()];
            for (int i = 0; i < pts.size(); i++) {
                x[i] = pts.get(i)[0] * f;
                y[i] = pts.get(i)[1];
            }
            cdf.put(d.getKey(), new double[][] { x, y });
        }
        return new LatencyData(Collections.unmodifiableMap(time), Collections.unmodifiableMap(cdf));
    }

    /** @return the unit suffix of a name ({@code Millis}), or {@code ""} */
    static String unitOf(String name) {
        for (String u : TO_MILLIS.keySet()) {
            if (name.endsWith(u)) {
                return u;
            }
        }
        return "";
    }

    private static double factor(String name) {
        Double f = TO_MILLIS.get(unitOf(name));
        return f == null ? Double.NaN : f;
    }

    /** @return whether every finite value of the lines (their x when {@code xs}, else their y) is positive */
    static boolean allPositive(Map<String, double[][]> lines, boolean xs) {
        boolean any = false;
        for (double[][] l : lines.values()) {
            for (double v : l[xs ? 0 : 1]) {
                if (Double.isNaN(v)) {
                    continue;
                }
                if (v <= 0) {
                    return false;
                }
                any = true;
            }
        }
        return any;
    }
}

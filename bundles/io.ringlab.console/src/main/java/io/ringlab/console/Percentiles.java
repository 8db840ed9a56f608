package io.ringlab.console;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The latency view's data, without widgets. The engine reports a latency histogram {@code NAME} of an element as the
 * metrics {@code NAMECount} and {@code NAMEP50UNIT}, {@code P90}, {@code P99}, {@code Min}, {@code Max}, {@code Mean}
 * with UNIT {@code Millis}, {@code Micros} or {@code Nanos} ({@code io.ringlab.sim.api.Metrics#histogram}). It does
 * not sample percentiles into the series, but every snapshot carries the element metrics: the table shows the latest
 * snapshot's (at the end, the result's), and the chart plots P50, P90 and P99 of every histogram, in microseconds, as of
 * each snapshot the console read (x: the snapshot's virtual time). The history keeps at most
 * {@value ChartData#MAX_POINTS} points: when full, every second point is dropped. Not thread-safe: the UI thread's.
 */
final class Percentiles {
    private static final Pattern METRIC = Pattern.compile("(.+)(P50|P90|P99|Min|Max|Mean)(Millis|Micros|Nanos)");
    /** The percentiles charted, in order. */
    static final List<String> CHARTED = List.of("P50", "P90", "P99");

    /**
     * One histogram's row of the table.
     *
     * @param element the element's name
     * @param histogram the histogram's name ({@code latency}, {@code rtt})
     * @param unit {@code Millis}, {@code Micros} or {@code Nanos}
     * @param count values recorded
     * @param values {@code Min}, {@code P50}, {@code P90}, {@code P99}, {@code Max}, {@code Mean} to the value in
     *        {@code unit}; empty when nothing was recorded
     */
    record Row(String element, String histogram, String unit, long count, Map<String, Double> values) {
        /** Column order of {@link #cells()} after element, histogram, unit and count. */
        static final List<String> STATS = List.of("Min", "P50", "P90", "P99", "Max", "Mean");

        /** @return the table cells: element, histogram, unit, count, then {@link #STATS} with 3 decimals (empty if absent). */
        List<String> cells() {
            List<String> c = new ArrayList<>(List.of(element, histogram, unitSymbol(unit), String.format(Locale.ROOT, "%,d", count)));
            for (String s : STATS) {
                Double v = values.get(s);
                c.add(v == null ? "" : String.format(Locale.ROOT, "%.3f", v));
            }
            return c;
        }

        /** @return {@code value} of the statistic in microseconds, or NaN if absent. */
        double micros(String stat) {
            Double v = values.get(stat);
            if (v == null) {
                return Double.NaN;
            }
            return switch (unit) {
                case "Millis" -> v * 1e3;
                case "Nanos" -> v / 1e3;
                default -> v;
            };
        }

        /** @return the series id of a charted percentile, {@code sink.latency P99} */
        String seriesId(String stat) {
            return element + "." + histogram + " " + stat;
        }
    }

    static String unitSymbol(String unit) {
        return switch (unit) {
            case "Millis" -> "ms";
            case "Nanos" -> "ns";
            default -> "us";
        };
    }

    /**
     * @param elements element name to metric name to value (a snapshot's or a result's); may be {@code null}
     * @return a row per histogram that has recorded values, by element then histogram name; empty when there are
     *         none (a histogram with no values reports only its {@code Count}, which cannot be told from a counter)
     */
    static List<Row> rows(Map<String, Map<String, Double>> elements) {
        List<Row> out = new ArrayList<>();
        if (elements == null) {
            return out;
        }
        for (Map.Entry<String, Map<String, Double>> e : elements.entrySet()) {
            Map<String, Map<String, Double>> byHistogram = new java.util.TreeMap<>();
            Map<String, String> units = new LinkedHashMap<>();
            for (Map.Entry<String, Double> m : e.getValue().entrySet()) {
                Matcher x = METRIC.matcher(m.getKey());
                if (x.matches() && e.getValue().containsKey(x.group(1) + "Count")) {
                    byHistogram.computeIfAbsent(x.group(1), k -> new LinkedHashMap<>()).put(x.group(2), m.getValue());
                    units.put(x.group(1), x.group(3));
                }
            }
            for (Map.Entry<String, Map<String, Double>> h : byHistogram.entrySet()) {
                double count = e.getValue().getOrDefault(h.getKey() + "Count", 0.0);
                out.add(new Row(e.getKey(), h.getKey(), units.getOrDefault(h.getKey(), "Micros"), (long) count, h.getValue()));
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ history

    private double[] time = new double[16];
    private final Map<String, double[]> values = new LinkedHashMap<>();
    private int size;
    private double lastSeconds = -1;

    /** Forgets the history (a new run). */
    void clear() {
        size = 0;
        lastSeconds = -1;
        values.clear();
    }

    /**
     * Adds the percentiles of one snapshot or result, unless its virtual time is not after the last one added.
     *
     * @param simulatedSeconds the snapshot's virtual time
     * @param rows its rows ({@link #rows})
     * @return {@code true} if a point was added
     */
    boolean add(double simulatedSeconds, List<Row> rows) {
        if (simulatedSeconds <= lastSeconds || rows.isEmpty()) {
            return false;
        }
        lastSeconds = simulatedSeconds;
        if (size == ChartData.MAX_POINTS) {
            halve();
        }
        if (size == time.length) {
            time = java.util.Arrays.copyOf(time, Math.min(ChartData.MAX_POINTS, size * 2));
            values.replaceAll((k, v) -> java.util.Arrays.copyOf(v, time.length));
        }
        time[size] = simulatedSeconds * 1e3;
        for (Row r : rows) {
            for (String stat : CHARTED) {
                double[] v = values.computeIfAbsent(r.seriesId(stat), k -> {
                    double[] a = new double[time.length];
                    java.util.Arrays.fill(a, Double.NaN);
                    return a;
                });
                v[size] = r.micros(stat);
            }
        }
        size++;
        return true;
    }

    private void halve() {
        int n = 0;
        for (int i = 0; i < size; i += 2) {
            time[n] = time[i];
            for (double[] v : values.values()) {
                v[n] = v[i];
            }
            n++;
        }
        size = n;
    }

    /** @return the x values (ms of virtual time) of the points kept, a copy. */
    double[] timeMillis() {
        return java.util.Arrays.copyOf(time, size);
    }

    /** @return series id ({@code sink.latency P99}) to values in microseconds at {@link #timeMillis()}, copies. */
    Map<String, double[]> series() {
        Map<String, double[]> out = new LinkedHashMap<>();
        values.forEach((k, v) -> out.put(k, java.util.Arrays.copyOf(v, size)));
        return out;
    }

    /** @return the number of points kept. */
    int size() {
        return size;
    }
}

package io.ringlab.console;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.ringlab.pipeline.format.Units;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.MetricDescriptorDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.SeriesDTO;
import io.ringlab.sim.api.dto.ValueDTO;

/**
 * What the pipeline canvas shows of every element at one moment of a run, without widgets: its levels (a qdisc's
 * backlog against its limit, a ring's descriptors in use against its size, BQL's bytes in flight against its limit: the
 * metrics its type gives the canvas role {@link MetricDescriptorDTO#LEVEL}), its throughput over the last sampling
 * interval (role {@link MetricDescriptorDTO#THROUGHPUT}), its utilisation over that interval (role
 * {@link MetricDescriptorDTO#BUSY}: a link's wire), the occupancy of the pools it owns, and its drops by reason.
 * <p>
 * Two sources give the same picture: {@link #now} (a snapshot's or the result's element metrics and drops, exact at that
 * moment; throughput from the series' last two rows) and {@link #at} (one row of the sampled series, for the time
 * slider: every value as sampled at that row's time). Built once per snapshot (10 Hz), never per packet. Immutable.
 *
 * @param timeSeconds the moment shown, in seconds of virtual time
 * @param elements element name to what is shown of it; elements without anything to show are absent
 */
record CanvasState(double timeSeconds, Map<String, Element> elements) {

    /** Nothing to show (no run yet). */
    static final CanvasState EMPTY = new CanvasState(0, Map.of());

    /**
     * A level drawn as a bar.
     *
     * @param metric the metric's name
     * @param value its value; NaN when not known at that moment
     * @param capacity what bounds it; NaN without a bound (the canvas shows the number only)
     * @param unit the metric's unit ({@code B}, {@code ""})
     */
    record Level(String metric, double value, double capacity, String unit) {
        /** @return value over capacity, 0 to 1 (more is shown as full), or NaN without both */
        double fill() {
            return Double.isNaN(value) || Double.isNaN(capacity) || capacity <= 0 ? Double.NaN
                    : Math.max(0, Math.min(1, value / capacity));
        }
    }

    /**
     * A throughput.
     *
     * @param metric the counter's name
     * @param perSecond its rate over the last sampling interval: bits per second for a counter of bytes, packets per
     *        second otherwise; NaN when two rows are not there yet
     * @param bits whether the rate is in bits per second
     * @param utilisation the rate over the capacity (a link's line rate), 0 to 1 or more; NaN without a capacity
     */
    record Flow(String metric, double perSecond, boolean bits, double utilisation) {
    }

    /**
     * What is shown of one element.
     *
     * @param levels its levels, in its type's declaration order
     * @param flows its throughputs
     * @param pools the pools it owns ({@code pool:eth0.rx} is {@code eth0}'s), as levels named by the pool's suffix
     * @param drops packets it dropped so far, by reason
     * @param utilisation the share of the last sampling interval it was busy (role {@link MetricDescriptorDTO#BUSY}: a
     *        link's wire), 0 to 1; NaN when its type has no busy time or two rows are not there yet
     */
    record Element(List<Level> levels, List<Flow> flows, List<Level> pools, Map<String, Long> drops, double utilisation) {
        /** @return packets dropped so far, all reasons */
        long dropped() {
            long n = 0;
            for (long d : drops.values()) {
                n += d;
            }
            return n;
        }
    }

    /**
     * The pipeline as run and its types: which metrics each element shows, and the property values its capacities come
     * from (the file's, else the type's default).
     */
    static final class Layout {
        private final Map<String, ElementDescriptorDTO> typeOf = new LinkedHashMap<>();
        private final Map<String, Map<String, String>> properties = new HashMap<>();

        /**
         * @param pipeline the pipeline being run
         * @param types the installed types, as the engine lists them
         */
        Layout(PipelineDTO pipeline, List<ElementDescriptorDTO> types) {
            Map<String, ElementDescriptorDTO> byType = new HashMap<>();
            types.forEach(t -> byType.put(t.type, t));
            for (ElementSpecDTO e : pipeline.elements) {
                ElementDescriptorDTO d = byType.get(e.type);
                if (d == null) {
                    continue;
                }
                typeOf.put(e.name, d);
                Map<String, String> props = new HashMap<>();
                for (PropertyDescriptorDTO p : d.properties) {
                    ValueDTO v = e.properties.get(p.name);
                    String text = v != null ? v.text : p.defaultValue;
                    if (text != null) {
                        props.put(p.name, text);
                    }
                }
                properties.put(e.name, props);
            }
        }

        /** @return the element's type as run, or {@code null} for an element of no installed type */
        ElementDescriptorDTO type(String element) {
            return typeOf.get(element);
        }

        /** @return the element's property values as run: the file's, else the type's default */
        Map<String, String> asRun(String element) {
            return properties.getOrDefault(element, Map.of());
        }

        /** @return the levels the element's type declares, in order (the box's rows); empty for an unknown element */
        List<MetricDescriptorDTO> levels(String element) {
            return roles(typeOf.get(element), MetricDescriptorDTO.LEVEL);
        }

        /** @return the property's value as a number (a size in bytes, a rate in bit/s), or NaN when it is none */
        double property(String element, String name) {
            ElementDescriptorDTO d = typeOf.get(element);
            String text = properties.getOrDefault(element, Map.of()).get(name);
            if (d == null || text == null) {
                return Double.NaN;
            }
            for (PropertyDescriptorDTO p : d.properties) {
                if (p.name.equals(name)) {
                    try {
                        return Units.convert(p, text) instanceof Number n ? n.doubleValue() : Double.NaN;
                    } catch (IllegalArgumentException e) {
                        return Double.NaN; // the form reports an invalid value; the canvas shows no bound
                    }
                }
            }
            return Double.NaN;
        }
    }

    /** @return the type's metrics of a canvas role; empty for {@code null} */
    static List<MetricDescriptorDTO> roles(ElementDescriptorDTO d, String role) {
        List<MetricDescriptorDTO> out = new ArrayList<>();
        if (d != null) {
            for (MetricDescriptorDTO m : d.metricDescriptors) {
                if (role.equals(m.canvas)) {
                    out.add(m);
                }
            }
        }
        return out;
    }

    /** Where the values of one moment come from. */
    private interface Values {
        /** @return the element's metric, NaN when it is not known */
        double metric(String element, String metric);

        /** @return the counter's rate over the last interval, NaN when not known */
        double rate(String element, String metric);

        /** @return pool name to {inUse, capacity} */
        Map<String, double[]> pools();

        /** @return drops by element and reason */
        Map<String, Map<String, Long>> drops();
    }

    /**
     * The canvas as a snapshot or the result gives it: the element metrics and drops of that moment, the throughput over
     * the series' last interval.
     *
     * @param layout the pipeline as run
     * @param timeSeconds the snapshot's or result's virtual time
     * @param metrics element name to metric to value ({@code RunSnapshotDTO.elements}), pools as {@code pool:NAME}
     * @param drops drops by element and reason
     * @param series the series so far, or {@code null}
     */
    static CanvasState now(Layout layout, double timeSeconds, Map<String, Map<String, Double>> metrics,
            Map<String, Map<String, Long>> drops, SeriesDTO series) {
        SeriesIndex s = new SeriesIndex(series);
        int last = s.rows() - 1;
        return of(layout, timeSeconds, new Values() {
            @Override
            public double metric(String element, String metric) {
                Double v = metrics.getOrDefault(element, Map.of()).get(metric);
                return v == null ? Double.NaN : v;
            }

            @Override
            public double rate(String element, String metric) {
                return s.rate(element + "." + metric, last);
            }

            @Override
            public Map<String, double[]> pools() {
                Map<String, double[]> out = new TreeMap<>();
                metrics.forEach((name, m) -> {
                    if (name.startsWith(POOL) && m.containsKey("inUse") && m.containsKey("capacity")) {
                        out.put(name.substring(POOL.length()), new double[] { m.get("inUse"), m.get("capacity") });
                    }
                });
                return out;
            }

            @Override
            public Map<String, Map<String, Long>> drops() {
                return drops == null ? Map.of() : drops;
            }
        });
    }

    /**
     * The canvas at one sampled row: levels, capacities that are metrics, pools and drops as sampled at the row's time,
     * the throughput over the interval that ends there.
     *
     * @param layout the pipeline as run
     * @param series the run's series
     * @param row a row index of {@code series}
     */
    static CanvasState at(Layout layout, SeriesDTO series, int row) {
        SeriesIndex s = new SeriesIndex(series);
        double[] r = series.rows.get(row);
        return of(layout, r[0], new Values() {
            @Override
            public double metric(String element, String metric) {
                return s.value(element + "." + metric, row);
            }

            @Override
            public double rate(String element, String metric) {
                return s.rate(element + "." + metric, row);
            }

            @Override
            public Map<String, double[]> pools() {
                Map<String, double[]> out = new TreeMap<>();
                for (String c : series.columns) {
                    if (c.startsWith(POOL) && c.endsWith(".inUse")) {
                        String pool = c.substring(POOL.length(), c.length() - ".inUse".length());
                        double inUse = s.value(c, row), available = s.value(POOL + pool + ".available", row);
                        out.put(pool, new double[] { inUse, inUse + available });
                    }
                }
                return out;
            }

            @Override
            public Map<String, Map<String, Long>> drops() {
                Map<String, Map<String, Long>> out = new TreeMap<>();
                for (String c : series.columns) {
                    if (c.startsWith(SeriesDTO.DROPS_PREFIX)) {
                        String rest = c.substring(SeriesDTO.DROPS_PREFIX.length());
                        int dot = rest.indexOf('.');
                        double v = s.value(c, row);
                        if (dot > 0 && v > 0) {
                            out.computeIfAbsent(rest.substring(0, dot), k -> new TreeMap<>()).put(rest.substring(dot + 1), (long) v);
                        }
                    }
                }
                return out;
            }
        });
    }

    private static final String POOL = "pool:";

    private static CanvasState of(Layout layout, double timeSeconds, Values v) {
        Map<String, Element> out = new LinkedHashMap<>();
        Map<String, double[]> pools = v.pools();
        Map<String, Map<String, Long>> drops = v.drops();
        for (Map.Entry<String, ElementDescriptorDTO> e : layout.typeOf.entrySet()) {
            String name = e.getKey();
            List<Level> levels = new ArrayList<>();
            for (MetricDescriptorDTO m : roles(e.getValue(), MetricDescriptorDTO.LEVEL)) {
                levels.add(new Level(m.name, v.metric(name, m.name), capacity(layout, v, name, m), m.unit == null ? "" : m.unit));
            }
            List<Flow> flows = new ArrayList<>();
            for (MetricDescriptorDTO m : roles(e.getValue(), MetricDescriptorDTO.THROUGHPUT)) {
                boolean bits = "B".equals(m.unit);
                double rate = v.rate(name, m.name) * (bits ? 8 : 1);
                double cap = capacity(layout, v, name, m);
                flows.add(new Flow(m.name, rate, bits, Double.isNaN(cap) || cap <= 0 ? Double.NaN : rate / cap));
            }
            double busy = Double.NaN;
            for (MetricDescriptorDTO m : roles(e.getValue(), MetricDescriptorDTO.BUSY)) {
                double u = v.rate(name, m.name); // seconds busy per second
                busy = Double.isNaN(busy) ? u : Double.isNaN(u) ? busy : Math.max(busy, u);
            }
            List<Level> owned = new ArrayList<>();
            pools.forEach((pool, iu) -> {
                if (pool.startsWith(name + ".")) {
                    owned.add(new Level(pool.substring(name.length() + 1), iu[0], iu[1], ""));
                }
            });
            Map<String, Long> d = drops.getOrDefault(name, Map.of());
            if (!levels.isEmpty() || !flows.isEmpty() || !owned.isEmpty() || !d.isEmpty() || !Double.isNaN(busy)) {
                out.put(name, new Element(List.copyOf(levels), List.copyOf(flows), List.copyOf(owned), Map.copyOf(d), busy));
            }
        }
        return new CanvasState(timeSeconds, out);
    }

    /** A capacity: the element's metric of that name when it has one, else its property; NaN without one. */
    private static double capacity(Layout layout, Values v, String element, MetricDescriptorDTO m) {
        if (m.capacity == null) {
            return Double.NaN;
        }
        double c = v.metric(element, m.capacity);
        if (Double.isNaN(c)) {
            c = layout.property(element, m.capacity);
        }
        return c > 0 ? c : Double.NaN; // a ring size of -1 ("the kernel's") is no bound the canvas knows
    }

    /**
     * @return what is drawn, flat, for tests and automation ({@code ConsoleService.CANVAS_DATA}): element name to
     *         {@code metric} (a level's value), {@code metric/capacity}, {@code metric/s} (a throughput),
     *         {@code metric/utilisation}, {@code pool:SUFFIX} and {@code pool:SUFFIX/capacity}, {@code drops} (all
     *         reasons) and {@code drops:REASON}; unknown values are left out
     */
    Map<String, Map<String, Double>> flat() {
        Map<String, Map<String, Double>> out = new TreeMap<>();
        elements.forEach((name, e) -> {
            Map<String, Double> m = new TreeMap<>();
            for (Level l : e.levels()) {
                put(m, l.metric(), l.value());
                put(m, l.metric() + "/capacity", l.capacity());
            }
            for (Flow f : e.flows()) {
                put(m, f.metric() + "/s", f.perSecond());
                put(m, f.metric() + "/utilisation", f.utilisation());
            }
            for (Level p : e.pools()) {
                put(m, "pool:" + p.metric(), p.value());
                put(m, "pool:" + p.metric() + "/capacity", p.capacity());
            }
            put(m, "utilisation", e.utilisation());
            m.put("drops", (double) e.dropped());
            e.drops().forEach((reason, n) -> m.put("drops:" + reason, (double) n));
            out.put(name, m);
        });
        return out;
    }

    private static void put(Map<String, Double> m, String key, double v) {
        if (!Double.isNaN(v)) {
            m.put(key, v);
        }
    }

    /** Column lookup in a series. */
    private static final class SeriesIndex {
        private final SeriesDTO series;
        private final Map<String, Integer> columns = new HashMap<>();

        SeriesIndex(SeriesDTO series) {
            this.series = series;
            if (series != null) {
                for (int i = 0; i < series.columns.size(); i++) {
                    columns.put(series.columns.get(i), i);
                }
            }
        }

        int rows() {
            return series == null ? 0 : series.rows.size();
        }

        double value(String column, int row) {
            Integer c = columns.get(column);
            return c == null || row < 0 || row >= rows() ? Double.NaN : series.rows.get(row)[c];
        }

        /** @return a running count's increase over the interval that ends at {@code row}, per second; NaN at row 0 */
        double rate(String column, int row) {
            Integer c = columns.get(column);
            if (c == null || row < 1 || row >= rows()) {
                return Double.NaN;
            }
            double[] a = series.rows.get(row - 1), b = series.rows.get(row);
            double dt = b[0] - a[0], dv = b[c] - a[c];
            return dt <= 0 || dv < 0 ? Double.NaN : dv / dt;
        }
    }
}

package io.ringlab.console;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import io.ringlab.pipeline.format.MetricNames;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.MetricDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.SeriesDTO;

/**
 * What an element's inspector shows at one moment of a run, without widgets (as OMNeT++ Qtenv's object inspectors): every
 * metric the element reports with its value, unit, kind and meaning (in its type's declaration order, a family's
 * members in number order, metrics its type does not declare, such as the engine's CPU account, last), its properties as
 * run, its share of the run's CPU cycles, its drops by reason, and its series columns. Immutable.
 *
 * @param element the element's name
 * @param type its type; {@code null} when no installed bundle provides it
 * @param timeSeconds the moment, in seconds of virtual time
 * @param metrics one row per metric
 * @param properties one row per property of its type
 * @param cpu its share of the run's CPU, in words
 * @param drops packets it dropped so far, by reason, in words ({@code none})
 * @param seriesColumns the series columns that are its own ({@code q.backlog}, {@code drops:q.qdisc-overlimit})
 */
record InspectorModel(String element, ElementDescriptorDTO type, double timeSeconds, List<MetricRow> metrics,
        List<PropertyRow> properties, String cpu, String drops, List<String> seriesColumns) {

    /**
     * @param name the metric's name
     * @param value its value
     * @param unit its unit ({@code ""} for a count)
     * @param kind counter, gauge, rate or histogram; {@code ""} when its type does not declare it
     * @param meaning what it means
     */
    record MetricRow(String name, double value, String unit, String kind, String meaning) {
        /** @return the value as the inspector shows it: a whole number with separators, else six significant digits */
        String text() {
            return format(value);
        }
    }

    /**
     * @param name the property's name
     * @param value its value as run
     * @param defaultValue its type's default
     * @param meaning what it means
     */
    record PropertyRow(String name, String value, String defaultValue, String meaning) {
    }

    /**
     * @param element the element
     * @param type its type, as the engine lists it; may be {@code null}
     * @param timeSeconds the moment
     * @param all every element's metrics at that moment ({@code RunSnapshotDTO.elements}), for the CPU share
     * @param asRun the element's property values as run (the file's value, or the type's default)
     * @param drops its drops by reason; may be {@code null}
     * @param series the run's series; may be {@code null}
     */
    static InspectorModel of(String element, ElementDescriptorDTO type, double timeSeconds, Map<String, Map<String, Double>> all,
            Map<String, String> asRun, Map<String, Long> drops, SeriesDTO series) {
        Map<String, Double> mine = all.getOrDefault(element, Map.of());
        List<MetricRow> rows = new ArrayList<>();
        Set<String> shown = new LinkedHashSet<>();
        if (type != null) {
            for (MetricDescriptorDTO d : type.metricDescriptors) {
                Pattern p = MetricNames.declared(d.name);
                List<String> names = new ArrayList<>();
                for (String n : mine.keySet()) {
                    if (!shown.contains(n) && p.matcher(n).matches()) {
                        names.add(n);
                    }
                }
                names.sort((a, b) -> { // stream2Cwnd before stream10Cwnd
                    String na = a.replaceAll("\\D", ""), nb = b.replaceAll("\\D", "");
                    return na.length() != nb.length() ? Integer.compare(na.length(), nb.length()) : a.compareTo(b);
                });
                for (String n : names) {
                    shown.add(n);
                    rows.add(new MetricRow(n, mine.get(n), d.unit == null ? "" : d.unit, d.kind, d.description));
                }
            }
        }
        for (String n : new TreeSet<>(mine.keySet())) {
            if (shown.add(n)) {
                rows.add(new MetricRow(n, mine.get(n), "", "", "not declared by its type"));
            }
        }
        List<PropertyRow> props = new ArrayList<>();
        if (type != null) {
            for (PropertyDescriptorDTO p : type.properties) {
                String v = asRun.get(p.name);
                props.add(new PropertyRow(p.name, v == null ? "" : v, p.defaultValue == null ? "" : p.defaultValue,
                        p.description == null ? "" : p.description));
            }
        }
        List<String> columns = new ArrayList<>();
        if (series != null) {
            for (String c : series.columns) {
                if (c.startsWith(element + ".") || c.startsWith(SeriesDTO.DROPS_PREFIX + element + ".")) {
                    columns.add(c);
                }
            }
        }
        return new InspectorModel(element, type, timeSeconds, List.copyOf(rows), List.copyOf(props), cpu(element, all),
                drops == null || drops.isEmpty() ? "no drops" : "drops: " + CanvasText.badge(drops), List.copyOf(columns));
    }

    /** @return the element's CPU cycles and its share of all elements' (the run's {@code show runtime} row), in words */
    static String cpu(String element, Map<String, Map<String, Double>> all) {
        Double mine = all.getOrDefault(element, Map.of()).get("cpuCycles");
        if (mine == null) {
            return "CPU: none charged (the element runs on no core)";
        }
        double total = 0;
        for (Map<String, Double> m : all.values()) {
            Double c = m.get("cpuCycles");
            total += c == null ? 0 : c;
        }
        Map<String, Double> m = all.get(element);
        return String.format(Locale.ROOT, "CPU: %s cycles, %.1f %% of the elements'; %s cycles/pkt, %s ns/pkt", format(mine),
                total > 0 ? 100 * mine / total : 0.0, format(m.getOrDefault("cpuCyclesPerPacket", Double.NaN)),
                format(m.getOrDefault("cpuNanosPerPacket", Double.NaN)));
    }

    /** @return a whole number with thousands separators, else six significant digits; {@code -} for NaN */
    static String format(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return String.format(Locale.ROOT, "%,d", (long) v);
        }
        return String.format(Locale.ROOT, "%.6g", v);
    }
}

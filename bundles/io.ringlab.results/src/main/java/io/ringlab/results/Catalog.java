package io.ringlab.results;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.VariantDTO;
import io.ringlab.pipeline.format.MetricNames;
import io.ringlab.pipeline.format.MetricUnits;
import io.ringlab.sim.api.Simulator;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.MetricDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;

/**
 * The element types the engine had when a store was opened, looked up by type id: a property's descriptor (the kind of
 * a sweep parameter) and a metric's unit, including families of metrics ({@code stream<i>Cwnd} declares
 * {@code stream0Cwnd}, {@code stream1Cwnd}, ...).
 * <p>
 * Immutable and thread-safe.
 */
final class Catalog {
    /** A catalog without types: every unit and kind unknown. */
    static final Catalog EMPTY = new Catalog(List.of());

    private final Map<String, ElementDescriptorDTO> types = new HashMap<>();
    private final Map<String, Map<String, MetricDescriptorDTO>> metrics = new HashMap<>();
    private final Map<String, List<Map.Entry<Pattern, MetricDescriptorDTO>>> families = new HashMap<>();

    private Catalog(List<ElementDescriptorDTO> descriptors) {
        for (ElementDescriptorDTO d : descriptors) {
            if (d == null || d.type == null) {
                continue;
            }
            types.put(d.type, d);
            Map<String, MetricDescriptorDTO> exact = new HashMap<>();
            List<Map.Entry<Pattern, MetricDescriptorDTO>> family = new ArrayList<>();
            for (MetricDescriptorDTO m : d.metricDescriptors) {
                if (m.name == null) {
                    continue;
                }
                if (m.name.contains(MetricNames.FAMILY_INDEX)) {
                    family.add(Map.entry(MetricNames.declared(m.name), m));
                } else {
                    exact.put(m.name, m);
                }
            }
            metrics.put(d.type, exact);
            families.put(d.type, family);
        }
    }

    /**
     * @param simulator the engine; {@code null} for none
     * @return its element types now; {@link #EMPTY} without an engine
     */
    static Catalog of(Simulator simulator) {
        return simulator == null ? EMPTY : new Catalog(simulator.elementTypes());
    }

    /**
     * @param type a type id
     * @param name a property name
     * @return the property's descriptor; {@code null} if the type or the property is unknown
     */
    PropertyDescriptorDTO property(String type, String name) {
        ElementDescriptorDTO d = type == null ? null : types.get(type);
        if (d != null) {
            for (PropertyDescriptorDTO p : d.properties) {
                if (name.equals(p.name)) {
                    return p;
                }
            }
        }
        return null;
    }

    /**
     * @param types the types an element may have had in a run, the one it started with first
     * @param metric a metric the element reported
     * @return the unit the first of the types that declares the metric gives it (from the name's suffix when the
     *         declaration leaves it to the name; {@code ""} for a plain number); {@code null} when none declares it
     */
    String unit(List<String> types, String metric) {
        for (String type : types) {
            MetricDescriptorDTO m = metrics.getOrDefault(type, Map.of()).get(metric);
            if (m == null) {
                for (Map.Entry<Pattern, MetricDescriptorDTO> f : families.getOrDefault(type, List.of())) {
                    if (f.getKey().matcher(metric).matches()) {
                        m = f.getValue();
                        break;
                    }
                }
            }
            if (m != null) {
                return m.unit != null ? m.unit : MetricUnits.unitOf(metric);
            }
        }
        return null;
    }

    /**
     * The types each element of an experiment's pipeline has in one run: the pipeline's type, replaced by the variant's
     * {@code type} statement, replaced by the sweep point's type target; then the types the variant's swaps bring.
     *
     * @param e the experiment
     * @param variant the run's variant, by name; an unknown name counts as a variant that changes nothing
     * @param point the run's sweep point, target to value as written
     * @return element name to its types, the one it starts with first; never {@code null}
     */
    static Map<String, List<String>> runTypes(ExperimentDTO e, String variant, Map<String, String> point) {
        Map<String, List<String>> types = new LinkedHashMap<>();
        if (e.pipeline != null) {
            for (ElementSpecDTO spec : e.pipeline.elements) {
                types.put(spec.name, new ArrayList<>(List.of(spec.type)));
            }
        }
        VariantDTO v = e.variants.stream().filter(x -> x.name != null && x.name.equals(variant)).findFirst().orElse(null);
        if (v != null) {
            v.types.forEach((element, type) -> types.computeIfAbsent(element, k -> new ArrayList<>()).add(0, type));
        }
        point.forEach((target, value) -> {
            if (target.indexOf('.') < 0) {
                types.computeIfAbsent(target, k -> new ArrayList<>()).add(0, Parameters.unquote(value));
            }
        });
        if (v != null) {
            for (String swap : v.swaps) { // AT:ELEMENT[=TYPE[@VERSION]]
                int colon = swap.indexOf(':');
                int eq = swap.indexOf('=', colon + 1);
                if (colon > 0 && eq > colon) {
                    int at = swap.indexOf('@', eq);
                    String type = swap.substring(eq + 1, at < 0 ? swap.length() : at).strip();
                    types.computeIfAbsent(swap.substring(colon + 1, eq).strip(), k -> new ArrayList<>()).add(type);
                }
            }
        }
        return types;
    }
}

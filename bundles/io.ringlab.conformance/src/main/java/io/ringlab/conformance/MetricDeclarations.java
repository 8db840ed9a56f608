package io.ringlab.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import io.ringlab.engine.standalone.Standalone;
import io.ringlab.pipeline.format.MetricNames;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.MetricDescriptorDTO;

/**
 * The check that an element type's metrics are declared where they are registered, both ways: every metric a run
 * reports under an element of the type is one of the type's {@link ElementDescriptorDTO#metricDescriptors} with a kind,
 * a meaning and a unit ({@link #undeclared}), and every metric the type's factory declares is reported
 * ({@link #unreported}). {@link DriverContract} and {@link QdiscContract} run it on the element under test; a test of
 * several types (Ringlab's own, over its sample pipelines) calls it per type.
 * <p>
 * A declared family {@code stream<i>Cwnd} stands for {@code stream0Cwnd}, {@code stream1Cwnd}, ...; the engine's CPU
 * account ({@code cpuCycles}, ...) is declared for every type by the engine. Stateless and thread-safe.
 *
 * @since 1.0
 */
public final class MetricDeclarations {
    private MetricDeclarations() {
    }

    /**
     * @param listed the type as the engine lists it ({@code Simulator.elementTypes()}: the factory's descriptor, units
     *            from the names' suffixes, the CPU account); never {@code null}
     * @param reported the metric names runs reported under elements of the type; never {@code null}
     * @return one line per reported metric that is not declared with a kind, a meaning and a unit, naming what is
     *         missing ({@code "txDoorbells (not declared)"}); empty if none
     */
    public static List<String> undeclared(ElementDescriptorDTO listed, Set<String> reported) {
        List<String> bad = new ArrayList<>();
        for (String name : new TreeSet<>(reported)) {
            MetricDescriptorDTO d = listed.metricDescriptors.stream().filter(m -> pattern(m.name).matcher(name).matches())
                    .findFirst().orElse(null);
            if (d == null) {
                bad.add(name + " (not declared)");
            } else if (d.kind == null || d.description == null || d.description.isBlank() || d.unit == null) {
                bad.add(name + " (declared without " + (d.kind == null ? "a kind" : d.unit == null ? "a unit" : "a meaning")
                        + ")");
            }
        }
        return bad;
    }

    /**
     * @param declared the factory's own descriptor ({@link ElementFactory#descriptor()}); never {@code null}
     * @param reported the metric names runs reported under elements of the type; never {@code null}
     * @return the names the factory declares that no run reported, in order: a family ({@code <i>}) counts when one of
     *         its members was reported, a histogram's statistics are not asked for (a histogram without values reports
     *         its count only); empty if none
     */
    public static List<String> unreported(ElementDescriptorDTO declared, Set<String> reported) {
        List<String> out = new ArrayList<>();
        for (MetricDescriptorDTO m : declared.metricDescriptors) {
            if (!MetricDescriptorDTO.HISTOGRAM.equals(m.kind)
                    && reported.stream().noneMatch(r -> pattern(m.name).matcher(r).matches())) {
                out.add(m.name);
            }
        }
        return out;
    }

    /**
     * The check of the canvas roles a type gives its metrics ({@link MetricDescriptorDTO#canvas}): a level is a gauge, a
     * throughput a counter of bytes or packets, a busy time a gauge in seconds without a capacity, and a capacity names a
     * metric the type declares or one of its properties.
     *
     * @param listed the type as the engine lists it (units filled in from the names' suffixes); never {@code null}
     * @return one line per metric whose role is wrong, saying what is allowed; empty if none
     * @since 1.1
     */
    public static List<String> canvasRoles(ElementDescriptorDTO listed) {
        List<String> bad = new ArrayList<>();
        Set<String> metrics = new TreeSet<>();
        listed.metricDescriptors.forEach(m -> metrics.add(m.name));
        Set<String> properties = new TreeSet<>();
        listed.properties.forEach(p -> properties.add(p.name));
        for (MetricDescriptorDTO m : listed.metricDescriptors) {
            if (m.canvas == null) {
                continue;
            }
            String where = listed.type + "." + m.name + ": canvas=" + m.canvas;
            if (MetricDescriptorDTO.LEVEL.equals(m.canvas)) {
                if (!MetricDescriptorDTO.GAUGE.equals(m.kind)) {
                    bad.add(where + " on a " + m.kind + "; a level is a gauge (what the element holds now)");
                }
            } else if (MetricDescriptorDTO.THROUGHPUT.equals(m.canvas)) {
                if (!MetricDescriptorDTO.COUNTER.equals(m.kind)) {
                    bad.add(where + " on a " + m.kind + "; a throughput is a counter");
                } else if (!"B".equals(m.unit) && !"packets".equals(m.unit) && !"".equals(m.unit)) {
                    bad.add(where + " in unit " + m.unit + "; a throughput counts bytes (B) or packets");
                }
            } else if (MetricDescriptorDTO.BUSY.equals(m.canvas)) {
                if (!MetricDescriptorDTO.GAUGE.equals(m.kind) || !"s".equals(m.unit)) {
                    bad.add(where + " on a " + m.kind + " in unit " + m.unit + "; a busy time is a gauge in seconds (s)");
                }
                if (m.capacity != null) {
                    bad.add(where + ", capacity=" + m.capacity + "; a busy time has no capacity (its share of the interval is"
                            + " the utilisation)");
                }
                continue;
            } else {
                bad.add(where + "; allowed: " + MetricDescriptorDTO.LEVEL + ", " + MetricDescriptorDTO.THROUGHPUT + ", "
                        + MetricDescriptorDTO.BUSY);
                continue;
            }
            if (m.capacity != null && !metrics.contains(m.capacity) && !properties.contains(m.capacity)) {
                bad.add(where + ", capacity=" + m.capacity + " names neither a metric nor a property of the type (metrics: "
                        + metrics + ", properties: " + properties + ")");
            }
        }
        return bad;
    }

    /**
     * @param factory a factory
     * @return its type as the engine lists it (see {@link #undeclared})
     * @throws AssertionError if the engine does not list the type
     */
    static ElementDescriptorDTO listed(ElementFactory factory) {
        String type = factory.descriptor().type;
        return Standalone.builder().element(factory).build().elementTypes().stream().filter(t -> t.type.equals(type))
                .findFirst().orElseThrow(() -> new AssertionError("the engine does not list the type " + type));
    }

    /** @return the declared name as a pattern: {@code <i>} stands for a number */
    private static Pattern pattern(String declared) {
        return MetricNames.declared(declared);
    }
}

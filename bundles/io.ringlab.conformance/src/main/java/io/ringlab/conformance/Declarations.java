package io.ringlab.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;

import io.ringlab.engine.standalone.Standalone;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.MetricDescriptorDTO;

/**
 * The check that an element's metrics are declared where they are registered: every metric a run reports under the
 * element must be one of its type's {@link ElementDescriptorDTO#metricDescriptors} (a family {@code stream<i>Cwnd} stands
 * for {@code stream0Cwnd}, {@code stream1Cwnd}, ...), with a kind, a meaning and a unit (its own, or its name's suffix's),
 * as {@code ringlab elements} lists the type; the engine's own CPU account ({@code cpuCycles}, ...) is declared for every
 * type by the engine.
 */
final class Declarations {
    private Declarations() {
    }

    /**
     * @param factory the factory under test
     * @param reported the metrics a run reported under its element, by name
     * @return one line per reported metric that is not declared so, naming what is missing; empty if none
     */
    static List<String> undeclared(ElementFactory factory, Map<String, Double> reported) {
        ElementDescriptorDTO listed = listed(factory);
        List<String> bad = new ArrayList<>();
        for (String name : new TreeSet<>(reported.keySet())) {
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

    /** @return the type as the engine lists it: the factory's descriptor, units from the names' suffixes, the CPU account */
    private static ElementDescriptorDTO listed(ElementFactory factory) {
        String type = factory.descriptor().type;
        return Standalone.builder().element(factory).build().elementTypes().stream().filter(t -> t.type.equals(type))
                .findFirst().orElseThrow(() -> new AssertionError("the engine does not list the type " + type));
    }

    /** @return the declared name as a pattern: {@code <i>} stands for a number */
    private static Pattern pattern(String declared) {
        return Pattern.compile(Pattern.quote(declared).replace("<i>", "\\E[0-9]+\\Q"));
    }
}

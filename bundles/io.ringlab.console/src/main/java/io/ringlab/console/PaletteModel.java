package io.ringlab.console;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.ringlab.sim.api.dto.ElementDescriptorDTO;

/**
 * The palette's content, without widgets: the element types grouped by category, the known categories in a pipeline's
 * order (sources, qdiscs, drivers, links, hosts, sinks, pools), then any other category by name; types by id within a
 * category. Immutable; built on the UI thread from {@code Simulator.elementTypes()}.
 */
final class PaletteModel {
    private static final List<String> ORDER = List.of(ElementDescriptorDTO.SOURCE, ElementDescriptorDTO.QDISC,
            ElementDescriptorDTO.DRIVER, ElementDescriptorDTO.LINK, ElementDescriptorDTO.HOST, ElementDescriptorDTO.SINK,
            ElementDescriptorDTO.POOL);

    private final Map<String, List<ElementDescriptorDTO>> categories;
    private final String signature;

    private PaletteModel(Map<String, List<ElementDescriptorDTO>> categories, String signature) {
        this.categories = categories;
        this.signature = signature;
    }

    /**
     * @param types the installed types, in any order; never {@code null}
     * @return the palette
     */
    static PaletteModel of(List<ElementDescriptorDTO> types) {
        Map<String, List<ElementDescriptorDTO>> byName = new TreeMap<>();
        for (ElementDescriptorDTO d : types) {
            String c = d.category == null || d.category.isBlank() ? "other" : d.category;
            byName.computeIfAbsent(c, k -> new ArrayList<>()).add(d);
        }
        Map<String, List<ElementDescriptorDTO>> ordered = new LinkedHashMap<>();
        for (String c : ORDER) {
            List<ElementDescriptorDTO> l = byName.remove(c);
            if (l != null) {
                ordered.put(c, l);
            }
        }
        ordered.putAll(byName);
        StringBuilder sig = new StringBuilder();
        for (Map.Entry<String, List<ElementDescriptorDTO>> e : ordered.entrySet()) {
            e.getValue().sort((a, b) -> a.type.compareTo(b.type));
            e.setValue(List.copyOf(e.getValue()));
            for (ElementDescriptorDTO d : e.getValue()) {
                sig.append(e.getKey()).append('/').append(d.type).append('@').append(d.bundle).append(':').append(d.bundleVersion)
                        .append(';');
            }
        }
        return new PaletteModel(java.util.Collections.unmodifiableMap(ordered), sig.toString());
    }

    /** @return category name to its types, in palette order; never {@code null}, empty when no type is installed. */
    Map<String, List<ElementDescriptorDTO>> categories() {
        return categories;
    }

    /** @return a string that changes whenever a type, its category, bundle or bundle version changes. */
    String signature() {
        return signature;
    }

    /** @return how the palette labels a type: {@code "netdev  (io.ringlab.driver.netdev 0.1.0)"}. */
    static String label(ElementDescriptorDTO d) {
        return d.type + "  (" + d.bundle + " " + d.bundleVersion + ")";
    }

    /** @return the palette's tooltip for a type: its summary, then its model page if it names one. */
    static String tooltip(ElementDescriptorDTO d) {
        String summary = d.summary == null ? d.type : d.summary;
        return d.modelPage == null ? summary : summary + "\nModel: " + d.modelPage;
    }
}

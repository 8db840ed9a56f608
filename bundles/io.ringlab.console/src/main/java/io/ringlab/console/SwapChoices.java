package io.ringlab.console;

import java.util.ArrayList;
import java.util.List;

import io.ringlab.sim.api.dto.ElementDescriptorDTO;

/**
 * What the swap controls offer for an element of a running pipeline, without widgets: its own type first (a fresh
 * instance of the newest installed version, with its state handed over), then the other installed types of its category
 * (a driver for a driver, a qdisc for a qdisc), each as {@code type@bundleVersion}.
 */
final class SwapChoices {
    /** One implementation to swap to: the type id, the bundle version ({@code null}: the newest), the label shown. */
    record Choice(String type, String version, String label) {
    }

    private SwapChoices() {
    }

    /**
     * @param elementType the element's type now
     * @param installed the installed element types (the simulator's list)
     * @return the choices, the element's own type first; empty when its type is no longer installed and no other type of
     *         its category is
     */
    static List<Choice> of(String elementType, List<ElementDescriptorDTO> installed) {
        List<Choice> out = new ArrayList<>();
        String category = null;
        for (ElementDescriptorDTO d : installed) {
            if (d.type.equals(elementType)) {
                category = d.category;
                out.add(new Choice(d.type, null, d.type + "@" + d.bundleVersion + " (a fresh instance, the newest version)"));
            }
        }
        for (ElementDescriptorDTO d : installed) {
            if (!d.type.equals(elementType) && d.category.equals(category)) {
                out.add(new Choice(d.type, d.bundleVersion, d.type + "@" + d.bundleVersion));
            }
        }
        return out;
    }
}

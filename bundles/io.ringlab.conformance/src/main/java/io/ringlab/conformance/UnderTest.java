package io.ringlab.conformance;

import java.util.ArrayList;
import java.util.List;

import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;

/**
 * The factory under test as a run sees it: the same descriptor and elements, and a record of each element it made, so that
 * a probe can look at the instance behind the element now (a swap makes a second one).
 */
final class UnderTest implements ElementFactory {
    private final ElementFactory factory;
    private final List<Element> made = new ArrayList<>();

    UnderTest(ElementFactory factory) {
        this.factory = factory;
    }

    @Override
    public ElementDescriptorDTO descriptor() {
        return factory.descriptor();
    }

    @Override
    public Element create(ElementContext context) {
        Element e = factory.create(context);
        made.add(e);
        return e;
    }

    /** @return the element made last (after a swap, the new instance), or {@code null} before the run was built */
    Element latest() {
        return made.isEmpty() ? null : made.get(made.size() - 1);
    }
}

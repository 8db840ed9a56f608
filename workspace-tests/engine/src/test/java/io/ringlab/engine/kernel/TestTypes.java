package io.ringlab.engine.kernel;

import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Direction;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Mode;

/** Descriptors of the element types tests make up: a type of category sink with push ports. */
final class TestTypes {
    private TestTypes() {
    }

    /** A required push input, for {@link #descriptor}. */
    static PortDescriptorDTO in(String name) {
        return PortDescriptorDTO.of(name, Direction.IN, Mode.PUSH, true, name);
    }

    /** A required push output, for {@link #descriptor}. */
    static PortDescriptorDTO out(String name) {
        return PortDescriptorDTO.of(name, Direction.OUT, Mode.PUSH, true, name);
    }

    /** @return a descriptor of {@code type} (category sink) with these ports */
    static ElementDescriptorDTO descriptor(String type, PortDescriptorDTO... ports) {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = type;
        d.category = ElementDescriptorDTO.SINK;
        d.ports.addAll(java.util.List.of(ports));
        return d;
    }
}

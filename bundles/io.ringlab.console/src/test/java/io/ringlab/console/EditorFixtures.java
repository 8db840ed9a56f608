package io.ringlab.console;

import java.util.List;

import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Direction;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Mode;

/** Element types with the ports of the real ones (source, pfifo, netdev, link, sink), for the editor's unit tests. */
final class EditorFixtures {
    private EditorFixtures() {
    }

    static List<ElementDescriptorDTO> types() {
        return List.of(
                type("source", ElementDescriptorDTO.SOURCE, port("out", Direction.OUT, Mode.PUSH)),
                type("pfifo", ElementDescriptorDTO.QDISC, port("in", Direction.IN, Mode.PUSH), port("out", Direction.OUT, Mode.PULL)),
                type("netdev", ElementDescriptorDTO.DRIVER, port("in", Direction.IN, Mode.PULL), port("wire", Direction.OUT, Mode.PULL)),
                type("link", ElementDescriptorDTO.LINK, port("in", Direction.IN, Mode.PULL), port("out", Direction.OUT, Mode.PUSH)),
                type("sink", ElementDescriptorDTO.SINK, port("in", Direction.IN, Mode.PUSH)));
    }

    static ElementDescriptorDTO type(String id, String category, PortDescriptorDTO... ports) {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = id;
        d.category = category;
        d.ports.addAll(List.of(ports));
        return d;
    }

    static PortDescriptorDTO port(String name, Direction dir, Mode mode) {
        return PortDescriptorDTO.of(name, dir, mode, true, name);
    }

    static PortRef out(String element, String port) {
        return new PortRef(element, port, Direction.OUT);
    }

    static PortRef in(String element, String port) {
        return new PortRef(element, port, Direction.IN);
    }
}

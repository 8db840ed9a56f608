package io.ringlab.console;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import io.ringlab.sim.api.dto.ConnectionDTO;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Direction;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Mode;

/**
 * Whether the editor may connect two ports: the rules the engine's pipeline builder checks when it builds a run, applied
 * while the user drags, so a connection the engine would refuse is refused at once with the builder's reason. From an
 * output to an input; both ports of the same push/pull mode; an output feeds exactly one input; a pull input has exactly
 * one upstream (a push input may have several). A {@code null} port name in a connection means the element's first port
 * of that direction, as in pipeline files.
 * <p>
 * Stateless; no SWT.
 */
final class ConnectionRules {
    private ConnectionRules() {
    }

    /**
     * @param types element name to its type's descriptor; returns {@code null} for an unknown element or type
     * @param existing the pipeline's connections now
     * @param a the port the drag started on (any direction); never {@code null}
     * @param b the port the drag ended on (any direction); never {@code null}
     * @return why the connection is refused, or {@code null} if the engine would accept it
     */
    static String refusal(Function<String, ElementDescriptorDTO> types, List<ConnectionDTO> existing, PortRef a, PortRef b) {
        String from = a.element(), to = b.element(), fromPort = a.port(), toPort = b.port();
        ElementDescriptorDTO fd = types.apply(from);
        ElementDescriptorDTO td = types.apply(to);
        if (fd == null || td == null) {
            return "the type of " + (fd == null ? from : to) + " is not installed, so its ports are unknown";
        }
        PortDescriptorDTO op = byName(fd, a.direction(), fromPort);
        PortDescriptorDTO ip = byName(td, b.direction(), toPort);
        if (op == null || ip == null) {
            return op == null ? from + " has no port '" + fromPort + "'" : to + " has no port '" + toPort + "'";
        }
        if (op.direction == Direction.IN && ip.direction == Direction.IN) {
            return "cannot connect two inputs (" + from + "." + op.name + " and " + to + "." + ip.name
                    + "): a connection goes from an output to an input";
        }
        if (op.direction == Direction.OUT && ip.direction == Direction.OUT) {
            return "cannot connect two outputs (" + from + "." + op.name + " and " + to + "." + ip.name
                    + "): a connection goes from an output to an input";
        }
        if (op.direction == Direction.IN) {
            return "drag from the output to the input: " + from + "." + op.name + " is an input";
        }
        if (op.mode != ip.mode) {
            return "cannot connect " + from + "." + op.name + " (" + mode(op.mode) + " output) to " + to + "." + ip.name + " ("
                    + mode(ip.mode) + " input): a connection joins ports of the same mode";
        }
        for (ConnectionDTO c : existing) {
            if (c.from.equals(from) && op.name.equals(portName(fd, Direction.OUT, c.fromPort))) {
                return "output " + from + "." + op.name
                        + " is already connected; an output feeds exactly one input (use a tee element to copy)";
            }
            if (ip.mode == Mode.PULL && c.to.equals(to) && ip.name.equals(portName(td, Direction.IN, c.toPort))) {
                return "pull input " + to + "." + ip.name + " is already connected; a pull input has exactly one upstream";
            }
        }
        return null;
    }

    /**
     * @param name a port name, or {@code null} for the first port of the direction
     * @return the port's name, or {@code null} if the type has no such port
     */
    static String portName(ElementDescriptorDTO d, Direction dir, String name) {
        for (PortDescriptorDTO p : d.ports) {
            if (p.direction == dir && (name == null || p.name.equals(name))) {
                return p.name;
            }
        }
        return null;
    }

    /** @return the ports of one direction, in index order; empty if none */
    static List<PortDescriptorDTO> ports(ElementDescriptorDTO d, Direction dir) {
        List<PortDescriptorDTO> l = new ArrayList<>();
        for (PortDescriptorDTO p : d.ports) {
            if (p.direction == dir) {
                l.add(p);
            }
        }
        return l;
    }

    private static PortDescriptorDTO byName(ElementDescriptorDTO d, Direction dir, String name) {
        for (PortDescriptorDTO p : d.ports) {
            if (p.direction == dir && p.name.equals(name)) {
                return p;
            }
        }
        return null;
    }

    private static String mode(Mode m) {
        return m.name().toLowerCase(java.util.Locale.ROOT);
    }
}

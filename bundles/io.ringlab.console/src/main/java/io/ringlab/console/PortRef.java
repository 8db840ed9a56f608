package io.ringlab.console;

import io.ringlab.sim.api.dto.PortDescriptorDTO.Direction;

/**
 * One port of one element on the editor's canvas: what a drag starts or ends on.
 *
 * @param element the element's name; never {@code null}
 * @param port the port's name; never {@code null}
 * @param direction IN or OUT (names are unique per direction only); never {@code null}
 */
record PortRef(String element, String port, Direction direction) {
    @Override
    public String toString() {
        return element + "." + port;
    }
}

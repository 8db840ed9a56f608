package io.ringlab.workspace.tests.dropin;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.Metrics;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Direction;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Mode;

/** Element type {@code plugsink}: delivers every packet it is pushed and counts them ({@code received}). */
public class PlugSinkFactory implements ElementFactory {
    /** The type id. */
    public static final String TYPE = "plugsink";

    @Override
    public ElementDescriptorDTO descriptor() {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = TYPE;
        d.category = ElementDescriptorDTO.SINK;
        d.summary = "a sink from a plugin folder";
        d.description = "Delivers every packet; a test fixture of the plugin folders.";
        d.ports.add(PortDescriptorDTO.of("in", Direction.IN, Mode.PUSH, true, "packets"));
        d.metrics.add("received");
        return d;
    }

    @Override
    public Element create(ElementContext context) {
        Metrics.Counter received = context.metrics().counter("received");
        return new Element() {
            @Override
            public void push(int inPort, Buffer buffer) {
                received.increment();
                context.deliver(0, buffer);
            }
        };
    }
}

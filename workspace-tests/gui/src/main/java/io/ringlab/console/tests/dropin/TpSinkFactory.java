package io.ringlab.console.tests.dropin;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.Metrics;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Direction;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Mode;

/** Element type {@code tpsink}: delivers every packet it is pushed and counts them ({@code received}, packets). */
public class TpSinkFactory implements ElementFactory {
    /** The type id. */
    public static final String TYPE = "tpsink";

    @Override
    public ElementDescriptorDTO descriptor() {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = TYPE;
        d.category = ElementDescriptorDTO.SINK;
        d.summary = "a third-party sink dropped into the plugins folder";
        d.description = "Delivers every packet and counts it; a test fixture of DropInGuiTest.";
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

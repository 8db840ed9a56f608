package io.ringlab.workspace.tests.faulty;

import java.util.Map;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Direction;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Mode;

/**
 * Sinks that go wrong on their {@value #AT}th packet, one fault per element type (the component's {@code ringlab.type}
 * property): {@value #THROW} throws, {@value #LOOP} never returns (until the system property {@value #RELEASE} is true,
 * so that a test can let the abandoned thread go), {@value #LEAK} keeps every packet without holding it, {@value #TWICE}
 * frees a packet twice. Every other packet is delivered.
 */
public class FaultyFactory implements ElementFactory {
    public static final String THROW = "faulty-throw", LOOP = "faulty-loop", LEAK = "faulty-leak", TWICE = "faulty-twice";
    /** The types, one component each. */
    public static final String[] TYPES = {THROW, LOOP, LEAK, TWICE};
    public static final String RELEASE = "ringlab.test.faulty.release";
    /** Set to true when the {@value #LOOP} element enters its loop. */
    public static final String LOOPING = "ringlab.test.faulty.looping";
    static final int AT = 3;

    private String type;

    /** Declarative Services: the component's properties name the type. */
    public void activate(Map<String, Object> properties) {
        type = (String) properties.get(ElementFactory.TYPE);
    }

    @Override
    public ElementDescriptorDTO descriptor() {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = type;
        d.category = ElementDescriptorDTO.SINK;
        d.summary = "a sink that goes wrong (" + type + ")";
        d.ports.add(PortDescriptorDTO.of("in", Direction.IN, Mode.PUSH, true, "packets"));
        return d;
    }

    @Override
    public Element create(ElementContext context) {
        int reason = context.dropReason("faulty");
        return new Element() {
            private int n;

            @Override
            public void push(int port, Buffer buffer) {
                if (++n < AT) {
                    context.deliver(0, buffer);
                    return;
                }
                switch (type) {
                    case THROW -> throw new IllegalStateException("descriptor ring corrupted at packet " + n);
                    case LOOP -> {
                        if (n == AT) {
                            System.setProperty(LOOPING, "true");
                            while (!Boolean.getBoolean(RELEASE)) {
                                Thread.onSpinWait(); // ignores interrupts, as a real endless loop would
                            }
                        }
                        context.deliver(0, buffer);
                    }
                    case LEAK -> {
                        // kept and forgotten: neither delivered, dropped nor held
                    }
                    default -> {
                        context.deliver(0, buffer);
                        context.drop(0, buffer, reason);
                    }
                }
            }
        };
    }
}

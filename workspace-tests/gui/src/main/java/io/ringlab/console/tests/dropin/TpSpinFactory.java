package io.ringlab.console.tests.dropin;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Direction;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Mode;

/**
 * Element type {@code tpspin}: a broken sink that loops on its third packet, ignoring interrupts as a real endless loop
 * would. The loop ends only when the component is deactivated (its bundle stops), so that a run of it in a process that
 * goes on (the console's own) gives its core back once the jar is removed.
 */
public class TpSpinFactory implements ElementFactory {
    /** The type id. */
    public static final String TYPE = "tpspin";

    private volatile boolean active = true;

    /** Declarative Services' deactivate method (named in the component description): ends the loops of its elements. */
    public void deactivate() {
        active = false;
    }

    @Override
    public ElementDescriptorDTO descriptor() {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = TYPE;
        d.category = ElementDescriptorDTO.SINK;
        d.summary = "a third-party sink that never returns from its third packet";
        d.description = "Loops for ever on its third packet; a test fixture of DropInGuiTest.";
        d.ports.add(PortDescriptorDTO.of("in", Direction.IN, Mode.PUSH, true, "packets"));
        return d;
    }

    @Override
    public Element create(ElementContext context) {
        return new Element() {
            private int pushed;

            @Override
            public void push(int inPort, Buffer buffer) {
                if (++pushed == 3) {
                    while (active) {
                        Thread.onSpinWait();
                    }
                }
                context.deliver(0, buffer);
            }
        };
    }
}

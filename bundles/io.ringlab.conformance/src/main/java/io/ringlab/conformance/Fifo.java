package io.ringlab.conformance;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.queue.api.Qdisc;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.OutputPort;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Direction;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Mode;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO.Kind;

/**
 * Element type {@value #TYPE}: the kit's own tail-drop FIFO, the qdisc in front of a driver under test (and on the ACK
 * path of the GSO traffic), so that a driver's contract does not depend on a qdisc bundle. Input {@code in} (push),
 * output {@code out} (pull, {@code ready} on every packet queued, as {@code __netif_schedule}); property {@code limit}
 * (packets); a packet that finds it full is dropped as {@link Qdisc#DROP_OVERLIMIT}.
 */
final class Fifo implements ElementFactory {
    static final String TYPE = "conformance.fifo";

    private static final ElementDescriptorDTO DESCRIPTOR = describe();

    private static ElementDescriptorDTO describe() {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = TYPE;
        d.category = ElementDescriptorDTO.QDISC;
        d.summary = "The conformance kit's tail-drop FIFO";
        d.description = "A packet FIFO with a limit, the qdisc the kit puts in front of the element under test";
        d.ports.add(PortDescriptorDTO.of("in", Direction.IN, Mode.PUSH, true, "packets to queue"));
        d.ports.add(PortDescriptorDTO.of("out", Direction.OUT, Mode.PULL, true, "packets for the device"));
        d.properties.add(PropertyDescriptorDTO.of("limit", Kind.INTEGER, "1000", "1", "1000000", "queue limit in packets"));
        return d;
    }

    @Override
    public ElementDescriptorDTO descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Element create(ElementContext context) {
        return new Queue(context);
    }

    private static final class Queue implements Element {
        private final ElementContext ctx;
        private final OutputPort out;
        private final Buffer[] ring;
        private final int overlimit;
        private int head, count;

        Queue(ElementContext ctx) {
            this.ctx = ctx;
            this.out = ctx.output("out");
            this.ring = new Buffer[(int) ctx.config().getLong("limit")];
            this.overlimit = ctx.dropReason(Qdisc.DROP_OVERLIMIT);
        }

        @Override
        public void push(int inPort, Buffer buffer) {
            if (count == ring.length) {
                ctx.drop(0, buffer, overlimit);
                return;
            }
            ring[(head + count++) % ring.length] = buffer;
            out.ready();
        }

        @Override
        public Buffer pull(int outPort) {
            if (count == 0) {
                return null;
            }
            Buffer b = ring[head];
            ring[head] = null;
            head = (head + 1) % ring.length;
            count--;
            return b;
        }

        @Override
        public void forEachHeld(BufferVisitor visitor) {
            for (int i = 0; i < count; i++) {
                visitor.visit(ring[(head + i) % ring.length]);
            }
        }
    }
}

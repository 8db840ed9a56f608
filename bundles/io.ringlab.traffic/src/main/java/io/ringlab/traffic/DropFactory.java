package io.ringlab.traffic;

import static io.ringlab.sim.api.dto.MetricDescriptorDTO.COUNTER;

import java.util.List;

import org.osgi.service.component.annotations.Component;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.ElementState;
import io.ringlab.sim.api.Handover;
import io.ringlab.sim.api.Metrics;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.MetricDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Direction;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Mode;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO.Kind;

/**
 * Element type {@code drop}: frees every packet it receives under a named drop reason (Click's {@code Discard}, the
 * kernel's {@code kfree_skb} with a drop reason). Counter {@code drops}. Stateless: in a hot swap a successor {@code drop}
 * takes nothing over but the counter, which goes on.
 */
@Component(service = ElementFactory.class, property = ElementFactory.TYPE + "=drop")
public class DropFactory implements ElementFactory {
    // The element's metrics, each declared once: the descriptor lists them and the element registers by them.
    static final MetricDescriptorDTO DROPS = new MetricDescriptorDTO(COUNTER, "drops",
            "packets dropped (all that arrived)");
    /** Every metric the element registers, in the order {@code ringlab elements} lists them. */
    static final List<MetricDescriptorDTO> METRICS = List.of(DROPS);

    private static final ElementDescriptorDTO DESCRIPTOR = describe();

    private static ElementDescriptorDTO describe() {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = "drop";
        d.category = ElementDescriptorDTO.SINK;
        d.summary = "Drops every packet under a named reason";
        d.description = "Frees each packet it receives and counts it as dropped with the reason given (kfree_skb with a"
                + " drop reason; Click's Discard).";
        d.ports.add(PortDescriptorDTO.of("in", Direction.IN, Mode.PUSH, true, "packets to drop"));
        d.properties.add(PropertyDescriptorDTO.of("reason", Kind.STRING, "drop", null, null,
                "the drop reason reported in the invariants, such as 'early-drop'"));
        d.metricDescriptors.addAll(METRICS);
        d.modelPage = "docs/models/traffic.md";
        return d;
    }

    @Override
    public ElementDescriptorDTO descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Element create(ElementContext ctx) {
        String reason = ctx.config().getString("reason");
        if (reason.isBlank()) {
            throw new IllegalArgumentException("reason is empty; name the drop reason, e.g. reason = early-drop");
        }
        int id = ctx.dropReason(reason);
        Metrics.Counter drops = ctx.metrics().counter(DropFactory.DROPS);
        return new Drop(ctx, id, drops);
    }

    /** The element: frees each packet under its reason. */
    private record Drop(ElementContext ctx, int reason, Metrics.Counter drops) implements Element, Handover {
        @Override
        public void push(int inPort, Buffer b) {
            drops.increment();
            ctx.drop(0, b, reason);
        }

        @Override
        public boolean exportState(ElementState out) {
            return true; // nothing held, nothing pending
        }

        @Override
        public boolean importState(ElementState in) {
            return in.fromType().equals("drop");
        }
    }
}

package io.ringlab.traffic;

import java.util.List;

import org.osgi.service.component.annotations.Component;

import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Direction;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Mode;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO.Kind;

/** Element type {@code host}: see {@link HostElement}. */
@Component(service = ElementFactory.class, property = ElementFactory.TYPE + "=host")
public class HostFactory implements ElementFactory {
    private static final ElementDescriptorDTO DESCRIPTOR = describe();

    private static ElementDescriptorDTO describe() {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = "host";
        d.category = ElementDescriptorDTO.HOST;
        d.summary = "A receiving host: consumes traffic, answers ICMP echo requests after a stack delay";
        d.description = "The far end of a link: every frame is counted and consumed (like 'sink', with the one-way latency"
                + " histogram); an ICMP echo request is answered with an echo reply of the same size, sequence and TOS"
                + " (icmp_echo, net/ipv4/icmp.c) after 'delay', pushed on 'out' towards the reverse path. A fast receiver:"
                + " no CPU model of its own.";
        d.ports.add(PortDescriptorDTO.of("in", Direction.IN, Mode.PUSH, true, "frames arriving from the link"));
        d.ports.add(PortDescriptorDTO.of("out", Direction.OUT, Mode.PUSH, false, "echo replies towards the reverse path"));
        d.properties.add(PropertyDescriptorDTO.of("delay", Kind.DURATION, "0s", "0s", "1s",
                "time from an echo request's arrival to its reply leaving"));
        d.metrics.addAll(List.of("rxPackets", "rxBytes", "rxMbps", "echoReplies", "latencyP50Micros"));
        return d;
    }

    @Override
    public ElementDescriptorDTO descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Element create(ElementContext context) {
        return new HostElement(context);
    }
}

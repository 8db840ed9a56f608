package io.ringlab.traffic;

import static io.ringlab.sim.api.dto.MetricDescriptorDTO.COUNTER;
import static io.ringlab.sim.api.dto.MetricDescriptorDTO.HISTOGRAM;

import java.util.List;

import org.osgi.service.component.annotations.Component;

import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.MetricDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Direction;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Mode;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO.Kind;

/** Element type {@code ping}: see {@link PingElement}. */
@Component(service = ElementFactory.class, property = ElementFactory.TYPE + "=ping")
public class PingFactory implements ElementFactory {
    // The element's metrics, each declared once: the descriptor lists them and the element registers by them.
    static final MetricDescriptorDTO SENT = new MetricDescriptorDTO(COUNTER, "sent", "echo requests sent");
    static final MetricDescriptorDTO ALLOC_FAILURES = new MetricDescriptorDTO(COUNTER, "allocFailures",
            "tries that found the element's pool empty; the request goes again after half the interval"
                    + " (10 ms to 500 ms)");
    static final MetricDescriptorDTO RECEIVED = new MetricDescriptorDTO(COUNTER, "received", "echo replies received");
    static final MetricDescriptorDTO DUPLICATES = new MetricDescriptorDTO(COUNTER, "duplicates",
            "replies received for a request already answered");
    /** Every metric the element registers, in the order {@code ringlab elements} lists them. */
    static final List<MetricDescriptorDTO> METRICS = List.of(SENT, ALLOC_FAILURES, RECEIVED, DUPLICATES,
            new MetricDescriptorDTO(HISTOGRAM, "rttCount", "round-trip times recorded"),
            new MetricDescriptorDTO(HISTOGRAM, "rttP50Millis", "median round-trip time"),
            new MetricDescriptorDTO(HISTOGRAM, "rttP90Millis", "90th percentile of the round-trip time"),
            new MetricDescriptorDTO(HISTOGRAM, "rttP99Millis", "99th percentile of the round-trip time"),
            new MetricDescriptorDTO(HISTOGRAM, "rttMinMillis", "smallest round-trip time"),
            new MetricDescriptorDTO(HISTOGRAM, "rttMaxMillis", "largest round-trip time"),
            new MetricDescriptorDTO(HISTOGRAM, "rttMeanMillis", "mean round-trip time"));

    private static final ElementDescriptorDTO DESCRIPTOR = describe();

    private static ElementDescriptorDTO describe() {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = "ping";
        d.category = ElementDescriptorDTO.SOURCE;
        d.summary = "ICMP echo requests at an interval, with a TOS; reports the round-trip time histogram";
        d.description = "Sends an echo request every 'interval' (iputils ping: 1 s by default, 56 payload bytes, so a 98-byte"
                + " frame) with the TOS byte of 'ping -Q'; the kernel derives skb->priority from it (rt_tos2priority), so TOS"
                + " 0x10 lands in pfifo_fast band 0 and TOS 0 in band 1. A reply arriving on 'in' records the round-trip"
                + " time. Replies come from a 'host' element over the reverse path.";
        d.ports.add(PortDescriptorDTO.of("out", Direction.OUT, Mode.PUSH, true, "echo requests"));
        PortDescriptorDTO in = PortDescriptorDTO.of("in", Direction.IN, Mode.PUSH, true, "echo replies");
        in.pushesInCall.add(PingElement.PASS);
        d.ports.add(in);
        d.ports.add(PortDescriptorDTO.of(PingElement.PASS, Direction.OUT, Mode.PUSH, false,
                "what arrives on 'in' and is not this ping's (another ping's replies, other protocols), passed on to the"
                        + " next element of the host; unconnected, such packets count as duplicates"));
        d.properties.add(PropertyDescriptorDTO.of("interval", Kind.DURATION, "1s", "1us", "3600s",
                "time between requests (ping -i)"));
        d.properties.add(PropertyDescriptorDTO.of("size", Kind.SIZE, "56B", "0B", "1472B",
                "echo payload bytes (ping -s); the frame adds 42 bytes of Ethernet, IPv4 and ICMP headers"));
        d.properties.add(PropertyDescriptorDTO.of("tos", Kind.INTEGER, "0", "0", "255",
                "IPv4 TOS byte (ping -Q); priority = rt_tos2priority(tos)"));
        d.properties.add(PropertyDescriptorDTO.of("start", Kind.DURATION, "0s", "0s", null, "time of the first request"));
        d.properties.add(PropertyDescriptorDTO.of("count", Kind.INTEGER, "0", "0", null,
                "requests to send (ping -c); 0 sends until the run ends"));
        d.metricDescriptors.addAll(METRICS);
        d.modelPage = "docs/models/traffic.md";
        return d;
    }

    @Override
    public ElementDescriptorDTO descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Element create(ElementContext context) {
        return new PingElement(context);
    }
}

package io.ringlab.traffic;

import static io.ringlab.sim.api.dto.MetricDescriptorDTO.COUNTER;

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

/** Element type {@code source}: see {@link SourceElement}. */
@Component(service = ElementFactory.class, property = ElementFactory.TYPE + "=source")
public class SourceFactory implements ElementFactory {
    // The element's metrics, each declared once: the descriptor lists them and the element registers by them.
    static final MetricDescriptorDTO TX_PACKETS = new MetricDescriptorDTO(COUNTER, "txPackets",
            "packets generated and pushed");
    static final MetricDescriptorDTO TX_BYTES = new MetricDescriptorDTO(COUNTER, "txBytes",
            "their lengths, without FCS").throughput(null);
    static final MetricDescriptorDTO ALLOC_FAILURES = new MetricDescriptorDTO(COUNTER, "allocFailures",
            "packets skipped because the pool was empty");
    /** Every metric the element registers, in the order {@code ringlab elements} lists them. */
    static final List<MetricDescriptorDTO> METRICS = List.of(TX_PACKETS, TX_BYTES, ALLOC_FAILURES);

    private static final ElementDescriptorDTO DESCRIPTOR = describe();

    private static ElementDescriptorDTO describe() {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = "source";
        d.category = ElementDescriptorDTO.SOURCE;
        d.summary = "Packet generator: constant or Poisson arrivals at a wire rate, fixed, uniform or IMIX frame sizes, several flows";
        d.description = "Generates Ethernet frames like pktgen or a traffic generator. 'rate' counts wire bits: frame plus FCS,"
                + " preamble and inter-frame gap (20 B), so rate equal to the link's rate is line rate (148.8 Mpps of 64-byte"
                + " frames at 100 Gbit/s). Frame sizes include the FCS, as RFC 2544 counts them (64 to 1518 bytes). Packets"
                + " are generated in bursts of 'burst' per event, all with the event's time as creation time; the long-run"
                + " rate is 'rate' whatever the burst.";
        d.ports.add(PortDescriptorDTO.of("out", Direction.OUT, Mode.PUSH, true, "generated frames"));
        d.properties.add(PropertyDescriptorDTO.of("rate", Kind.RATE, "1Gbit", "1bit", "1600Gbit",
                "offered load in wire bits per second (frame + FCS + preamble + inter-frame gap)"));
        d.properties.add(PropertyDescriptorDTO.of("size", Kind.SIZE, "1518B", "64B", "9018B",
                "frame size including FCS (fixed sizes), or the smallest size of a uniform distribution"));
        d.properties.add(PropertyDescriptorDTO.of("sizeMax", Kind.SIZE, "1518B", "64B", "9018B",
                "largest frame size of the uniform distribution"));
        d.properties.add(PropertyDescriptorDTO.choice("sizes", "fixed", List.of("fixed", "uniform", "imix"),
                "frame size distribution: fixed 'size'; uniform from 'size' to 'sizeMax'; imix 7:4:1 of 64, 594, 1518 bytes"));
        d.properties.add(PropertyDescriptorDTO.choice("arrivals", "constant", List.of("constant", "poisson"),
                "inter-arrival times: constant, or exponential (Poisson process) with the same mean"));
        d.properties.add(PropertyDescriptorDTO.of("flows", Kind.INTEGER, "1", "1", "65536",
                "number of flows; each packet picks one uniformly from the element's random stream (flow numbers differ between sources: a hash of the source's name * 65536 + flow)"));
        d.properties.add(PropertyDescriptorDTO.of("priority", Kind.INTEGER, "0", "0", "15", "skb->priority of every packet"));
        d.properties.add(PropertyDescriptorDTO.of("tos", Kind.INTEGER, "0", "0", "255", "IPv4 TOS byte of every packet"));
        d.properties.add(PropertyDescriptorDTO.of("count", Kind.INTEGER, "0", "0", null,
                "packets to generate in all (a packet skipped for want of a buffer does not count); 0 generates until the run ends"));
        d.properties.add(PropertyDescriptorDTO.of("start", Kind.DURATION, "0s", "0s", null, "when the first packet is generated"));
        d.properties.add(PropertyDescriptorDTO.of("burst", Kind.INTEGER, "1", "1", "1024",
                "packets generated per event, handed downstream as one batch; 1 is one event per packet"));
        d.properties.add(PropertyDescriptorDTO.of("buffers", Kind.INTEGER, "4096", "1", "16777216",
                "buffers in the source's pool (kind fixed); an empty pool skips a packet and counts allocFailures"));
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
        return new SourceElement(context);
    }
}

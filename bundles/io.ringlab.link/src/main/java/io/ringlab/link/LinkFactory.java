package io.ringlab.link;

import static io.ringlab.sim.api.dto.MetricDescriptorDTO.COUNTER;
import static io.ringlab.sim.api.dto.MetricDescriptorDTO.GAUGE;

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

/** Element type {@code link}: see {@link LinkElement}. */
@Component(service = ElementFactory.class, property = ElementFactory.TYPE + "=link")
public class LinkFactory implements ElementFactory {
    // The element's metrics, each declared once: the descriptor lists them and the element registers by them.
    static final MetricDescriptorDTO TX_PACKETS = new MetricDescriptorDTO(COUNTER, "txPackets",
            "frames serialised, lost ones included");
    static final MetricDescriptorDTO TX_BYTES = new MetricDescriptorDTO(COUNTER, "txBytes", "their lengths (skb->len)");
    static final MetricDescriptorDTO WIRE_BYTES = new MetricDescriptorDTO(COUNTER, "wireBytes",
            "bytes on the wire: padded length plus overhead").throughput(null);
    static final MetricDescriptorDTO LOST = new MetricDescriptorDTO(COUNTER, "lost",
            "frames lost (also in the invariants as link-loss)");
    static final MetricDescriptorDTO IN_FLIGHT = new MetricDescriptorDTO(GAUGE, "inFlight",
            "frames pulled, not lost and not yet delivered");
    static final MetricDescriptorDTO UTILISATION_PERCENT = new MetricDescriptorDTO(GAUGE, "utilisationPercent",
            "wire busy time up to now over now");
    static final MetricDescriptorDTO BUSY_SECONDS = new MetricDescriptorDTO(GAUGE, "busySeconds", "s",
            "wire busy time up to now: the frames serialised, the one on the wire up to now (the console's utilisation)").busy();
    /** Every metric the element registers, in the order {@code ringlab elements} lists them. */
    static final List<MetricDescriptorDTO> METRICS = List.of(TX_PACKETS, TX_BYTES, WIRE_BYTES, LOST,
            IN_FLIGHT, UTILISATION_PERCENT, BUSY_SECONDS);

    private static final ElementDescriptorDTO DESCRIPTOR = describe();

    private static ElementDescriptorDTO describe() {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = "link";
        d.category = ElementDescriptorDTO.LINK;
        d.summary = "Ethernet wire: serialises frames at a rate, adds wire overhead and propagation delay, optional random loss";
        d.description = "Pulls the next frame from the device upstream whenever the wire is idle (as a MAC's DMA fetches the"
                + " next descriptor), serialises it for (max(len + FCS, 64) + preamble + IFG) * 8 / rate, and delivers it"
                + " after the propagation delay, stamped with its arrival time. A 1514-byte skb (1500-byte MTU) occupies 1538"
                + " bytes on the wire. With batch > 1 the link takes up to 'batch' frames at once and delivers each group in"
                + " one event; every frame keeps its own arrival stamp (the sending device sees the group complete at once).";
        d.ports.add(PortDescriptorDTO.of("in", Direction.IN, Mode.PULL, true, "frames from the transmitting device"));
        d.ports.add(PortDescriptorDTO.of("out", Direction.OUT, Mode.PUSH, true, "frames at the receiving end"));
        d.properties.add(PropertyDescriptorDTO.of("rate", Kind.RATE, "1Gbit", "1kbit", "1600Gbit", "line rate in bits per second"));
        d.properties.add(PropertyDescriptorDTO.of("delay", Kind.DURATION, "0s", "0s", "10s",
                "one-way propagation delay (0 for a back-to-back cable)"));
        d.properties.add(PropertyDescriptorDTO.of("overhead", Kind.SIZE, "24B", "0B", "1000B",
                "bytes on the wire per frame beyond skb->len: FCS 4 + preamble/SFD 8 + inter-frame gap 12 (IEEE 802.3)"));
        d.properties.add(PropertyDescriptorDTO.of("minFrame", Kind.SIZE, "64B", "0B", "1000B",
                "minimum frame size including FCS; shorter frames are padded (IEEE 802.3 minFrameSize)"));
        d.properties.add(PropertyDescriptorDTO.of("loss", Kind.DECIMAL, "0", "0", "1",
                "probability that a frame is lost on the wire, drawn from the link's random stream"));
        d.properties.add(PropertyDescriptorDTO.of("batch", Kind.INTEGER, "1", "1", "1024",
                "frames taken per wire event; 1 is exact, more trades the upstream's completion timing for speed"));
        d.metricDescriptors.addAll(METRICS);
        d.modelPage = "docs/models/link.md";
        return d;
    }

    @Override
    public ElementDescriptorDTO descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Element create(ElementContext context) {
        return new LinkElement(context);
    }
}

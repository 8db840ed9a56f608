package io.ringlab.traffic;

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

/** Element type {@code pcap-source}: see {@link PcapSourceElement}. */
@Component(service = ElementFactory.class, property = ElementFactory.TYPE + "=" + PcapSourceFactory.TYPE)
public class PcapSourceFactory implements ElementFactory {
    /** The element type. */
    static final String TYPE = "pcap-source";
    // The element's metrics, each declared once: the descriptor lists them and the element registers by them.
    static final MetricDescriptorDTO TX_PACKETS = new MetricDescriptorDTO(COUNTER, "txPackets",
            "frames replayed and pushed");
    static final MetricDescriptorDTO TX_BYTES = new MetricDescriptorDTO(COUNTER, "txBytes",
            "their lengths, without FCS").throughput(null);
    static final MetricDescriptorDTO ALLOC_FAILURES = new MetricDescriptorDTO(COUNTER, "allocFailures",
            "frames skipped because the pool was empty");
    static final MetricDescriptorDTO LOOPS = new MetricDescriptorDTO(COUNTER, "loops",
            "times the whole capture was replayed");
    static final MetricDescriptorDTO FRAMES = new MetricDescriptorDTO(GAUGE, "frames", "frames in the capture file");
    static final MetricDescriptorDTO FLOWS = new MetricDescriptorDTO(GAUGE, "flows",
            "5-tuples in the capture, each a flow of its own");
    static final MetricDescriptorDTO CLAMPED_FRAMES = new MetricDescriptorDTO(GAUGE, "clampedFrames",
            "frames stamped earlier than the frame before them, replayed at that frame's time");
    /** Every metric the element registers, in the order {@code ringlab elements} lists them. */
    static final List<MetricDescriptorDTO> METRICS = List.of(TX_PACKETS, TX_BYTES, ALLOC_FAILURES, LOOPS, FRAMES, FLOWS,
            CLAMPED_FRAMES);

    private static final ElementDescriptorDTO DESCRIPTOR = describe();

    private static ElementDescriptorDTO describe() {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = TYPE;
        d.category = ElementDescriptorDTO.SOURCE;
        d.summary = "Replays a pcap or pcapng capture (tcpdump on a testbed): each frame at its captured time, length, TOS and flow";
        d.description = "Reads a capture of Ethernet frames (classic pcap in either byte order with microsecond or nanosecond"
                + " timestamps, or pcapng with any interfaces and resolutions) when the pipeline is built, and pushes each"
                + " frame at its time after the capture's first frame (divided by 'speed'), with its original length"
                + " (without FCS), its IPv4 TOS as the TOS and as skb->priority (rt_tos2priority), and a flow number per"
                + " 5-tuple (per direction, as the kernel's flow hash). Frames with one time go downstream as one batch."
                + " Payload bytes are not kept. A malformed or cut capture is an error naming the file and the frame.";
        d.ports.add(PortDescriptorDTO.of("out", Direction.OUT, Mode.PUSH, true, "the capture's frames"));
        d.properties.add(PropertyDescriptorDTO.of("file", Kind.STRING, "", null, null,
                "the capture to replay (.pcap or .pcapng), relative to the current directory as --pcap's files are"));
        d.properties.add(PropertyDescriptorDTO.of("speed", Kind.DECIMAL, "1", "0.000001", "1000000",
                "replay speed: the captured times are divided by it (2 replays twice as fast, like tcpreplay --multiplier)"));
        d.properties.add(PropertyDescriptorDTO.of("loop", Kind.INTEGER, "1", "0", null,
                "times to replay the capture; 0 replays it until the run ends. Each loop starts one mean frame gap after"
                        + " the previous loop's last frame, so the long-run rate is the capture's"));
        d.properties.add(PropertyDescriptorDTO.of("start", Kind.DURATION, "0s", "0s", null, "when the first frame is pushed"));
        d.properties.add(PropertyDescriptorDTO.of("buffers", Kind.INTEGER, "4096", "1", "16777216",
                "buffers in the element's pool (kind fixed, each as large as the capture's longest frame); an empty pool"
                        + " skips a frame and counts allocFailures"));
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
        return new PcapSourceElement(context);
    }
}

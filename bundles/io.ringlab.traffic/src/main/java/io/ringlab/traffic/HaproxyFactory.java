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

/** Element type {@code haproxy}: see {@link HaproxyElement} and docs/models/haproxy.md. */
@Component(service = ElementFactory.class, property = ElementFactory.TYPE + "=haproxy")
public class HaproxyFactory implements ElementFactory {
    // The element's metrics, each declared once: the descriptor lists them and the element registers by them.
    static final MetricDescriptorDTO ACCEPTED = new MetricDescriptorDTO(COUNTER, "accepted", "connections accepted");
    static final MetricDescriptorDTO CLOSED = new MetricDescriptorDTO(COUNTER, "closed",
            "connections closed after their response");
    static final MetricDescriptorDTO ABORTED = new MetricDescriptorDTO(COUNTER, "aborted", "connections aborted");
    static final MetricDescriptorDTO STALE_FRAMES = new MetricDescriptorDTO(COUNTER, "staleFrames",
            "frames for a connection that no longer exists");
    static final MetricDescriptorDTO FRAMES_IN = new MetricDescriptorDTO(COUNTER, "framesIn", "frames received");
    static final MetricDescriptorDTO FRAMES_OUT = new MetricDescriptorDTO(COUNTER, "framesOut", "frames sent");
    static final MetricDescriptorDTO ALLOC_FAILURES = new MetricDescriptorDTO(COUNTER, "allocFailures",
            "frames not sent because the skb pool was empty ('buffers'; the client times out)");
    static final MetricDescriptorDTO CPU_CYCLES_PER_CONNECTION = new MetricDescriptorDTO(GAUGE,
            "cpuCyclesPerConnection",
            "CPU cycles the proxy charged per closed connection");
    static final MetricDescriptorDTO APP_BACKLOG = new MetricDescriptorDTO(GAUGE, "appBacklog",
            "frames waiting for the proxy process now").level("backlog");
    /** Every metric the element registers, in the order {@code ringlab elements} lists them. */
    static final List<MetricDescriptorDTO> METRICS = List.of(ACCEPTED, CLOSED, ABORTED, STALE_FRAMES,
            FRAMES_IN, FRAMES_OUT, ALLOC_FAILURES, CPU_CYCLES_PER_CONNECTION, APP_BACKLOG);

    private static final ElementDescriptorDTO DESCRIPTOR = describe();

    private static ElementDescriptorDTO describe() {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = "haproxy";
        d.category = ElementDescriptorDTO.HOST;
        d.summary = "An HTTP reverse proxy on the board: its kernel's TCP and haproxy processes with a CPU cost";
        d.description = "Terminates the client connections of an 'http-load' and opens one to its server per request,"
                + " through the same port. The kernel side runs in the driver's softirq on 'softirqCore' (rxFrameCycles per"
                + " frame, SYN-ACKs, ACKs); one haproxy process per core in 'cores' handles accept, request, connect,"
                + " forwarding and close as application work (connectionCycles per connection, segmentCycles per forwarded"
                + " segment after the first); each frame sent costs txFrameCycles. Cost properties at -1 take the profile's"
                + " haproxy.* and tcp.* values.";
        d.ports.add(PortDescriptorDTO.of("in", Direction.IN, Mode.PUSH, true, "frames from the driver's stack output"));
        d.ports.add(PortDescriptorDTO.of("out", Direction.OUT, Mode.PUSH, true, "frames to send (to the port's qdisc)"));
        d.properties.add(PropertyDescriptorDTO.of("cores", Kind.STRING, "0,1", null, null,
                "cores running a haproxy process each (nbproc and cpu-map), comma-separated"));
        d.properties.add(PropertyDescriptorDTO.of("softirqCore", Kind.INTEGER, "0", "0", "1023",
                "the core whose NAPI poll delivers the port's frames (the driver's core)"));
        d.properties.add(PropertyDescriptorDTO.of("connectionCycles", Kind.INTEGER, "-1", "-1", "1000000000",
                "haproxy's cycles per connection (accept, parse, connect, forward, close; shared by four events);"
                        + " -1: the profile's haproxy.connectionCycles"));
        d.properties.add(PropertyDescriptorDTO.of("segmentCycles", Kind.INTEGER, "-1", "-1", "1000000000",
                "haproxy's cycles per response segment forwarded after the first; -1: the profile's haproxy.segmentCycles"));
        d.properties.add(PropertyDescriptorDTO.of("rxFrameCycles", Kind.INTEGER, "-1", "-1", "1000000000",
                "kernel cycles per received frame above the driver (IP, TCP, socket); -1: the profile's"
                        + " tcp.rxSegmentCycles"));
        d.properties.add(PropertyDescriptorDTO.of("txFrameCycles", Kind.INTEGER, "-1", "-1", "1000000000",
                "kernel cycles per sent frame above the driver; -1: the profile's tcp.txSegmentCycles"));
        d.properties.add(PropertyDescriptorDTO.of("slots", Kind.INTEGER, "4096", "1", "1048576",
                "connection slots: at least the load's concurrency"));
        d.properties.add(PropertyDescriptorDTO.of("backlog", Kind.INTEGER, "65536", "16", "16777216",
                "events a haproxy process may have waiting (socket data included)"));
        d.properties.add(PropertyDescriptorDTO.of("buffers", Kind.INTEGER, "65536", "16", "16777216",
                "skbs the proxy's host may have in flight (its TCP's sends)"));
        d.metricDescriptors.addAll(METRICS);
        d.modelPage = "docs/models/haproxy.md";
        return d;
    }

    @Override
    public ElementDescriptorDTO descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Element create(ElementContext context) {
        return new HaproxyElement(context);
    }
}

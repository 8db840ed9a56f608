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
import io.ringlab.sim.api.OutputPort;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.MetricDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Direction;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Mode;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO.Kind;

/**
 * Element type {@code demux}: the sending host's protocol demultiplexer ({@code ip_local_deliver_finish} handing a packet to
 * the handler of its IP protocol): a packet on {@code in} leaves on {@code tcp} ({@code Buffer.PROTO_TCP}), {@code icmp}
 * ({@code PROTO_ICMP}) or {@code other} (anything else), so that one reverse path carries ACKs to a {@code tcp} element and
 * echo replies to a {@code ping}. A packet whose output is not connected is dropped under {@code reason} (default
 * {@code demux-unconnected}, as the kernel drops an unhandled protocol). Counters {@code tcpPackets}, {@code icmpPackets},
 * {@code otherPackets} (packets routed to each output) and {@code drops} (dropped for want of a connection). No CPU cost,
 * no state per packet: in a hot swap a successor {@code demux} takes nothing over but the counters, which go on. Engine
 * thread only.
 */
@Component(service = ElementFactory.class, property = ElementFactory.TYPE + "=demux")
public class DemuxFactory implements ElementFactory {
    // The element's metrics, each declared once: the descriptor lists them and the element registers by them.
    static final MetricDescriptorDTO TCP_PACKETS = new MetricDescriptorDTO(COUNTER, "tcpPackets",
            "TCP packets sent to the tcp output");
    static final MetricDescriptorDTO ICMP_PACKETS = new MetricDescriptorDTO(COUNTER, "icmpPackets",
            "ICMP packets sent to the icmp output");
    static final MetricDescriptorDTO OTHER_PACKETS = new MetricDescriptorDTO(COUNTER, "otherPackets",
            "other packets sent to the other output");
    static final MetricDescriptorDTO DROPS = new MetricDescriptorDTO(COUNTER, "drops",
            "packets dropped because their output is not connected");
    /** Every metric the element registers, in the order {@code ringlab elements} lists them. */
    static final List<MetricDescriptorDTO> METRICS = List.of(TCP_PACKETS, ICMP_PACKETS, OTHER_PACKETS, DROPS);

    private static final ElementDescriptorDTO DESCRIPTOR = describe();

    private static ElementDescriptorDTO describe() {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = "demux";
        d.category = ElementDescriptorDTO.HOST;
        d.summary = "Routes packets by IP protocol: TCP, ICMP, other";
        d.description = "A host's protocol demultiplexer (ip_local_deliver_finish): each packet leaves on 'tcp', 'icmp' or"
                + " 'other' after Buffer.protocol(), so one reverse path can carry TCP ACKs to a 'tcp' element and echo replies"
                + " to a 'ping'. A packet for an output that is not connected is dropped under 'reason'.";
        PortDescriptorDTO in = PortDescriptorDTO.of("in", Direction.IN, Mode.PUSH, true, "packets to route");
        in.pushesInCall.addAll(List.of("tcp", "icmp", "other")); // DemuxElement.push pushes on at once
        d.ports.add(in);
        d.ports.add(PortDescriptorDTO.of("tcp", Direction.OUT, Mode.PUSH, false, "TCP packets (protocol 6)"));
        d.ports.add(PortDescriptorDTO.of("icmp", Direction.OUT, Mode.PUSH, false, "ICMP packets (protocol 1)"));
        d.ports.add(PortDescriptorDTO.of("other", Direction.OUT, Mode.PUSH, false, "every other protocol"));
        d.properties.add(PropertyDescriptorDTO.of("reason", Kind.STRING, "demux-unconnected", null, null,
                "drop reason for a packet whose output is not connected"));
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
            throw new IllegalArgumentException("reason is empty; name the drop reason, e.g. reason = demux-unconnected");
        }
        return new Demux(ctx, ctx.dropReason(reason));
    }

    /** The element: one push input, three push outputs chosen by protocol. */
    static final class Demux implements Element, Handover {
        private final ElementContext ctx;
        private final OutputPort tcpOut, icmpOut, otherOut;
        private final Metrics.Counter tcp, icmp, other, unrouted;
        private final int reason;

        Demux(ElementContext ctx, int reason) {
            this.ctx = ctx;
            this.reason = reason;
            this.tcpOut = ctx.output("tcp");
            this.icmpOut = ctx.output("icmp");
            this.otherOut = ctx.output("other");
            Metrics m = ctx.metrics();
            tcp = m.counter(DemuxFactory.TCP_PACKETS);
            icmp = m.counter(DemuxFactory.ICMP_PACKETS);
            other = m.counter(DemuxFactory.OTHER_PACKETS);
            unrouted = m.counter(DemuxFactory.DROPS);
        }

        @Override
        public boolean exportState(ElementState out) {
            return true; // nothing held, nothing pending
        }

        @Override
        public boolean importState(ElementState in) {
            return in.fromType().equals("demux");
        }

        @Override
        public void push(int inPort, Buffer b) {
            OutputPort port;
            Metrics.Counter counter;
            switch (b.protocol()) {
                case Buffer.PROTO_TCP -> {
                    port = tcpOut;
                    counter = tcp;
                }
                case Buffer.PROTO_ICMP -> {
                    port = icmpOut;
                    counter = icmp;
                }
                default -> {
                    port = otherOut;
                    counter = other;
                }
            }
            if (!port.connected()) {
                unrouted.increment();
                ctx.drop(0, b, reason);
                return;
            }
            counter.increment();
            port.push(b);
        }
    }
}

package io.ringlab.traffic;

import static io.ringlab.sim.api.dto.MetricDescriptorDTO.COUNTER;
import static io.ringlab.sim.api.dto.MetricDescriptorDTO.HISTOGRAM;
import static io.ringlab.sim.api.dto.MetricDescriptorDTO.RATE;

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

/** Element type {@code host}: see {@link HostElement}. */
@Component(service = ElementFactory.class, property = ElementFactory.TYPE + "=host")
public class HostFactory implements ElementFactory {
    // The element's metrics, each declared once: the descriptor lists them and the element registers by them.
    static final MetricDescriptorDTO RX_PACKETS = new MetricDescriptorDTO(COUNTER, "rxPackets", "packets received");
    static final MetricDescriptorDTO RX_BYTES = new MetricDescriptorDTO(COUNTER, "rxBytes", "their lengths").throughput(null);
    static final MetricDescriptorDTO TX_PACKETS = new MetricDescriptorDTO(COUNTER, "txPackets",
            "packets sent (TCP segments and ACKs, echo replies)");
    static final MetricDescriptorDTO TX_BYTES = new MetricDescriptorDTO(COUNTER, "txBytes", "their lengths");
    static final MetricDescriptorDTO RX_MBIT_PER_SECOND = new MetricDescriptorDTO(RATE, "rxMbitPerSecond",
            "rxBytes in megabits per second of the measured window");
    static final MetricDescriptorDTO ECHO_REPLIES = new MetricDescriptorDTO(COUNTER, "echoReplies",
            "ICMP echo replies sent");
    static final MetricDescriptorDTO REPLY_POOL_EMPTY = new MetricDescriptorDTO(COUNTER, "replyPoolEmpty",
            "echo replies not sent for want of a buffer");
    static final MetricDescriptorDTO TCP_SEGMENTS = new MetricDescriptorDTO(COUNTER, "tcpSegments",
            "TCP data segments received (dropped ones included)");
    static final MetricDescriptorDTO TCP_RCV_BYTES = new MetricDescriptorDTO(COUNTER, "tcpRcvBytes",
            "in-order bytes: the sum of the advances of rcv_nxt");
    static final MetricDescriptorDTO TCP_GOODPUT_MBIT_PER_SECOND = new MetricDescriptorDTO(RATE,
            "tcpGoodputMbitPerSecond",
            "tcpRcvBytes in megabits per second of the measured window");
    static final MetricDescriptorDTO TCP_OUT_OF_ORDER = new MetricDescriptorDTO(COUNTER, "tcpOutOfOrder",
            "segments recorded above rcv_nxt");
    static final MetricDescriptorDTO TCP_DUPLICATES = new MetricDescriptorDTO(COUNTER, "tcpDuplicates",
            "segments of old data");
    static final MetricDescriptorDTO TCP_ACKS = new MetricDescriptorDTO(COUNTER, "tcpAcks", "ACKs sent");
    static final MetricDescriptorDTO TCP_DELAYED_ACKS = new MetricDescriptorDTO(COUNTER, "tcpDelayedAcks",
            "of which sent by the delayed-ACK timer");
    static final MetricDescriptorDTO TCP_ACK_POOL_EMPTY = new MetricDescriptorDTO(COUNTER, "tcpAckPoolEmpty",
            "ACKs not sent for want of a buffer");
    /** Every metric the element registers, in the order {@code ringlab elements} lists them. */
    static final List<MetricDescriptorDTO> METRICS = List.of(RX_PACKETS, RX_BYTES, TX_PACKETS, TX_BYTES, RX_MBIT_PER_SECOND, ECHO_REPLIES,
            REPLY_POOL_EMPTY,
            new MetricDescriptorDTO(HISTOGRAM, "latencyCount", "one-way latencies recorded"),
            new MetricDescriptorDTO(HISTOGRAM, "latencyP50Micros", "median one-way latency, creation to arrival"),
            new MetricDescriptorDTO(HISTOGRAM, "latencyP90Micros", "90th percentile of the one-way latency"),
            new MetricDescriptorDTO(HISTOGRAM, "latencyP99Micros", "99th percentile of the one-way latency"),
            new MetricDescriptorDTO(HISTOGRAM, "latencyMinMicros", "smallest one-way latency"),
            new MetricDescriptorDTO(HISTOGRAM, "latencyMaxMicros", "largest one-way latency"),
            new MetricDescriptorDTO(HISTOGRAM, "latencyMeanMicros", "mean one-way latency"),
            TCP_SEGMENTS, TCP_RCV_BYTES, TCP_GOODPUT_MBIT_PER_SECOND, TCP_OUT_OF_ORDER, TCP_DUPLICATES, TCP_ACKS,
            TCP_DELAYED_ACKS, TCP_ACK_POOL_EMPTY);

    private static final ElementDescriptorDTO DESCRIPTOR = describe();

    private static ElementDescriptorDTO describe() {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = "host";
        d.category = ElementDescriptorDTO.HOST;
        d.summary = "A receiving host: consumes traffic, answers ICMP echo requests after a stack delay";
        d.description = "The far end of a link: every frame is counted and consumed (like 'sink', with the one-way latency"
                + " histogram); an ICMP echo request is answered with an echo reply of the same size, sequence and TOS"
                + " (icmp_echo, net/ipv4/icmp.c) after 'delay', pushed on 'out' towards the reverse path. TCP: the host listens"
                + " on every flow; a 'tcp' sender's SYN opens a connection that follows the 'kernel' preset (the same code"
                + " as the sender: options, receive window and autotuning from tcpRmem, SACK and D-SACK blocks,"
                + " timestamps, quick ACKs, __tcp_ack_snd_check's every-second-segment rule and the delayed-ACK timer)."
                + " Its SYN-ACK and ACKs are pushed on 'out'. A fast receiver: the application reads at once; no CPU"
                + " model of its own.";
        d.ports.add(PortDescriptorDTO.of("in", Direction.IN, Mode.PUSH, true, "frames arriving from the link"));
        d.ports.add(PortDescriptorDTO.of("out", Direction.OUT, Mode.PUSH, false,
                "echo replies and TCP ACKs towards the reverse path"));
        d.properties.add(PropertyDescriptorDTO.of("delay", Kind.DURATION, "0s", "0s", "1s",
                "time from an echo request's arrival to its reply leaving (TCP ACKs do not wait for it)"));
        d.properties.add(PropertyDescriptorDTO.of("tcpFlows", Kind.INTEGER, "256", "1", "65536",
                "TCP connections the host holds; a SYN of a further flow is dropped (tcp-flow-table-full)"));
        TcpProperties.addTo(d);
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
        return new HostElement(context);
    }
}

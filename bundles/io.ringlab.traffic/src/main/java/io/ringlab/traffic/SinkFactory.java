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

/** Element type {@code sink}: see {@link SinkElement}. */
@Component(service = ElementFactory.class, property = ElementFactory.TYPE + "=sink")
public class SinkFactory implements ElementFactory {
    // The element's metrics, each declared once: the descriptor lists them and the element registers by them.
    static final MetricDescriptorDTO RX_PACKETS = new MetricDescriptorDTO(COUNTER, "rxPackets", "packets consumed");
    static final MetricDescriptorDTO RX_BYTES = new MetricDescriptorDTO(COUNTER, "rxBytes",
            "their lengths, without FCS").throughput(null);
    static final MetricDescriptorDTO RX_MPPS = new MetricDescriptorDTO(RATE, "rxMpps",
            "rxPackets per second of the measured window, in millions");
    static final MetricDescriptorDTO RX_MBIT_PER_SECOND = new MetricDescriptorDTO(RATE, "rxMbitPerSecond",
            "rxBytes in megabits per second of the measured window");
    static final MetricDescriptorDTO BACKLOG_DROPS = new MetricDescriptorDTO(COUNTER, "backlogDrops",
            "packets dropped because the consumer's backlog was full");
    /** Every metric the element registers, in the order {@code ringlab elements} lists them. */
    static final List<MetricDescriptorDTO> METRICS = List.of(RX_PACKETS, RX_BYTES, RX_MPPS, RX_MBIT_PER_SECOND,
            BACKLOG_DROPS,
            new MetricDescriptorDTO(HISTOGRAM, "latencyCount", "one-way latencies recorded (= rxPackets)"),
            new MetricDescriptorDTO(HISTOGRAM, "latencyP50Micros", "median one-way latency, creation to arrival"),
            new MetricDescriptorDTO(HISTOGRAM, "latencyP90Micros", "90th percentile of the one-way latency"),
            new MetricDescriptorDTO(HISTOGRAM, "latencyP99Micros", "99th percentile of the one-way latency"),
            new MetricDescriptorDTO(HISTOGRAM, "latencyMinMicros", "smallest one-way latency"),
            new MetricDescriptorDTO(HISTOGRAM, "latencyMaxMicros", "largest one-way latency"),
            new MetricDescriptorDTO(HISTOGRAM, "latencyMeanMicros", "mean one-way latency"));

    private static final ElementDescriptorDTO DESCRIPTOR = describe();

    private static ElementDescriptorDTO describe() {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = "sink";
        d.category = ElementDescriptorDTO.SINK;
        d.summary = "Receives packets: counters, rates and a one-way latency histogram; optional per-packet CPU cost";
        d.description = "Counts what arrives and records each packet's one-way latency, from its creation to its arrival"
                + " (the later of now and the time the link stamped on it). With 'cycles' above 0 the sink is a consumer on a"
                + " simulated core: packets wait in a backlog of 'backlog' packets (netdev_max_backlog, default 1000 in"
                + " net/core/dev.c) and a task of class APP consumes them one at a time, charging 'cycles' each.";
        d.ports.add(PortDescriptorDTO.of("in", Direction.IN, Mode.PUSH, true, "packets to consume"));
        d.properties.add(PropertyDescriptorDTO.of("cycles", Kind.INTEGER, "0", "0", "100000000",
                "CPU cycles to consume one packet; 0 consumes on arrival without a core"));
        d.properties.add(PropertyDescriptorDTO.of("core", Kind.INTEGER, "0", "0", "1023", "core the consumer runs on"));
        d.properties.add(PropertyDescriptorDTO.of("backlog", Kind.INTEGER, "1000", "1", "1000000",
                "packets waiting for the consumer before drops (netdev_max_backlog)"));
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
        return new SinkElement(context);
    }
}

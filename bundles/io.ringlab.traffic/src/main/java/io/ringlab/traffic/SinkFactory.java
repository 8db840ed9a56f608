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

/** Element type {@code sink}: see {@link SinkElement}. */
@Component(service = ElementFactory.class, property = ElementFactory.TYPE + "=sink")
public class SinkFactory implements ElementFactory {
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
        d.metrics.addAll(List.of("rxPackets", "rxBytes", "rxMpps", "rxMbitPerSecond", "backlogDrops", "latencyCount",
                "latencyP50Micros", "latencyP90Micros", "latencyP99Micros", "latencyMinMicros", "latencyMaxMicros",
                "latencyMeanMicros", "cpuCyclesPerPacket", "cpuNanosPerPacket"));
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

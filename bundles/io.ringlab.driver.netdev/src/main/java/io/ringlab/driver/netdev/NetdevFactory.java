package io.ringlab.driver.netdev;

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

/** Element type {@code netdev}: see {@link NetdevElement}. */
@Component(service = ElementFactory.class, property = ElementFactory.TYPE + "=netdev")
public class NetdevFactory implements ElementFactory {
    // The element's metrics, each declared once: the descriptor lists them and the element registers by them.
    static final MetricDescriptorDTO TX_PACKETS = new MetricDescriptorDTO(COUNTER, "txPackets",
            "frames taken by the link (completed)");
    static final MetricDescriptorDTO TX_BYTES = new MetricDescriptorDTO(COUNTER, "txBytes",
            "their lengths, without FCS, preamble or gap").throughput(null);
    static final MetricDescriptorDTO RING_USED = new MetricDescriptorDTO(GAUGE, "ringUsed",
            "frames in the ring now; the frame on the wire is no longer counted").level("ring");
    /** Every metric the element registers, in the order {@code ringlab elements} lists them. */
    static final List<MetricDescriptorDTO> METRICS = java.util.stream.Stream.concat(java.util.stream.Stream.of(TX_PACKETS, TX_BYTES, RING_USED),
            io.ringlab.driver.api.DriverSupport.BQL_METRICS.stream()).toList();

    private static final ElementDescriptorDTO DESCRIPTOR = describe();

    private static ElementDescriptorDTO describe() {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = "netdev";
        d.category = ElementDescriptorDTO.DRIVER;
        d.summary = "Reference NIC: a TX queue of N frames, optional BQL, completion when a frame leaves for the wire";
        d.description = "The simplest device that shows queueing between a qdisc and a wire, like ns-3's point-to-point"
                + " device: the qdisc hands frames over while the queue is not stopped; a frame completes (BQL"
                + " netdev_tx_completed_queue) when the link takes it. No interrupts, no NAPI, no CPU cost: the driver models"
                + " (stmmac, mvneta, mlx4/5) add those.";
        d.ports.add(PortDescriptorDTO.of("in", Direction.IN, Mode.PULL, true, "frames from the qdisc"));
        d.ports.add(PortDescriptorDTO.of("wire", Direction.OUT, Mode.PULL, true, "frames to the link"));
        d.properties.add(PropertyDescriptorDTO.of("ring", Kind.INTEGER, "256", "1", "65536",
                "TX queue length in frames; the driver stops the queue when it is full"));
        d.properties.add(PropertyDescriptorDTO.of("bql", Kind.BOOLEAN, "false", null, null,
                "byte queue limits on the TX queue (lib/dynamic_queue_limits.c)"));
        d.properties.add(PropertyDescriptorDTO.of("hz", Kind.INTEGER, "250", "100", "1000",
                "kernel HZ (jiffies per second), the granularity of BQL's slack hold time (CONFIG_HZ: 100, 250, 300, 1000)"));
        d.properties.add(PropertyDescriptorDTO.of("bqlHoldTime", Kind.DURATION, "1s", "0s", "60s",
                "BQL slack hold time; net/core/dev.c netdev_init_one_queue gives HZ jiffies, one second"));
        d.properties.add(PropertyDescriptorDTO.of("bqlMinLimit", Kind.SIZE, "0B", "0B", "1879048192B",
                "BQL limit_min (dql_init sets 0)"));
        d.properties.add(PropertyDescriptorDTO.of("bqlMaxLimit", Kind.SIZE, "1879048192B", "0B", "1879048192B",
                "BQL limit_max (dql_init sets DQL_MAX_LIMIT)"));
        d.metricDescriptors.addAll(METRICS);
        d.modelPage = "docs/models/netdev.md";
        return d;
    }

    @Override
    public ElementDescriptorDTO descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Element create(ElementContext context) {
        return new NetdevElement(context);
    }
}

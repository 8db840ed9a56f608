package com.example.minimal;

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

// tag::factory[]
/** Element type {@code mininic}: see {@link MiniNic}. */
@Component(service = ElementFactory.class, property = ElementFactory.TYPE + "=" + MiniNicFactory.TYPE)
public class MiniNicFactory implements ElementFactory {
    /** The type id pipelines name: {@code element eth0 : mininic}. */
    static final String TYPE = "mininic";
    /** Built once: the engine and the console read it, nobody changes it. */
    private static final ElementDescriptorDTO DESCRIPTOR = describe();

    @Override
    public ElementDescriptorDTO descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Element create(ElementContext context) {
        return new MiniNic(context); // one element per pipeline node per run: parallel runs share nothing
    }
    // end::factory[]

    // tag::descriptor[]
    private static ElementDescriptorDTO describe() {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = TYPE;
        d.category = ElementDescriptorDTO.DRIVER;
        d.summary = "The SDK's sample NIC: TX ring with BQL and bulk free on completion, RX ring with NAPI";
        d.description = "One TX and one RX queue on one core (docs/writing-a-driver.md): the qdisc's packets go into a TX"
                + " descriptor ring, the NIC's DMA hands them to the link, completions are cleaned in the NAPI poll and"
                + " freed with napi_consume_skb (bulkFree) or dev_kfree_skb, with BQL accounting; frames from the link are"
                + " DMA'd into posted RX skbs and handed up in NAPI polls. No interrupt coalescing, no TSO.";
        d.ports.add(PortDescriptorDTO.of("in", Direction.IN, Mode.PULL, false, "packets to send, from the qdisc"
                + " (ndo_start_xmit)"));
        d.ports.add(PortDescriptorDTO.of("wire", Direction.OUT, Mode.PULL, false, "frames the NIC's DMA sends, to the link"));
        d.ports.add(PortDescriptorDTO.of("rx", Direction.IN, Mode.PUSH, false, "frames arriving from the link"));
        d.ports.add(PortDescriptorDTO.of("stack", Direction.OUT, Mode.PUSH, false, "received packets (napi_gro_receive)"));
        d.properties.add(PropertyDescriptorDTO.of("txRing", Kind.INTEGER, "256", "2", "4096",
                "TX descriptors; the driver stops the queue when none is free"));
        d.properties.add(PropertyDescriptorDTO.of("rxRing", Kind.INTEGER, "256", "2", "4096",
                "RX descriptors, each posted with an skb from pool kind skb"));
        d.properties.add(PropertyDescriptorDTO.of("napiWeight", Kind.INTEGER, "64", "1", "64",
                "NAPI budget: received packets one poll handles at most (NAPI_POLL_WEIGHT, 64)"));
        d.properties.add(PropertyDescriptorDTO.of("bql", Kind.BOOLEAN, "true", null, null,
                "byte queue limits on the TX queue (netdev_tx_sent_queue, netdev_tx_completed_queue)"));
        d.properties.add(PropertyDescriptorDTO.of("bulkFree", Kind.BOOLEAN, "true", null, null,
                "free sent skbs with napi_consume_skb (deferred, freed in bulk) instead of dev_kfree_skb"));
        d.properties.add(PropertyDescriptorDTO.of("txCycles", Kind.INTEGER, "0", "0", "100000000",
                "CPU cycles per sent packet; 0: not charged (this NIC has no published figure to take it from)"));
        d.properties.add(PropertyDescriptorDTO.of("rxCycles", Kind.INTEGER, "-1", "-1", "100000000",
                "CPU cycles per received packet; -1 takes mininic.rxPacketCycles from the cost profile, else 230,"
                        + " borrowed from the mlx5 model's fit to seed 002 (docs/models/mlx5.md)"));
        d.properties.add(PropertyDescriptorDTO.of("core", Kind.INTEGER, "0", "0", "1023",
                "the core that takes the interrupt and runs NAPI and the transmit path"));
        d.metricDescriptors.addAll(MiniNic.METRICS); // declared beside their registration
        return d;
    }
    // end::descriptor[]
}

package com.example.ixgbe;

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

/** Element type {@code ixgbe}: see {@link Ixgbe}. */
@Component(service = ElementFactory.class, property = ElementFactory.TYPE + "=" + IxgbeFactory.TYPE)
public class IxgbeFactory implements ElementFactory {
    /** The type id pipelines name: {@code element eth0 : ixgbe}. */
    static final String TYPE = "ixgbe";
    /** Built once: the engine and the console read it, nobody changes it. */
    private static final ElementDescriptorDTO DESCRIPTOR = describe();

    @Override
    public ElementDescriptorDTO descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Element create(ElementContext context) {
        return new Ixgbe(context); // one element per pipeline node per run: parallel runs share nothing
    }

    private static ElementDescriptorDTO describe() {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = TYPE;
        d.category = ElementDescriptorDTO.DRIVER;
        d.summary = "Intel ixgbe-style 10 GbE NIC (v4.6): TX ring with BQL and napi_consume_skb on completion, RX ring"
                + " with NAPI";
        d.description = "One TX and one RX ring on one core (ixgbe_main.c, v4.6): the qdisc's packets go into a 512-"
                + "descriptor TX ring (ixgbe_tx_map, one doorbell per batch), the queue stops below DESC_NEEDED (21)"
                + " unused descriptors and wakes at TX_WAKE_THRESHOLD (42); the NAPI poll cleans up to 256 completions"
                + " (ixgbe_clean_tx_irq), freeing with napi_consume_skb (bulkFree) or dev_kfree_skb, with BQL accounting;"
                + " frames from the link are DMA'd into posted RX skbs, handed up in NAPI polls of weight 64 and"
                + " refilled 16 at a time. Interrupts throttled at a fixed EITR interval (itrMicros). No RSS, no"
                + " dynamic ITR, no TSO or checksum context descriptors.";
        d.ports.add(PortDescriptorDTO.of("in", Direction.IN, Mode.PULL, false, "packets to send, from the qdisc"
                + " (ndo_start_xmit)"));
        d.ports.add(PortDescriptorDTO.of("wire", Direction.OUT, Mode.PULL, false, "frames the NIC's DMA sends, to the link"));
        d.ports.add(PortDescriptorDTO.of("rx", Direction.IN, Mode.PUSH, false, "frames arriving from the link"));
        d.ports.add(PortDescriptorDTO.of("stack", Direction.OUT, Mode.PUSH, false, "received packets (napi_gro_receive)"));
        d.properties.add(PropertyDescriptorDTO.of("txRing", Kind.INTEGER, String.valueOf(Ixgbe.DEFAULT_TX_DESCRIPTORS),
                "64", "4096", "TX descriptors (IXGBE_DEFAULT_TXD 512; ethtool -G allows 64 to 4096); the driver stops"
                        + " the queue when fewer than DESC_NEEDED (21) are unused"));
        d.properties.add(PropertyDescriptorDTO.of("rxRing", Kind.INTEGER, String.valueOf(Ixgbe.DEFAULT_RX_DESCRIPTORS),
                "64", "4096", "RX descriptors (IXGBE_DEFAULT_RXD 512), each posted with an skb from pool kind skb"));
        d.properties.add(PropertyDescriptorDTO.of("napiWeight", Kind.INTEGER, String.valueOf(Ixgbe.NAPI_WEIGHT), "1",
                "64", "NAPI budget: received packets one poll handles at most (netif_napi_add weight 64)"));
        d.properties.add(PropertyDescriptorDTO.of("itrMicros", Kind.INTEGER, String.valueOf(Ixgbe.ITR_MICROS), "0",
                "1000", "microseconds between two interrupts at least (EITR); default IXGBE_20K_ITR, the initial ITR of"
                        + " an RX/TX queue vector (not adapted as dynamic ITR does); 0: no throttle"));
        d.properties.add(PropertyDescriptorDTO.of("bql", Kind.BOOLEAN, "true", null, null,
                "byte queue limits on the TX queue (netdev_tx_sent_queue, netdev_tx_completed_queue)"));
        d.properties.add(PropertyDescriptorDTO.of("bulkFree", Kind.BOOLEAN, "true", null, null,
                "free sent skbs with napi_consume_skb (deferred into the NAPI skb cache, freed in bulk) instead of"
                        + " dev_kfree_skb_any"));
        d.properties.add(PropertyDescriptorDTO.of("stackSkb", Kind.BOOLEAN, "true", null, null,
                "move each packet to send into an skb of pool kind skb (standing in for the stack's alloc_skb), so that"
                        + " TX completion frees slab objects; false: the qdisc's buffer is sent as it is"));
        d.properties.add(PropertyDescriptorDTO.of("txCycles", Kind.INTEGER, "-1", "-1", "100000000",
                "CPU cycles per sent packet; -1 takes ixgbe.txPacketCycles from the cost profile, else 0 (not charged;"
                        + " not fitted)"));
        d.properties.add(PropertyDescriptorDTO.of("rxCycles", Kind.INTEGER, "-1", "-1", "100000000",
                "CPU cycles per received packet; -1 takes ixgbe.rxPacketCycles from the cost profile, else 230,"
                        + " borrowed from the mlx5 model's fit to seed 002 (docs/models/mlx5.md; not fitted to ixgbe)"));
        d.properties.add(PropertyDescriptorDTO.of("core", Kind.INTEGER, "0", "0", "1023",
                "the core that takes the interrupt and runs NAPI and the transmit path"));
        d.metricDescriptors.addAll(Ixgbe.METRICS); // declared beside their registration
        return d;
    }
}

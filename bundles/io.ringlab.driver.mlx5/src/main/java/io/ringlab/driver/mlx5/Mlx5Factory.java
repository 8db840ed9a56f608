package io.ringlab.driver.mlx5;

import static io.ringlab.sim.api.dto.MetricDescriptorDTO.COUNTER;
import static io.ringlab.sim.api.dto.MetricDescriptorDTO.GAUGE;
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

/** Element type {@code mlx5}: see {@link Mlx5Element}. */
@Component(service = ElementFactory.class, property = ElementFactory.TYPE + "=mlx5")
public class Mlx5Factory implements ElementFactory {
    // The element's metrics, each declared once: the descriptor lists them and the element registers by them. Those
    // that count what a counter of mlx5e counts carry its ethtool -S name, in the table's order: rx_packets, rx_bytes
    // and tx_queue_stopped (vport_strings[], the software ones summed over the rings in en_main.c mlx5e_update_stats;
    // the model has one channel, so rx0_packets, rx0_bytes and tx0_stopped are the same numbers).
    private static final String ETHTOOL = "drivers/net/ethernet/mellanox/mlx5/core/en.h @v4.6, vport_strings[]";
    static final MetricDescriptorDTO RX_PACKETS = new MetricDescriptorDTO(COUNTER, "rxPackets",
            "frames received: completions the poll took (en_rx.c mlx5e_poll_rx_cq: rq->stats.packets++)")
            .ethtool("rx_packets", ETHTOOL);
    static final MetricDescriptorDTO RX_BYTES = new MetricDescriptorDTO(COUNTER, "rxBytes",
            "their lengths, without FCS (rq->stats.bytes += cqe->byte_cnt); a NIC counts frames padded to 60 B")
            .ethtool("rx_bytes", ETHTOOL).throughput(null);
    static final MetricDescriptorDTO RX_MPPS = new MetricDescriptorDTO(RATE, "rxMpps",
            "rxPackets per second of the measured window, in millions");
    static final MetricDescriptorDTO NS_PER_PACKET = new MetricDescriptorDTO(GAUGE, "nsPerPacket",
            "nanoseconds of virtual time per received frame over the measured window");
    static final MetricDescriptorDTO RX_NO_WQE_DROPS = new MetricDescriptorDTO(COUNTER, "rxNoWqeDrops",
            "frames the NIC dropped for want of a posted receive WQE");
    static final MetricDescriptorDTO IRQS = new MetricDescriptorDTO(COUNTER, "irqs", "completion interrupts raised");
    static final MetricDescriptorDTO NAPI_POLLS = new MetricDescriptorDTO(GAUGE, "napiPolls", "NAPI polls run");
    static final MetricDescriptorDTO POSTED_WQES = new MetricDescriptorDTO(GAUGE, "postedWqes",
            "receive WQEs posted to the NIC now").level("rxRing");
    static final MetricDescriptorDTO REFILL_FAILURES = new MetricDescriptorDTO(COUNTER, "refillFailures",
            "RX refills that found no buffer");
    static final MetricDescriptorDTO TX_PACKETS = new MetricDescriptorDTO(COUNTER, "txPackets", "frames transmitted");
    static final MetricDescriptorDTO TX_BYTES = new MetricDescriptorDTO(COUNTER, "txBytes",
            "their lengths, without FCS").throughput(null);
    static final MetricDescriptorDTO TX_MPPS = new MetricDescriptorDTO(RATE, "txMpps",
            "txPackets per second of the measured window, in millions");
    static final MetricDescriptorDTO TX_COMPLETIONS = new MetricDescriptorDTO(COUNTER, "txCompletions",
            "TX completions processed");
    static final MetricDescriptorDTO TX_QUEUE_STOPS = new MetricDescriptorDTO(COUNTER, "txQueueStops",
            "times the send queue filled and the TX queue was stopped (en_tx.c mlx5e_sq_xmit: sq->stats.stopped++;"
                    + " the model stops at a full queue, the kernel with less than MLX5E_SQ_STOP_ROOM free)")
            .ethtool("tx_queue_stopped", ETHTOOL);
    static final MetricDescriptorDTO TX_QUEUED = new MetricDescriptorDTO(GAUGE, "txQueued",
            "skbs on the send queue now").level("txRing");
    /** Every metric the element registers, in the order {@code ringlab elements} lists them. */
    static final List<MetricDescriptorDTO> METRICS = List.of(RX_PACKETS, RX_BYTES, RX_MPPS, NS_PER_PACKET,
            RX_NO_WQE_DROPS, IRQS, NAPI_POLLS, POSTED_WQES, REFILL_FAILURES, TX_PACKETS, TX_BYTES, TX_MPPS,
            TX_COMPLETIONS, TX_QUEUE_STOPS, TX_QUEUED);

    private static final ElementDescriptorDTO DESCRIPTOR = describe();

    private static ElementDescriptorDTO describe() {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = "mlx5";
        d.category = ElementDescriptorDTO.DRIVER;
        d.summary = "Mellanox mlx5e of early 2016: RX ring of skbs, napi_alloc_skb bulk alloc and hint, TX with bulk free";
        d.description = "One RX queue of the mlx5e driver (en_rx.c, v4.5, with the March 2016 bulk-alloc series) on one core:"
                + " 1024 receive WQEs each posted with an skb from pool kind skb (napi_alloc_skb: allocBulk 0, 8 or 16),"
                + " frames DMA'd into the next posted WQE or dropped by the NIC (rx-no-wqe), NAPI polls of 64 that process"
                + " the completions and re-post every empty WQE, the 2016 bulk hint (bulkHint: the pool is told how many"
                + " skbs the poll will ask for), and the seed's early drop in the driver (earlyDrop: kfree_skb or"
                + " napi_consume_skb). CPU per packet: rxCycles (fitted to the seed's 12 Mpps baseline) plus the slab"
                + " model's operations and cache misses. Transmit: a send queue of 1024 fed from the qdisc, completions"
                + " cleaned first in the same NAPI poll (128 at most) with napi_consume_skb (bulkFree) or dev_kfree_skb.";
        d.ports.add(PortDescriptorDTO.of("rx", Direction.IN, Mode.PUSH, false, "frames from the wire"));
        d.ports.add(PortDescriptorDTO.of("stack", Direction.OUT, Mode.PUSH, false, "received packets (napi_gro_receive)"));
        d.ports.add(PortDescriptorDTO.of("in", Direction.IN, Mode.PULL, false, "packets to send, from the qdisc (ndo_start_xmit)"));
        d.ports.add(PortDescriptorDTO.of("wire", Direction.OUT, Mode.PULL, false, "frames the NIC's DMA sends, to the link"));
        d.properties.add(PropertyDescriptorDTO.of("rxRing", Kind.INTEGER, String.valueOf(Mlx5Element.DEFAULT_RX_RING),
                "2", "8192",
                "receive WQEs (MLX5E_PARAMS_DEFAULT_LOG_RQ_SIZE 0xa: 1024)"));
        d.properties.add(PropertyDescriptorDTO.of("napiWeight", Kind.INTEGER, "64", "1", "64", "NAPI budget (64)"));
        d.properties.add(PropertyDescriptorDTO.of("allocBulk", Kind.INTEGER, "0", "0", "16",
                "napi_alloc_skb's bulk refill: 0 (v4.6 to v5.11), 8 (the 2016 RFC) or 16 (v5.12+); other values are refused"));
        d.properties.add(PropertyDescriptorDTO.of("bulkHint", Kind.BOOLEAN, "false", null, null,
                "tell the skb cache how many skbs the poll will ask for (the 2016 hint API, used with allocBulk = 8)"));
        d.properties.add(PropertyDescriptorDTO.choice("earlyDrop", "off", List.of("off", "kfree_skb", "napi_consume_skb"),
                "drop every packet in the poll, as the seed's drop test did, freeing it with kfree_skb (at once) or"
                        + " napi_consume_skb (deferred into the NAPI cache); off hands packets to the stack port"));
        d.properties.add(PropertyDescriptorDTO.of("rxCycles", Kind.INTEGER, "-1", "-1", "100000000",
                "CPU cycles per received packet outside the allocator; -1 takes mlx5.rxPacketCycles from the profile,"
                        + " else 241 (fitted to the seed's 12 Mpps baseline on the i7-4790K)"));
        d.properties.add(PropertyDescriptorDTO.of("txRing", Kind.INTEGER, "1024", "2", "8192",
                "send-queue entries (MLX5E_PARAMS_DEFAULT_LOG_SQ_SIZE 0xa: 1024)"));
        d.properties.add(PropertyDescriptorDTO.of("bulkFree", Kind.BOOLEAN, "true", null, null,
                "free sent skbs with napi_consume_skb (bulk, March 2016) instead of dev_kfree_skb"));
        d.properties.add(PropertyDescriptorDTO.of("txCycles", Kind.INTEGER, "0", "0", "100000000",
                "CPU cycles per sent packet in mlx5e_xmit; 0: not charged (no published figure to fit it to)"));
        d.properties.add(PropertyDescriptorDTO.of("core", Kind.INTEGER, "0", "0", "1023", "the core that runs the queue"));
        d.metricDescriptors.addAll(METRICS);
        d.modelPage = "docs/models/mlx5.md";
        return d;
    }

    @Override
    public ElementDescriptorDTO descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Element create(ElementContext context) {
        return new Mlx5Element(context);
    }
}

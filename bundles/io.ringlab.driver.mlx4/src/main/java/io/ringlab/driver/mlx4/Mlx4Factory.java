package io.ringlab.driver.mlx4;

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

/**
 * Element type {@code mlx4}: see {@link Mlx4Element}.
 * <p>
 * Counters (since the start of the run, never reset): {@code rxPackets}, {@code rxBytes}, {@code rxNoDescriptorDrops}
 * (frames the NIC dropped for want of a posted descriptor), {@code rxIrqs}, {@code txIrqs}, {@code refillFailures},
 * {@code rxCopies} (frames copied by {@code mlx4_en_rx_skb}, {@code gro = false} only), {@code skbAllocFailures},
 * {@code txPackets}, {@code txBytes} (frames the wire took), {@code txCompletions}, {@code txQueueStops},
 * {@code txQueueWakes}. Gauges: {@code napiPolls}, {@code txNapiPolls}, {@code postedDescriptors}, {@code txQueued}
 * (skbs), {@code txBbsUsed} (TXBBs), {@code txBbsPosted} (TXBBs posted over the run), the page allocator's {@code rxPagesAllocated}, {@code rxPagesFreed},
 * {@code rxPagesInUse} (allocated - freed), {@code rxPageFailures}, {@code rxFragsAllocated}, {@code rxFragsFreed},
 * {@code rxFragStride} (bytes), {@code rxFragsPerPage}, and {@code rxMpps}, {@code txMpps} (per simulated second); the
 * engine adds {@code cpuNanos} and {@code cpuNanosPerPacket}.
 */
@Component(service = ElementFactory.class, property = ElementFactory.TYPE + "=mlx4")
public class Mlx4Factory implements ElementFactory {
    // The element's metrics, each declared once: the descriptor lists them and the element registers by them. Those
    // that count what a counter of mlx4_en counts carry its ethtool -S name, in the table's order: rx_packets and
    // rx_bytes (the net_device_stats group, sums of the rings' counters, en_port.c mlx4_en_DUMP_ETH_STATS; the model
    // has one ring, so rx0_packets and rx0_bytes are the same numbers), queue_stopped and wake_queue (the port group).
    private static final String ETHTOOL = "drivers/net/ethernet/mellanox/mlx4/en_ethtool.c @v4.6, main_strings[]";
    static final MetricDescriptorDTO RX_PACKETS = new MetricDescriptorDTO(COUNTER, "rxPackets",
            "frames received: completions the RX poll took (en_rx.c mlx4_en_process_rx_cq: ring->packets++)")
            .ethtool("rx_packets", ETHTOOL);
    static final MetricDescriptorDTO RX_BYTES = new MetricDescriptorDTO(COUNTER, "rxBytes",
            "their lengths, without FCS (ring->bytes); a NIC counts frames padded to 60 B")
            .ethtool("rx_bytes", ETHTOOL).throughput(null);
    static final MetricDescriptorDTO RX_MPPS = new MetricDescriptorDTO(RATE, "rxMpps",
            "rxPackets per second of the measured window, in millions");
    static final MetricDescriptorDTO RX_NO_DESCRIPTOR_DROPS = new MetricDescriptorDTO(COUNTER, "rxNoDescriptorDrops",
            "frames the NIC dropped for want of a posted RX descriptor");
    static final MetricDescriptorDTO RX_IRQS = new MetricDescriptorDTO(COUNTER, "rxIrqs",
            "RX completion interrupts raised");
    static final MetricDescriptorDTO TX_IRQS = new MetricDescriptorDTO(COUNTER, "txIrqs",
            "TX completion interrupts raised");
    static final MetricDescriptorDTO NAPI_POLLS = new MetricDescriptorDTO(GAUGE, "napiPolls", "RX NAPI polls run");
    static final MetricDescriptorDTO TX_NAPI_POLLS = new MetricDescriptorDTO(GAUGE, "txNapiPolls",
            "TX NAPI polls run (mlx4 has a TX NAPI context of its own)");
    static final MetricDescriptorDTO POSTED_DESCRIPTORS = new MetricDescriptorDTO(GAUGE, "postedDescriptors",
            "RX descriptors posted to the NIC now").level("rxRing");
    static final MetricDescriptorDTO REFILL_FAILURES = new MetricDescriptorDTO(COUNTER, "refillFailures",
            "RX refills that found no buffer");
    static final MetricDescriptorDTO RX_COPIES = new MetricDescriptorDTO(COUNTER, "rxCopies",
            "small frames copied into a new skb instead of handing up the page fragment");
    static final MetricDescriptorDTO SKB_ALLOC_FAILURES = new MetricDescriptorDTO(COUNTER, "skbAllocFailures",
            "skb allocations that failed on receive");
    static final MetricDescriptorDTO RX_PAGES_ALLOCATED = new MetricDescriptorDTO(GAUGE, "rxPagesAllocated",
            "RX pages allocated for fragments");
    static final MetricDescriptorDTO RX_PAGES_FREED = new MetricDescriptorDTO(GAUGE, "rxPagesFreed", "RX pages freed");
    static final MetricDescriptorDTO RX_PAGES_IN_USE = new MetricDescriptorDTO(GAUGE, "rxPagesInUse",
            "RX pages allocated and not yet freed");
    static final MetricDescriptorDTO RX_PAGE_FAILURES = new MetricDescriptorDTO(GAUGE, "rxPageFailures",
            "RX page allocations that failed");
    static final MetricDescriptorDTO RX_FRAGS_ALLOCATED = new MetricDescriptorDTO(GAUGE, "rxFragsAllocated",
            "RX page fragments handed out");
    static final MetricDescriptorDTO RX_FRAGS_FREED = new MetricDescriptorDTO(GAUGE, "rxFragsFreed",
            "RX page fragments released");
    static final MetricDescriptorDTO RX_FRAG_STRIDE = new MetricDescriptorDTO(GAUGE, "rxFragStride",
            "bytes between two fragments of one page (frag_stride)");
    static final MetricDescriptorDTO RX_FRAGS_PER_PAGE = new MetricDescriptorDTO(GAUGE, "rxFragsPerPage",
            "fragments one RX page holds");
    static final MetricDescriptorDTO TX_PACKETS = new MetricDescriptorDTO(COUNTER, "txPackets", "frames transmitted");
    static final MetricDescriptorDTO TX_BYTES = new MetricDescriptorDTO(COUNTER, "txBytes",
            "their lengths, without FCS").throughput(null);
    static final MetricDescriptorDTO TX_MPPS = new MetricDescriptorDTO(RATE, "txMpps",
            "txPackets per second of the measured window, in millions");
    static final MetricDescriptorDTO TX_COMPLETIONS = new MetricDescriptorDTO(COUNTER, "txCompletions",
            "TX completions processed");
    static final MetricDescriptorDTO TX_QUEUE_STOPS = new MetricDescriptorDTO(COUNTER, "txQueueStops",
            "times the TX ring filled and the queue was stopped (en_tx.c mlx4_en_xmit: queue_stopped++)")
            .ethtool("queue_stopped", ETHTOOL);
    static final MetricDescriptorDTO TX_QUEUE_WAKES = new MetricDescriptorDTO(COUNTER, "txQueueWakes",
            "times a stopped TX queue was woken (en_tx.c mlx4_en_process_tx_cq: wake_queue++; the model wakes"
                    + " after any completion, the kernel below the ring's stop level)")
            .ethtool("wake_queue", ETHTOOL);
    static final MetricDescriptorDTO TX_QUEUED = new MetricDescriptorDTO(GAUGE, "txQueued", "skbs on the TX ring now");
    static final MetricDescriptorDTO TX_BBS_USED = new MetricDescriptorDTO(GAUGE, "txBbsUsed",
            "TX basic blocks (64-byte TXBBs) in use now").level("txRing");
    static final MetricDescriptorDTO TX_BBS_POSTED = new MetricDescriptorDTO(COUNTER, "txBbsPosted",
            "TX basic blocks posted");
    /** Every metric the element registers, in the order {@code ringlab elements} lists them. */
    static final List<MetricDescriptorDTO> METRICS = List.of(RX_PACKETS, RX_BYTES, RX_MPPS,
            RX_NO_DESCRIPTOR_DROPS, RX_IRQS, TX_IRQS, NAPI_POLLS, TX_NAPI_POLLS, POSTED_DESCRIPTORS,
            REFILL_FAILURES, RX_COPIES, SKB_ALLOC_FAILURES, RX_PAGES_ALLOCATED, RX_PAGES_FREED, RX_PAGES_IN_USE,
            RX_PAGE_FAILURES, RX_FRAGS_ALLOCATED, RX_FRAGS_FREED, RX_FRAG_STRIDE, RX_FRAGS_PER_PAGE, TX_PACKETS,
            TX_BYTES, TX_MPPS, TX_COMPLETIONS, TX_QUEUE_STOPS, TX_QUEUE_WAKES, TX_QUEUED, TX_BBS_USED,
            TX_BBS_POSTED);

    private static final ElementDescriptorDTO DESCRIPTOR = describe();

    private static ElementDescriptorDTO describe() {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = "mlx4";
        d.category = ElementDescriptorDTO.DRIVER;
        d.summary = "Mellanox ConnectX-3 mlx4_en of early 2016: RX page fragments from order-3 pages, TX completion with"
                + " napi_consume_skb bulk free or dev_kfree_skb";
        d.description = "One RX ring and one TX ring of the mlx4_en driver (en_rx.c, en_tx.c, v4.5/v4.6) on one core:"
                + " 1024 RX descriptors, each posted with a page fragment (stride 1536 for MTU 1500) carved by the ring's"
                + " own allocator from order-3 pages (21 fragments a page, the page freed when its last fragment is),"
                + " refilled for every consumed descriptor; skbs built with napi_get_frags (gro) or netdev_alloc_skb with"
                + " the 256-byte copy (gro = false), the skb heads from pool kind skb. Separate NAPI contexts for RX and"
                + " TX completions (64 per RX poll, 256 per TX poll). TX ring of 512 TXBBs, frames up to 104 bytes inline."
                + " bulkFree: napi_consume_skb (March 2016) instead of dev_kfree_skb. CPU per packet: rxCycles (241,"
                + " borrowed from the mlx5 fit), txCycles (0) and the slab model's operations and cache misses.";
        d.ports.add(PortDescriptorDTO.of("rx", Direction.IN, Mode.PUSH, false, "frames from the wire"));
        d.ports.add(PortDescriptorDTO.of("stack", Direction.OUT, Mode.PUSH, false, "received packets (napi_gro_frags)"));
        d.ports.add(PortDescriptorDTO.of("in", Direction.IN, Mode.PULL, false, "packets to send, from the qdisc (ndo_start_xmit)"));
        d.ports.add(PortDescriptorDTO.of("wire", Direction.OUT, Mode.PULL, false, "frames the NIC's DMA sends, to the link"));
        d.properties.add(PropertyDescriptorDTO.of("rxRing", Kind.INTEGER, String.valueOf(Mlx4Element.DEFAULT_RX_RING),
                "2", "8192",
                "RX descriptors (MLX4_EN_DEF_RX_RING_SIZE 1024)"));
        d.properties.add(PropertyDescriptorDTO.of("txRing", Kind.INTEGER, String.valueOf(Mlx4Element.DEFAULT_TX_RING),
                "64", "8192",
                "TX ring size in 64-byte TXBBs (MLX4_EN_DEF_TX_RING_SIZE 512)"));
        d.properties.add(PropertyDescriptorDTO.of("napiWeight", Kind.INTEGER, "64", "1", "64",
                "NAPI budget of the RX and TX contexts (NAPI_POLL_WEIGHT 64)"));
        d.properties.add(PropertyDescriptorDTO.of("mtu", Kind.INTEGER, "1500", "68", "1518",
                "MTU in bytes; the fragment is mtu + 18 bytes, its stride that rounded up to 64 (one fragment per descriptor)"));
        d.properties.add(PropertyDescriptorDTO.of("gro", Kind.BOOLEAN, "true", null, null,
                "NETIF_F_GRO: skbs built with napi_get_frags around the fragment; false: mlx4_en_rx_skb, which copies"
                        + " frames of up to 256 bytes (SMALL_PACKET_SIZE) into a netdev_alloc_skb"));
        d.properties.add(PropertyDescriptorDTO.of("allocBulk", Kind.INTEGER, "0", "0", "16",
                "the skb pool's bulk refill (kind skb): 0 as merged in v4.6; 8 (2016 RFC) or 16 (v5.12+) for comparison"));
        d.properties.add(PropertyDescriptorDTO.of("bulkFree", Kind.BOOLEAN, "true", null, null,
                "free sent skbs with napi_consume_skb (bulk, March 2016) instead of dev_kfree_skb"));
        d.properties.add(PropertyDescriptorDTO.of("txWorkLimit", Kind.INTEGER, String.valueOf(Mlx4Element.DEFAULT_TX_WORK),
                "1", "8192",
                "TX completions one TX poll cleans at most (MLX4_EN_DEFAULT_TX_WORK, priv->tx_work_limit)"));
        d.properties.add(PropertyDescriptorDTO.of("inlineThold", Kind.INTEGER, String.valueOf(Mlx4Element.MAX_INLINE),
                "0", String.valueOf(Mlx4Element.MAX_INLINE),
                "frames up to this many bytes are copied into the TX descriptor (module parameter inline_thold, MAX_INLINE"
                        + " 104); 0 turns inlining off"));
        d.properties.add(PropertyDescriptorDTO.of("rxCycles", Kind.INTEGER, "-1", "-1", "100000000",
                "CPU cycles per received packet outside the allocator; -1 takes mlx4.rxPacketCycles from the profile,"
                        + " else 241 (borrowed from the mlx5 fit: no mlx4 figure is published)"));
        d.properties.add(PropertyDescriptorDTO.of("txCycles", Kind.INTEGER, "-1", "-1", "100000000",
                "CPU cycles per sent skb in mlx4_en_xmit; -1 takes mlx4.txPacketCycles from the profile, else 0 (as mlx5:"
                        + " no published figure to fit it to)"));
        d.properties.add(PropertyDescriptorDTO.of("core", Kind.INTEGER, "0", "0", "1023", "the core that runs the rings"));
        d.metricDescriptors.addAll(METRICS);
        d.modelPage = "docs/models/mlx4.md";
        return d;
    }

    @Override
    public ElementDescriptorDTO descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Element create(ElementContext context) {
        return new Mlx4Element(context);
    }
}

package io.ringlab.driver.mvneta;

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

/** Element type {@code mvneta}: see {@link MvnetaElement}. */
@Component(service = ElementFactory.class, property = ElementFactory.TYPE + "=mvneta")
public class MvnetaFactory implements ElementFactory {
    // The element's metrics, each declared once: the descriptor lists them and the element registers by them.
    static final MetricDescriptorDTO RX_PACKETS = new MetricDescriptorDTO(COUNTER, "rxPackets",
            "frames received and passed up the stack");
    static final MetricDescriptorDTO RX_BYTES = new MetricDescriptorDTO(COUNTER, "rxBytes",
            "their lengths, without FCS").throughput(null);
    static final MetricDescriptorDTO RX_COPYBREAKS = new MetricDescriptorDTO(COUNTER, "rxCopybreaks",
            "small frames copied into a new buffer (rx_copybreak)");
    static final MetricDescriptorDTO RX_REFILL_FAILURES = new MetricDescriptorDTO(COUNTER, "rxRefillFailures",
            "RX refills that found no buffer");
    static final MetricDescriptorDTO RX_IRQS = new MetricDescriptorDTO(COUNTER, "rxIrqs", "RX interrupts raised");
    static final MetricDescriptorDTO TX_PACKETS = new MetricDescriptorDTO(COUNTER, "txPackets", "frames transmitted");
    static final MetricDescriptorDTO TX_BYTES = new MetricDescriptorDTO(COUNTER, "txBytes",
            "their lengths, without FCS").throughput(null);
    static final MetricDescriptorDTO TX_IRQS = new MetricDescriptorDTO(COUNTER, "txIrqs", "TX-done interrupts raised");
    static final MetricDescriptorDTO TX_QUEUE_STOPS = new MetricDescriptorDTO(COUNTER, "txQueueStops",
            "times the TX ring filled and the queue was stopped");
    static final MetricDescriptorDTO MMIO_READS = new MetricDescriptorDTO(COUNTER, "mmioReads",
            "register reads the driver made");
    static final MetricDescriptorDTO MMIO_WRITES = new MetricDescriptorDTO(COUNTER, "mmioWrites",
            "register writes the driver made");
    static final MetricDescriptorDTO DMA_MAPS = new MetricDescriptorDTO(COUNTER, "dmaMaps",
            "DMA mappings made (dma_map_single and kin)");
    static final MetricDescriptorDTO NAPI_POLLS = new MetricDescriptorDTO(GAUGE, "napiPolls", "NAPI polls run");
    static final MetricDescriptorDTO RX_READY = new MetricDescriptorDTO(GAUGE, "rxReady",
            "received descriptors waiting for the driver now");
    static final MetricDescriptorDTO TX_DESC_USED = new MetricDescriptorDTO(GAUGE, "txDescUsed",
            "TX descriptors in use now").level("txRing");
    static final MetricDescriptorDTO FRAG_SIZE = new MetricDescriptorDTO(GAUGE, "fragSize", "B",
            "bytes of one RX buffer (frag_size)");
    static final MetricDescriptorDTO RX_REFILL_PENDING = new MetricDescriptorDTO(GAUGE, "rxRefillPending",
            "RX descriptors waiting for a refill now");
    /** Every metric the element registers, in the order {@code ringlab elements} lists them. */
    static final List<MetricDescriptorDTO> METRICS = List.of(RX_PACKETS, RX_BYTES, RX_COPYBREAKS,
            RX_REFILL_FAILURES, RX_IRQS, TX_PACKETS, TX_BYTES, TX_IRQS, TX_QUEUE_STOPS, MMIO_READS, MMIO_WRITES,
            DMA_MAPS, NAPI_POLLS, RX_READY, TX_DESC_USED, FRAG_SIZE, RX_REFILL_PENDING);

    private static final ElementDescriptorDTO DESCRIPTOR = describe();

    private static ElementDescriptorDTO describe() {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = "mvneta";
        d.category = ElementDescriptorDTO.DRIVER;
        d.summary = "Marvell mvneta (Armada 38x) of 2016: software refill from page fragments or the hardware buffer manager";
        d.description = "One mvneta port (mvneta.c around v4.6 with the BM of commit dc35a10f68d3): an RX ring of 128 whose"
                + " buffers come from page fragments (bm = false: netdev_alloc_frag, refilled before a frame goes up) or"
                + " from the buffer manager's short (256 B) and long pools of kind hwbm (bm = true: the device picks the"
                + " pool by frame size, the driver refills with hwbm_pool_refill or returns the buffer with put_bp),"
                + " rx_copybreak 256, RX interrupt coalescing (32 frames / 100 us), a TX ring of 532 that stops at 315"
                + " used descriptors and wakes at 157, an interrupt per sent frame, and TX completion first in the NAPI"
                + " poll (weight 64). Per-packet CPU costs come from the profile (mvneta.rxPacketCycles,"
                + " mvneta.txPacketCycles) plus what the pools charge. kernel = current models the driver of v6.12 instead:"
                + " a page_pool (kind pagepool) per RX queue of pool_size = the RX ring, one 4 KB page per descriptor"
                + " with MVNETA_SKB_HEADROOM 256, build_skb around the page and skb_mark_for_recycle, no copybreak,"
                + " refill of up to 64 descriptors at the end of the poll, RX ring 512, TX ring 1024.";
        d.ports.add(PortDescriptorDTO.of("rx", Direction.IN, Mode.PUSH, false, "frames from the wire"));
        d.ports.add(PortDescriptorDTO.of("stack", Direction.OUT, Mode.PUSH, false, "received packets (napi_gro_receive)"));
        d.ports.add(PortDescriptorDTO.of("in", Direction.IN, Mode.PULL, false, "packets to send, from the qdisc"));
        d.ports.add(PortDescriptorDTO.of("wire", Direction.OUT, Mode.PULL, false, "frames the port's DMA sends, to the link"));
        d.properties.add(PropertyDescriptorDTO.choice("kernel", "v4.6", List.of("v4.6", "current"),
                "the driver modelled: v4.6 (2016, the default) or current (v6.12: page_pool per RX queue, one page per"
                        + " descriptor, no rx_copybreak on the software path, RX 512 / TX 1024 descriptors; bm = false only)"));
        d.properties.add(PropertyDescriptorDTO.of("bm", Kind.BOOLEAN, "false", null, null,
                "use the hardware buffer manager (pools of kind hwbm) instead of software refill (pagefrag)"));
        d.properties.add(PropertyDescriptorDTO.of("rxRing", Kind.INTEGER, "-1", "-1", "4096",
                "RX descriptors; -1 takes the kernel's MVNETA_MAX_RXD: 128 in v4.6, 512 in current"));
        d.properties.add(PropertyDescriptorDTO.of("txRing", Kind.INTEGER, "-1", "-1", "4096",
                "TX descriptors; -1 takes the kernel's MVNETA_MAX_TXD: 532 in v4.6, 1024 in current; must exceed"
                        + " MVNETA_MAX_SKB_DESCS = 217"));
        d.properties.add(PropertyDescriptorDTO.of("rxCopybreak", Kind.INTEGER, "256", "0", "9000",
                "frames up to this many bytes are copied into a new skb (rx_copybreak 256); kernel = current has no copybreak"
                        + " on the software path (mvneta_rx_swbm), only in mvneta_rx_hwbm"));
        d.properties.add(PropertyDescriptorDTO.of("mtu", Kind.INTEGER, "1500", "68", "9000",
                "the MTU: MVNETA_RX_PKT_SIZE(mtu) = ALIGN(mtu + 24, 32) sizes the buffers"));
        d.properties.add(PropertyDescriptorDTO.of("shortPktSize", Kind.INTEGER, "256", "64", "4096",
                "the BM's short-pool packet size (MVNETA_BM_SHORT_PKT_SIZE 256)"));
        d.properties.add(PropertyDescriptorDTO.of("longPoolSize", Kind.INTEGER, "2048", "128", "16352",
                "buffers of the BM's long pool (MVNETA_BM_POOL_CAP_DEF 2048)"));
        d.properties.add(PropertyDescriptorDTO.of("shortPoolSize", Kind.INTEGER, "2048", "128", "16352",
                "buffers of the BM's short pool (MVNETA_BM_POOL_CAP_DEF 2048)"));
        d.properties.add(PropertyDescriptorDTO.of("shinfoBytes", Kind.INTEGER, "-1", "-1", "1024",
                "SKB_DATA_ALIGN(sizeof(struct skb_shared_info)); -1 takes the profile's kernel build: kernel.sizeofSkbSharedInfo"
                        + " aligned to kernel.smpCacheBytes (armada-388: 176 -> 192)"));
        d.properties.add(PropertyDescriptorDTO.of("rxCoalPkts", Kind.INTEGER, "32", "1", "16383",
                "frames before an RX interrupt (MVNETA_RX_COAL_PKTS 32)"));
        d.properties.add(PropertyDescriptorDTO.of("rxCoalTime", Kind.DURATION, "100us", "1us", "10ms",
                "time after the first frame before an RX interrupt (MVNETA_RX_COAL_USEC 100)"));
        d.properties.add(PropertyDescriptorDTO.of("napiWeight", Kind.INTEGER, "64", "1", "64", "NAPI budget (64)"));
        d.properties.add(PropertyDescriptorDTO.of("rxCycles", Kind.INTEGER, "-1", "-1", "100000000",
                "CPU cycles per received packet outside the pools; -1 takes mvneta.rxPacketCycles from the profile (0 if absent)"));
        d.properties.add(PropertyDescriptorDTO.of("txCycles", Kind.INTEGER, "-1", "-1", "100000000",
                "CPU cycles per sent packet; -1 takes mvneta.txPacketCycles from the profile (0 if absent)"));
        d.properties.add(PropertyDescriptorDTO.of("core", Kind.INTEGER, "0", "0", "1023",
                "the core that takes the port's interrupts (the 2016 driver used one)"));
        d.metricDescriptors.addAll(METRICS);
        d.modelPage = "docs/models/mvneta.md";
        return d;
    }

    @Override
    public ElementDescriptorDTO descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Element create(ElementContext context) {
        return new MvnetaElement(context);
    }
}

package io.ringlab.driver.stmmac;

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

/** Element type {@code stmmac}: see {@link StmmacElement}. */
@Component(service = ElementFactory.class, property = ElementFactory.TYPE + "=stmmac")
public class StmmacFactory implements ElementFactory {
    // The element's metrics, each declared once: the descriptor lists them and the element registers by them. Those
    // that count what a counter of the kernel driver counts carry its ethtool -S name (stmmac_gstrings_stats[],
    // "extra stats", incremented in stmmac_main.c), declared in the table's order; v3.19 to v4.6 have these four names.
    private static final String ETHTOOL = "drivers/net/ethernet/stmicro/stmmac/stmmac_ethtool.c @v4.6,"
            + " stmmac_gstrings_stats[]";
    static final MetricDescriptorDTO TX_PACKETS = new MetricDescriptorDTO(COUNTER, "txPackets", "frames transmitted");
    static final MetricDescriptorDTO TX_BYTES = new MetricDescriptorDTO(COUNTER, "txBytes",
            "their lengths, without FCS").throughput(null);
    static final MetricDescriptorDTO TX_MBIT_PER_SECOND = new MetricDescriptorDTO(RATE, "txMbitPerSecond",
            "txBytes in megabits per second of the measured window");
    static final MetricDescriptorDTO TX_DESCRIPTORS = new MetricDescriptorDTO(COUNTER, "txDescriptors",
            "TX descriptors used, fragments included");
    static final MetricDescriptorDTO TX_CLEANED_PACKETS = new MetricDescriptorDTO(COUNTER, "txCleanedPackets",
            "frames freed by the TX clean (stmmac_tx_clean: tx_pkt_n++ per last segment)").ethtool("tx_pkt_n", ETHTOOL);
    static final MetricDescriptorDTO RX_PACKETS = new MetricDescriptorDTO(COUNTER, "rxPackets",
            "frames received and passed up the stack (stmmac_rx: rx_pkt_n += count)").ethtool("rx_pkt_n", ETHTOOL);
    static final MetricDescriptorDTO RX_BYTES = new MetricDescriptorDTO(COUNTER, "rxBytes",
            "their lengths, without FCS").throughput(null);
    static final MetricDescriptorDTO RX_MBIT_PER_SECOND = new MetricDescriptorDTO(RATE, "rxMbitPerSecond",
            "rxBytes in megabits per second of the measured window");
    static final MetricDescriptorDTO RX_RING_FULL_DROPS = new MetricDescriptorDTO(COUNTER, "rxRingFullDrops",
            "frames the MAC dropped because the RX ring was full");
    static final MetricDescriptorDTO RX_REFILL_FAILURES = new MetricDescriptorDTO(COUNTER, "rxRefillFailures",
            "RX refills that found no buffer");
    static final MetricDescriptorDTO TX_IRQS = new MetricDescriptorDTO(COUNTER, "txIrqs",
            "TX interrupts raised (frames with the IC bit)");
    static final MetricDescriptorDTO RX_IRQS = new MetricDescriptorDTO(COUNTER, "rxIrqs",
            "RX interrupts raised (RIWT watchdog expiries; one per frame with riwt = 0)");
    static final MetricDescriptorDTO TX_TIMER_CLEANS = new MetricDescriptorDTO(COUNTER, "txTimerCleans",
            "TX cleans run by the coalescing timer");
    static final MetricDescriptorDTO NAPI_POLLS = new MetricDescriptorDTO(GAUGE, "napiPolls",
            "NAPI polls run since the run started (stmmac_poll: napi_poll++)").ethtool("napi_poll", ETHTOOL);
    static final MetricDescriptorDTO TX_CLEANS = new MetricDescriptorDTO(COUNTER, "txCleans",
            "TX cleans run, by NAPI polls and the coalescing timer (stmmac_tx_clean: tx_clean++)")
            .ethtool("tx_clean", ETHTOOL);
    static final MetricDescriptorDTO TX_DESC_USED = new MetricDescriptorDTO(GAUGE, "txDescUsed",
            "TX descriptors in use now").level("txRing");
    static final MetricDescriptorDTO TX_FRAMES_QUEUED = new MetricDescriptorDTO(GAUGE, "txFramesQueued",
            "frames on the TX ring not yet sent");
    /** Every metric the element registers, in the order {@code ringlab elements} lists them. */
    static final List<MetricDescriptorDTO> METRICS = java.util.stream.Stream.concat(java.util.stream.Stream.of(TX_PACKETS, TX_BYTES, TX_MBIT_PER_SECOND,
            TX_DESCRIPTORS, TX_CLEANED_PACKETS, RX_PACKETS, RX_BYTES, RX_MBIT_PER_SECOND, RX_RING_FULL_DROPS,
            RX_REFILL_FAILURES, TX_IRQS, RX_IRQS, TX_TIMER_CLEANS, NAPI_POLLS, TX_CLEANS, TX_DESC_USED,
            TX_FRAMES_QUEUED),
            io.ringlab.driver.api.DriverSupport.BQL_METRICS.stream()).toList();

    private static final ElementDescriptorDTO DESCRIPTOR = describe();

    private static ElementDescriptorDTO describe() {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = "stmmac";
        d.category = ElementDescriptorDTO.DRIVER;
        d.summary = "STMicro MAC driver (stmmac_main.c of 2014, with the BQL patch): TX ring, IRQ coalescing, NAPI, RIWT";
        d.description = "The stmmac driver of v3.18/3.19 on one core: a TX ring of 256 descriptors (a frame takes 1 + its"
                + " fragments), TX interrupt coalescing (the IC bit every 64 frames, a 40 ms timer re-armed on every"
                + " transmit), completion in the NAPI poll (weight 64: TX clean first, then RX), an RX ring of 256 with the"
                + " RIWT receive-interrupt watchdog, queue stop at <= MAX_SKB_FRAGS + 1 free descriptors and wake above a"
                + " quarter of the ring, and the BQL hooks where the Dec 2014 patch put them (netdev_sent_queue before the"
                + " DMA kick, netdev_completed_queue after stmmac_tx_clean). preset = current gives today's ring of 512,"
                + " 25-frame / 1 ms coalescing, RIWT 0xa0 and a dql_reset that restores min_limit. CPU costs per frame come"
                + " from the cost profile (amlogic-s805: fitted to the seed's 600 / 650 Mbit/s).";
        d.ports.add(PortDescriptorDTO.of("in", Direction.IN, Mode.PULL, true, "frames from the qdisc (ndo_start_xmit)"));
        d.ports.add(PortDescriptorDTO.of("wire", Direction.OUT, Mode.PULL, true, "frames the MAC DMA transmits, to the link"));
        d.ports.add(PortDescriptorDTO.of("rx", Direction.IN, Mode.PUSH, false, "frames arriving from the reverse link"));
        d.ports.add(PortDescriptorDTO.of("stack", Direction.OUT, Mode.PUSH, false, "received packets (napi_gro_receive)"));
        d.properties.add(PropertyDescriptorDTO.choice("preset", "2014", List.of("2014", "current"),
                "2014: stmmac_main.c of v3.18/3.19 with the BQL patch; current: today's defaults (set properties win)"));
        d.properties.add(PropertyDescriptorDTO.of("bql", Kind.BOOLEAN, "true", null, null,
                "the BQL hooks of the Dec 2014 patch (netdev_sent_queue / netdev_completed_queue / netdev_reset_queue)"));
        d.properties.add(PropertyDescriptorDTO.of("txRing", Kind.INTEGER, "256", "32", "4096",
                "TX descriptors (DMA_TX_SIZE 256 in 2014; 512 in the current preset)"));
        d.properties.add(PropertyDescriptorDTO.of("rxRing", Kind.INTEGER, "256", "32", "4096",
                "RX descriptors (DMA_RX_SIZE 256 in 2014; 512 in the current preset)"));
        d.properties.add(PropertyDescriptorDTO.of("txCoalFrames", Kind.INTEGER, "64", "1", "256",
                "frames between TX-complete interrupts (STMMAC_TX_FRAMES 64; 25 in the current preset)"));
        d.properties.add(PropertyDescriptorDTO.of("txCoalTimer", Kind.DURATION, "40ms", "1us", "100ms",
                "TX clean timer, re-armed on every transmit (STMMAC_COAL_TX_TIMER 40000 us; 1 ms in the current preset)"));
        d.properties.add(PropertyDescriptorDTO.of("riwt", Kind.INTEGER, "255", "0", "255",
                "RX interrupt watchdog in units of 256 CSR clock cycles (MAX_DMA_RIWT 0xff; 0xa0 current; 0 = off)"));
        d.properties.add(PropertyDescriptorDTO.of("csrClockHz", Kind.INTEGER, "-1", "-1", "1000000000",
                "the clock RIWT counts (the stmmaceth clock, stmmac_riwt2usec); -1 takes stmmac.csrClockHz from the"
                        + " profile (amlogic-s805: clk81, 159.375 MHz)"));
        d.properties.add(PropertyDescriptorDTO.choice("riwtRestart", "first", List.of("first", "frame"),
                "first: the RIWT count runs from the first frame after RI and later frames do not reload it (what the"
                        + " seed's RX figures need); frame: every frame received with its interrupt disabled reloads it"
                        + " (the databook's wording read literally)"));
        d.properties.add(PropertyDescriptorDTO.of("napiWeight", Kind.INTEGER, "64", "1", "64",
                "NAPI budget (netif_napi_add(..., 64))"));
        d.properties.add(PropertyDescriptorDTO.of("hz", Kind.INTEGER, "100", "100", "1000",
                "kernel HZ, BQL's time base (100 assumed for the 2014 ARM board, kernel-models.md section 8)"));
        d.properties.add(PropertyDescriptorDTO.of("core", Kind.INTEGER, "0", "0", "1023", "the core that runs the driver"));
        d.properties.add(PropertyDescriptorDTO.of("txCycles", Kind.INTEGER, "-1", "-1", "100000000",
                "CPU cycles per transmitted frame, stack included; -1 takes stmmac.txFrameCycles from the profile"));
        d.properties.add(PropertyDescriptorDTO.of("rxCycles", Kind.INTEGER, "-1", "-1", "100000000",
                "CPU cycles per received frame, stack included; -1 takes stmmac.rxFrameCycles from the profile"));
        d.metricDescriptors.addAll(METRICS);
        d.modelPage = "docs/models/stmmac.md";
        return d;
    }

    @Override
    public ElementDescriptorDTO descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Element create(ElementContext context) {
        return new StmmacElement(context);
    }
}

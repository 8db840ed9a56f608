package io.ringlab.qdisc;

import java.util.List;
import java.util.Map;

import org.osgi.service.component.annotations.Component;

import static io.ringlab.qdisc.FqCodelProvider.DEFAULT_DROP_BATCH;
import static io.ringlab.qdisc.FqCodelProvider.DEFAULT_FLOWS;
import static io.ringlab.qdisc.FqCodelProvider.DEFAULT_INTERVAL_PICOS;
import static io.ringlab.qdisc.FqCodelProvider.DEFAULT_LIMIT;
import static io.ringlab.qdisc.FqCodelProvider.DEFAULT_MEMORY_LIMIT;
import static io.ringlab.qdisc.FqCodelProvider.DEFAULT_QUANTUM;
import static io.ringlab.qdisc.FqCodelProvider.DEFAULT_TARGET_PICOS;
import static io.ringlab.qdisc.FqCodelProvider.DROP_BATCH;
import static io.ringlab.qdisc.FqCodelProvider.FLOWS;
import static io.ringlab.qdisc.FqCodelProvider.INTERVAL;
import static io.ringlab.qdisc.FqCodelProvider.LIMIT;
import static io.ringlab.qdisc.FqCodelProvider.MAX_DROP_BATCH;
import static io.ringlab.qdisc.FqCodelProvider.MAX_FLOWS;
import static io.ringlab.qdisc.FqCodelProvider.MAX_LIMIT;
import static io.ringlab.qdisc.FqCodelProvider.MAX_MEMORY_LIMIT;
import static io.ringlab.qdisc.FqCodelProvider.MAX_MTU;
import static io.ringlab.qdisc.FqCodelProvider.MAX_QUANTUM;
import static io.ringlab.qdisc.FqCodelProvider.MAX_TIME_PICOS;
import static io.ringlab.qdisc.FqCodelProvider.MEMORY_LIMIT;
import static io.ringlab.qdisc.FqCodelProvider.MIN_QUANTUM;
import static io.ringlab.qdisc.FqCodelProvider.MTU;
import static io.ringlab.qdisc.FqCodelProvider.QUANTUM;
import static io.ringlab.qdisc.FqCodelProvider.TARGET;

import io.ringlab.queue.api.Qdisc;
import io.ringlab.sim.api.Configuration;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.Metrics;
import io.ringlab.sim.api.dto.MetricDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO.Kind;

/**
 * Element type {@code "fq_codel"}: a device's root qdisc as Linux {@code fq_codel} ({@code net/sched/sch_fq_codel.c} with
 * CoDel from {@code include/net/codel_impl.h}), created through the {@code "fq_codel"}
 * {@link io.ringlab.queue.api.QdiscProvider} and wrapped in a {@link QdiscElement}.
 * <p>
 * Configuration (defaults from {@code fq_codel_init}): {@code limit} (INTEGER, packets, 10240), {@code flows} (INTEGER,
 * buckets, 1024), {@code quantum} (SIZE, 1514B), {@code target} (DURATION, 5ms), {@code interval} (DURATION, 100ms),
 * {@code memoryLimit} (SIZE, 32MiB of truesize), {@code dropBatch} (INTEGER, packets, 64), {@code mtu} (SIZE, 1514B,
 * {@code psched_mtu}). The hash perturbation is drawn from the element's random stream when the element is created, so the
 * same seed gives the same buckets.
 * <p>
 * Metrics: the generic ones of {@link QdiscElement}, where {@code drops} counts both reasons, and the gauges
 * {@code dropOverlimit} (packets dropped by {@code fq_codel_drop}, reason {@link Qdisc#DROP_OVERLIMIT}),
 * {@code dropOvermemory} (those of them dropped because memory was over its limit), {@code codelDrops} (packets CoDel
 * dropped, reason {@link Qdisc#DROP_AQM}), {@code newFlowCount} (buckets that joined new_flows), {@code maxPacket} (the
 * largest packet CoDel saw, bytes), as {@code tc -s qdisc show} prints them. There is no {@code ecnMark}: Ringlab packets
 * are not ECN-capable, so CoDel drops instead of marking.
 * <p>
 * Thread-safe; every call to {@link #create} returns an independent element.
 *
 * @see FqCodelQdisc
 */
@Component(service = ElementFactory.class, property = ElementFactory.TYPE + "=fq_codel")
public final class FqCodelFactory extends AbstractQdiscFactory {

    // The kind's own metrics, {@code tc -s qdisc show dev ...} names in camel case, each declared once.
    static final MetricDescriptorDTO DROP_OVERLIMIT = new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE,
            "dropOverlimit", "packets dropped because the qdisc was over its limit (drop_overlimit)");
    static final MetricDescriptorDTO DROP_OVERMEMORY = new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE,
            "dropOvermemory", "of those, dropped while memory was over its limit (drop_overmemory)");
    static final MetricDescriptorDTO CODEL_DROPS = new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, "codelDrops",
            "packets CoDel dropped at dequeue");
    static final MetricDescriptorDTO NEW_FLOW_COUNT = new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, "newFlowCount",
            "buckets that joined new_flows (new_flow_count)");
    static final MetricDescriptorDTO MAX_PACKET = new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, "maxPacket", "B",
            "the largest packet CoDel has seen (maxpacket)");
    static final MetricDescriptorDTO MEMORY_USED = new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, "memoryUsed", "B",
            "truesize bytes of the packets queued now (memory_used)").level("memoryLimit");
    static final MetricDescriptorDTO NEW_FLOWS_LEN = new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, "newFlowsLen",
            "buckets on the new_flows list now (new_flows_len)");
    static final MetricDescriptorDTO OLD_FLOWS_LEN = new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, "oldFlowsLen",
            "buckets on the old_flows list now (old_flows_len)");
    /** The kind's own metrics, as the descriptor lists them after the generic ones. */
    static final List<MetricDescriptorDTO> FQ_CODEL_METRICS = List.of(DROP_OVERLIMIT, DROP_OVERMEMORY, CODEL_DROPS,
            NEW_FLOW_COUNT, MAX_PACKET, MEMORY_USED, NEW_FLOWS_LEN, OLD_FLOWS_LEN);

    /** Creates the factory; Declarative Services calls it. */
    public FqCodelFactory() {
        super("fq_codel", "Linux fq_codel: hashed flows, DRR with new flows first, CoDel per flow",
                "Linux fq_codel (net/sched/sch_fq_codel.c; CoDel from include/net/codel_impl.h): packets are hashed by "
                        + "flow (jhash of the packet's flow number and a perturbation drawn from the element's random "
                        + "stream, then reciprocal_scale) into 'flows' buckets; buckets are served by deficit round robin "
                        + "with 'quantum' bytes, new flows before old ones; each bucket runs CoDel (sojourn above 'target' "
                        + "for 'interval' starts drops spaced interval/sqrt(count), in the kernel's 1024-ns fixed-point "
                        + "clock and Newton-step inverse square root). Above 'limit' packets or 'memoryLimit' bytes of "
                        + "truesize, up to 'dropBatch' packets are dropped from the head of the bucket with the largest "
                        + "byte backlog (reason qdisc-overlimit); CoDel drops have reason qdisc-aqm. Packets are not "
                        + "ECN-capable, so CoDel drops instead of marking. Not modelled: tc filters, priority "
                        + "classification, ce_threshold, the empty-qdisc bypass (equivalent here), bulk dequeue.",
                List.of(PropertyDescriptorDTO.of(LIMIT, Kind.INTEGER, String.valueOf(DEFAULT_LIMIT), "1",
                                String.valueOf(MAX_LIMIT),
                                "packet limit; above it fq_codel_drop drops from the fattest flow"),
                        PropertyDescriptorDTO.of(FLOWS, Kind.INTEGER, String.valueOf(DEFAULT_FLOWS), "1",
                                String.valueOf(MAX_FLOWS),
                                "number of hash buckets (flow queues)"),
                        PropertyDescriptorDTO.of(QUANTUM, Kind.SIZE, DEFAULT_QUANTUM + "B", MIN_QUANTUM + "B",
                                MAX_QUANTUM + "B",
                                "bytes a flow may send per DRR round (psched_mtu: MTU 1500 + 14-byte header)"),
                        PropertyDescriptorDTO.of(TARGET, Kind.DURATION, millis(DEFAULT_TARGET_PICOS), "0s",
                                seconds(MAX_TIME_PICOS),
                                "CoDel target: acceptable standing sojourn time (kernel unit 1024 ns)"),
                        PropertyDescriptorDTO.of(INTERVAL, Kind.DURATION, millis(DEFAULT_INTERVAL_PICOS), "0s",
                                seconds(MAX_TIME_PICOS),
                                "CoDel interval: how long the sojourn must stay above target before drops start, and the "
                                        + "base of the drop spacing interval/sqrt(count)"),
                        PropertyDescriptorDTO.of(MEMORY_LIMIT, Kind.SIZE, (DEFAULT_MEMORY_LIMIT >> 20) + "MiB", "1B",
                                (MAX_MEMORY_LIMIT >> 30) + "GiB",
                                "limit on the truesize bytes of queued packets; above it fq_codel_drop drops"),
                        PropertyDescriptorDTO.of(DROP_BATCH, Kind.INTEGER, String.valueOf(DEFAULT_DROP_BATCH), "1",
                                String.valueOf(MAX_DROP_BATCH),
                                "packets fq_codel_drop drops at most per overlimit event (half the fattest flow's bytes)"),
                        PropertyDescriptorDTO.of(MTU, Kind.SIZE, DEFAULT_QUANTUM + "B", "1B", MAX_MTU + "B",
                                "CoDel never drops while the qdisc's byte backlog is at most this (psched_mtu)")),
                List.of(Qdisc.DROP_OVERLIMIT, Qdisc.DROP_AQM), FQ_CODEL_METRICS);
    }

    /** @return a whole number of milliseconds in the file grammar ({@code 5ms}) */
    private static String millis(long picos) {
        return picos / 1_000_000_000L + "ms";
    }

    /** @return a whole number of seconds in the file grammar ({@code 100s}) */
    private static String seconds(long picos) {
        return picos / 1_000_000_000_000L + "s";
    }

    /** Maps the properties to the provider's settings and draws the hash perturbation from the element's random stream. */
    @Override
    Map<String, Object> settings(ElementContext context) {
        Configuration c = context.config();
        // the element's properties have the provider's setting names
        return Map.of(LIMIT, c.getLong(LIMIT), FLOWS, c.getLong(FLOWS), QUANTUM, c.getBytes(QUANTUM),
                TARGET, c.getPicos(TARGET), INTERVAL, c.getPicos(INTERVAL), MEMORY_LIMIT, c.getBytes(MEMORY_LIMIT),
                DROP_BATCH, c.getLong(DROP_BATCH), MTU, c.getBytes(MTU),
                FqCodelProvider.PERTURBATION, context.random().nextInt());
    }

    /**
     * Registers the {@code tc -s} extras as gauges over the qdisc's counters.
     *
     * @throws IllegalArgumentException if the qdisc is not an {@link FqCodelQdisc}
     */
    @Override
    void registerMetrics(Qdisc qdisc, Metrics metrics) {
        if (!(qdisc instanceof FqCodelQdisc q)) {
            throw new IllegalArgumentException("qdisc=" + qdisc.getClass().getName()
                    + ", the fq_codel element reads its counters from io.ringlab.qdisc's FqCodelQdisc");
        }
        metrics.gauge(DROP_OVERLIMIT, q::dropOverlimit);
        metrics.gauge(DROP_OVERMEMORY, q::dropOvermemory);
        metrics.gauge(CODEL_DROPS, q::codelDrops);
        metrics.gauge(NEW_FLOW_COUNT, q::newFlowCount);
        metrics.gauge(MAX_PACKET, q::maxPacket);
        metrics.gauge(MEMORY_USED, q::memoryUsage);
        metrics.gauge(NEW_FLOWS_LEN, q::newFlowsLength);
        metrics.gauge(OLD_FLOWS_LEN, q::oldFlowsLength);
    }
}

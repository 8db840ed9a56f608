package io.ringlab.qdisc;

import java.util.List;
import java.util.Map;

import org.osgi.service.component.annotations.Component;

import io.ringlab.queue.api.Qdisc;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.Metrics;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO.Kind;
import io.ringlab.sim.api.dto.MetricDescriptorDTO;

/**
 * Element type {@code "pfifo_fast"}: a device's root qdisc as Linux {@code pfifo_fast} ({@code net/sched/sch_generic.c},
 * {@code pfifo_fast_enqueue}, {@code pfifo_fast_dequeue}), created through the {@code "pfifo_fast"}
 * {@link io.ringlab.queue.api.QdiscProvider} and wrapped in a {@link QdiscElement}.
 * <p>
 * Configuration: {@value #LIMIT} (INTEGER, packets, 1 to 1,000,000, default 1000 = {@code txqueuelen}, on the three bands
 * together). Ports: {@code in} (push, from the stack), {@code out} (pull, to the driver). Metrics: the generic ones of
 * {@link QdiscElement} and the gauges {@code backlogBand0}, {@code backlogBand1}, {@code backlogBand2} (packets queued in
 * each band now), all three sampled as series. Drop reason: {@link Qdisc#DROP_OVERLIMIT}. A packet's band comes from its
 * {@link io.ringlab.buffer.api.Buffer#priority()} (a source's {@code priority} property).
 * <p>
 * Thread-safe; every call to {@link #create} returns an independent element.
 *
 * @see PfifoFastQdisc
 */
@Component(service = ElementFactory.class, property = ElementFactory.TYPE + "=pfifo_fast")
public final class PfifoFastFactory extends AbstractQdiscFactory {

    /** Property: the limit on the total queue length in packets. */
    static final String LIMIT = "limit";

    /** The kind's own metrics: packets queued per band. */
    static final List<MetricDescriptorDTO> BAND_METRICS = List.of(
            new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, "backlogBand0",
                    "packets queued in band 0 now (served first)"),
            new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, "backlogBand1", "packets queued in band 1 now"),
            new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, "backlogBand2",
                    "packets queued in band 2 now (last served)"));

    /** Creates the factory; Declarative Services calls it. */
    public PfifoFastFactory() {
        super("pfifo_fast", "Linux pfifo_fast: three priority bands, band 0 first, tail drop at a total packet limit",
                "Linux pfifo_fast (net/sched/sch_generic.c, pfifo_fast_enqueue/pfifo_fast_dequeue, v3.x-v4.15): each "
                        + "packet joins band prio2band[priority & 15] = {1,2,2,2,1,2,0,0,1,1,1,1,1,1,1,1}; dequeue serves "
                        + "the lowest non-empty band first (strict priority, no starvation protection); a packet arriving "
                        + "when the three bands together hold 'limit' packets (txqueuelen, 1000 for Ethernet) is dropped "
                        + "(reason qdisc-overlimit). A requeued packet goes back to the head of its band (the kernel keeps "
                        + "it in q->gso_skb ahead of every band). Not modelled: the per-band limits of the lockless "
                        + "v4.16+ version, the empty-qdisc bypass (equivalent here), bulk dequeue, qevents.",
                List.of(PropertyDescriptorDTO.of(LIMIT, Kind.INTEGER, String.valueOf(PfifoQdisc.DEFAULT_LIMIT), "1",
                        String.valueOf(PfifoQdisc.MAX_LIMIT),
                        "limit on the three bands together, in packets (txqueuelen)")),
                List.of(Qdisc.DROP_OVERLIMIT), BAND_METRICS);
    }

    @Override
    Map<String, Object> settings(ElementContext context) {
        return Map.of(PfifoFastProvider.LIMIT, context.config().getLong(LIMIT));
    }

    /**
     * Registers {@code backlogBand0..2} and samples them as series.
     *
     * @throws IllegalArgumentException if the qdisc is not a {@link PfifoFastQdisc}
     */
    @Override
    void registerMetrics(Qdisc qdisc, Metrics metrics) {
        if (!(qdisc instanceof PfifoFastQdisc q)) {
            throw new IllegalArgumentException("qdisc=" + qdisc.getClass().getName()
                    + ", the pfifo_fast element reads its per-band backlogs from io.ringlab.qdisc's PfifoFastQdisc");
        }
        for (int band = 0; band < PfifoFastQdisc.BANDS; band++) {
            int b = band;
            metrics.gauge(BAND_METRICS.get(band), () -> q.backlogPackets(b));
            metrics.series(BAND_METRICS.get(band).name);
        }
    }
}

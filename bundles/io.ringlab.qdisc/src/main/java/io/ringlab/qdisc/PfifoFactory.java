package io.ringlab.qdisc;

import java.util.List;
import java.util.Map;

import org.osgi.service.component.annotations.Component;

import io.ringlab.queue.api.Qdisc;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO.Kind;

/**
 * Element type {@code "pfifo"}: a device's root qdisc as Linux {@code pfifo} ({@code net/sched/sch_fifo.c},
 * {@code pfifo_enqueue}), created through the {@code "pfifo"} {@link io.ringlab.queue.api.QdiscProvider} and wrapped in a
 * {@link QdiscElement}.
 * <p>
 * Configuration: {@value #LIMIT} (INTEGER, packets, 1 to 1,000,000, default 1000 = {@code txqueuelen}). Ports: {@code in}
 * (push, from the stack), {@code out} (pull, to the driver). Metrics: {@code backlog}, {@code backlogBytes}, {@code drops},
 * {@code requeues}, {@code enqueued}, {@code dequeued}. Drop reason: {@link Qdisc#DROP_OVERLIMIT}.
 * <p>
 * Thread-safe; every call to {@link #create} returns an independent element.
 *
 * @see PfifoQdisc
 */
@Component(service = ElementFactory.class, property = ElementFactory.TYPE + "=pfifo")
public final class PfifoFactory extends AbstractQdiscFactory {

    /** Property: the queue limit in packets. */
    static final String LIMIT = "limit";

    /** Creates the factory; Declarative Services calls it. */
    public PfifoFactory() {
        super("pfifo", "Linux pfifo: one FIFO, tail drop at a packet limit",
                "Linux pfifo (net/sched/sch_fifo.c, pfifo_enqueue): packets queue in one FIFO up to 'limit' packets "
                        + "(the device's txqueuelen, 1000 for Ethernet, by default); a packet arriving at a full queue is "
                        + "dropped (tail drop, reason qdisc-overlimit). The driver dequeues from the head when the qdisc "
                        + "signals it (netif_schedule) and its TX queue is not stopped by the driver or by BQL. "
                        + "Not modelled: the empty-qdisc bypass (TCQ_F_CAN_BYPASS, equivalent here), bulk dequeue "
                        + "(qdisc_avail_bulklimit), the GSO header adjustment of the byte backlog, qevents.",
                List.of(PropertyDescriptorDTO.of(LIMIT, Kind.INTEGER, String.valueOf(PfifoQdisc.DEFAULT_LIMIT), "1",
                        String.valueOf(PfifoQdisc.MAX_LIMIT),
                        "queue limit in packets (txqueuelen)")),
                List.of(Qdisc.DROP_OVERLIMIT));
    }

    @Override
    Map<String, Object> settings(ElementContext context) {
        return Map.of(PfifoProvider.LIMIT, context.config().getLong(LIMIT));
    }
}

package io.ringlab.qdisc;

import java.util.List;
import java.util.Map;

import io.ringlab.queue.api.Qdisc;
import io.ringlab.queue.api.QdiscProvider;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.Metrics;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.MetricDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Direction;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Mode;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;

/**
 * Base of the element factories for qdiscs: element type = qdisc kind, one {@link QdiscElement} per pipeline node per run,
 * around a qdisc obtained from the {@link QdiscProvider} service of that kind, so that pfifo, pfifo_fast, fq_codel and
 * third-party kinds share the element and differ only in their descriptor, their settings and their drop reasons.
 * <p>
 * The descriptor is built once: category {@link ElementDescriptorDTO#QDISC}; ports {@value QdiscElement#IN} (input,
 * push, required) and {@value QdiscElement#OUT} (output, pull, required); the subclass's properties; metrics
 * {@link QdiscElement#METRICS}, then the kind's own ({@link #registerMetrics}).
 * <p>
 * Thread-safe: the descriptor is never modified after construction, and {@link #create} keeps no state.
 */
abstract class AbstractQdiscFactory implements ElementFactory {

    private final String kind;
    private final List<String> dropReasons;
    private final ElementDescriptorDTO descriptor;

    /**
     * @param kind the element type and qdisc kind ({@link QdiscProvider#KIND}), for example {@code "pfifo"}
     * @param summary the one-line summary
     * @param description the model, its kernel source and what is not modelled
     * @param properties the element's properties
     * @param dropReasons every drop reason the qdisc may report ({@link Qdisc#lastDropReason()}, {@link Qdisc.DropSink})
     */
    AbstractQdiscFactory(String kind, String summary, String description, List<PropertyDescriptorDTO> properties,
            List<String> dropReasons) {
        this(kind, summary, description, properties, dropReasons, List.of());
    }

    /**
     * @param kind the element type and qdisc kind ({@link QdiscProvider#KIND}), for example {@code "pfifo_fast"}
     * @param summary the one-line summary
     * @param description the model, its kernel source and what is not modelled
     * @param properties the element's properties
     * @param dropReasons every drop reason the qdisc may report ({@link Qdisc#lastDropReason()}, {@link Qdisc.DropSink})
     * @param kindMetrics the metrics {@link #registerMetrics} registers, listed after the generic ones
     */
    AbstractQdiscFactory(String kind, String summary, String description, List<PropertyDescriptorDTO> properties,
            List<String> dropReasons, List<MetricDescriptorDTO> kindMetrics) {
        this.kind = kind;
        this.dropReasons = List.copyOf(dropReasons);
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = kind;
        d.category = ElementDescriptorDTO.QDISC;
        d.summary = summary;
        d.description = description;
        d.ports.add(PortDescriptorDTO.of(QdiscElement.IN, Direction.IN, Mode.PUSH, true,
                "packets from the stack (dev_queue_xmit), enqueued on arrival"));
        d.ports.add(PortDescriptorDTO.of(QdiscElement.OUT, Direction.OUT, Mode.PULL, true,
                "packets to the driver, which pulls after ready (netif_schedule) while its TX queue is not stopped"));
        d.properties.addAll(properties);
        d.metricDescriptors.addAll(QdiscElement.METRICS);
        d.metricDescriptors.addAll(kindMetrics);
        d.modelPage = "docs/models/" + kind + ".md"; // pfifo.md, pfifo_fast.md, fq_codel.md
        this.descriptor = d;
    }

    /** @return the descriptor built at construction; callers must not modify it. */
    @Override
    public ElementDescriptorDTO descriptor() {
        return descriptor;
    }

    /**
     * Creates the element: looks up the provider of this kind, creates the qdisc from {@link #settings(ElementContext)} and
     * wraps it, with the kind's metrics ({@link #registerMetrics}).
     *
     * @throws IllegalArgumentException if no provider of the kind is installed or a setting is out of range
     */
    @Override
    public Element create(ElementContext context) {
        QdiscProvider provider = context.provider(QdiscProvider.class, QdiscProvider.KIND, kind);
        Qdisc qdisc = provider.create(settings(context));
        return new QdiscElement(context, qdisc, dropReasons, this::registerMetrics, kind);
    }

    /** @return the qdisc kind and element type. */
    final String kind() {
        return kind;
    }

    /**
     * Maps the element's validated properties to the qdisc provider's settings. Called once per element, at creation; a
     * kind that needs random numbers (fq_codel's hash perturbation) draws them here from {@link ElementContext#random()},
     * so that the same seed gives the same qdisc.
     *
     * @param context the element's context, whose configuration holds the validated properties
     * @return the settings, with the units the kind documents; never {@code null}
     */
    abstract Map<String, Object> settings(ElementContext context);

    /**
     * Registers the kind's own metrics, which the constructor's {@code kindMetrics} lists. The default registers none.
     *
     * @param qdisc the qdisc the kind's provider created
     * @param metrics the element's metrics registry
     * @throws IllegalArgumentException if the qdisc is not of the class the metrics read
     */
    void registerMetrics(Qdisc qdisc, Metrics metrics) {
    }
}

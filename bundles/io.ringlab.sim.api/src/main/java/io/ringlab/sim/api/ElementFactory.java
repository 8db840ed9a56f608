package io.ringlab.sim.api;

import org.osgi.annotation.versioning.ConsumerType;

import io.ringlab.sim.api.dto.ElementDescriptorDTO;

/**
 * Creates elements of one type, registered as a service with {@link #TYPE} set to the type id (for example
 * {@code "netdev"}). The engine finds factories in the service registry, validates a pipeline's properties against
 * {@link #descriptor()} and creates one element per pipeline node per run, so parallel runs never share element state.
 * <p>
 * Implementations must be thread-safe: parallel runs call {@link #create} concurrently.
 */
@ConsumerType
public interface ElementFactory {

    /** Service property: the element type id, a {@code String} matching {@code [a-z][a-z0-9_.-]*}. */
    String TYPE = "ringlab.element.type";

    /**
     * @return the type's description: id, category, ports, properties with units, defaults and ranges. The same object may
     *         be returned each time; callers must not modify it. Never {@code null}.
     */
    ElementDescriptorDTO descriptor();

    /**
     * Creates an element for one run. The context's configuration has been validated against {@link #descriptor()}.
     *
     * @param context the element's context; never {@code null}
     * @return the element; never {@code null}
     * @throws IllegalArgumentException with a {@code key=value} message when properties are inconsistent with each other
     *         (the engine reports it with the pipeline file's position)
     */
    Element create(ElementContext context);
}

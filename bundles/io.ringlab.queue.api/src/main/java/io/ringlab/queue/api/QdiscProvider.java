package io.ringlab.queue.api;

import java.util.Map;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * A qdisc kind, registered as a service with {@link #KIND} (for example {@code "pfifo"}, {@code "pfifo_fast"},
 * {@code "fq_codel"}). Must be thread-safe; every call returns an independent qdisc.
 */
@ConsumerType
public interface QdiscProvider {

    /** Service property naming the qdisc kind, a {@code String}. */
    String KIND = "ringlab.qdisc.kind";

    /**
     * @param settings kind-specific settings with the units each kind documents; never {@code null}
     * @return a new, empty qdisc; never {@code null}
     * @throws IllegalArgumentException with a {@code key=value} message when a setting is out of range
     */
    Qdisc create(Map<String, Object> settings);
}

package io.ringlab.buffer.api;

import java.util.Map;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * A pool kind, registered as a service with the {@link #KIND} property. Drivers and sources never import a pool
 * implementation: they ask the run for a pool by kind, so a third-party kind works unchanged.
 * <p>
 * Per-run settings come from the element that asks for the pool. Implementations must be thread-safe: parallel runs call {@link #create} concurrently,
 * and each call must return an independent pool.
 */
@ConsumerType
public interface BufferPoolProvider {

    /** Service property naming the pool kind, a {@code String} such as {@code "slab"}, {@code "hwbm"} or {@code "fixed"}. */
    String KIND = "ringlab.pool.kind";

    /**
     * Creates a pool for one run.
     *
     * @param context the run's pool context; must not be {@code null}
     * @param name the pool's name, unique within the run
     * @param capacity how many buffers the pool may hand out at once, at least 1
     * @param bufferBytes the data size of each buffer in bytes, at least 1
     * @param settings kind-specific settings (keys and units documented by the kind); never {@code null}, may be empty
     * @return the new pool; never {@code null}
     * @throws IllegalArgumentException with a {@code key=value} message when a setting is out of range
     */
    BufferPool create(PoolContext context, String name, int capacity, int bufferBytes, Map<String, Object> settings);

    /**
     * @return what the kind models and where from (the kernel source, the model page), in a sentence or two, as
     *         {@code ringlab pools} lists it; {@code ""} (the default) if the kind says nothing
     * @since 1.2
     */
    default String description() {
        return "";
    }
}

package io.ringlab.buffer.api;

import java.util.function.DoubleSupplier;

import org.osgi.annotation.versioning.ProviderType;

/**
 * Where a pool names the values a run samples over time ({@link BufferPool#liveValues}); the engine implements it.
 *
 * @since 1.2
 */
@ProviderType
@FunctionalInterface
public interface LiveValues {
    /**
     * Adds a value to the run's series, as the column {@code pool:<pool>.<name>}.
     *
     * @param name the value's name, as in {@code PoolStatsDTO.counters} where it is a counter there too; unique in the pool
     * @param value reads it, on the engine thread at every sample: must not allocate
     */
    void add(String name, DoubleSupplier value);
}

package io.ringlab.sim.api;

import java.util.Set;

import org.osgi.annotation.versioning.ProviderType;

/**
 * A named set of cost constants for one CPU (cycles per operation, frequency, cache sizes), loaded from a data file in
 * which every constant carries its source. Read constants once, at element creation, not per packet.
 * <p>
 * Immutable and thread-safe.
 */
@ProviderType
public interface CostProfile {

    /** @return the profile's name (for example {@code "generic-x86-4ghz"}). */
    String name();

    /** @return the core clock in hertz. */
    long frequencyHz();

    /** @return the number of cores. */
    int cores();

    /**
     * @param key a constant's name
     * @return {@code true} if the profile defines {@code key}.
     */
    boolean has(String key);

    /**
     * @param key a constant's name
     * @return its value (cycles, bytes, lines or a ratio, as the key's documentation says)
     * @throws IllegalArgumentException naming the profile and the keys it has, if it has no such constant
     */
    double value(String key);

    /**
     * @param key a constant's name
     * @param fallback the value when the profile does not define it
     * @return the value or the fallback
     */
    double value(String key, double fallback);

    /**
     * @param key a constant's name
     * @return the source text of a constant (kernel file and function, datasheet, publication; "fitted: ..." if fitted).
     */
    String source(String key);

    /** @return every key; never {@code null}. */
    Set<String> keys();
}

package io.ringlab.sim.api;

import org.osgi.annotation.versioning.ProviderType;

/**
 * An element's validated properties: the pipeline file's values, or the descriptor's defaults, converted to base units.
 * Every getter throws {@link IllegalArgumentException} for a property the descriptor does not declare with that kind.
 * <p>
 * Immutable and thread-safe.
 */
@ProviderType
public interface Configuration {

    /**
     * @param name the property's name, as the descriptor declares it
     * @return a {@code BOOLEAN} property.
     */
    boolean getBoolean(String name);

    /**
     * @param name the property's name, as the descriptor declares it
     * @return an {@code INTEGER} property.
     */
    long getLong(String name);

    /**
     * @param name the property's name, as the descriptor declares it
     * @return a {@code DECIMAL} property.
     */
    double getDouble(String name);

    /**
     * @param name the property's name, as the descriptor declares it
     * @return a {@code STRING} or {@code CHOICE} property; never {@code null}.
     */
    String getString(String name);

    /**
     * @param name the property's name, as the descriptor declares it
     * @return a {@code DURATION} property in picoseconds.
     */
    long getPicos(String name);

    /**
     * @param name the property's name, as the descriptor declares it
     * @return a {@code RATE} property in bits per second.
     */
    long getBitsPerSecond(String name);

    /**
     * @param name the property's name, as the descriptor declares it
     * @return a {@code SIZE} property in bytes.
     */
    long getBytes(String name);

    /**
     * @param name the property's name, as the descriptor declares it
     * @return {@code true} if the pipeline file set the property (rather than taking the default).
     */
    boolean isSet(String name);
}

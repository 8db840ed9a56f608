package io.ringlab.sim.api;

import java.util.Set;

import org.osgi.annotation.versioning.ProviderType;

/**
 * The state one element instance hands to its replacement in a hot swap (docs/hot-swap.md): named values the old instance
 * writes in {@link Handover#exportState} and the new one reads in {@link Handover#importState}.
 * <p>
 * The old and the new instance may come from different bundles (another version, another type), so a value must be of a
 * type both can see: {@code Boolean}, {@code Integer}, {@code Long}, {@code Double}, {@code String}, arrays of
 * {@code boolean}, {@code int}, {@code long} and {@code double}, {@link io.ringlab.buffer.api.Buffer} and arrays of it, or
 * an object of a published API interface implemented outside the exporting bundle (a driver's
 * {@code io.ringlab.driver.api.SendRing} from the engine, a {@code io.ringlab.queue.api.TxQueue} from the queue-limits
 * provider, a {@code io.ringlab.buffer.api.BufferPool}). A value whose class the exporting bundle defines is refused: it
 * would not outlive the bundle's update.
 * <p>
 * Keys are the exporting model's own; a model that wants other models to read its state uses shared names (for drivers:
 * {@code io.ringlab.driver.api.DriverState}). Arrays are stored as given, not copied: the old instance is not called
 * again once the swap commits.
 * <p>
 * Not thread-safe: the run's engine thread only, during the swap.
 */
@ProviderType
public interface ElementState {

    /** @return the implementation that exported this state, {@code type@bundleVersion}. */
    String from();

    /** @return the element type id of the exporting instance. */
    String fromType();

    /**
     * Writes a value.
     *
     * @param key the name; not {@code null}
     * @param value the value, of an allowed type (see above); not {@code null}
     * @throws IllegalArgumentException if the value's type is not allowed, naming the key and the type
     */
    void put(String key, Object value);

    /**
     * @param key the name
     * @return whether a value was written under {@code key}
     */
    boolean has(String key);

    /**
     * @param key the name
     * @param type the expected type
     * @param <T> the expected type
     * @return the value, or {@code null} if none was written
     * @throws IllegalArgumentException if the value is of another type, naming the key and both types
     */
    <T> T get(String key, Class<T> type);

    /**
     * @param key the name of a {@code Long} or {@code Integer} value
     * @param absent returned when no value was written
     * @return the value
     */
    long getLong(String key, long absent);

    /**
     * @param key the name of an {@code Integer} value
     * @param absent returned when no value was written
     * @return the value
     */
    int getInt(String key, int absent);

    /**
     * @param key the name of a {@code Boolean} value
     * @param absent returned when no value was written
     * @return the value
     */
    boolean getBoolean(String key, boolean absent);

    /** @return the names written, in the order written. */
    Set<String> keys();
}

package io.ringlab.sim.api;

import java.util.Set;

import org.osgi.annotation.versioning.ProviderType;

import io.ringlab.buffer.api.BufferDestructor;

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
 * Two things of the old instance are not values, because their classes are the exporting bundle's: its CPU tasks waiting
 * on the cores and the destructors it gave buffers that are now elsewhere in the run (TCP's {@code tcp_wfree} on an skb
 * in a qdisc, a page reference on an RX skb up the stack). The exporter names them ({@link #putTask},
 * {@link #putDestructors}) and the importer puts its own in their places ({@link #requeue}, {@link #replaceDestructors});
 * the engine does that when the swap commits, and the old objects never reach the importer. Timers are values (the
 * engine's), taken over with {@link Timer#takeOver}.
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

    /** @return the names written with {@link #put}, in the order written. */
    Set<String> keys();

    /**
     * Exporter: names a CPU task of this instance, which may be waiting on any of the cores at the swap, so that the
     * successor can put a task of its own in its place ({@link #requeue}). Not a value: {@link #has}, {@link #get} and
     * {@link #keys} do not show it.
     *
     * @param key the name; not {@code null}
     * @param task the task, as this instance submits it; not {@code null}
     * @since 1.3
     */
    void putTask(String key, CpuTask task);

    /**
     * Importer: when the swap commits, {@code task} takes the place of the predecessor's task named {@code key} wherever
     * it waits: on the same cores, in the same work class, at the same position in the queue, so the work runs when the
     * predecessor's would have (submitting it again would put it behind every task queued meanwhile). What waits then
     * carries this instance's identity; a task the predecessor did not name is cancelled.
     *
     * @param key the predecessor's name for the task
     * @param task this instance's task that does the same work; not {@code null}
     * @return the cores on which the predecessor's task waits now (0: none, or no task of that name)
     * @since 1.3
     */
    int requeue(String key, CpuTask task);

    /**
     * Exporter: names destructors of this instance that buffers outside it may carry, in an order the successor knows,
     * so that it can put its own in their places ({@link #replaceDestructors}). Not a value.
     *
     * @param key the name; not {@code null}
     * @param destructors the destructors; none {@code null}
     * @since 1.3
     */
    void putDestructors(String key, BufferDestructor... destructors);

    /**
     * Importer: when the swap commits, every allocated buffer of the run whose destructor is the predecessor's
     * {@code destructors[i]} named {@code key} gets {@code replacements[i]}, so that its release (an skb freed by a driver,
     * a link, a receiver) reaches this instance. Buffers that still carry a destructor that is the old instance itself
     * lose it then, as the old instance is not called again.
     *
     * @param key the predecessor's name
     * @param replacements this instance's destructors, as many as the predecessor named
     * @return the buffers that carry one of the predecessor's destructors now (0 when none was named under {@code key})
     * @throws IllegalArgumentException if the counts differ, naming both
     * @since 1.3
     */
    int replaceDestructors(String key, BufferDestructor... replacements);
}

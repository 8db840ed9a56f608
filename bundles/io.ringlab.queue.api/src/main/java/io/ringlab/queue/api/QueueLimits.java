package io.ringlab.queue.api;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * The Byte Queue Limits contract: the kernel's {@code struct dql} and its operations
 * ({@code include/linux/dynamic_queue_limits.h}, {@code lib/dynamic_queue_limits.c}).
 * <p>
 * Counters are free-running 32-bit unsigned values as in the kernel; the {@code int} results below wrap the same way.
 * Time enters only through jiffies, which the implementation derives from virtual time and its configured HZ.
 * <p>
 * Not thread-safe: one TX queue, one engine thread.
 */
@ConsumerType
public interface QueueLimits {

    /**
     * {@code dql_queued}: records that {@code bytes} were posted to the device. The caller checked {@link #available()} before.
     *
     * @param bytes the object size in bytes, 0 to {@code DQL_MAX_OBJECT} (268,435,455)
     * @param nowPicos the current virtual time in picoseconds
     */
    void queued(int bytes, long nowPicos);

    /**
     * {@code dql_avail}: the bytes that may still be queued; negative means over the limit.
     *
     * @return {@code (int) (adj_limit - num_queued)}
     */
    int available();

    /**
     * {@code dql_completed}: records that the device completed {@code bytes}, and adapts the limit.
     *
     * @param bytes completed bytes, at most the bytes in flight
     * @param nowPicos the current virtual time in picoseconds
     */
    void completed(int bytes, long nowPicos);

    /**
     * {@code dql_reset}: forgets the bytes in flight and restarts the limit (0 in the 2014 code, {@code min_limit} in current
     * kernels, as the implementation is configured). {@code adj_limit} is left as it was, as in the kernel.
     *
     * @param nowPicos the current virtual time in picoseconds
     */
    void reset(long nowPicos);

    /** @return the current limit in bytes ({@code dql->limit}, sysfs {@code limit}). */
    int limit();

    /** @return bytes queued and not completed ({@code num_queued - num_completed}, sysfs {@code inflight}). */
    int inflight();

    /** @return the lower bound of the limit in bytes (sysfs {@code limit_min}). */
    int minLimit();

    /** @return the upper bound of the limit in bytes (sysfs {@code limit_max}). */
    int maxLimit();

    /**
     * @return {@code slack_hold_time} in milliseconds (sysfs {@code hold_time}: the jiffies shown through
     *         {@code jiffies_to_msecs}), or -1 when the implementation does not say
     * @since 1.2
     */
    default int holdTimeMillis() {
        return -1;
    }
}

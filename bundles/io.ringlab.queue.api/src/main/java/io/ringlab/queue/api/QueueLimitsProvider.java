package io.ringlab.queue.api;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Creates BQL state and TX queues for drivers. Registered as a service with {@link #KIND} ({@code "dql"} for the kernel
 * algorithm). Must be thread-safe; every call returns independent state.
 */
@ConsumerType
public interface QueueLimitsProvider {

    /** Service property naming the algorithm, a {@code String}. */
    String KIND = "ringlab.queuelimits.kind";

    /**
     * Creates a TX queue.
     *
     * @param bql whether the queue has byte queue limits; {@code false} gives a queue with only the two stop bits
     * @param hz the kernel's HZ (jiffies per second), 100 to 1000; the slack hold time is expressed in jiffies
     * @param holdTimeJiffies {@code slack_hold_time} in jiffies ({@code dql_init(&q->dql, HZ)} gives HZ, one second)
     * @param minLimitBytes {@code min_limit} in bytes
     * @param maxLimitBytes {@code max_limit} in bytes, at most {@code DQL_MAX_LIMIT} (1,879,048,192)
     * @param resetToMinLimit {@code true} for current kernels' {@code dql_reset} (limit = min_limit), {@code false} for 2014's (0)
     * @param listener called when the queue is woken; must not be {@code null}
     * @return the queue; never {@code null}
     * @throws IllegalArgumentException with a {@code key=value} message when a value is out of range
     */
    TxQueue createTxQueue(boolean bql, int hz, int holdTimeJiffies, int minLimitBytes, int maxLimitBytes,
            boolean resetToMinLimit, TxQueue.Listener listener);
}

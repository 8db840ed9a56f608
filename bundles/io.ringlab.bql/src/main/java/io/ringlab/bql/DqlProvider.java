package io.ringlab.bql;

import java.util.Objects;

import org.osgi.service.component.annotations.Component;

import io.ringlab.queue.api.QueueLimitsProvider;
import io.ringlab.queue.api.TxQueue;

/**
 * The kernel's Byte Queue Limits, service kind {@code "dql"}: creates TX queues with the {@code include/linux/netdevice.h}
 * glue ({@link NetdevTxQueue}) over the DQL algorithm of {@code lib/dynamic_queue_limits.c} ({@link Dql}).
 * <p>
 * Configuration, per call (there is no installation-wide configuration):
 * <ul>
 * <li>{@code hz}: the kernel's HZ, 100 to 1000 (jiffies derive exactly from
 * picoseconds); no default here, {@code CONFIG_HZ} of the modelled board;</li>
 * <li>{@code holdTimeJiffies}: {@code slack_hold_time}, 0 to {@link Integer#MAX_VALUE} jiffies; the kernel uses HZ (one
 * second, {@code net/core/dev.c}, {@code netdev_init_one_queue}: {@code dql_init(&queue->dql, HZ)});</li>
 * <li>{@code minLimitBytes}/{@code maxLimitBytes}: sysfs {@code limit_min}/{@code limit_max}, 0 &le; min &le; max &le;
 * {@code DQL_MAX_LIMIT} (1,879,048,192); the kernel's defaults are 0 and {@code DQL_MAX_LIMIT};</li>
 * <li>{@code resetToMinLimit}: the {@code dql_reset} variant, limit = {@code min_limit} (current kernels) or 0 (2014).</li>
 * </ul>
 * Arguments are validated whether or not {@code bql} is set, so a configuration error shows up before BQL is switched on.
 * <p>
 * Stateless and thread-safe: every call returns independent state.
 */
@Component(service = QueueLimitsProvider.class, property = QueueLimitsProvider.KIND + "=dql")
public final class DqlProvider implements QueueLimitsProvider {

    /** Creates the provider; Declarative Services calls it. */
    public DqlProvider() {
    }

    /**
     * @throws IllegalArgumentException with a {@code key=value} message: {@code hz} outside 100 to 1000, or
     *             10<sup>12</sup>, a negative {@code holdTimeJiffies}, {@code maxLimitBytes} outside 0 to 1,879,048,192,
     *             {@code minLimitBytes} outside 0 to {@code maxLimitBytes}
     * @throws NullPointerException if {@code listener} is {@code null}
     */
    @Override
    public TxQueue createTxQueue(boolean bql, int hz, int holdTimeJiffies, int minLimitBytes, int maxLimitBytes,
            boolean resetToMinLimit, TxQueue.Listener listener) {
        Objects.requireNonNull(listener, "listener=null, a TxQueue.Listener is required");
        if (!bql) {
            Dql.checkArguments(hz, holdTimeJiffies, minLimitBytes, maxLimitBytes);
            return new NetdevTxQueue(null, listener);
        }
        return new NetdevTxQueue(new Dql(hz, holdTimeJiffies, minLimitBytes, maxLimitBytes, resetToMinLimit), listener);
    }
}

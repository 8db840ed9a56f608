package io.ringlab.bql;

import java.util.Objects;

import io.ringlab.queue.api.QueueLimits;
import io.ringlab.queue.api.TxQueue;

/**
 * A device TX queue's two stop bits and the BQL glue, as {@code include/linux/netdevice.h} defines them
 * ({@code netdev_tx_sent_queue}, {@code netdev_tx_completed_queue}, {@code netdev_tx_reset_queue},
 * {@code netif_tx_stop_queue}, {@code netif_schedule_queue}) and {@code net/core/dev.c} ({@code netif_tx_wake_queue}).
 * <p>
 * <b>State.</b> {@code __QUEUE_STATE_DRV_XOFF}, the driver's bit ({@link #stopByDriver}, {@link #wakeByDriver}), and
 * {@code __QUEUE_STATE_STACK_XOFF}, the stack's bit that BQL sets when {@code dql_avail} goes negative. The qdisc hands
 * over packets only while both are clear ({@code netif_xmit_frozen_or_stopped}); {@code __QUEUE_STATE_FROZEN} is not
 * modelled.
 * <p>
 * <b>Flow.</b> {@link #sent}: {@code dql_queued}; if {@code dql_avail < 0}, set STACK_XOFF and check {@code dql_avail}
 * again (the kernel's re-check after {@code smp_mb}, for a completion on another CPU; on one engine thread it never
 * changes the outcome). {@link #completed}: nothing for 0 bytes; {@code dql_completed}; if {@code dql_avail} is still
 * negative, stay stopped; else, if STACK_XOFF was set, clear it and wake the queue ({@code netif_schedule_queue}), that
 * is call the {@link TxQueue.Listener} (the qdisc re-run), unless DRV_XOFF is set ({@code netif_xmit_stopped}).
 * {@link #wakeByDriver}: clear DRV_XOFF; if it was set, {@code __netif_schedule}. The kernel schedules the qdisc even
 * while STACK_XOFF is set, and that run then finds the queue stopped and sends nothing; calling the listener only when no
 * stop bit remains has the same effect. Bits are cleared before the listener runs, so it may transmit (and stop the
 * queue again) from inside the callback.
 * <p>
 * <b>Without BQL</b> ({@code limits == null}) {@link #sent} and {@link #completed} do nothing, the stack bit is never set
 * and {@link #limits()} is {@code null}: a driver that does not call the BQL functions.
 * <p>
 * <b>Counters.</b> {@link #stackStops()}: transitions of STACK_XOFF from clear to set that survived the re-check;
 * {@link #driverStops()}: transitions of DRV_XOFF from clear to set ({@code netif_tx_stop_queue} on a stopped queue is not
 * counted again). Neither is reset by {@link #reset}.
 * <p>
 * Not thread-safe: one engine thread.
 *
 * @see Dql
 */
final class NetdevTxQueue implements TxQueue {

    private final QueueLimits limits;
    private Listener listener;

    /** {@code __QUEUE_STATE_DRV_XOFF}. */
    private boolean drvXoff;
    /** {@code __QUEUE_STATE_STACK_XOFF}. */
    private boolean stackXoff;
    private long stackStops;
    private long driverStops;

    /**
     * @param limits the queue's limits, or {@code null} for a queue without BQL
     * @param listener called when the queue is woken; must not be {@code null}
     */
    NetdevTxQueue(QueueLimits limits, Listener listener) {
        this.limits = limits;
        this.listener = Objects.requireNonNull(listener, "listener=null, a TxQueue.Listener is required");
    }

    /**
     * {@code netdev_tx_sent_queue}.
     *
     * @throws IllegalArgumentException from {@link QueueLimits#queued} if {@code bytes} exceeds {@code DQL_MAX_OBJECT}
     */
    @Override
    public void sent(int bytes, long nowPicos) {
        final QueueLimits dql = limits;
        if (dql == null) {
            return;
        }
        dql.queued(bytes, nowPicos);
        if (dql.available() >= 0) {
            return;
        }
        final boolean wasStopped = stackXoff;
        stackXoff = true;
        // netdev_tx_sent_queue re-checks after smp_mb in case a completion made room meanwhile
        if (dql.available() >= 0) {
            stackXoff = false;
        } else if (!wasStopped) {
            stackStops++;
        }
    }

    /**
     * {@code netdev_tx_completed_queue}. {@code packets} is not used, as in the kernel, where only the bytes reach DQL.
     *
     * @throws IllegalArgumentException from {@link QueueLimits#completed} if {@code bytes} exceeds the bytes in flight
     */
    @Override
    public void completed(int packets, int bytes, long nowPicos) {
        final QueueLimits dql = limits;
        if (dql == null || bytes == 0) {
            return;
        }
        dql.completed(bytes, nowPicos);
        if (dql.available() < 0) {
            return;
        }
        if (stackXoff) {
            stackXoff = false;
            if (!drvXoff) {
                listener.woken();
            }
        }
    }

    /** {@code netdev_tx_reset_queue}: clears STACK_XOFF and resets the limits; wakes nobody (the driver restarts the queue). */
    @Override
    public void reset(long nowPicos) {
        stackXoff = false;
        if (limits != null) {
            limits.reset(nowPicos);
        }
    }

    /** {@code netif_tx_stop_queue}: sets DRV_XOFF; counts a stop if it was clear. */
    @Override
    public void stopByDriver() {
        if (!drvXoff) {
            drvXoff = true;
            driverStops++;
        }
    }

    /** {@code netif_tx_wake_queue}: clears DRV_XOFF; if it was set and STACK_XOFF is clear, calls the listener. */
    @Override
    public void wakeByDriver() {
        if (drvXoff) {
            drvXoff = false;
            if (!stackXoff) {
                listener.woken();
            }
        }
    }

    @Override
    public boolean driverStopped() {
        return drvXoff;
    }

    @Override
    public boolean stackStopped() {
        return stackXoff;
    }

    @Override
    public boolean stopped() {
        return drvXoff || stackXoff;
    }

    @Override
    public QueueLimits limits() {
        return limits;
    }

    @Override
    public long stackStops() {
        return stackStops;
    }

    @Override
    public long driverStops() {
        return driverStops;
    }

    @Override
    public String toString() {
        return "NetdevTxQueue[drvXoff=" + drvXoff + ", stackXoff=" + stackXoff + ", limits=" + limits + "]";
    }

    @Override
    public void listener(Listener listener) {
        this.listener = Objects.requireNonNull(listener, "listener=null, a TxQueue.Listener is required");
    }
}

package io.ringlab.queue.api;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * A device TX queue's state and its BQL glue, as {@code include/linux/netdevice.h} defines them: the driver's stop bit
 * ({@code __QUEUE_STATE_DRV_XOFF}, {@code netif_stop_queue}) and the stack's stop bit ({@code __QUEUE_STATE_STACK_XOFF}, set
 * by BQL). The qdisc hands packets to the driver only while neither is set ({@code netif_xmit_frozen_or_stopped}); when the
 * queue is woken the {@link Listener} re-runs the qdisc ({@code netif_schedule_queue}).
 * <p>
 * Implemented by {@link QueueLimitsProvider}s (third parties included), hence a consumer type. Not thread-safe: one engine
 * thread.
 */
@ConsumerType
public interface TxQueue {

    /**
     * {@code netdev_tx_sent_queue}: BQL accounting after the driver posted a frame; may set the stack stop bit.
     *
     * @param bytes the frame's length in bytes ({@code skb->len})
     * @param nowPicos the current virtual time in picoseconds
     */
    void sent(int bytes, long nowPicos);

    /**
     * {@code netdev_tx_completed_queue}: BQL accounting on TX completion; may clear the stack stop bit and wake the queue.
     *
     * @param packets frames completed by this call
     * @param bytes their bytes, as they were passed to {@link #sent}
     * @param nowPicos the current virtual time in picoseconds
     */
    void completed(int packets, int bytes, long nowPicos);

    /**
     * {@code netdev_tx_reset_queue}: clears the stack stop bit and resets the limits.
     *
     * @param nowPicos the current virtual time in picoseconds
     */
    void reset(long nowPicos);

    /** {@code netif_tx_stop_queue}: the driver stops the queue (ring nearly full). */
    void stopByDriver();

    /** {@code netif_tx_wake_queue}: the driver wakes the queue; the listener runs if no stop bit remains. */
    void wakeByDriver();

    /** @return {@code true} if the driver's stop bit is set ({@code netif_tx_queue_stopped}). */
    boolean driverStopped();

    /** @return {@code true} if the stack's (BQL) stop bit is set. */
    boolean stackStopped();

    /** @return {@code true} if either bit is set: the qdisc must not hand over packets ({@code netif_xmit_frozen_or_stopped}). */
    boolean stopped();

    /** @return the queue's limits, or {@code null} when BQL is off for this queue. */
    QueueLimits limits();

    /** @return how many times the queue was stopped by BQL (a counter). */
    long stackStops();

    /** @return how many times the queue was stopped by the driver (a counter). */
    long driverStops();

    /**
     * Replaces the listener: a hot swap hands the queue, with its stop bits and BQL state, to the driver's new instance.
     * The default refuses, and the new instance then starts a queue of its own.
     *
     * @param listener called when the queue is woken from now on; must not be {@code null}
     * @throws UnsupportedOperationException if this queue cannot change its listener
     * @since 1.1
     */
    default void listener(Listener listener) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot change its listener");
    }

    /** Receives the wake-up of a queue (the qdisc re-run). */
    @ConsumerType
    @FunctionalInterface
    interface Listener {
        /** Called on the engine thread when the last stop bit clears. */
        void woken();
    }
}

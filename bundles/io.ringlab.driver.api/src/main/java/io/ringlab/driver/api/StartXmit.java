package io.ringlab.driver.api;

import org.osgi.annotation.versioning.ConsumerType;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.sim.api.Core;

/**
 * The driver's side of a qdisc run ({@link QdiscRun}): what {@code sch_direct_xmit} asks of the device, and nothing of
 * the loop itself. A driver keeps here only its own rules: when its queue is stopped, how an skb goes into its ring and
 * when that stops the queue, and how the NIC is told ({@code net_device_ops.ndo_start_xmit}, {@code netif_stop_queue},
 * the doorbell). Its completion path wakes the queue and calls {@link QdiscRun#schedule()}.
 * <p>
 * Called on the engine thread only, on the core the run executes on (the sending CPU, which need not be the device's
 * core); every cost goes to that core. Implementations must not allocate: the run calls them once per skb.
 *
 * @since 1.4
 */
@ConsumerType
public interface StartXmit {

    /** {@code NETDEV_TX_OK} ({@code include/linux/netdevice.h}): the driver took the skb. */
    int NETDEV_TX_OK = 0x00;

    /**
     * {@code NETDEV_TX_BUSY}: the driver did not take the skb (its ring had no room though the queue was awake); the run
     * requeues it ({@code dev_requeue_skb}) and ends. A driver that returns it should have stopped its queue.
     */
    int NETDEV_TX_BUSY = 0x10;

    /**
     * {@code netif_xmit_frozen_or_stopped}: asked before each skb is taken from the qdisc ({@code dequeue_skb} of a
     * single-queue device, {@code TCQ_F_ONETXQUEUE}); while it answers {@code true} the run takes nothing and ends. A
     * driver whose model checks its ring's room before each skb may stop its queue here and answer {@code true}.
     *
     * @return {@code true} while the stack must not hand the driver an skb (the driver's or BQL's stop bit)
     */
    boolean stopped();

    /**
     * {@code ndo_start_xmit}: posts one skb (a GSO skb arrives already split, one segment per call) and stops the queue
     * when the ring is too full for the next one; charges its cycles to {@code core}.
     *
     * @param core the core the run executes on
     * @param skb the skb, now the driver's unless it returns {@link #NETDEV_TX_BUSY}
     * @return {@link #NETDEV_TX_OK}, or {@link #NETDEV_TX_BUSY} to have the skb requeued
     */
    int startXmit(Core core, Buffer skb);

    /**
     * The doorbell, once at the end of a run that handed over at least one skb (the last skb of the batch, whose
     * {@code xmit_more} is clear): typically the wire's {@code ready()}.
     *
     * @param core the core the run executed on
     */
    void kick(Core core);
}

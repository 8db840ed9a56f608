package io.ringlab.driver.api;

import org.osgi.annotation.versioning.ProviderType;

/**
 * The qdisc run of one TX queue, {@code net/sched/sch_generic.c} (read at torvalds/linux 021a17ed796b, a v4.19-era
 * copy: {@code __qdisc_run} with {@code quota = dev_tx_weight}, {@code quota -= packets}, {@code qdisc_restart},
 * {@code dequeue_skb}, {@code sch_direct_xmit}, {@code dev_requeue_skb}) and {@code net/core/dev.c} (read in a v5.x copy:
 * {@code __netif_reschedule}, {@code __netif_schedule}, {@code netif_schedule_queue}, {@code netif_tx_wake_queue}; the
 * inline {@code __qdisc_run} of {@code __dev_xmit_skb} and {@code net_tx_action} → {@code qdisc_run} likewise); made by
 * {@link DriverSupport#qdiscRun}. The driver supplies only {@link StartXmit}.
 * <ul>
 * <li>{@link #ready()} is the qdisc's signal: {@code __dev_queue_xmit} → {@code __dev_xmit_skb} runs {@code __qdisc_run}
 * at once on the sending CPU, here the core whose task signals (a forwarded packet's NAPI poll, a process's system
 * call); outside any task (a source that models no CPU) it is process-context transmit work ({@code Core.TX}) on the
 * device's core. One run at a time ({@code qdisc_run_begin}): a signal during a run is that run's to take.</li>
 * <li>A run ({@code __qdisc_run}) loops {@code qdisc_restart} while {@link StartXmit#stopped()} is {@code false}: it
 * takes the next skb ({@code dequeue_skb}: a requeued one or held segments first, else the qdisc's next packet, a GSO
 * skb split in software by {@link TxSegments}) and hands it to {@link StartXmit#startXmit} ({@code sch_direct_xmit});
 * {@code NETDEV_TX_BUSY} requeues it ({@code dev_requeue_skb}) and ends the run. The quota,
 * {@link DriverSupport#DEV_TX_WEIGHT} skbs taken from the qdisc (segments of one GSO skb count once, as one
 * {@code qdisc_restart}), ends the run with {@code __netif_schedule}; a run that handed over anything rings the
 * doorbell ({@link StartXmit#kick}).</li>
 * <li>{@link #schedule()} is {@code __netif_schedule} → {@code __netif_reschedule}: {@code NET_TX_SOFTIRQ} raised on
 * the CPU that calls it, i.e. softirq work ({@code Core.SOFTIRQ}) on the core whose task calls (the device's core
 * outside any task), which runs {@code net_tx_action} → {@code qdisc_run}: another run. The run calls it when its
 * quota is spent; a driver calls it when it wakes its queue ({@code netif_tx_wake_queue}), as BQL's
 * {@code netdev_tx_completed_queue} does ({@code netif_schedule_queue}). Not queued twice on one core
 * ({@code __QDISC_STATE_SCHED}).</li>
 * </ul>
 * Not modelled: {@code need_resched()} ending a run early, qdisc bulk dequeue ({@code try_bulk_dequeue_skb}), the
 * {@code TCQ_F_CAN_BYPASS} direct transmit of an empty qdisc (the packet goes through the qdisc, the same order), the
 * {@code completion_queue} and {@code __kfree_skb_flush} of {@code net_tx_action}, {@code busylock}.
 * <p>
 * Not thread-safe: engine thread only. Allocates nothing per packet.
 *
 * @since 1.4
 */
@ProviderType
public interface QdiscRun {

    /** {@code __dev_xmit_skb}: the qdisc has a packet; runs the qdisc now on the calling core, or queues it (see above). */
    void ready();

    /** {@code __netif_schedule}: another run as {@code NET_TX_SOFTIRQ} work on the calling core (see above). */
    void schedule();

    /** @return {@code true} while a run executes ({@code qdisc_is_running}) */
    boolean running();

    /** @return the skbs the runs hand over: held segments of a GSO skb and a requeued skb are the driver's to count */
    TxSegments segments();

    /** @return runs that ended because their quota was spent ({@code __netif_schedule} from {@code __qdisc_run}) */
    long quotaReschedules();

    /** @return skbs requeued because the driver returned {@link StartXmit#NETDEV_TX_BUSY} ({@code tc -s} "requeues") */
    long requeues();

    /**
     * Takes over a predecessor's run in a hot swap ({@code io.ringlab.sim.api.Handover#importState}): its skbs not yet
     * handed over (the predecessor's {@link #segments()} become this run's) and its pending runs, each in its place in
     * its core's queue when the swap commits.
     *
     * @param predecessor the old instance's run, made by the same {@link DriverSupport}; not {@code null}
     * @throws IllegalArgumentException if {@code predecessor} was not made by the same support
     */
    void takeOver(QdiscRun predecessor);
}

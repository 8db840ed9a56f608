package io.ringlab.engine.kernel;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.driver.api.DriverSupport;
import io.ringlab.driver.api.QdiscRun;
import io.ringlab.driver.api.StartXmit;
import io.ringlab.driver.api.TxSegments;
import io.ringlab.sim.api.Core;
import io.ringlab.sim.api.CpuTask;
import io.ringlab.sim.api.ElementContext;

/**
 * {@link QdiscRun}: {@code __qdisc_run} ({@code net/sched/sch_generic.c}: {@code qdisc_restart}, {@code dequeue_skb},
 * {@code sch_direct_xmit}, {@code dev_requeue_skb}) and its scheduling ({@code net/core/dev.c}: {@code __dev_xmit_skb},
 * {@code __netif_schedule}, {@code __netif_reschedule}, {@code net_tx_action}), once for every driver. The run
 * executes on the core whose task calls {@link #ready()}; its quota's end and the driver's wake-ups raise
 * {@code NET_TX_SOFTIRQ} on the calling core. Allocation-free after construction. Not thread-safe.
 */
public final class QdiscRunImpl implements QdiscRun {
    private final ElementContext ctx;
    private final Core device;
    private final StartXmit driver;
    private final Simulation sim;
    private TxSegments segments;
    private boolean running;
    private long quotaReschedules, requeues;
    /** Process-context transmit ({@code dev_queue_xmit} from a source outside any task), on the device's core. */
    final CpuTask processTask = new Task();
    /** {@code net_tx_action} → {@code qdisc_run}: the {@code NET_TX_SOFTIRQ} work; a task of its own, apart from TX. */
    final CpuTask softirqTask = new Task();

    /**
     * @param ctx the driver's context (its index is the owner of every charge; its cores are where runs are queued)
     * @param core the device's core
     * @param segments what the runs take skbs from
     * @param driver the driver's {@code ndo_start_xmit} side
     */
    public QdiscRunImpl(ElementContext ctx, int core, TxSegments segments, StartXmit driver) {
        if (segments == null || driver == null) {
            throw new IllegalArgumentException("qdiscRun: segments=" + segments + ", driver=" + driver + "; neither may be null");
        }
        this.ctx = ctx;
        this.device = ctx.core(core);
        this.segments = segments;
        this.driver = driver;
        this.sim = ctx instanceof ElementContextImpl c ? c.sim : null;
    }

    @Override
    public void ready() {
        if (running || driver.stopped()) {
            return; // the run in progress takes it (qdisc_run_begin fails); a stopped queue is run by its wake-up
        }
        Core caller = callingCore();
        if (caller != null) {
            run(caller); // __dev_xmit_skb: __qdisc_run on this CPU, inside the task that sends
        } else {
            device.submit(Core.TX, processTask); // not queued twice: submit refuses a task that waits already
        }
    }

    @Override
    public void schedule() {
        Core caller = callingCore();
        (caller != null ? caller : device).submit(Core.SOFTIRQ, softirqTask); // __netif_reschedule: this CPU's softirq
    }

    /** @return the core whose task is running (the device's own first), or {@code null} outside any task */
    private Core callingCore() {
        if (device.running()) {
            return device;
        }
        for (int i = 0, n = ctx.cores(); i < n; i++) {
            Core c = ctx.core(i);
            if (c.running()) {
                return c;
            }
        }
        return null;
    }

    /** {@code __qdisc_run} on core {@code c}. */
    private void run(Core c) {
        if (running) {
            return;
        }
        running = true;
        boolean handed = false;
        int quota = DriverSupport.DEV_TX_WEIGHT;
        try {
            while (!driver.stopped()) { // dequeue_skb: nothing while the queue is stopped (TCQ_F_ONETXQUEUE)
                if (!segments.holding() && quota-- == 0) {
                    quotaReschedules++;
                    c.submit(Core.SOFTIRQ, softirqTask); // quota spent: __netif_schedule, NET_TX_SOFTIRQ on this CPU
                    break;
                }
                Buffer skb = segments.next(); // a requeued skb or held segments first, else the qdisc's next packet
                if (skb == null) {
                    break;
                }
                if (driver.startXmit(c, skb) != StartXmit.NETDEV_TX_OK) { // sch_direct_xmit → dev_hard_start_xmit
                    segments.requeue(skb); // NETDEV_TX_BUSY: dev_requeue_skb; the driver's wake-up runs it again
                    requeues++;
                    break;
                }
                handed = true;
            }
        } finally {
            running = false;
        }
        if (handed) {
            driver.kick(c);
        }
    }

    /** A run as a task of a core's queue; two instances, so a process-context run and a softirq one are told apart. */
    private final class Task implements CpuTask {
        @Override
        public void run(Core c) {
            QdiscRunImpl.this.run(c);
        }
    }

    @Override public boolean running() { return running; }
    @Override public TxSegments segments() { return segments; }
    @Override public long quotaReschedules() { return quotaReschedules; }
    @Override public long requeues() { return requeues; }

    @Override
    public void takeOver(QdiscRun predecessor) {
        if (!(predecessor instanceof QdiscRunImpl p) || p.sim != sim) {
            throw new IllegalArgumentException("takeOver: predecessor=" + predecessor + " is not a qdisc run of this run");
        }
        segments = p.segments;
        quotaReschedules = p.quotaReschedules;
        requeues = p.requeues;
        takeOver(p.processTask, processTask, Core.TX);
        takeOver(p.softirqTask, softirqTask, Core.SOFTIRQ);
    }

    /** A pending run of the predecessor's becomes this one's, in its place on every core it waits on. */
    private void takeOver(CpuTask old, CpuTask neu, int workClass) {
        if (sim != null && sim.staging != null) {
            sim.staging.requeue(old, neu, null, workClass);
            return;
        }
        for (int i = 0, n = ctx.cores(); i < n; i++) {
            Core c = ctx.core(i);
            if (c.queued(old)) {
                c.submit(workClass, neu);
            }
        }
    }
}

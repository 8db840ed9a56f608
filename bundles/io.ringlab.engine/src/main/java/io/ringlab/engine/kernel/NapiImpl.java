package io.ringlab.engine.kernel;

import io.ringlab.driver.api.Napi;
import io.ringlab.driver.api.NapiPoller;
import io.ringlab.sim.api.Core;
import io.ringlab.sim.api.CpuTask;

/**
 * A NAPI context ({@code net/core/dev.c}: {@code napi_schedule}, {@code net_rx_action}, {@code napi_complete_done}).
 * Scheduling queues a {@code net_rx_action} as softirq work on its core. It polls the driver (each poll charges the
 * entry cost and passes the weight as budget) while the context uses its whole weight and the softirq's
 * {@code netdev_budget} of 300 packets lasts; a context with work left is queued again behind whatever else waits on the
 * core (the softirq raised again), otherwise it completes. At the end every pool of the run flushes what it deferred on
 * that core ({@link io.ringlab.buffer.api.BufferPool#flush}, {@code __kfree_skb_flush}).
 * <p>
 * Each poll is one run of the task: after a full poll with budget left, the same {@code net_rx_action} continues in the
 * next run, which the core dispatches when the poll's work ends, after the events that fell due meanwhile. So the
 * devices keep working between polls (a wire takes frames from a TX ring, frames arrive in an RX ring) as they work
 * alongside the CPU, instead of waiting for the whole softirq: a TX ring smaller than one softirq's 300 packets does not
 * fill just because the wire could not run. Hard interrupts may run between polls, as they interrupt a softirq.
 * <p>
 * Simplifications, stated: each context runs its own {@code net_rx_action} (the kernel's polls every scheduled context
 * of the core in turn under one budget: the same with one device per core); the 2-jiffy time limit is not modelled. Not
 * thread-safe.
 */
public final class NapiImpl implements Napi, CpuTask {
    /** {@code netdev_budget} ({@code net/core/dev.c}): packets one {@code net_rx_action} polls before it yields. */
    static final int NETDEV_BUDGET = 300;
    private final Core core;
    private final int element;
    private final int weight;
    private final long pollCycles;
    private final NapiPoller poller;
    private final Simulation sim;
    private boolean scheduled;
    /** Packets the current {@code net_rx_action} may still poll; {@code NETDEV_BUDGET} when none is in progress. */
    private int budget = NETDEV_BUDGET;
    private long polls;
    private long fullPolls;

    /**
     * @param core the core the poll runs on
     * @param element the driver element's index, for cost accounting
     * @param weight the budget per poll
     * @param pollCycles cycles per poll for softirq entry and exit
     * @param poller the driver's poll function
     */
    public NapiImpl(Core core, int element, int weight, long pollCycles, NapiPoller poller) {
        this(core, element, weight, pollCycles, poller, null);
    }

    /**
     * @param core the core the poll runs on
     * @param element the driver element's index, for cost accounting
     * @param weight the budget per poll
     * @param pollCycles cycles per poll for softirq entry and exit
     * @param poller the driver's poll function
     * @param sim the run, whose pools are flushed at the end of each poll ({@code __kfree_skb_flush}); {@code null} for none
     */
    NapiImpl(Core core, int element, int weight, long pollCycles, NapiPoller poller, Simulation sim) {
        if (weight < 1 || weight > 64) {
            throw new IllegalArgumentException("napi weight=" + weight + ", allowed 1 to 64 (NAPI_POLL_WEIGHT is 64)");
        }
        if (pollCycles < 0) {
            throw new IllegalArgumentException("napi pollCycles=" + pollCycles + ", must be at least 0");
        }
        this.core = core;
        this.element = element;
        this.weight = weight;
        this.pollCycles = pollCycles;
        this.poller = poller;
        this.sim = sim;
    }

    /**
     * {@code netif_napi_add} for a driver element of a run: the context's core, its element index for accounting, and
     * the run's pools flushed after each poll.
     *
     * @param context the driver's element context
     * @param core the core the poll runs on
     * @param weight the budget per poll
     * @param pollCycles cycles per poll for softirq entry and exit
     * @param poller the driver's poll function
     * @return the NAPI context
     */
    public static NapiImpl of(io.ringlab.sim.api.ElementContext context, int core, int weight, long pollCycles,
            NapiPoller poller) {
        Simulation sim = context instanceof ElementContextImpl c ? c.sim : null;
        return new NapiImpl(context.core(core), context.index(), weight, pollCycles, poller, sim);
    }

    @Override
    public void schedule() {
        if (!scheduled) {
            scheduled = true;
            core.submit(Core.SOFTIRQ, this);
        }
    }

    /**
     * One poll of a {@code net_rx_action}. A full poll (the whole weight used) queues the next one; while the softirq's
     * budget ({@code netdev_budget}, 300 packets) lasts it belongs to the same {@code net_rx_action}. When the context
     * completes or the budget is spent, the {@code net_rx_action} ends: every pool flushes what it deferred on this core
     * ({@code __kfree_skb_flush}); a context with work left then polls in the next softirq (time_squeeze).
     */
    @Override
    public void run(Core c) {
        int previous = sim != null ? sim.current : -1;
        if (sim != null) {
            sim.current = element; // the polls' work (allocator flushes included) belongs to the driver
        }
        try {
            polls++;
            c.charge(element, pollCycles, 0);
            int done = poller.poll(weight);
            budget -= done;
            if (done < weight) {
                scheduled = false; // napi_complete_done
            } else {
                fullPolls++;
                c.submit(Core.SOFTIRQ, this); // the next poll: this net_rx_action's, or the next one's (time_squeeze)
                if (budget > 0) {
                    return; // the same net_rx_action goes on
                }
            }
            budget = NETDEV_BUDGET;
            if (sim != null) {
                sim.softirqEnd(c.index());
            }
        } finally {
            if (sim != null) {
                sim.current = previous;
            }
        }
    }

    /**
     * Takes over the predecessor's counts and budget; a poll it had scheduled takes its place in the core's queue when the
     * swap commits (on another core, or outside a swap, it is queued at the end).
     */
    @Override
    public void takeOver(Napi predecessor) {
        if (!(predecessor instanceof NapiImpl p) || p.sim != sim) {
            throw new IllegalArgumentException("takeOver: predecessor=" + predecessor + " is not a NAPI context of this run");
        }
        boolean sameCore = p.core.index() == core.index();
        polls = p.polls;
        fullPolls = p.fullPolls;
        budget = sameCore ? p.budget : NETDEV_BUDGET; // a net_rx_action in progress belongs to its core
        if (p.scheduled && !scheduled) {
            scheduled = true;
            if (sameCore && sim != null && sim.staging != null) {
                sim.staging.requeue(p, this, core, Core.SOFTIRQ);
            } else {
                core.submit(Core.SOFTIRQ, this);
            }
        }
    }

    @Override public boolean scheduled() { return scheduled; }
    @Override public int weight() { return weight; }
    @Override public long polls() { return polls; }
    @Override public long fullPolls() { return fullPolls; }
}

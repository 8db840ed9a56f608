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
     * One {@code net_rx_action}: polls while the context uses its whole weight and the softirq's budget
     * ({@code netdev_budget}, 300 packets) lasts, then lets every pool flush what it deferred on this core
     * ({@code __kfree_skb_flush}) and, if the context still has work, raises the softirq again (it is queued behind what
     * waits on the core).
     */
    @Override
    public void run(Core c) {
        int previous = sim != null ? sim.current : -1;
        if (sim != null) {
            sim.current = element; // the polls' work (allocator flushes included) belongs to the driver
        }
        try {
            int budget = NETDEV_BUDGET;
            while (true) {
                polls++;
                c.charge(element, pollCycles, 0);
                int done = poller.poll(weight);
                budget -= done;
                if (done < weight) {
                    scheduled = false; // napi_complete_done
                    break;
                }
                fullPolls++;
                if (budget <= 0) {
                    c.submit(Core.SOFTIRQ, this); // time_squeeze: the rest in the next NET_RX_SOFTIRQ
                    break;
                }
            }
            if (sim != null) {
                sim.softirqEnd(c.index());
            }
        } finally {
            if (sim != null) {
                sim.current = previous;
            }
        }
    }

    @Override public boolean scheduled() { return scheduled; }
    @Override public int weight() { return weight; }
    @Override public long polls() { return polls; }
    @Override public long fullPolls() { return fullPolls; }
}

package io.ringlab.engine.kernel;

import io.ringlab.driver.api.Napi;
import io.ringlab.driver.api.NapiPoller;
import io.ringlab.sim.api.Core;
import io.ringlab.sim.api.CpuTask;

/**
 * A NAPI context ({@code net/core/dev.c}: {@code napi_schedule}, {@code net_rx_action}, {@code napi_complete_done}).
 * Scheduling queues the poll as softirq work on its core. Each poll charges the softirq entry cost, calls the driver
 * with the weight as budget, then lets every pool of the run flush what it deferred on that core
 * ({@link io.ringlab.buffer.api.BufferPool#flush}, {@code __kfree_skb_flush} at the end of {@code net_rx_action}); a poll that used its whole budget is queued again behind whatever else waits on the core (as
 * {@code net_rx_action} moves a busy NAPI to the tail of its poll list), otherwise the context completes.
 * <p>
 * Simplification, stated: {@code net_rx_action}'s overall budget ({@code netdev_budget}, 300 packets) and its 2-jiffy time
 * limit, after which the rest moves to ksoftirqd, are not modelled; with one device per core they only change when other
 * work gets in between polls. Not thread-safe.
 */
public final class NapiImpl implements Napi, CpuTask {
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

    @Override
    public void run(Core c) {
        polls++;
        c.charge(element, pollCycles, 0);
        int done;
        if (sim != null) {
            int previous = sim.current;
            sim.current = element; // the poll's work (allocator flushes included) belongs to the driver
            try {
                done = poller.poll(weight);
                sim.softirqEnd(c.index()); // net_rx_action's __kfree_skb_flush: pools give deferred frees back
            } finally {
                sim.current = previous;
            }
        } else {
            done = poller.poll(weight);
        }
        if (done >= weight) {
            fullPolls++;
            c.submit(Core.SOFTIRQ, this);
        } else {
            scheduled = false;
        }
    }

    @Override public boolean scheduled() { return scheduled; }
    @Override public int weight() { return weight; }
    @Override public long polls() { return polls; }
    @Override public long fullPolls() { return fullPolls; }
}

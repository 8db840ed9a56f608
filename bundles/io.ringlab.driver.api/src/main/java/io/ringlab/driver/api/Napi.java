package io.ringlab.driver.api;

import org.osgi.annotation.versioning.ProviderType;

/**
 * A NAPI context ({@code struct napi_struct}) bound to one simulated core. {@link #schedule()} is
 * {@code napi_schedule}: unless already scheduled, it queues the poll as softirq work on the core; the engine then calls
 * the poller with the weight as budget, and polls again (as {@code net_rx_action} does) while the poller uses its whole
 * budget. When the poller returns less than the budget, the context completes ({@code napi_complete_done}) and the driver
 * re-enables its interrupt.
 * <p>
 * Not thread-safe.
 */
@ProviderType
public interface Napi {

    /** {@code napi_schedule}: queues a poll unless one is scheduled or running. */
    void schedule();

    /** @return {@code true} between {@link #schedule()} and completion ({@code NAPI_STATE_SCHED}). */
    boolean scheduled();

    /** @return the NAPI weight, the budget of one poll. */
    int weight();

    /** @return polls run so far. */
    long polls();

    /** @return polls that used their whole budget (the driver had more work). */
    long fullPolls();
}

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

    /**
     * Takes over a predecessor's context in a hot swap ({@code io.ringlab.sim.api.Handover#importState}): its poll
     * counts, the budget left of a {@code net_rx_action} in progress, and its scheduled state: a poll waiting for the
     * predecessor waits for this context instead, at the same place in its core's queue (on another core, at the end of
     * this one's). The predecessor's poll is cancelled when the swap commits.
     *
     * @param predecessor the old instance's context, made by the same {@link DriverSupport}; not {@code null}
     * @throws IllegalArgumentException if {@code predecessor} was not made by the same support
     * @since 1.3
     */
    void takeOver(Napi predecessor);
}

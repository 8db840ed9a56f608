package io.ringlab.sim.api;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * A work item for a simulated {@link Core}: a hard interrupt handler, a NAPI poll, a transmit path, application work.
 * It runs when the core becomes free and charges its cost with {@link Core#charge} as it goes.
 */
@ConsumerType
@FunctionalInterface
public interface CpuTask {
    /** @param core the core running the task. */
    void run(Core core);
}

package io.ringlab.sim.api;

import org.osgi.annotation.versioning.ConsumerType;

/** Called when a {@link Timer} fires, on the engine thread. */
@ConsumerType
@FunctionalInterface
public interface TimerCallback {
    /** @param nowPicos the virtual time in picoseconds, equal to the time the timer was armed for. */
    void fire(long nowPicos);
}

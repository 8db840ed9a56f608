package io.ringlab.sim.api;

import org.osgi.annotation.versioning.ProviderType;

/**
 * A reusable one-shot timer in virtual time. A timer is pending at most once: arming a pending timer moves it. Events at
 * the same picosecond fire in the order they were armed, which makes runs deterministic.
 * <p>
 * Arming and cancelling allocate nothing. Not thread-safe.
 */
@ProviderType
public interface Timer {

    /**
     * Arms the timer at an absolute time.
     *
     * @param picos virtual time in picoseconds, not before now
     * @throws IllegalArgumentException if {@code picos} is in the past
     */
    void at(long picos);

    /** @param delayPicos delay from now in picoseconds, at least 0. */
    void after(long delayPicos);

    /** Disarms the timer; no effect if it is idle. */
    void cancel();

    /** @return {@code true} while armed. */
    boolean pending();

    /** @return when the timer fires in picoseconds, or -1 when idle. */
    long whenPicos();
}

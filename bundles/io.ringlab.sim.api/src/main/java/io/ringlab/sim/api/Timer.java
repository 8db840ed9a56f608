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

    /**
     * Takes over a predecessor's timer in a hot swap ({@link Handover#importState}): when the predecessor is armed, this
     * timer is armed at its deadline and in its place among the events of that instant (re-arming with {@link #at} would
     * put it after every event armed for that instant before the swap); when it is idle, nothing changes. The predecessor
     * is cancelled when the swap commits.
     *
     * @param predecessor a timer of the old instance, from {@link ElementState#get}; not {@code null}
     * @throws IllegalArgumentException if {@code predecessor} is not a timer of this run
     * @since 1.3
     */
    void takeOver(Timer predecessor);
}

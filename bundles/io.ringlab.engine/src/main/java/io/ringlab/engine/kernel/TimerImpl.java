package io.ringlab.engine.kernel;

import io.ringlab.sim.api.Timer;
import io.ringlab.sim.api.TimerCallback;

/**
 * A timer: one reusable event record that sits in the {@link EventQueue} at most once. Allocated when an element creates
 * it, never per event. Not thread-safe: owned by one run's engine thread.
 */
final class TimerImpl implements Timer {
    final Simulation sim;
    final TimerCallback callback;
    /** {@link #owner} of the timers that control a run (a swap, a fork): not part of its state (see EventQueue.hash). */
    static final int CONTROL = -2;
    /**
     * Index of the element the timer belongs to, for fault attribution; -1 for the engine's own timers, {@link #CONTROL}
     * for a run's control timers.
     */
    final int owner;
    long when = -1;
    long seq;
    /** Position in the heap, or -1 when idle. */
    int heapIndex = -1;
    /**
     * The timer is firing: its callback runs while it is still at the head of the heap, where re-arming it moves it
     * down in one sift instead of a removal and an insertion (see {@link Simulation#advance}). To the callback and to
     * everyone else it is not pending.
     */
    boolean firing;

    TimerImpl(Simulation sim, TimerCallback callback, int owner) {
        this.sim = sim;
        this.callback = callback;
        this.owner = owner;
    }

    @Override
    public void at(long picos) {
        if (picos < sim.now) {
            throw new IllegalArgumentException("timer in the past: at=" + picos + "ps, now=" + sim.now + "ps");
        }
        sim.events.schedule(this, picos);
    }

    @Override
    public void after(long delayPicos) {
        if (delayPicos < 0) {
            throw new IllegalArgumentException("negative delay: delayPicos=" + delayPicos);
        }
        long at;
        try {
            at = Math.addExact(sim.now, delayPicos);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("delay too long: delayPicos=" + delayPicos + ", now=" + sim.now + "ps; cancel the"
                    + " timer instead of arming it for never");
        }
        sim.events.schedule(this, at);
    }

    @Override
    public void cancel() {
        if (heapIndex >= 0) {
            sim.events.remove(this);
        }
    }

    @Override
    public boolean pending() {
        return heapIndex >= 0 && !firing;
    }

    @Override
    public long whenPicos() {
        return pending() ? when : -1;
    }

    /** Arms this timer as the predecessor is armed: the same deadline and arming sequence, so the same place. */
    @Override
    public void takeOver(Timer predecessor) {
        if (!(predecessor instanceof TimerImpl p) || p.sim != sim) {
            throw new IllegalArgumentException("takeOver: predecessor=" + predecessor + " is not a timer of this run");
        }
        if (p.pending()) {
            sim.events.schedule(this, p.when, p.seq);
        }
    }
}

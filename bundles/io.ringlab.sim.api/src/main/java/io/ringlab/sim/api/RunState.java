package io.ringlab.sim.api;

/** The states of a {@link SimulationRun}. */
public enum RunState {
    /** Prepared, not started. */
    READY,
    /** The engine thread is processing events. */
    RUNNING,
    /** Paused between two events. */
    PAUSED,
    /** Reached its duration. */
    FINISHED,
    /** Stopped by {@link SimulationRun#stop()} before its duration. */
    STOPPED,
    /** Ended by an error (an element failed, a bundle went away). */
    FAILED
}

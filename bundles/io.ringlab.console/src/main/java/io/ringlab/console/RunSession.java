package io.ringlab.console;

import io.ringlab.sim.api.RunState;
import io.ringlab.sim.api.SimulationRun;
import io.ringlab.sim.api.dto.RunSnapshotDTO;

/**
 * One run as the console sees it, without widgets: the control calls, and the rule that says whether the UI must keep
 * polling snapshots. The engine applies control calls between events, so a state asked for is seen a little later: after
 * {@link #resume()} the run may still report PAUSED, after {@link #pause()} still RUNNING. The session remembers what it
 * asked for, so polling goes on until the engine has caught up, and stops when the run is paused or has ended (the
 * console then costs no CPU).
 * <p>
 * Not thread-safe: used on the UI thread only. The {@link SimulationRun} it wraps is thread-safe and runs on its own
 * engine thread.
 */
final class RunSession {
    private final SimulationRun run;
    private RunSnapshotDTO last;
    /** A resume or step was asked for and the engine has not shown its effect yet. */
    private boolean awaitingEngine;
    private long eventsAtRequest;
    private int pollsAwaiting;
    private int polls;
    /** Where the run's series stream to, or {@code null} when they do not. */
    private SeriesStream stream;

    /** Polls (at 10 Hz: 5 s) after which a request the engine never showed stops keeping the poll alive. */
    static final int MAX_POLLS_AWAITING = 50;

    /** @param run a prepared run (state READY); never {@code null} */
    RunSession(SimulationRun run) {
        this.run = run;
        this.last = run.snapshot();
    }

    /** Starts the engine thread; returns at once. */
    void start() {
        awaitingEngine = true;
        pollsAwaiting = 0;
        eventsAtRequest = -1;
        run.start();
    }

    /** Asks the engine to pause at its next safe point. */
    void pause() {
        run.pause();
    }

    /** Asks a paused run to go on. */
    void resume() {
        awaitingEngine = true;
        pollsAwaiting = 0;
        eventsAtRequest = -1;
        run.resume();
    }

    /** Asks a paused run to process one event. */
    void step() {
        awaitingEngine = true;
        pollsAwaiting = 0;
        eventsAtRequest = last.events;
        run.step();
    }

    /** Asks the run to end; it ends with a STOPPED result at its next safe point. */
    void stop() {
        run.stop();
    }

    /**
     * Reads the latest snapshot. Called by the UI's timer.
     *
     * @return {@code true} if the UI should poll again: the run is running, or has not yet shown the effect of a resume,
     *         start or step
     */
    boolean poll() {
        polls++;
        last = run.snapshot();
        RunState s = run.state();
        if (ended(s)) {
            awaitingEngine = false;
            return false;
        }
        if (awaitingEngine) {
            boolean seen = eventsAtRequest < 0 ? s == RunState.RUNNING : last.events != eventsAtRequest;
            if (seen || ++pollsAwaiting >= MAX_POLLS_AWAITING) {
                awaitingEngine = false;
            }
        }
        return s != RunState.PAUSED || awaitingEngine;
    }

    /** @return the snapshot read by the last poll (or at creation); never {@code null}. */
    RunSnapshotDTO last() {
        return last;
    }

    /** @return the run's state now. */
    RunState state() {
        return run.state();
    }

    /** @return how many times {@link #poll()} ran. */
    int polls() {
        return polls;
    }

    /** @return the stream of the run's series to disk, or {@code null} when they are not streamed. */
    SeriesStream stream() {
        return stream;
    }

    /** @param stream the stream of the run's series to disk; may be {@code null} */
    void stream(SeriesStream stream) {
        this.stream = stream;
    }

    /** @return the wrapped run. */
    SimulationRun run() {
        return run;
    }

    static boolean ended(RunState s) {
        return s == RunState.FINISHED || s == RunState.STOPPED || s == RunState.FAILED;
    }
}

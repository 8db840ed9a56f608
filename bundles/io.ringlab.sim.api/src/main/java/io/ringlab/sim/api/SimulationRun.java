package io.ringlab.sim.api;

import java.util.concurrent.TimeUnit;

import org.osgi.annotation.versioning.ProviderType;

import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.RunSnapshotDTO;

/**
 * One run of a pipeline, and its control. The simulation itself runs on one engine thread that {@link #start()} creates;
 * control calls come from any thread and are queued to the engine thread, which applies them between events (the safe
 * point).
 * <p>
 * Thread-safe.
 */
@ProviderType
public interface SimulationRun {

    /** @return the run's state now. */
    RunState state();

    /** Starts the engine thread; the run proceeds until its duration, {@link #stop()} or a failure. Idempotent. */
    void start();

    /**
     * Runs to the end and returns the result (the headless runner uses this). The engine runs on its own thread and the
     * caller waits, so that the per-event watchdog can end a run whose element never returns.
     *
     * @return the result; never {@code null}
     */
    RunResultDTO run();

    /** Pauses between two events. Called before {@link #start()}, the run starts paused. */
    void pause();

    /** Resumes a paused run. */
    void resume();

    /** While paused: processes the next event, then stays paused. Ignored unless paused. */
    void step();

    /**
     * Ends the run at the next safe point; the result says it was stopped and still checks the invariants. A run that was
     * never started ends at once, on the calling thread, with a STOPPED result.
     */
    void stop();

    /**
     * @return completes with the result when the run has ended (finished, stopped or failed), on the engine thread; never
     *         completes exceptionally
     */
    java.util.concurrent.CompletionStage<RunResultDTO> completion();

    /** Stops the run if it has not ended and releases it; the same as {@link #stop()} for a run that has not started. */
    void close();

    /**
     * Waits for the run to end.
     *
     * @param timeout the longest wait
     * @param unit the timeout's unit
     * @return the result, or {@code null} if the wait timed out
     * @throws InterruptedException if interrupted while waiting
     */
    RunResultDTO await(long timeout, TimeUnit unit) throws InterruptedException;

    /**
     * @return the latest published snapshot (virtual time, counters, series so far), published at a wall-clock rate while
     *         running; never {@code null}
     */
    RunSnapshotDTO snapshot();

    /**
     * Ends the run with an error from outside (a bundle the run uses went away). Applied at the next safe point.
     *
     * @param reason what happened, naming the bundle
     */
    void abort(String reason);

    /**
     * Replaces the implementation behind an element at the next safe point (hot swap, {@link Handover}): the run finishes
     * the current instant of virtual time and swaps before the next event, so that the swap is recorded with a time
     * {@code AT} at which {@code --swap AT:ELEMENT=TYPE@VERSION} replays it exactly. A run that has not started applies it
     * at time 0; a run that has ended completes the stage with a swap that was not applied.
     *
     * @param element the element's name
     * @param type the element type id of the new implementation, or {@code null} for the element's own type
     * @param version the providing bundle's version, or {@code null} for the newest installed
     * @return completes on the engine thread with the swap's record ({@link io.ringlab.sim.api.dto.SwapDTO#applied} says
     *         whether the new implementation runs); never completes exceptionally
     * @since 1.3
     */
    java.util.concurrent.CompletionStage<io.ringlab.sim.api.dto.SwapDTO> swap(String element, String type, String version);

    /**
     * The metrics the run can report, known once it is prepared: every name that reports metrics (an element,
     * {@code pool:NAME}, {@code cpuN}, {@code l3}) to its metric names, including those that appear only once they have
     * a value (a histogram's percentiles, an element's CPU account). For checking names a user gave (a {@code --print},
     * an experiment's metrics) before the run starts.
     *
     * @return owner to metric names, sorted; never {@code null}
     * @since 1.4
     */
    java.util.Map<String, java.util.Set<String>> metricNames();

    /**
     * The series a run of this prepared pipeline will have: the sampled columns ({@code ELEMENT.METRIC}, without
     * {@code timeSeconds}), then the series of points ({@code SeriesDTO.points}). For checking names a user gave (a
     * {@code --plot-series}) before the run starts.
     *
     * @return the names in the result's order; never {@code null}; empty when the run cannot tell (a run in another
     *         process)
     * @since 1.4
     */
    java.util.List<String> seriesNames();
}

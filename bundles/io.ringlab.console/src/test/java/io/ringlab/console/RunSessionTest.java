package io.ringlab.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.RunState;
import io.ringlab.sim.api.SimulationRun;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.RunSnapshotDTO;

/** The polling rule against a scripted run whose engine applies requests only when the test says so. */
class RunSessionTest {
    /** A run whose state and snapshot the test sets, standing for the engine thread. */
    static final class ScriptedRun implements SimulationRun {
        RunState state = RunState.READY;
        long events;
        int starts, pauses, resumes, steps, stops;

        @Override
        public RunState state() {
            return state;
        }

        @Override
        public RunSnapshotDTO snapshot() {
            RunSnapshotDTO s = new RunSnapshotDTO();
            s.state = state;
            s.events = events;
            return s;
        }

        @Override
        public void start() {
            starts++;
        }

        @Override
        public void pause() {
            pauses++;
        }

        @Override
        public void resume() {
            resumes++;
        }

        @Override
        public void step() {
            steps++;
        }

        @Override
        public void stop() {
            stops++;
        }

        @Override
        public RunResultDTO run() {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletionStage<RunResultDTO> completion() {
            return new CompletableFuture<>();
        }

        @Override
        public void close() {
        }

        @Override
        public RunResultDTO await(long timeout, TimeUnit unit) {
            return null;
        }

        @Override
        public void abort(String reason) {
        }

        @Override
        public java.util.Map<String, java.util.Set<String>> metricNames() {
            return java.util.Map.of();
        }

        @Override
        public java.util.List<String> seriesNames() {
            return java.util.List.of();
        }

        @Override
        public java.util.concurrent.CompletionStage<io.ringlab.sim.api.dto.SwapDTO> swap(String element, String type,
                String version) {
            throw new UnsupportedOperationException();
        }
    }

    @Test
    void pollingGoesOnWhileRunningAndStopsOncePausedOrEnded() {
        ScriptedRun run = new ScriptedRun();
        RunSession s = new RunSession(run);
        s.start();
        assertEquals(1, run.starts);
        assertTrue(s.poll(), "the engine thread has not started yet: keep polling");
        run.state = RunState.RUNNING;
        assertTrue(s.poll());
        s.pause();
        assertTrue(s.poll(), "the engine has not reached its safe point yet");
        run.state = RunState.PAUSED;
        assertFalse(s.poll(), "paused: no more polling");
        run.state = RunState.FINISHED;
        assertFalse(s.poll());
        assertEquals(5, s.polls());
    }

    @Test
    void afterAResumePollingWaitsForTheEngineToShowIt() {
        ScriptedRun run = new ScriptedRun();
        RunSession s = new RunSession(run);
        run.state = RunState.PAUSED;
        s.resume();
        assertTrue(s.poll(), "still PAUSED until the engine wakes: keep polling");
        run.state = RunState.RUNNING;
        assertTrue(s.poll());
        run.state = RunState.PAUSED;
        assertFalse(s.poll());
    }

    @Test
    void afterAStepPollingWaitsForTheEventCountToMoveThenStops() {
        ScriptedRun run = new ScriptedRun();
        run.state = RunState.PAUSED;
        run.events = 10;
        RunSession s = new RunSession(run);
        s.step();
        assertTrue(s.poll());
        run.events = 11;
        assertFalse(s.poll());
        assertEquals(11, s.last().events);
    }

    @Test
    void aRequestTheEngineNeverShowsStopsKeepingThePollAliveAfterTheBound() {
        ScriptedRun run = new ScriptedRun();
        run.state = RunState.PAUSED;
        RunSession s = new RunSession(run);
        s.step();
        int polls = 0;
        while (s.poll()) {
            polls++;
        }
        assertEquals(RunSession.MAX_POLLS_AWAITING - 1, polls);
    }
}

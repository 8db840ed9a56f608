package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.RunState;
import io.ringlab.sim.api.dto.RunResultDTO;

/** Run control from another thread: pause, step, resume, stop, all applied at safe points between events. */
class RunControlTest {
    private static final String LONG = """
            duration = 3600s
            element src : source { rate = 1Gbit; size = 1518B }
            element q : pfifo
            element eth0 : netdev
            element wire : link { rate = 1Gbit; delay = 1ms }
            element sink : sink
            src -> q -> eth0 -> wire -> sink
            """;

    /** Waits until a condition holds; bounded so that a broken engine fails the test instead of hanging it. */
    private static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for: " + what);
            }
            Thread.onSpinWait();
        }
    }

    @Test
    void pauseStepResumeAndStopAreAppliedBetweenEvents() throws Exception {
        RunImpl run = Pipelines.build(LONG, 1);
        run.start();
        await(() -> run.state() == RunState.RUNNING, "running");
        run.pause();
        await(() -> run.state() == RunState.PAUSED, "paused");
        long events = run.snapshot().events;
        assertEquals(RunState.PAUSED, run.snapshot().state);
        run.step();
        await(() -> run.snapshot().events == events + 1, "one step");
        run.step();
        await(() -> run.snapshot().events == events + 2, "a second step");
        assertEquals(RunState.PAUSED, run.state());
        run.resume();
        await(() -> run.state() == RunState.RUNNING, "resumed");
        run.stop();
        RunResultDTO r = run.await(30, TimeUnit.SECONDS);
        assertNotNull(r);
        assertEquals("STOPPED", r.state);
        // the two steps were applied; after the resume the stop may come before any further event (a race by design)
        assertTrue(r.events >= events + 2, "events=" + r.events + ", paused at " + events);
        assertTrue(r.simulatedSeconds < 3600);
        assertTrue(r.invariants.packetConservation, r.invariants.violations.toString());
        assertTrue(r.invariants.bufferConservation, r.invariants.violations.toString());
        assertEquals(RunState.STOPPED, run.snapshot().state);
    }

    @Test
    void stoppingAPausedRunEndsIt() throws Exception {
        RunImpl run = Pipelines.build(LONG, 1);
        run.start();
        run.pause();
        await(() -> run.state() == RunState.PAUSED, "paused");
        run.stop();
        assertEquals("STOPPED", run.await(30, TimeUnit.SECONDS).state);
    }

    @Test
    void anAbortEndsTheRunAsFailedWithTheReason() throws Exception {
        RunImpl run = Pipelines.build(LONG, 1);
        run.start();
        run.abort("bundle x went away");
        RunResultDTO r = run.await(30, TimeUnit.SECONDS);
        assertEquals("FAILED", r.state);
        assertEquals("bundle x went away", r.error);
    }

    @Test
    void snapshotsArePublishedWhileRunning() throws Exception {
        io.ringlab.sim.api.dto.RunOptionsDTO o = new io.ringlab.sim.api.dto.RunOptionsDTO();
        o.snapshotIntervalMillis = 1;
        RunImpl run = new PipelineBuilder(new TestRegistry()).build(
                io.ringlab.pipeline.format.PipelineReader.read("t", LONG), o);
        run.start();
        await(() -> run.snapshot().events > 0 && run.snapshot().elements.containsKey("sink"), "a snapshot with data");
        double t1 = run.snapshot().simulatedSeconds;
        await(() -> run.snapshot().simulatedSeconds > t1, "a later snapshot");
        run.stop();
        run.await(30, TimeUnit.SECONDS);
    }
}

package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/** An element that throws ends its run with a report naming the element, never a raw stack trace or a hang. */
class FaultTest {

    @Test
    void anExceptionInAnElementFailsTheRunAndNamesTheElement() throws Exception {
        int[] n = {0};
        var thrower = InvariantTest.faulty("thrower", (ctx, b) -> {
            if (++n[0] == 5) {
                throw new IllegalStateException("ring corrupted: head=3");
            }
            ctx.deliver(0, b);
        });
        RunResultDTO r = Pipelines.build(new TestRegistry().with(thrower), """
                duration = 1ms
                element src : source { rate = 1Gbit; size = 1518B }
                element victim : thrower
                src -> victim
                """, 1).run();
        assertEquals("FAILED", r.state);
        assertTrue(r.error.startsWith("element victim (type thrower): threw java.lang.IllegalStateException: ring corrupted"),
                r.error);
        // the invariants are still checked and reported: the packet the element held when it threw is unaccounted
        assertEquals(5, r.invariants.generated);
        assertEquals(4, r.invariants.delivered);
    }

    @Test
    void failFromAnElementEndsTheRunWithItsMessage() throws Exception {
        var failer = InvariantTest.faulty("failer", (ctx, b) -> {
            ctx.deliver(0, b);
            ctx.fail("descriptor ring state=broken");
        });
        RunResultDTO r = Pipelines.build(new TestRegistry().with(failer), """
                duration = 1ms
                element src : source { rate = 1Gbit; size = 1518B }
                element f : failer
                src -> f
                """, 1).run();
        assertEquals("FAILED", r.state);
        assertEquals("element f (type failer): descriptor ring state=broken", r.error);
        assertTrue(r.invariants.packetConservation);
    }

    @Test
    void anElementStuckInALoopIsStoppedByTheWatchdogAndOtherRunsGoOn() throws Exception {
        boolean[] spin = {true};
        var looper = InvariantTest.faulty("looper", (ctx, b) -> {
            if (b.packetId() == 3) {
                while (spin[0]) {
                    Thread.onSpinWait(); // ignores interrupts, as a real endless loop would
                }
            }
            ctx.deliver(0, b);
        });
        try {
            RunOptionsDTO o = new RunOptionsDTO();
            o.seed = 1L;
            o.eventWatchdogMillis = 300;
            RunImpl stuck = new PipelineBuilder(new TestRegistry().with(looper)).build(PipelineReader.read("loop.pipeline", """
                    duration = 1ms
                    element src : source { rate = 1Gbit; size = 1518B }
                    element spinner : looper
                    src -> spinner
                    """), o);
            stuck.start();
            // another run in the same process meanwhile: unaffected
            RunResultDTO other = Pipelines.build(Pipelines.RANDOM, 3).run();
            assertEquals("FINISHED", other.state, other.error);

            RunResultDTO r = stuck.await(30, TimeUnit.SECONDS);
            assertNotNull(r, "the watchdog ended the stuck run");
            assertEquals("FAILED", r.state);
            assertTrue(r.error.startsWith("element spinner (type looper) has run one event for ")
                    && r.error.contains("of wall time without returning (an endless loop?) at io.ringlab.engine.kernel.")
                    && r.error.contains("stopped by the watchdog"), r.error);
            assertTrue(r.invariants.violations.get(0).startsWith("invariants not checked: the engine thread is stuck in element"
                    + " spinner"), r.invariants.violations.toString());
            assertEquals(io.ringlab.sim.api.RunState.FAILED, stuck.state());
            spin[0] = false; // the loop ends after all: the abandoned engine thread leaves without touching the result
            assertSame(r, stuck.await(1, TimeUnit.SECONDS));
        } finally {
            spin[0] = false;
        }
    }

    @Test
    void aDoubleFreeStopsTheRunAndNamesTheElement() throws Exception {
        int[] reason = {-1};
        var twice = InvariantTest.faulty("twice", (ctx, b) -> {
            if (reason[0] < 0) {
                reason[0] = ctx.dropReason("test");
            }
            ctx.deliver(0, b);
            ctx.drop(0, b, reason[0]);
        });
        RunResultDTO r = Pipelines.build(new TestRegistry().with(twice), """
                duration = 1ms
                element src : source { rate = 1Gbit; size = 1518B }
                element bad : twice
                src -> bad
                """, 1).run();
        assertEquals("FAILED", r.state);
        assertTrue(r.error.matches("element bad \\(type twice\\): freed buffer \\d+ of pool src.pool a second time \\(a double"
                + " free, refused; its last owner was bad\\)"), r.error);
        assertEquals(1L, r.invariants.doubleFreesByOwner.get("bad (pool src.pool)"), "stopped at the first");
        assertEquals(1, r.invariants.generated);
    }
}

package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

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
}

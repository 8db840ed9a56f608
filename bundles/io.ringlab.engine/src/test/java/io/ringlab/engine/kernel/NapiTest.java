package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.Core;

/** NAPI: one poll per schedule, re-polled while the budget is used up, completed when the driver has less to do. */
class NapiTest {
    private final Simulation sim = new Simulation(new TestRegistry(), new TestRegistry().profile("generic-x86-4ghz"), 1);

    @Test
    void aPollThatUsesItsBudgetIsQueuedAgainAndTheLastOneCompletes() {
        int[] ready = {150};
        List<long[]> polls = new ArrayList<>();
        Core core = sim.cores[0];
        NapiImpl[] napi = new NapiImpl[1];
        napi[0] = new NapiImpl(core, 0, 64, 400, budget -> {
            int n = Math.min(budget, ready[0]);
            ready[0] -= n;
            polls.add(new long[] {sim.now, n});
            core.charge(0, 40L * n, n);
            return n;
        });
        sim.addContext(new ElementContextImpl(sim, 0, "drv", "test", new io.ringlab.sim.api.dto.ElementDescriptorDTO(),
                null, 1));
        napi[0].schedule();
        napi[0].schedule(); // NAPI_STATE_SCHED already set: no second poll
        assertTrue(napi[0].scheduled());
        sim.advance(Long.MAX_VALUE, Long.MAX_VALUE);
        assertEquals(3, polls.size(), "64 + 64 + 22");
        assertEquals(64, polls.get(0)[1]);
        assertEquals(22, polls.get(2)[1]);
        assertEquals(3, napi[0].polls());
        assertEquals(2, napi[0].fullPolls());
        assertFalse(napi[0].scheduled(), "completed after a poll below the budget");
        // each poll starts when the previous ended: 400 cycles of entry + 40 per packet at 4 GHz
        long first = (400 + 40 * 64) * 250; // picoseconds
        assertEquals(100_000, polls.get(0)[0], "the entry cost (400 cycles, 100 ns) runs before the driver's poll");
        assertEquals(first, polls.get(1)[0] - polls.get(0)[0], "the next poll starts when this one's work ends");
        assertEquals(core.picosForCycles(3 * 400 + 40 * 150), core.busyPicos());
    }

    @Test
    void aWeightOutsideOneToSixtyFourIsRefused() {
        Core core = sim.cores[0];
        String m = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new NapiImpl(core, 0, 65, 0, b -> 0)).getMessage();
        assertEquals("napi weight=65, allowed 1 to 64 (NAPI_POLL_WEIGHT is 64)", m);
    }
}

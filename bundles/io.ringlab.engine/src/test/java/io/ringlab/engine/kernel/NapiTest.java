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
    void everyPoolIsFlushedOnThePollsCoreAfterEachPoll() {
        List<String> calls = new ArrayList<>();
        FixedPool fixed = new FixedPool(sim, "drv.rx", 4, 64);
        sim.pools.add(new io.ringlab.buffer.api.BufferPool() { // a pool that records its flushes
            @Override public String name() { return fixed.name(); }
            @Override public String kind() { return fixed.kind(); }
            @Override public int capacity() { return fixed.capacity(); }
            @Override public int available() { return fixed.available(); }
            @Override public int inUse() { return fixed.inUse(); }
            @Override public io.ringlab.buffer.api.Buffer alloc(int core, int owner) { return fixed.alloc(core, owner); }
            @Override
            public int allocBulk(int core, int owner, io.ringlab.buffer.api.Buffer[] dst, int offset, int count) {
                return fixed.allocBulk(core, owner, dst, offset, count);
            }
            @Override public void free(int core, io.ringlab.buffer.api.Buffer b) { fixed.free(core, b); }
            @Override
            public void freeBulk(int core, io.ringlab.buffer.api.Buffer[] src, int offset, int count) {
                fixed.freeBulk(core, src, offset, count);
            }
            @Override public void forEachInUse(io.ringlab.buffer.api.BufferVisitor v) { fixed.forEachInUse(v); }
            @Override public io.ringlab.buffer.api.dto.PoolStatsDTO stats() { return fixed.stats(); }
            @Override
            public void flush(int core) {
                calls.add("flush " + core + " at " + sim.now);
            }
        });
        ElementContextImpl ctx = new ElementContextImpl(sim, 0, "drv", "test",
                new io.ringlab.sim.api.dto.ElementDescriptorDTO(), null, 1);
        sim.addContext(ctx);
        int[] ready = {100};
        NapiImpl napi = NapiImpl.of(ctx, 0, 64, 0, budget -> {
            int n = Math.min(budget, ready[0]);
            ready[0] -= n;
            calls.add("poll " + n);
            sim.cores[0].charge(0, 4L * n, n);
            return n;
        });
        napi.schedule();
        sim.advance(Long.MAX_VALUE, Long.MAX_VALUE);
        // one net_rx_action polls until the context has less than its weight (64 + 36 < netdev_budget 300), then
        // __kfree_skb_flush, after the driver's work (4 cycles a packet at 4 GHz)
        assertEquals(List.of("poll 64", "poll 36", "flush 0 at 100000"), calls);
        calls.clear();
        ready[0] = 700;
        napi.schedule();
        sim.advance(Long.MAX_VALUE, Long.MAX_VALUE);
        // 5 full polls spend the budget of 300 (320); the softirq is raised again for the rest
        assertEquals(List.of("poll 64", "poll 64", "poll 64", "poll 64", "poll 64", "flush 0 at 420000", "poll 64",
                "poll 64", "poll 64", "poll 64", "poll 64", "flush 0 at 740000", "poll 60", "flush 0 at 800000"), calls);
    }

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

package io.ringlab.driver.mlx5;

import static io.ringlab.conformance.ModelTests.metric;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.dto.RunResultDTO;

import io.ringlab.conformance.ModelTests;

/**
 * Seed 002's drop test on the mlx5 model: 64-byte frames at 100 Gbit/s, one RX queue, every packet dropped in the poll.
 * The per-packet constant is fitted to the 12 Mpps baseline (allocBulk 8, no hint, kfree_skb); everything else must come
 * out of the skb cache and slab mechanism.
 */
class Mlx5Test {
    private static RunResultDTO run(String... sets) throws Exception {
        return ModelTests.runConserved(ModelTests.sample("mlx5-bulk-drop.pipeline", "20ms"), 1, sets);
    }

    @Test
    void theBaselineIsTheFittedTwelveMppsAndNicDropsAreNotCounted() throws Exception {
        RunResultDTO r = run();
        assertEquals(12.0, metric(r, "eth0", "rxMpps"), 0.12, "the fitted baseline");
        long generated = r.invariants.generated;
        double processed = metric(r, "eth0", "rxPackets");
        double nicDrops = metric(r, "eth0", "rxNoWqeDrops");
        assertEquals(processed, r.invariants.droppedByReason.get("early-drop"), 0.0);
        assertEquals(nicDrops, r.invariants.droppedByReason.get("rx-no-wqe"), 0.0);
        assertTrue(generated > 2.9e6 && generated < 3.0e6, "148.8 Mpps of 64-byte frames for 20 ms: " + generated);
        // kfree_skb of heads allocated a ring ago: their slab is no longer the CPU slab, so each free is a slow path
        assertEquals(processed, metric(r, "pool:eth0.rx", "slabSlowFrees"), 0.0);
        // a bulk of 8 per 8 skbs
        assertEquals(processed / 8, metric(r, "pool:eth0.rx", "slabBulkAllocCalls"), processed / 8 * 0.01 + 2);
    }

    @Test
    void theHintTurnsEightBulkCallsPerPollIntoOneAndSavesTheirCost() throws Exception {
        RunResultDTO off = run();
        RunResultDTO on = run("eth0.bulkHint=true");
        double callsOff = metric(off, "pool:eth0.rx", "slabBulkAllocCalls") / metric(off, "eth0", "rxPackets");
        double callsOn = metric(on, "pool:eth0.rx", "slabBulkAllocCalls") / metric(on, "eth0", "rxPackets");
        assertEquals(1.0 / 8, callsOff, 0.002);
        assertTrue(callsOn < 1.0 / 50, "about one bulk per poll of 64: " + callsOn);
        double nsOff = metric(off, "eth0", "nsPerPacket");
        double nsOn = metric(on, "eth0", "nsPerPacket");
        // what the model saves is the calls' cost: (1/8 - 1/64) calls per packet at 12 cycles (3 ns at 4 GHz) each
        double expected = (callsOff - callsOn) * 12 / 4.0;
        assertEquals(expected, nsOff - nsOn, 0.15, "saved " + (nsOff - nsOn) + " ns per packet");
        assertTrue(metric(on, "eth0", "rxMpps") > metric(off, "eth0", "rxMpps"));
    }

    @Test
    void withAWarmupThePoolsCountersCountTheWindowAndItsSlabLevelsAreTheEnds() throws Exception {
        RunResultDTO whole = run();
        io.ringlab.sim.api.dto.RunOptionsDTO o = ModelTests.options(1);
        o.warmupPicos = 10_000_000_000L; // half of the 20 ms
        RunResultDTO half = ModelTests.simulator().run(ModelTests.sample("mlx5-bulk-drop.pipeline", "20ms"), o);

        // one bulk call per 8 skbs of the window, not of the whole run
        double processed = metric(half, "eth0", "rxPackets");
        assertEquals(metric(whole, "eth0", "rxPackets") / 2, processed, processed * 0.01);
        assertEquals(processed / 8, metric(half, "pool:eth0.rx", "slabBulkAllocCalls"), processed / 8 * 0.01 + 2);
        assertEquals(processed, metric(half, "pool:eth0.rx", "slabSlowFrees"), 0.0);
        // levels are the end's, the same with or without a warm-up
        for (String level : new String[] {"slabObjectsPerSlab", "slabSlabs", "slabPartialSlabs", "napiCachedHeads",
            "allocBulk", "capacity", "inUse", "highWaterMark"}) {
            assertEquals(metric(whole, "pool:eth0.rx", level), metric(half, "pool:eth0.rx", level), level);
        }
    }

    @Test
    void napiConsumeSkbDefersTheFreesIntoBulksOfSixtyFour() throws Exception {
        RunResultDTO r = run("eth0.earlyDrop=napi_consume_skb");
        double processed = metric(r, "eth0", "rxPackets");
        assertEquals(processed, metric(r, "pool:eth0.rx", "napiDeferredFrees"), 0.0);
        assertEquals(processed / 64, metric(r, "pool:eth0.rx", "slabBulkFreeCalls"), 2, "one kmem_cache_free_bulk per 64");
        assertTrue(metric(r, "pool:eth0.rx", "slabSlowFrees") < processed / 8,
                "grouped by slab, the slow frees fall from one per packet to one per slab: "
                        + metric(r, "pool:eth0.rx", "slabSlowFrees"));
        assertTrue(metric(r, "eth0", "rxMpps") > 13, "bulk free is the v4.6 gain: " + metric(r, "eth0", "rxMpps"));
    }

    @Test
    void aHeadlineMayNameAPoolOrACore() throws Exception {
        String text = ModelTests.sample("mlx5-bulk-drop.pipeline", "2ms");
        RunResultDTO r = ModelTests.run(
                text.replace("headline = eth0.rxMpps", "headline = pool:eth0.rx.slabBulkAllocCalls"), 1);
        assertEquals(metric(r, "pool:eth0.rx", "slabBulkAllocCalls"), r.headline.value, 0.0);
        r = ModelTests.run(text.replace("headline = eth0.rxMpps", "headline = cpu0.l1dMisses"), 1);
        assertEquals(metric(r, "cpu0", "l1dMisses"), r.headline.value, 0.0);
        io.ringlab.sim.api.PipelineException e = org.junit.jupiter.api.Assertions.assertThrows(
                io.ringlab.sim.api.PipelineException.class, () -> ModelTests.simulator().prepare(
                        text.replace("headline = eth0.rxMpps", "headline = pool:eth1.rx.allocs"), ModelTests.options(1)));
        assertTrue(e.getMessage().contains("undeclared element 'eth1' (did you mean 'eth0'?) in the headline"), e.getMessage());
    }

    @Test
    void poolsOccupancyAndLiveCountersAreSampledOverTime() throws Exception {
        RunResultDTO r = run();
        java.util.List<String> columns = r.series.columns;
        int slow = columns.indexOf("pool:eth0.rx.slabSlowFrees");
        int inUse = columns.indexOf("pool:eth0.rx.inUse");
        int misses = columns.indexOf("cpu0.l1dMisses");
        assertTrue(slow > 0 && inUse > 0 && misses > 0, columns.toString());
        double[] first = r.series.rows.get(1);
        double[] last = r.series.rows.get(r.series.rows.size() - 1);
        assertTrue(last[slow] > first[slow], "slow frees grow over the run");
        assertEquals(1024, last[inUse], 0.0, "the ring's skbs");
        assertTrue(last[slow] <= metric(r, "pool:eth0.rx", "slabSlowFrees"));
    }

    @Test
    void aRunIsDeterministic() throws Exception {
        assertEquals(run("eth0.bulkHint=true").elements, run("eth0.bulkHint=true").elements);
    }
}

package io.ringlab.driver.mlx4;

import static io.ringlab.conformance.ModelTests.metric;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.dto.RunResultDTO;

import io.ringlab.conformance.ModelTests;

/**
 * The mlx4 model forwarding 64-byte frames at 40 Gbit/s on one core (pipelines/mlx4-bulk-free-fwd.pipeline): RX
 * fragments carved 21 to an order-3 page, skbs built around them, sent back out and freed by the TX completion with
 * napi_consume_skb (bulk) or dev_kfree_skb.
 */
class Mlx4Test {
    private static RunResultDTO run(String... sets) throws Exception {
        return ModelTests.runConserved(ModelTests.sample("mlx4-bulk-free-fwd.pipeline", "10ms"), 1, sets);
    }

    @Test
    void rxFragmentsAreCarvedTwentyOneToAPageAndPagesGoBackWhenTheirFragmentsDo() throws Exception {
        RunResultDTO r = run();
        double rx = metric(r, "eth0", "rxPackets");
        assertTrue(rx > 50_000, "packets processed in 10 ms: " + rx);
        assertEquals(1536, metric(r, "eth0", "rxFragStride"), 0.0, "ALIGN(1500 + 14 + 4, 64)");
        assertEquals(21, metric(r, "eth0", "rxFragsPerPage"), 0.0, "32768 / 1536");
        double frags = metric(r, "eth0", "rxFragsAllocated");
        double posted = metric(r, "eth0", "postedDescriptors");
        assertEquals(1024, posted, 0.0, "every consumed descriptor refilled");
        assertEquals(rx + posted, frags, 0.0, "one fragment per descriptor filled: the initial fill and one per packet");
        double pages = metric(r, "eth0", "rxPagesAllocated");
        assertEquals(frags / 21, pages, 1.0, "a new order-3 page every 21 fragments");
        assertTrue(pages < rx / 20, "pages " + pages + " for " + rx + " packets");
        // a fragment is held by its descriptor or by the skb built around it; a page lives while one of its fragments does
        double held = metric(r, "eth0", "rxFragsAllocated") - metric(r, "eth0", "rxFragsFreed");
        assertEquals(posted + metric(r, "pool:eth0.rx", "inUse"), held, 0.0, "fragments held = descriptors + live skbs");
        double inUse = metric(r, "eth0", "rxPagesInUse");
        assertEquals(pages - metric(r, "eth0", "rxPagesFreed"), inUse, 0.0);
        assertTrue(inUse <= held / 21 + 3, "pages in use " + inUse + " for " + held + " fragments held");
        assertEquals(0, metric(r, "eth0", "refillFailures"), 0.0);
    }

    @Test
    void framesAreForwardedAndWhatFindsNoDescriptorIsDroppedByTheNic() throws Exception {
        RunResultDTO r = run();
        double rx = metric(r, "eth0", "rxPackets");
        double tx = metric(r, "eth0", "txPackets");
        assertTrue(r.invariants.generated > 590_000, "59.5 Mpps for 10 ms: " + r.invariants.generated);
        assertEquals(metric(r, "eth0", "rxNoDescriptorDrops"), r.invariants.droppedByReason.get("rx-no-descriptor"), 0.0);
        assertTrue(rx < r.invariants.generated / 3, "the core cannot keep up with line rate: " + rx);
        assertEquals(rx, tx, 1100, "what was received was sent, but for the ring, the qdisc and the wire: " + rx + " " + tx);
        assertEquals(metric(r, "sink", "rxPackets"), tx, 16, "what the wire took reached the sink");
        double bbs = metric(r, "eth0", "txBbsPosted");
        assertTrue(bbs % 2 == 0 && bbs >= 2 * tx && bbs <= 2 * tx + 1024,
                "a 64-byte frame inline takes 2 TXBBs: " + bbs + " for " + tx + " sent and the ring's rest");
        assertEquals(0, metric(r, "eth0", "rxCopies"), 0.0, "with GRO every skb is built with napi_get_frags");
    }

    @Test
    void bulkFreeDefersEverySentSkbAndSavesSlowFreesAndCpuPerPacket() throws Exception {
        RunResultDTO bulk = run("eth0.bulkFree=true");
        RunResultDTO single = run("eth0.bulkFree=false");
        double sentBulk = metric(bulk, "eth0", "txCompletions");
        double sentSingle = metric(single, "eth0", "txCompletions");
        // napi_consume_skb: every completed skb goes into the per-CPU NAPI cache and is freed in bulks of up to 64
        assertEquals(sentBulk, metric(bulk, "pool:eth0.rx", "napiDeferredFrees"), 0.0);
        assertTrue(metric(bulk, "pool:eth0.rx", "slabBulkFreeCalls") >= sentBulk / 64 - 1);
        assertEquals(0, metric(single, "pool:eth0.rx", "napiDeferredFrees"), 0.0);
        assertEquals(0, metric(single, "pool:eth0.rx", "slabBulkFreeCalls"), 0.0);
        double slowSingle = metric(single, "pool:eth0.rx", "slabSlowFrees") / sentSingle;
        double slowBulk = metric(bulk, "pool:eth0.rx", "slabSlowFrees") / sentBulk;
        assertTrue(slowSingle > 5 * slowBulk, "slow frees per packet: " + slowSingle + " one by one, " + slowBulk + " bulk");
        double nsBulk = metric(bulk, "eth0", "cpuNanos") / sentBulk;
        double nsSingle = metric(single, "eth0", "cpuNanos") / sentSingle;
        assertTrue(nsBulk < nsSingle, "CPU per forwarded packet: " + nsBulk + " ns bulk, " + nsSingle + " one by one");
        assertTrue(metric(bulk, "eth0", "txMpps") > metric(single, "eth0", "txMpps"));
        // the page references go with the skb either way: the RX side is the same mechanism
        assertEquals(metric(bulk, "eth0", "rxFragsPerPage"), metric(single, "eth0", "rxFragsPerPage"), 0.0);
    }

    @Test
    void withoutGroSmallFramesAreCopiedAndTheirFragmentsGoBackAtOnce() throws Exception {
        RunResultDTO r = run("eth0.gro=false");
        double rx = metric(r, "eth0", "rxPackets");
        assertEquals(rx, metric(r, "eth0", "rxCopies"), 0.0, "64-byte frames: all within SMALL_PACKET_SIZE");
        double held = metric(r, "eth0", "rxFragsAllocated") - metric(r, "eth0", "rxFragsFreed");
        assertEquals(metric(r, "eth0", "postedDescriptors"), held, 0.0, "copied frames keep no fragment");
    }

    @Test
    void aRunIsDeterministic() throws Exception {
        assertEquals(run("eth0.bulkFree=false").elements, run("eth0.bulkFree=false").elements);
    }
}

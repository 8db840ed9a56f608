package io.ringlab.driver.mvneta;

import static io.ringlab.conformance.ModelTests.metric;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.dto.RunResultDTO;

import io.ringlab.conformance.ModelTests;

/** mvneta with kernel = current: the page_pool software path (v6.12), no copybreak, pages recycled through the ptr_ring. */
class MvnetaCurrentTest {
    private static final String RX = """
            duration = 200ms
            profile = armada-388
            element gen : source {
                rate = 900Mbit
                sizes = uniform
                size = 64B
                sizeMax = 1518B
                burst = 4
            }
            element eth0 : mvneta {
                kernel = current
            }
            element sink : sink
            gen -> eth0.rx
            eth0.stack -> sink
            """;

    private static final String BRIDGE = """
            duration = 50ms
            seed = 1
            profile = armada-388
            element gen : source {
                rate = 1Gbit
                size = 64B
            }
            element eth0 : mvneta {
                kernel = current
            }
            element q : pfifo {
                limit = 1000
            }
            element eth1 : mvneta {
                kernel = current
            }
            element wire : link {
                rate = 1Gbit
            }
            element sink : sink
            gen -> eth0.rx
            eth0.stack -> q -> eth1.in
            eth1.wire -> wire -> sink
            """;

    private static RunResultDTO run(String text) throws Exception {
        return ModelTests.runConserved(text, 1);
    }

    @Test
    void everyFrameGoesUpInItsPageAndThePagesAreRecycledNotReallocated() throws Exception {
        RunResultDTO r = run(RX);
        double rx = metric(r, "eth0", "rxPackets");
        assertTrue(rx > 1000, rx + " frames");
        assertEquals(0, metric(r, "eth0", "rxCopybreaks"), 0.0, "mvneta_rx_swbm has no rx_copybreak");
        assertEquals(rx, metric(r, "sink", "rxPackets"), 0.0, "all up the stack");
        assertEquals(4096, metric(r, "eth0", "fragSize"), 0.0, "build_skb(data, PAGE_SIZE)");
        double held = metric(r, "pool:eth0.rx", "pagesHoldCnt");
        // the ring's 512, one slow bulk of 64 before the first pages come back, and what the sink holds: about the ring
        assertTrue(held >= 512 && held <= 512 + 2 * 64, "pages taken from the page allocator: " + held);
        assertTrue(held < rx / 10, held + " pages for " + rx + " frames");
        assertEquals(held, metric(r, "pool:eth0.rx", "dmaMaps"), 0.0, "one DMA map per page, none per packet");
        assertEquals(0, metric(r, "eth0", "dmaMaps"), 0.0, "the driver maps nothing per frame");
        assertEquals(metric(r, "pool:eth0.rx", "frees"), metric(r, "pool:eth0.rx", "recycleRing"), 0.0,
                "without pp.napi no skb free is direct: every page goes through the ptr_ring");
        assertEquals(0, metric(r, "pool:eth0.rx", "recycleRingFull"), 0.0);
        assertEquals(0, metric(r, "pool:eth0.rx", "recycleCached"), 0.0);
        assertTrue(metric(r, "pool:eth0.rx", "allocRefill") > 0 && metric(r, "pool:eth0.rx", "allocFast") > rx / 2,
                "most pages come from the alloc cache, refilled from the ptr_ring 64 at a time");
    }

    @Test
    void bridgingBetweenTwoCurrentPortsKeepsThePageWorkingSetNearTheRingAndIsDeterministic() throws Exception {
        RunResultDTO a = run(BRIDGE);
        RunResultDTO b = run(BRIDGE);
        double delivered = metric(a, "sink", "rxPackets");
        assertTrue(delivered > 10_000, "forwarded " + delivered);
        double held = metric(a, "pool:eth0.rx", "pagesHoldCnt");
        double released = metric(a, "pool:eth0.rx", "pagesReleaseCnt");
        // pages live in eth0's RX ring (512), the pool's cache and ptr_ring, the qdisc and eth1's TX ring
        assertTrue(held - released < 512 + 128 + 1000 + 1024, "pages held " + (held - released));
        assertTrue(held < delivered / 5, held + " pages for " + delivered + " frames");
        assertEquals(1024 - 217, 807, "tx_stop_threshold of MVNETA_MAX_TXD 1024");
        for (String[] m : new String[][] {{"sink", "rxPackets"}, {"eth0", "rxPackets"}, {"eth1", "txPackets"},
                {"pool:eth0.rx", "pagesHoldCnt"}, {"pool:eth0.rx", "allocRefill"}, {"pool:eth0.rx", "recycleRing"}}) {
            assertEquals(metric(a, m[0], m[1]), metric(b, m[0], m[1]), 0.0, m[0] + "." + m[1] + " differs between runs");
        }
    }

    @Test
    void theBufferManagerWithTheCurrentKernelIsRefusedWithWhatIsAllowed() {
        Throwable t = org.junit.jupiter.api.Assertions.assertThrows(Throwable.class,
                () -> run(RX.replace("kernel = current", "kernel = current\n bm = true")));
        String text = String.valueOf(t.getMessage());
        assertTrue(text.contains("kernel=current") && text.contains("allowed"), text);
    }
}

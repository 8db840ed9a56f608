package io.ringlab.driver.mvneta;

import static io.ringlab.conformance.ModelTests.metric;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.dto.RunResultDTO;

import io.ringlab.conformance.ModelTests;

/** mvneta's two receive paths (software refill, buffer manager), rx_copybreak, and its TX ring's stop and wake. */
class MvnetaTest {
    private static final String RX = """
            duration = 20ms
            profile = armada-388
            element gen : source {
                rate = 900Mbit
                sizes = uniform
                size = 64B
                sizeMax = 1518B
                burst = 4
            }
            element eth0 : mvneta {
                bm = BM
            }
            element sink : sink
            gen -> eth0.rx
            eth0.stack -> sink
            """;

    private static RunResultDTO run(String text) throws Exception {
        return ModelTests.runConserved(text, 1);
    }

    @Test
    void softwareRefillReplacesEachLargeFrameFromPageFragmentsThatStayFew() throws Exception {
        RunResultDTO r = run(RX.replace("BM", "false"));
        double rx = metric(r, "eth0", "rxPackets");
        double copies = metric(r, "eth0", "rxCopybreaks");
        assertTrue(rx > 1000 && copies > 0 && copies < rx, rx + " frames, " + copies + " copied");
        assertEquals(rx, metric(r, "sink", "rxPackets"), 0.0, "all up the stack (no drops at 900 Mbit/s, no CPU cost)");
        // the ring's 128 fragments plus one per frame that went up whole
        assertEquals(128 + rx - copies, metric(r, "pool:eth0.rx", "fragAllocs"), 0.0);
        // 1.9 KB fragments of 32 KB pages: the ring's 128 (about 8 pages) and the pages that the buffers of copied frames,
        // which stay in their descriptors longer, keep pinned; far from the BM's hundred and more (below)
        assertTrue(metric(r, "pool:eth0.rx", "fragPagesInUse") <= 24, "pages " + metric(r, "pool:eth0.rx", "fragPagesInUse"));
        // SKB_DATA_ALIGN(1536 + NET_SKB_PAD 64) + SKB_DATA_ALIGN(sizeof(struct skb_shared_info)), the armada-388 profile's
        // kernel build: 176 aligned to SMP_CACHE_BYTES 64
        assertEquals(1600 + (176 + 63) / 64 * 64, metric(r, "eth0", "fragSize"), 0.0, "1792");
    }

    @Test
    void theBufferManagerTakesShortAndLongBuffersAndTheDriverRefillsOrReturnsThem() throws Exception {
        RunResultDTO r = run(RX.replace("BM", "true"));
        double rx = metric(r, "eth0", "rxPackets");
        double copies = metric(r, "eth0", "rxCopybreaks");
        double longRefills = metric(r, "pool:eth0.long", "refills") - 2048; // the initial fill
        double shortRefills = metric(r, "pool:eth0.short", "refills") - 2048;
        assertEquals(rx - copies, longRefills + shortRefills, 0.0, "every frame that went up whole was replaced");
        assertEquals(copies, metric(r, "pool:eth0.short", "returnsToDevice") + metric(r, "pool:eth0.long",
                "returnsToDevice"), 0.0, "a copied frame's buffer goes back with put_bp");
        assertTrue(metric(r, "pool:eth0.short", "allocs") > 0, "frames up to 256 bytes take short buffers");
        assertEquals(2048, metric(r, "pool:eth0.long", "bufNum"), 0.0);
        // the long pool's 2048 buffers cycle through the device's FIFO: their fragments pin many pages
        assertTrue(metric(r, "pool:eth0.long", "fragPagesInUse") >= 2048 * metric(r, "eth0", "fragSize") / 32768,
                "pages " + metric(r, "pool:eth0.long", "fragPagesInUse"));
    }

    @Test
    void theTxQueueStopsAtItsThresholdAndWakesAtHalf() throws Exception {
        RunResultDTO r = run("""
                duration = 20ms
                profile = armada-388
                element gen : source {
                    rate = 2Gbit
                    size = 1518B
                    burst = 8
                }
                element q : pfifo {
                    limit = 1000
                }
                element eth0 : mvneta
                element wire : link {
                    rate = 1Gbit
                }
                element sink : sink
                gen -> q -> eth0.in
                eth0.wire -> wire -> sink
                """);
        assertTrue(metric(r, "eth0", "txQueueStops") > 0, "twice the line rate fills the ring to 315 descriptors");
        double mbps = metric(r, "sink", "rxMbitPerSecond");
        assertEquals(986, mbps, 20, "the wire stays busy: " + mbps);
        assertTrue(metric(r, "eth0", "txIrqs") >= metric(r, "eth0", "txPackets") * 0.99, "an interrupt per sent frame");
    }
}

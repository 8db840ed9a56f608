package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;

import org.junit.jupiter.api.Test;

import io.ringlab.engine.kernel.cache.CacheModel;
import io.ringlab.engine.kernel.profile.CostProfileImpl;

/**
 * Software prefetch and the overlap of independent misses in the level-1 data cache's fill buffers, on the i7-4790K's
 * latencies (memory 264 cycles, L2 12) and its 10 fill buffers; without {@code cache.l1dFillBuffers} every miss is
 * charged in full, one after another.
 */
class CacheOverlapTest {
    private static final long MEMORY = 264, L2 = 12;
    /** Lines far apart, each cold. */
    private static final long A = 1L << 30, B = 2L << 30;

    private static CacheModel caches(String fillBuffers) throws IOException {
        String text = """
                name = t | source: test
                frequencyHz = 4000000000 | source: test
                cores = 1 | source: test
                cache.lineBytes = 64 | source: test
                cache.l1d.bytes = 32768 | source: test
                cache.l1d.ways = 8 | source: test
                cache.l1i.bytes = 32768 | source: test
                cache.l1i.ways = 8 | source: test
                cache.l2.bytes = 262144 | source: test
                cache.l2.ways = 8 | source: test
                cache.l3.bytes = 8388608 | source: test
                cache.l3.ways = 16 | source: test
                cache.l2Cycles = 12 | source: test
                cache.l3Cycles = 36 | source: test
                cache.memoryCycles = 264 | source: test
                """ + (fillBuffers == null ? "" : "cache.l1dFillBuffers = " + fillBuffers + " | source: test\n");
        return CacheModel.of(CostProfileImpl.read("t.profile", new StringReader(text)), 1);
    }

    @Test
    void aPrefetchHidesAMissThatComesAfterItsFillLatency() throws IOException {
        CacheModel c = caches("10");
        assertEquals(0, c.prefetch(0, A, 1, 1000), "a prefetch does not wait for its line");
        assertEquals(0, c.touch(0, A, 1, false, 1000 + MEMORY), "the fill has arrived: a hit");
        assertEquals(0, c.touch(0, A, 1, false, 1000 + MEMORY + 500));
    }

    @Test
    void aPrefetchDoesNotHideAMissThatComesBeforeItsFillArrives() throws IOException {
        CacheModel c = caches("10");
        c.prefetch(0, B, 1, 2000);
        assertEquals(MEMORY - 100, c.touch(0, B, 1, false, 2100), "in flight: what is left of the 264 cycles");
        CacheModel d = caches("10");
        d.prefetch(0, B, 1, 2000);
        assertEquals(MEMORY, d.touch(0, B, 1, false, 2000), "at once: the full latency");
    }

    @Test
    void independentMissesOverlapAsTenFillBuffersAllow() throws IOException {
        CacheModel c = caches("10");
        // 20 cold lines in one touch: 10 fills in flight, then the next 10 as the first ones free their buffers
        assertEquals(2 * MEMORY, c.touch(0, A, 20 * 64, false, 0));
        assertEquals(20, c.lastMisses);
        CacheModel serial = caches(null);
        assertEquals(20 * MEMORY, serial.touch(0, A, 20 * 64, false, 0), "without fill buffers: one after another");
        CacheModel few = caches("4");
        assertEquals(5 * MEMORY, few.touch(0, A, 20 * 64, false, 0), "4 buffers: 5 rounds");
    }

    @Test
    void prefetchesWaitOnlyForAFreeFillBufferAndAFenceForAllOfThem() throws IOException {
        CacheModel c = caches("10");
        assertEquals(0, c.prefetch(0, A, 10 * 64, 0), "10 lines: every one gets a buffer");
        assertEquals(MEMORY, c.prefetch(0, B, 1, 0), "the 11th waits for the first buffer to free");
        assertEquals(MEMORY, c.fence(0, 10), "a locked instruction waits for the last fill (the core waited 264 already)");
        assertEquals(0, c.fence(0, 3 * MEMORY), "nothing in flight");
        CacheModel serial = caches(null);
        assertEquals(0, serial.prefetch(0, A, 64, 0));
        assertEquals(0, serial.fence(0, 0));
        assertEquals(MEMORY, serial.touch(0, A, 1, false, 1000), "without fill buffers a prefetch does nothing");
    }

    @Test
    void successiveTouchesAreAChainThatDoesNotOverlap() throws IOException {
        CacheModel c = caches("10");
        long now = 0, stall = 0;
        for (int k = 0; k < 8; k++) { // a freelist walk: each load's address is the previous load's value
            long s = c.touch(0, A + k * 4096L, 1, false, now);
            stall += s;
            now += s;
        }
        assertEquals(8 * MEMORY, stall);
        c.touch(0, A, 1, false, now); // in L1 now
        java.util.Map<String, Double> m = new java.util.TreeMap<>();
        c.metrics(0, m);
        assertEquals(1, m.get("l1dHits"));
        assertEquals(8, m.get("l1dMisses"));
    }

    @Test
    void aLineFromL2ArrivesAfterL2sLatency() throws IOException {
        CacheModel c = caches("10");
        c.touch(0, A, 1, false, 0);
        for (int k = 1; k <= 8; k++) { // eight more lines of A's set: A leaves the 8-way L1d, stays in L2
            c.touch(0, A + k * 4096L, 1, false, 10_000);
        }
        c.prefetch(0, A, 1, 20_000);
        assertEquals(L2 - 5, c.touch(0, A, 1, false, 20_005));
    }

    @Test
    void aBadFillBufferCountIsRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> caches("2.5"));
        assertTrue(e.getMessage().contains("cache.l1dFillBuffers=2.5") && e.getMessage().contains("0 (misses not overlapped) to 64"),
                e.getMessage());
    }
}

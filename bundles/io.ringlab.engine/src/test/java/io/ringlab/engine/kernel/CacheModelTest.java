package io.ringlab.engine.kernel;

import io.ringlab.engine.kernel.cache.CacheLevel;
import io.ringlab.engine.kernel.cache.CacheModel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;

import org.junit.jupiter.api.Test;

import io.ringlab.buffer.api.Buffer;

/** Set-associative LRU caches per core, a shared level 3, DMA invalidation, and FIFO versus LIFO buffer recycling. */
class CacheModelTest {
    private final Simulation sim = new Simulation(new TestRegistry(), new TestRegistry().profile("generic-x86-4ghz"), 1);

    @Test
    void aSetKeepsItsMostRecentlyUsedLines() {
        CacheLevel c = new CacheLevel("test", 4, 2); // 2 sets of 2 ways
        assertFalse(c.access(0));
        assertFalse(c.access(2)); // same set as 0
        assertTrue(c.access(0));
        assertFalse(c.access(4)); // evicts 2, the least recently used
        assertTrue(c.access(0));
        assertFalse(c.access(2));
        assertFalse(c.access(1)); // the other set is untouched
        assertEquals(2, c.hits);
        assertEquals(5, c.misses);
    }

    @Test
    void theProfileSizesTheCachesAndEachLevelChargesItsLatency() {
        FixedPool pool = new FixedPool(sim, "p", 1, 64);
        Buffer b = pool.alloc(0, 0);
        sim.current = 0;
        sim.addContext(new ElementContextImpl(sim, 0, "e", "test", new io.ringlab.sim.api.dto.ElementDescriptorDTO(),
                null, 1));
        assertEquals(1, sim.touch(0, 0, b.address(), 64, false), "cold: from memory");
        assertEquals(264, sim.caches().stallCycles[0]);
        assertEquals(0, sim.touch(0, 0, b.address(), 64, false), "now in L1");
        assertEquals(264, sim.caches().stallCycles[0]);
        assertEquals(1, sim.touch(1, 0, b.address(), 64, false), "core 1 finds it in the shared L3");
        assertEquals(36, sim.caches().stallCycles[1]);
        new ElementContextImpl(sim, 0, "e", "test", new io.ringlab.sim.api.dto.ElementDescriptorDTO(), null, 1)
                .dmaWrite(b.address(), 64);
        assertEquals(1, sim.touch(0, 0, b.address(), 64, false), "a DMA write drops the line everywhere (no DDIO)");
        assertEquals(264 + 264, sim.caches().stallCycles[0]);
        assertEquals(1, sim.touch(0, 0, b.address() + 32, 64, false), "two lines, the first one cached: one miss");
        java.util.Map<String, Double> m = new java.util.TreeMap<>();
        sim.caches().metrics(0, m);
        assertEquals(2, m.get("l1dHits"), "the second touch and the cached half of the last");
    }

    /**
     * Buffers recycled through a FIFO (a ring refilled in order) cycle through a working set twice the L1d: every touch
     * misses level 1. Through a LIFO (a free stack) the same buffer comes back at once: every touch after the first hits.
     */
    @Test
    void fifoRecyclingOfALargeWorkingSetMissesAndLifoHits() {
        int lines = 2 * 32768 / 64; // twice the L1d
        FixedPool pool = new FixedPool(sim, "p", lines, 64);
        ArrayDeque<Buffer> fifo = new ArrayDeque<>();
        for (int i = 0; i < lines; i++) {
            fifo.add(pool.alloc(0, 0));
        }
        for (int round = 0; round < 4; round++) {
            for (int i = 0; i < lines; i++) {
                Buffer b = fifo.poll();
                sim.touch(0, 0, b.address(), 64, false);
                fifo.add(b);
            }
        }
        CacheModel c = sim.caches();
        java.util.Map<String, Double> m = new java.util.TreeMap<>();
        c.metrics(0, m);
        assertEquals(0, m.get("l1dHits"), "FIFO over twice the cache: no L1 hits");
        assertEquals(4 * lines, m.get("l1dMisses"));
        assertEquals(3 * lines, m.get("l2Hits"), "the working set (128 KB) fits the 256 KB L2 after the first round");
        assertEquals(0, m.get("l1dHitPercent"));
        assertEquals(0, c.l1dHitPercentWindow(0), "the live view's window: all misses");

        ArrayDeque<Buffer> lifo = new ArrayDeque<>(fifo);
        for (int i = 0; i < 4 * lines; i++) {
            Buffer b = lifo.pop();
            sim.touch(1, 0, b.address(), 64, false);
            lifo.push(b);
        }
        m.clear();
        c.metrics(1, m);
        assertEquals(4 * lines - 1, m.get("l1dHits"), "LIFO: the buffer just freed is hot");
        assertEquals(1, m.get("l1dMisses"));
        assertEquals(100.0 * (4 * lines - 1) / (4 * lines), m.get("l1dHitPercent"), 1e-9);
        c.l1dHitPercentWindow(1);
        Buffer hot = lifo.peek();
        for (int i = 0; i < 9; i++) {
            sim.touch(1, 0, hot.address(), 64, false);
        }
        assertEquals(100, c.l1dHitPercentWindow(1), 1e-9, "the window since the previous sample: nine hits");
        assertEquals(100, c.l1dHitPercentWindow(1), 1e-9, "no touches since: the previous window's value");
    }
}

package io.ringlab.pool.slab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** SLUB's calculate_order and set_min_partial. */
class SlabGeometryTest {

    @Test
    void a256ByteCacheOnTwoCpusUsesOrder0SlabsOf16() {
        SlabGeometry g = SlabGeometry.calculate(256, 8, 2);
        assertEquals(0, g.order(), "min_objects = 4 * (fls(2) + 1) = 12 objects fit one page");
        assertEquals(16, g.objectsPerSlab());
        assertEquals(5, g.minPartial(), "ilog2(256) / 2 = 4, raised to MIN_PARTIAL");
    }

    @Test
    void eightCpusAskForMoreObjectsPerSlab() {
        SlabGeometry g = SlabGeometry.calculate(256, 8, 8);
        assertEquals(1, g.order(), "min_objects = 4 * (fls(8) + 1) = 20: two pages");
        assertEquals(32, g.objectsPerSlab());
        SlabGeometry h = SlabGeometry.calculate(264, 8, 8);
        assertEquals(31, h.objectsPerSlab(), "a 256-byte element with its free pointer outside: 8192 / 264");
    }

    @Test
    void bigObjectsUseTheLargestCheapOrder() {
        SlabGeometry g = SlabGeometry.calculate(2048, 8, 2);
        assertEquals(3, g.order());
        assertEquals(16, g.objectsPerSlab());
        assertEquals(5, g.minPartial());
        SlabGeometry big = SlabGeometry.calculate(65536, 8, 2);
        assertEquals(4, big.order(), "larger than an order-3 slab: the order that holds one object");
        assertEquals(1, big.objectsPerSlab());
        assertEquals(8, big.minPartial(), "ilog2(65536) / 2");
    }

    @Test
    void hardwareCacheAlignmentRoundsTheObjectUp() {
        assertEquals(256, SlabGeometry.calculate(232, 64, 2).size(), "skbuff_head_cache: SLAB_HWCACHE_ALIGN");
        assertEquals(232, SlabGeometry.calculate(232, 8, 2).size());
    }

    /**
     * The pools size their slabs by the modelled machine's nr_cpu_ids (profile key kernel.nrCpuIds), not by the cores the
     * run simulates: skbuff_head_cache (232 bytes, SLAB_HWCACHE_ALIGN: 256) on the i7-4790K's 8 possible CPUs is SLUB's
     * order-1 slab of 32 (min_objects = 4 * (fls(8) + 1) = 20, mm/slub.c calculate_order), on 2 an order-0 slab of 16.
     */
    @Test
    void poolsTakeNrCpuIdsFromTheProfileNotTheRunsCores() {
        FakeContext twoCores = new FakeContext(2);
        assertEquals(16, objectsPerSlab(twoCores), "no kernel.nrCpuIds: the run's 2 cores");
        FakeContext i7 = new FakeContext(2);
        i7.profile.put("kernel.nrCpuIds", 8.0);
        assertEquals(32, objectsPerSlab(i7), "kernel.nrCpuIds = 8 on a 2-core run");
        FakeContext bad = new FakeContext(2);
        bad.profile.put("kernel.nrCpuIds", 2.5);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> objectsPerSlab(bad));
        assertTrue(e.getMessage().contains("kernel.nrCpuIds=2.5") && e.getMessage().contains("1 to 8192"), e.getMessage());
    }

    private static long objectsPerSlab(FakeContext context) {
        var pool = new SkbPoolProvider().create(context, "rx", 64, 2048, Map.of());
        return pool.stats().gauges.get("slabObjectsPerSlab");
    }
}

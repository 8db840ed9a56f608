package io.ringlab.qdisc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** Checks the {@code "fq_codel"} {@link io.ringlab.queue.api.QdiscProvider}: the kernel's defaults, settings and refusals. */
class FqCodelProviderTest {

    @Test
    void shouldTakeTheKernelsDefaults() {
        FqCodelQdisc q = (FqCodelQdisc) new FqCodelProvider().create(Map.of());
        assertEquals(10_240, q.limit(), "sch->limit = 10*1024");
        assertEquals(1024, q.flows(), "flows_cnt = 1024");
        assertEquals(1514, q.quantum(), "quantum = psched_mtu = 1500 + 14");
        assertEquals(4882, q.targetCodelTime(), "target = MS2TIME(5)");
        assertEquals(97656, q.intervalCodelTime(), "interval = MS2TIME(100)");
        assertEquals(32L << 20, q.memoryLimit(), "memory_limit = 32 << 20");
        assertEquals(64, q.dropBatch(), "drop_batch_size = 64");
        assertEquals(1514, q.mtu(), "cparams.mtu = psched_mtu");
        assertEquals(0, q.perturbation(), "perturbation 0 unless given");
    }

    @Test
    void shouldTakeEverySetting() {
        FqCodelQdisc q = (FqCodelQdisc) new FqCodelProvider().create(Map.of("limit", 100, "flows", 16L, "quantum", 300,
                "target", 1_000_000_000L, "interval", 20_000_000_000L, "memoryLimit", 1L << 31, "dropBatch", 1, "mtu", 9014,
                "perturbation", -5));
        assertEquals(List.of(100, 16, 300, 976, 19531, 9014, -5), List.of(q.limit(), q.flows(), q.quantum(),
                q.targetCodelTime(), q.intervalCodelTime(), q.mtu(), q.perturbation()), "settings, times in 1024-ns units");
        assertEquals(1L << 31, q.memoryLimit(), "memoryLimit up to 2^31");
        assertEquals(1, q.dropBatch(), "dropBatch");
    }

    @Test
    void shouldRejectBadSettings() {
        FqCodelProvider provider = new FqCodelProvider();
        assertEquals("flows=65537, allowed a whole Number from 1 to 65536 buckets",
                assertThrows(IllegalArgumentException.class, () -> provider.create(Map.of("flows", 65_537))).getMessage());
        assertEquals("quantum=255, allowed a whole Number from 256 to 1048576 bytes",
                assertThrows(IllegalArgumentException.class, () -> provider.create(Map.of("quantum", 255))).getMessage());
        assertEquals("memoryLimit=2147483649, allowed a whole Number from 1 to 2147483648 bytes",
                assertThrows(IllegalArgumentException.class, () -> provider.create(Map.of("memoryLimit", (1L << 31) + 1)))
                        .getMessage());
        assertEquals("dropBatch=0, allowed a whole Number from 1 to 1000000 packets",
                assertThrows(IllegalArgumentException.class, () -> provider.create(Map.of("dropBatch", 0))).getMessage());
        assertEquals("target=5ms, allowed a whole Number from 0 to 100000000000000 picoseconds, not a String",
                assertThrows(IllegalArgumentException.class, () -> provider.create(Map.of("target", "5ms"))).getMessage());
        assertEquals("perturbation=4294967296, allowed a whole Number from -2147483648 to 2147483647 (an int)",
                assertThrows(IllegalArgumentException.class, () -> provider.create(Map.of("perturbation", 1L << 32)))
                        .getMessage());
        assertEquals("setting=ecn, allowed settings: limit, flows, quantum, target, interval, memoryLimit, dropBatch, mtu, "
                + "perturbation", assertThrows(IllegalArgumentException.class, () -> provider.create(Map.of("ecn", 1)))
                        .getMessage());
    }
}

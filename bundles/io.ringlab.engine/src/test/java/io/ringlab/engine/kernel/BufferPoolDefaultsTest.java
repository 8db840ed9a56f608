package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.buffer.api.dto.PoolStatsDTO;

/**
 * {@code BufferPool}'s default methods: bulk allocation one buffer at a time with every missing one counted, bulk free,
 * and the live values of a kind written against buffer.api 1.1, which names them in a {@code String[]}.
 */
class BufferPoolDefaultsTest {
    private final Simulation sim = new Simulation(new TestRegistry(), new TestRegistry().profile("generic-x86-4ghz"), 1);

    /** A kind with no bulk path and the 1.1 live counters: all it has is {@code FixedPool}'s single calls. */
    private static final class OldKind implements BufferPool {
        final FixedPool fixed;
        int frees;

        OldKind(FixedPool fixed) {
            this.fixed = fixed;
        }

        @Override public String name() { return fixed.name(); }
        @Override public String kind() { return "old"; }
        @Override public int capacity() { return fixed.capacity(); }
        @Override public int available() { return fixed.available(); }
        @Override public int inUse() { return fixed.inUse(); }
        @Override public Buffer alloc(int core, int owner) { return fixed.alloc(core, owner); }
        @Override public void free(int core, Buffer b) { frees++; fixed.free(core, b); }
        @Override public void forEachInUse(BufferVisitor v) { fixed.forEachInUse(v); }
        @Override public PoolStatsDTO stats() { return fixed.stats(); }
        @Override public void countAllocFailures(int missing) { fixed.countAllocFailures(missing); }
        @SuppressWarnings("deprecation") @Override public String[] liveCounters() { return new String[] {"frees", "inUse"}; }
        @SuppressWarnings("deprecation") @Override public double liveCounter(int i) { return i == 0 ? frees : inUse(); }
    }

    @Test
    void aBulkAllocationBeyondWhatIsLeftFillsPartlyAndCountsEveryMissingBuffer() {
        OldKind pool = new OldKind(new FixedPool(sim, "old", 5, 64));
        Buffer[] dst = new Buffer[10];
        assertEquals(3, pool.allocBulk(0, 0, dst, 1, 3));
        assertNull(dst[0], "the slots before offset are left as they were");
        assertEquals(2, pool.allocBulk(0, 0, dst, 4, 6), "two were left");
        assertNull(dst[6], "the slots after the ones allocated are left as they were");
        assertEquals(4, pool.stats().allocFailures, "the 4 missing buffers, not the one call");
        assertEquals(0, pool.allocBulk(0, 0, dst, 6, 2));
        assertEquals(6, pool.stats().allocFailures);

        pool.freeBulk(0, dst, 1, 5);
        assertEquals(5, pool.frees, "one free each");
        assertEquals(0, pool.inUse());
    }

    @Test
    void aKindThatNamesItsCountersInAnArrayStillHasTheirColumns() {
        OldKind pool = new OldKind(new FixedPool(sim, "old", 5, 64));
        Buffer b = pool.alloc(0, 0);
        pool.free(0, b);
        pool.alloc(0, 0);
        Map<String, Double> values = new LinkedHashMap<>();
        pool.liveValues((name, value) -> values.put(name, value.getAsDouble()));
        assertEquals(List.of("frees", "inUse"), List.copyOf(values.keySet()));
        assertEquals(1.0, values.get("frees"));
        assertEquals(1.0, values.get("inUse"));
    }
}

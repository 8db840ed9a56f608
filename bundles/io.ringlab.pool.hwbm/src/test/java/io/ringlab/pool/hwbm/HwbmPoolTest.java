package io.ringlab.pool.hwbm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.dto.PoolStatsDTO;
import io.ringlab.pool.slab.FakeContext;
import io.ringlab.buffer.api.HardwareBufferPool;

/** hwbm_pool_add with its refusals, hwbm_pool_refill, the device's FIFO, put_bp, detach and teardown. */
class HwbmPoolTest {
    private static final int DRIVER = 2;

    private static HardwareBufferPool pool(FakeContext ctx, int size, int spare) {
        return (HardwareBufferPool) new HwbmPoolProvider().create(ctx, "eth0.long", size, 1536, Map.of("spare", spare));
    }

    private static long counter(HardwareBufferPool p, String name) {
        PoolStatsDTO s = p.stats();
        return s.counters.containsKey(name) ? s.counters.get(name) : s.gauges.get(name); // a counter or a level
    }

    @Test
    void fragSizeIsTheAlignedBufferPlusTheSharedInfo() {
        HardwareBufferPool p = pool(new FakeContext(1), 8, 0);
        assertEquals(((1536 + 64 + 63) & ~63) + 320, p.fragSize(), "SKB_DATA_ALIGN(1536 + NET_SKB_PAD) + shinfo");
    }

    @Test
    void addFillsThePoolAndRefusesAsTheKernelDoes() {
        FakeContext ctx = new FakeContext(1);
        HardwareBufferPool p = pool(ctx, 8, 0);
        assertEquals(5, p.add(0, 5));
        assertEquals(5, p.bufNum());
        assertEquals(5, p.available(), "the device holds them");
        assertEquals(0, p.add(0, 4), "5 + 4 > 8: cannot allocate");
        assertEquals(1, counter(p, "addRefusedTooMany"));
        assertEquals(3, p.add(0, 3));
        assertEquals(8, p.add(0, 1), "a full pool returns buf_num");
        assertEquals(1, counter(p, "addRefusedFull"));
        assertEquals(2, ctx.warnings.size(), ctx.warnings.toString());
        assertTrue(ctx.warnings.keySet().iterator().next().contains("cannot allocate 4 buffers"), ctx.warnings.toString());
        assertEquals(8, counter(p, "putBp"), "one MMIO write per buffer handed to the device");
    }

    @Test
    void theWrapGuardCatchesOnlyACountThatWrapsTheUnsignedSum() {
        FakeContext ctx = new FakeContext(1);
        HardwareBufferPool p = pool(ctx, 8, 0);
        p.add(0, 2);
        assertEquals(0, p.add(0, Integer.MAX_VALUE), "2 + 0x7fffffff > size, unsigned: cannot allocate");
        assertEquals(1, counter(p, "addRefusedTooMany"));
        assertEquals(0, p.add(0, -1), "2 + 0xffffffff wraps to 1: below buf_num, and not above size");
        assertEquals(1, counter(p, "addRefusedOverflow"));
        assertEquals(2, p.bufNum());
    }

    @Test
    void returningABufferARefillReplacedIsRefusedLoudlyNeverOverwritingTheRing() {
        FakeContext ctx = new FakeContext(1);
        HardwareBufferPool p = pool(ctx, 4, 4);
        p.add(0, 4);
        Buffer b = p.alloc(0, DRIVER);
        assertTrue(p.refill(0), "the slot the device emptied takes the replacement");
        assertFalse(p.refill(0), "the ring is full");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> p.free(0, b));
        assertTrue(e.getMessage().contains("put_bp into a full ring"), e.getMessage());
        Buffer[] all = new Buffer[4];
        assertEquals(4, p.allocBulk(0, DRIVER, all, 0, 4));
        assertEquals(4, java.util.Arrays.stream(all).distinct().count(), "no buffer overwritten or handed out twice");
    }

    @Test
    void addStopsWhereMemoryRunsOutAndReportsWhatItAdded() {
        FakeContext ctx = new FakeContext(1);
        HardwareBufferPool p = (HardwareBufferPool) new HwbmPoolProvider().create(ctx, "p", 8, 256, Map.of("spare", 0));
        assertEquals(8, p.add(0, 8));
        Buffer b = p.alloc(0, DRIVER);
        assertFalse(p.refill(0), "no memory left for a replacement");
        p.detach(b); // the stack holds it; the device is one short
        assertEquals(1, counter(p, "refillFailures"));
        assertEquals(8, p.bufNum(), "refill never changes buf_num");
    }

    @Test
    void theDeviceHandsOutInFifoOrderAndDropsWhenEmpty() {
        FakeContext ctx = new FakeContext(1);
        HardwareBufferPool p = pool(ctx, 4, 4);
        p.add(0, 4);
        Buffer first = p.alloc(0, DRIVER);
        p.free(0, first); // copybreak: put_bp, to the tail of the ring
        Buffer[] rest = new Buffer[3];
        assertEquals(3, p.allocBulk(0, DRIVER, rest, 0, 3));
        assertSame(first, p.alloc(0, DRIVER), "the returned buffer comes round last");
        assertNull(p.alloc(0, DRIVER), "the device is empty: the frame cannot be received");
        assertEquals(1, p.stats().allocFailures);
        assertEquals(1, counter(p, "returnsToDevice"));
        assertEquals(5, counter(p, "putBp"));
    }

    @Test
    void aDetachedBufferFreesItsMemoryAndARefillReplacesItInTheDevice() {
        FakeContext ctx = new FakeContext(1);
        ctx.profile.put("hwbm.putBpCycles", 10.0);
        ctx.profile.put("pagefrag.allocCycles", 100.0);
        ctx.profile.put("pagefrag.pageAllocCycles", 1000.0);
        ctx.profile.put("dma.mapCycles", 50.0);
        ctx.profile.put("pagefrag.freeCycles", 30.0);
        HardwareBufferPool p = pool(ctx, 4, 4);
        p.add(0, 4);
        assertEquals(4 * (100 + 50 + 10) + 1000, ctx.cycles[0], "four 1920-byte fragments of one new 32 KB page");
        Buffer b = p.alloc(0, DRIVER);
        assertTrue(p.refill(0)); // mvneta_rx_hwbm: replace it before building the skb
        p.detach(b);
        assertEquals(4, p.available());
        long before = ctx.cycles[0];
        p.free(0, b); // the stack frees the skb: skb_free_frag
        assertEquals(30, ctx.cycles[0] - before);
        assertEquals(1, counter(p, "memoryFrees"));
        assertEquals(1, counter(p, "fragFrees"));
        assertEquals(4, p.available(), "the device does not get it back");
        assertEquals(4, p.bufNum());
        assertThrows(IllegalStateException.class, () -> p.detach(b));
    }

    @Test
    void aDoubleFreeIsRefused() {
        FakeContext ctx = new FakeContext(1);
        HardwareBufferPool p = pool(ctx, 4, 0);
        p.add(0, 4);
        Buffer b = p.alloc(0, DRIVER);
        p.free(0, b);
        p.free(0, b);
        assertEquals(1, p.stats().doubleFrees);
        assertEquals(4, p.available(), "returned once");
    }

    @Test
    void teardownTakesBackWhatTheDeviceHoldsAndBufNumEndsAtZero() {
        FakeContext ctx = new FakeContext(1);
        HardwareBufferPool p = pool(ctx, 8, 0);
        p.add(0, 8);
        Buffer held = p.alloc(0, DRIVER);
        p.close();
        assertEquals(7, counter(p, "teardownFreed"));
        assertEquals(0, p.bufNum(), "mvneta_bm_bufs_free subtracts every pointer it read back, empty reads included");
        assertTrue(held.allocated(), "the driver's buffer is the driver's to free");
    }

    @Test
    void badSettingsNameThePoolAndWhatIsAllowed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new HwbmPoolProvider().create(new FakeContext(1), "eth0.short", 8, 256, Map.of("spare", -1)));
        assertTrue(e.getMessage().contains("pool eth0.short: spare=-1, allowed 0 to"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new HwbmPoolProvider().create(new FakeContext(1), "eth0.short", 8, 256, Map.of("color", 1)));
        assertTrue(e.getMessage().contains("unknown setting color"), e.getMessage());
    }
}

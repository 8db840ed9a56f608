package io.ringlab.pool.hwbm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.dto.PoolStatsDTO;
import io.ringlab.pool.slab.FakeContext;
import io.ringlab.buffer.api.BufferPool;

/** page_frag_alloc: carving from the top of a 32 KB page, reuse of a page whose fragments all came back, new pages. */
class PageFragPoolTest {
    private static final int FRAG = 2048;

    private static BufferPool pool(FakeContext ctx, int capacity, Map<String, Object> settings) {
        return new PageFragPoolProvider().create(ctx, "eth0.rx", capacity, FRAG, settings);
    }

    private static long counter(BufferPool p, String name) {
        PoolStatsDTO s = p.stats();
        return s.counters.containsKey(name) ? s.counters.get(name) : s.gauges.get(name); // a counter or a level
    }

    @Test
    void fragmentsAreCarvedFromTheTopOfThePageDown() {
        FakeContext ctx = new FakeContext(1);
        BufferPool p = pool(ctx, 64, Map.of());
        Buffer a = p.alloc(0, 1);
        Buffer b = p.alloc(0, 1);
        assertEquals(32768 - 2048, a.address() - (1L << 32), "the first fragment is the page's last 2 KB");
        assertEquals(a.address() - 2048, b.address());
        assertEquals(1, counter(p, "fragNewPages"));
    }

    /** page_frag_alloc's reuse: the page's references all returned when the cursor runs out. */
    @Test
    void aPageWhoseFragmentsAllCameBackIsCarvedAgain() {
        FakeContext ctx = new FakeContext(1);
        BufferPool p = pool(ctx, 64, Map.of());
        for (int i = 0; i < 16; i++) {
            p.free(0, p.alloc(0, 1)); // each fragment back before the next
        }
        Buffer next = p.alloc(0, 1);
        assertEquals(32768 - 2048, next.address() - (1L << 32), "the same page, from the top again");
        assertEquals(1, counter(p, "fragPageReuses"));
        assertEquals(1, counter(p, "fragNewPages"));
    }

    /**
     * A ring of 128 fragments recycled in order (a driver's software refill: each received buffer goes up the stack and
     * is freed soon): pages are let go as their last fragment comes back and handed out again at once, so the whole run
     * lives in about 8 pages. Held for a long time instead (a 2048-buffer FIFO, as the BM keeps them), the fragments pin
     * 128 pages or more.
     */
    @Test
    void aShortRecyclingLoopReusesItsPagesAndALongFifoPinsMany() {
        for (int inFlight : new int[] {128, 2048}) {
            FakeContext ctx = new FakeContext(1);
            BufferPool p = pool(ctx, 4096, Map.of());
            ArrayDeque<Buffer> fifo = new ArrayDeque<>();
            Set<Long> pages = new HashSet<>();
            for (int i = 0; i < 20_000; i++) {
                Buffer b = p.alloc(0, 1);
                pages.add(b.address() >> 15);
                fifo.add(b);
                if (fifo.size() > inFlight) {
                    p.free(0, fifo.poll());
                }
            }
            long inUse = counter(p, "fragPagesInUse");
            if (inFlight == 128) {
                assertTrue(inUse <= 128 * FRAG / 32768 + 2, "about 8 pages hold 128 fragments: " + inUse);
                // a page is let go once its last fragment is back, and the page allocator hands the hottest one out next
                assertTrue(pages.size() <= 128 * FRAG / 32768 + 2, "the whole run lives in a few pages: " + pages.size());
            } else {
                assertTrue(inUse >= 2048 * FRAG / 32768, "2048 fragments pin at least 128 pages: " + inUse);
                assertTrue(pages.size() >= 2048 * FRAG / 32768, "pages touched: " + pages.size());
            }
        }
    }

    @Test
    void everyPoolOfTheRunCarvesFromTheSameNetdevAllocCache() {
        FakeContext ctx = new FakeContext(1);
        io.ringlab.buffer.api.HardwareBufferPool bm = (io.ringlab.buffer.api.HardwareBufferPool) new HwbmPoolProvider()
                .create(ctx, "eth0.long", 4, 1536, Map.of());
        BufferPool soft = pool(ctx, 8, Map.of());
        bm.add(0, 1); // a long-pool buffer: 1920 bytes from the top of the first page
        Buffer b = soft.alloc(0, 1);
        Buffer first = bm.alloc(0, 1);
        assertEquals(first.address() >> 15, b.address() >> 15, "the same 32 KB page");
        assertEquals(first.address() - 2048, b.address(), "carved right below the BM's buffer");
        assertEquals(2, counter(soft, "fragAllocs"), "the counters are the shared cache's");
    }

    @Test
    void withNoPageLeftAnAllocationFails() {
        FakeContext ctx = new FakeContext(1);
        BufferPool p = pool(ctx, 64, Map.of("pages", 1));
        for (int i = 0; i < 16; i++) {
            assertTrue(p.alloc(0, 1) != null);
        }
        assertNull(p.alloc(0, 1), "the page is full and its fragments are all held");
        assertEquals(1, p.stats().allocFailures);
        assertEquals(1, counter(p, "fragFailures"));
    }

    @Test
    void aFragmentLargerThanAPageIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new PageFragPoolProvider().create(new FakeContext(1), "x", 4, 65536, Map.of()));
        assertTrue(e.getMessage().contains("does not fit a page of 32768"), e.getMessage());
    }
}

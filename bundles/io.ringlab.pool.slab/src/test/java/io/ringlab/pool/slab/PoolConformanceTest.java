package io.ringlab.pool.slab;

import java.util.Map;

import org.junit.jupiter.api.Nested;

import io.ringlab.buffer.api.BufferPoolProvider;
import io.ringlab.conformance.PoolContract;

/** The pool contract for the kinds of this bundle: slab, and skb in each of its kernels. */
class PoolConformanceTest {

    /** kmem_cache_alloc_bulk: all or nothing. */
    @Nested
    class Slab extends PoolContract {
        @Override protected BufferPoolProvider provider() { return new SlabPoolProvider(); }
        @Override protected String kind() { return "slab"; }
        @Override protected boolean bulkAllOrNothing() { return true; }
    }

    /** v4.6 to v5.11: one head allocation per skb, napi_consume_skb's deferral. */
    @Nested
    class Skb extends PoolContract {
        @Override protected BufferPoolProvider provider() { return new SkbPoolProvider(); }
        @Override protected String kind() { return "skb"; }
    }

    /** The 2016 RFC: a NAPI cache refilled with bulks of 8. */
    @Nested
    class SkbBulkOf8 extends Skb {
        @Override protected Map<String, Object> settings() { return Map.of("allocBulk", 8); }
    }

    /** v5.12 and later: bulks of 16, half the cache freed when it is full. */
    @Nested
    class SkbBulkOf16 extends Skb {
        @Override protected Map<String, Object> settings() { return Map.of("allocBulk", 16); }
    }
}

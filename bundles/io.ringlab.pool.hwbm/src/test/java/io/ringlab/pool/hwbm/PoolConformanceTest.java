package io.ringlab.pool.hwbm;

import org.junit.jupiter.api.Nested;

import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.BufferPoolProvider;
import io.ringlab.buffer.api.HardwareBufferPool;
import io.ringlab.conformance.PoolContract;

/** The pool contract for the kinds of this bundle: hwbm, pagefrag and pagepool. */
class PoolConformanceTest {

    /** The buffer manager starts empty: hwbm_pool_add gives the device its buffers. */
    @Nested
    class Hwbm extends PoolContract {
        @Override protected BufferPoolProvider provider() { return new HwbmPoolProvider(); }
        @Override protected String kind() { return "hwbm"; }

        @Override
        protected void fill(BufferPool pool, int core) {
            HardwareBufferPool bm = (HardwareBufferPool) pool;
            bm.add(core, bm.size());
        }
    }

    @Nested
    class PageFrag extends PoolContract {
        @Override protected BufferPoolProvider provider() { return new PageFragPoolProvider(); }
        @Override protected String kind() { return "pagefrag"; }
    }

    @Nested
    class PagePool extends PoolContract {
        @Override protected BufferPoolProvider provider() { return new PagePoolProvider(); }
        @Override protected String kind() { return "pagepool"; }
    }
}

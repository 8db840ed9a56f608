package io.ringlab.engine;

import io.ringlab.buffer.api.BufferPoolProvider;
import io.ringlab.conformance.PoolContract;
import io.ringlab.engine.kernel.FixedPool;

/**
 * The pool contract for the engine's own kind {@code fixed}. It runs here rather than in the engine's module: the kit
 * needs the engine.
 */
class FixedPoolConformanceTest extends PoolContract {
    @Override
    protected BufferPoolProvider provider() {
        return new FixedPoolProvider();
    }

    @Override
    protected String kind() {
        return FixedPool.KIND;
    }
}

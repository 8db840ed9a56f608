package io.ringlab.engine;

import java.util.Map;

import org.osgi.service.component.annotations.Component;

import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.BufferPoolProvider;
import io.ringlab.buffer.api.PoolContext;
import io.ringlab.engine.kernel.FixedPool;

/** Pool kind {@code "fixed"}: preallocated buffers with a LIFO free list and no cost model. Takes no settings. */
@Component(service = BufferPoolProvider.class, property = BufferPoolProvider.KIND + "=" + FixedPool.KIND)
public class FixedPoolProvider implements BufferPoolProvider {
    @Override
    public BufferPool create(PoolContext context, String name, int capacity, int bufferBytes, Map<String, Object> settings) {
        if (!settings.isEmpty()) {
            throw new IllegalArgumentException("pool kind fixed takes no settings: " + settings.keySet());
        }
        return new FixedPool(context, name, capacity, bufferBytes);
    }

    @Override
    public String description() {
        return "Preallocated buffers with a LIFO free list and no cost model: a pool that costs nothing, for "
                + "sources and tests (no kernel counterpart).";
    }
}

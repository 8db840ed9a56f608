package io.ringlab.pool.slab;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.PoolContext;

/** The buffer records of a pool whose objects are indexed by {@code buffer.id() - first id}. */
final class PoolBuffers {
    private PoolBuffers() {
    }

    /**
     * Creates {@code capacity} buffers of {@code pool}; their ids must be consecutive, as a run hands them out.
     *
     * @return the buffers, object {@code i} at index {@code i}
     */
    static Buffer[] create(PoolContext context, BufferPool pool, String name, int capacity, int bufferBytes) {
        Buffer[] objects = new Buffer[capacity];
        for (int i = 0; i < capacity; i++) {
            objects[i] = context.newBuffer(pool, bufferBytes);
            if (objects[i].id() != objects[0].id() + i) {
                throw new IllegalStateException("pool " + name + ": buffer ids are not consecutive (" + objects[i].id()
                        + " for object " + i + ", the first " + objects[0].id() + ")");
            }
        }
        return objects;
    }
}

package io.ringlab.pool.hwbm;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.PoolContext;

/** What this bundle's pool kinds share: their buffer records and their cost constants. */
final class Pools {
    private Pools() {
    }

    /**
     * @return {@code n} buffer records of {@code bytes} each, owned by {@code pool}, with consecutive ids (a pool finds a
     *         record's index as {@code id - records[0].id()})
     */
    static Buffer[] records(PoolContext context, BufferPool pool, String name, int n, int bytes) {
        Buffer[] records = new Buffer[n];
        for (int i = 0; i < n; i++) {
            records[i] = context.newBuffer(pool, bytes);
            if (records[i].id() != records[0].id() + i) {
                throw new IllegalStateException("pool " + name + ": buffer ids are not consecutive");
            }
        }
        return records;
    }

    /** @return the profile's cycles for {@code key}, 0 when absent; refuses a value outside 0 to 1e9, naming the key */
    static long cycles(PoolContext context, String key) {
        double v = context.profileValue(key, 0);
        if (!(v >= 0) || v > 1e9) {
            throw new IllegalArgumentException("cost profile: " + key + "=" + v + ", allowed 0 to 1e9 cycles");
        }
        return Math.round(v);
    }
}

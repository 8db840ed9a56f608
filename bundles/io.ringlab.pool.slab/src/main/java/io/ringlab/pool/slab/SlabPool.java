package io.ringlab.pool.slab;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.LiveValues;
import io.ringlab.buffer.api.PoolContext;
import io.ringlab.buffer.api.dto.PoolStatsDTO;

/**
 * Pool kind {@code "slab"}: a SLUB {@code kmem_cache} of {@code capacity} objects ({@link SlabCache}); each buffer is one
 * object. Every call charges its cycles to the calling core through {@link PoolContext#charge}. A free of a buffer that is
 * not allocated, or not this pool's, is refused and counted as a double free; an object named twice in one bulk free is
 * freed once. See {@code docs/models/slab.md}.
 * <p>
 * Allocation-free after construction. Not thread-safe: one run's engine thread.
 */
final class SlabPool extends ObjectPool {
    /** The kind name. */
    static final String KIND = "slab";

    private final int[] scratch;

    SlabPool(PoolContext context, String name, int capacity, int bufferBytes, SlabGeometry geometry, SlabCosts costs,
            boolean detached) {
        super(context, name, capacity, bufferBytes, geometry, costs, detached);
        this.scratch = new int[capacity];
    }

    @Override public String kind() { return KIND; }

    @Override
    public Buffer alloc(int core, int owner) {
        slab.element = owner;
        int i = slab.alloc(core);
        context.charge(core, owner, slab.takeCycles());
        if (i < 0) {
            failures++;
            return null;
        }
        return handOut(i, owner);
    }

    @Override
    public int allocBulk(int core, int owner, Buffer[] dst, int offset, int count) {
        if (count <= 0) {
            return 0;
        }
        slab.element = owner;
        int n = count <= scratch.length ? slab.allocBulk(core, scratch, 0, count) : 0;
        context.charge(core, owner, slab.takeCycles());
        if (n == 0) {
            failures += count;
            return 0;
        }
        for (int k = 0; k < n; k++) {
            dst[offset + k] = handOut(scratch[k], owner);
        }
        return n;
    }

    @Override
    public void freeBulk(int core, Buffer[] src, int offset, int count) {
        int element = -1;
        int n = 0;
        for (int k = offset, end = offset + count; k < end; k++) {
            int owner = src[k].owner();
            int i = accept(src[k]);
            if (i >= 0) {
                if (n == 0) {
                    element = owner; // the holder of the first buffer actually freed
                }
                scratch[n++] = i;
            }
        }
        slab.element = element;
        slab.freeBulk(core, scratch, 0, n);
        context.charge(core, element, slab.takeCycles());
    }

    @Override
    public PoolStatsDTO stats() {
        return stats("");
    }

    @Override
    public void liveValues(LiveValues values) {
        values.add("allocFailures", () -> failures);
        slab.liveValues(values, "", true);
    }
}

package io.ringlab.pool.slab;

import java.util.Map;
import java.util.Set;

import org.osgi.service.component.annotations.Component;

import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.BufferPoolProvider;
import io.ringlab.buffer.api.PoolContext;

/**
 * Provides pool kind {@code "slab"} ({@link SlabPool}). Settings, all optional:
 * <ul>
 * <li>{@code align}: object alignment in bytes, a power of two from 8 to 4096; default 8 (64 is
 * {@code SLAB_HWCACHE_ALIGN} on a 64-byte-line CPU);</li>
 * <li>{@code objectsPerSlab}: 0 (default) for SLUB's own choice ({@code calculate_order} with the run's cores), or 1 to
 * 1024;</li>
 * <li>{@code minPartial}: 0 (default) for {@code set_min_partial}'s, or 1 to 1024;</li>
 * <li>{@code bulkFree}: {@code detached} (default) or {@code simple}.</li>
 * </ul>
 * Thread-safe: every call creates an independent pool.
 */
@Component(service = BufferPoolProvider.class, property = BufferPoolProvider.KIND + "=" + SlabPool.KIND)
public final class SlabPoolProvider implements BufferPoolProvider {
    static final Set<String> SETTINGS = Set.of("align", "objectsPerSlab", "minPartial", "bulkFree");

    /** Creates the provider; Declarative Services calls it. */
    public SlabPoolProvider() {
    }

    @Override
    public BufferPool create(PoolContext context, String name, int capacity, int bufferBytes, Map<String, Object> settings) {
        checkSize(name, capacity, bufferBytes);
        PoolSettings s = new PoolSettings(name, settings, SETTINGS, SlabPool.KIND);
        int align = s.powerOfTwo("align", 8, 8, 4096);
        boolean detached = s.choice("bulkFree", "detached", "detached", "simple").equals("detached");
        return new SlabPool(context, name, capacity, bufferBytes, s.geometry(bufferBytes, align, PoolSettings.nrCpuIds(context)),
                SlabCosts.from(context), detached);
    }

    static void checkSize(String name, int capacity, int bufferBytes) {
        if (capacity < 1 || bufferBytes < 1) {
            throw new IllegalArgumentException("pool " + name + ": capacity=" + capacity + ", bufferBytes=" + bufferBytes
                    + "; both must be at least 1");
        }
    }

    @Override
    public String description() {
        return "A SLUB kmem_cache: per-CPU slabs, partial lists and bulk alloc/free with their cycle costs "
                + "(mm/slub.c); docs/models/slab.md.";
    }
}

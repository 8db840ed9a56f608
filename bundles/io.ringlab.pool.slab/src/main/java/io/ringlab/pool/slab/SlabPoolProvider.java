package io.ringlab.pool.slab;

import java.util.Map;

import org.osgi.service.component.annotations.Component;

import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.BufferPoolProvider;
import io.ringlab.buffer.api.PoolContext;

/**
 * Provides pool kind {@code "slab"} ({@link SlabPool}). Settings, all optional:
 * <ul>
 * <li>{@code align}: object alignment in bytes, a power of two from 8 to 4096; default 8 (64 is
 * {@code SLAB_HWCACHE_ALIGN} on a 64-byte-line CPU, as {@code skbuff_head_cache} has);</li>
 * <li>{@code objectsPerSlab}: 0 (default) for SLUB's own choice ({@code calculate_order} with the run's cores), or 1 to
 * 1024;</li>
 * <li>{@code minPartial}: 0 (default) for {@code set_min_partial}'s, or 1 to 1024;</li>
 * <li>{@code bulkFree}: {@code detached} (default) or {@code simple}.</li>
 * </ul>
 * Thread-safe: every call creates an independent pool.
 */
@Component(service = BufferPoolProvider.class, property = BufferPoolProvider.KIND + "=" + SlabPool.KIND)
public final class SlabPoolProvider implements BufferPoolProvider {

    /** Creates the provider; Declarative Services calls it. */
    public SlabPoolProvider() {
    }

    @Override
    public BufferPool create(PoolContext context, String name, int capacity, int bufferBytes, Map<String, Object> settings) {
        if (capacity < 1 || bufferBytes < 1) {
            throw new IllegalArgumentException("pool " + name + ": capacity=" + capacity + ", bufferBytes=" + bufferBytes
                    + "; both must be at least 1");
        }
        for (String key : settings.keySet()) {
            if (!key.equals("align") && !key.equals("objectsPerSlab") && !key.equals("minPartial") && !key.equals("bulkFree")) {
                throw new IllegalArgumentException("pool " + name + ": unknown setting " + key
                        + "; slab pools take align, objectsPerSlab, minPartial, bulkFree");
            }
        }
        int align = intSetting(name, settings, "align", 8, 8, 4096);
        if (Integer.bitCount(align) != 1) {
            throw new IllegalArgumentException("pool " + name + ": align=" + align + ", must be a power of two from 8 to 4096");
        }
        int perSlab = intSetting(name, settings, "objectsPerSlab", 0, 0, 1024);
        int minPartial = intSetting(name, settings, "minPartial", 0, 0, 1024);
        Object mode = settings.getOrDefault("bulkFree", "detached");
        if (!"detached".equals(String.valueOf(mode)) && !"simple".equals(String.valueOf(mode))) {
            throw new IllegalArgumentException("pool " + name + ": bulkFree=" + mode + ", allowed detached or simple");
        }
        SlabGeometry g = SlabGeometry.calculate(bufferBytes, align, context.cores());
        if (perSlab > 0 || minPartial > 0) {
            g = new SlabGeometry(g.size(), g.order(), perSlab > 0 ? perSlab : g.objectsPerSlab(),
                    minPartial > 0 ? minPartial : g.minPartial());
        }
        return new SlabPool(context, name, capacity, bufferBytes, g, SlabCosts.from(context),
                "detached".equals(String.valueOf(mode)));
    }

    private static int intSetting(String pool, Map<String, Object> settings, String key, int fallback, int min, int max) {
        Object v = settings.get(key);
        if (v == null) {
            return fallback;
        }
        long x;
        try {
            x = v instanceof Number n ? n.longValue() : Long.parseLong(String.valueOf(v).trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("pool " + pool + ": " + key + "=" + v + ", allowed an integer from " + min
                    + " to " + max);
        }
        if (x < min || x > max) {
            throw new IllegalArgumentException("pool " + pool + ": " + key + "=" + v + ", allowed " + min + " to " + max);
        }
        return (int) x;
    }
}

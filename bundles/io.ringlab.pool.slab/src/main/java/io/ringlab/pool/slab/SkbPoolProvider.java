package io.ringlab.pool.slab;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.osgi.service.component.annotations.Component;

import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.BufferPoolProvider;
import io.ringlab.buffer.api.PoolContext;

/**
 * Provides pool kind {@code "skb"} ({@link SkbPool}): {@code bufferBytes} is the skb's data area; the heads come from a
 * slab of {@code headBytes}-byte objects. Settings, all optional:
 * <ul>
 * <li>{@code allocBulk}: 0 (default: v4.6 to v5.11, single head allocation), 8 (the 2015/2016 RFC bulk alloc, with the
 * driver hint) or 16 (v5.12+ {@code napi_skb_cache}); anything else is an error;</li>
 * <li>{@code headBytes}: {@code sizeof(struct sk_buff)}, 1 to 65536; default 232 (x86_64, 4.x);</li>
 * <li>{@code align}: default 64, {@code skbuff_head_cache}'s {@code SLAB_HWCACHE_ALIGN} on a 64-byte-line CPU;</li>
 * <li>{@code objectsPerSlab}, {@code minPartial}, {@code bulkFree}: as for kind {@code "slab"}.</li>
 * </ul>
 * Thread-safe: every call creates an independent pool.
 */
@Component(service = BufferPoolProvider.class, property = BufferPoolProvider.KIND + "=" + SkbPool.KIND)
public final class SkbPoolProvider implements BufferPoolProvider {
    private static final Set<String> SETTINGS;
    static {
        Set<String> s = new HashSet<>(SlabPoolProvider.SETTINGS);
        s.add("allocBulk");
        s.add("headBytes");
        SETTINGS = Set.copyOf(s);
    }

    /** Creates the provider; Declarative Services calls it. */
    public SkbPoolProvider() {
    }

    @Override
    public BufferPool create(PoolContext context, String name, int capacity, int bufferBytes, Map<String, Object> settings) {
        SlabPoolProvider.checkSize(name, capacity, bufferBytes);
        PoolSettings s = new PoolSettings(name, settings, SETTINGS, SkbPool.KIND);
        int allocBulk = s.integer("allocBulk", 0, 0, 16);
        if (allocBulk != 0 && allocBulk != SkbPool.RFC_BULK && allocBulk != SkbPool.CACHE_BULK) {
            throw new IllegalArgumentException("pool " + name + ": allocBulk=" + allocBulk
                    + ", allowed 0 (no bulk alloc, v4.6-v5.11), 8 (the 2015/2016 RFC) or 16 (v5.12+ napi_skb_cache)");
        }
        int headBytes = s.integer("headBytes", 232, 1, 65536);
        int align = s.powerOfTwo("align", 64, 8, 4096);
        boolean detached = s.choice("bulkFree", "detached", "detached", "simple").equals("detached");
        return new SkbPool(context, name, capacity, bufferBytes, s.geometry(headBytes, align, PoolSettings.nrCpuIds(context)),
                SlabCosts.from(context), detached, allocBulk);
    }

    @Override
    public String description() {
        return "SKBs as a NAPI driver gets and frees them: heads from skbuff_head_cache through the per-CPU "
                + "NAPI skb cache, with or without bulk allocation (net/core/skbuff.c napi_alloc_skb, "
                + "napi_consume_skb); docs/models/slab.md.";
    }
}

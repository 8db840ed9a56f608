package io.ringlab.pool.hwbm;

import java.util.Map;

import org.osgi.service.component.annotations.Component;

import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.BufferPoolProvider;
import io.ringlab.buffer.api.PoolContext;

/**
 * Provides pool kind {@code "hwbm"} ({@link HwbmPool}): {@code capacity} is the pool's {@code size} in buffers and
 * {@code bufferBytes} each buffer's packet size. Settings, all optional:
 * <ul>
 * <li>{@code spare}: buffer records beyond {@code size} for buffers the driver detached and the stack still holds
 * (memory the page-fragment allocator can give); default {@code size};</li>
 * <li>{@code headroom}: bytes before the packet ({@code NET_SKB_PAD}); default 64;</li>
 * <li>{@code shinfoBytes}: {@code SKB_DATA_ALIGN(sizeof(struct skb_shared_info))}; default 320 (x86-64);</li>
 * <li>{@code pageBytes}, {@code pages}: the page-fragment allocator's pages, as for kind {@code pagefrag}.</li>
 * </ul>
 * {@code frag_size = SKB_DATA_ALIGN(bufferBytes + headroom) + shinfoBytes}, as {@code mvneta_bm_pool_use} computes it
 * (64-byte {@code SMP_CACHE_BYTES} alignment). Thread-safe: every call creates an independent pool.
 */
@Component(service = BufferPoolProvider.class, property = BufferPoolProvider.KIND + "=" + HwbmPool.KIND)
public final class HwbmPoolProvider implements BufferPoolProvider {

    /** Creates the provider; Declarative Services calls it. */
    public HwbmPoolProvider() {
    }

    @Override
    public BufferPool create(PoolContext context, String name, int capacity, int bufferBytes, Map<String, Object> settings) {
        if (capacity < 1 || bufferBytes < 1) {
            throw new IllegalArgumentException("pool " + name + ": capacity=" + capacity + ", bufferBytes=" + bufferBytes
                    + "; both must be at least 1");
        }
        for (String key : settings.keySet()) {
            if (!java.util.Set.of("spare", "headroom", "shinfoBytes", "pages", "pageBytes").contains(key)) {
                throw new IllegalArgumentException("pool " + name + ": unknown setting " + key
                        + "; hwbm pools take headroom, pageBytes, pages, shinfoBytes, spare");
            }
        }
        int spare = setting(name, settings, "spare", capacity, 0, 1 << 24);
        int headroom = setting(name, settings, "headroom", 64, 0, 4096);
        int shinfo = setting(name, settings, "shinfoBytes", 320, 0, 4096);
        int fragSize = ((bufferBytes + headroom + 63) & ~63) + shinfo;
        int pageBytes = setting(name, settings, "pageBytes", PageFragPoolProvider.PAGE_FRAG_CACHE_MAX_SIZE, 4096, 1 << 20);
        int pages = setting(name, settings, "pages", PageFragPoolProvider.defaultPages(capacity + spare, fragSize,
                pageBytes, context.cores()), 1, 1 << 24);
        return new HwbmPool(context, name, capacity, spare, bufferBytes, fragSize, pages, pageBytes);
    }

    private static int setting(String pool, Map<String, Object> settings, String key, int fallback, int min, int max) {
        Object v = settings.get(key);
        if (v == null) {
            return fallback;
        }
        long x;
        try {
            x = v instanceof Number n ? n.longValue() : Long.parseLong(String.valueOf(v).trim());
        } catch (NumberFormatException e) {
            x = Long.MIN_VALUE;
        }
        if (x < min || x > max) {
            throw new IllegalArgumentException("pool " + pool + ": " + key + "=" + v + ", allowed " + min + " to " + max);
        }
        return (int) x;
    }

    @Override
    public String description() {
        return "One pool of a hardware buffer manager: the kernel's hwbm API (net/core/hwbm.c, 2016) and the "
                + "device side of Marvell's BM (drivers/net/ethernet/marvell/mvneta_bm.c); docs/models/hwbm.md.";
    }
}

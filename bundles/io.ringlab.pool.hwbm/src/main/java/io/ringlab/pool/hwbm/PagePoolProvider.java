package io.ringlab.pool.hwbm;

import java.util.Map;
import java.util.Set;

import org.osgi.service.component.annotations.Component;

import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.BufferPoolProvider;
import io.ringlab.buffer.api.PoolContext;

/**
 * Provides pool kind {@code "pagepool"} ({@link PagePool}, the kernel's page_pool of v6.12): {@code capacity} is the
 * number of 4 KB page frames the page allocator can give the pool (a bound the kernel does not have: size it for the
 * driver's ring, the pool's cache and ring, and what the stack holds), {@code bufferBytes} each buffer's data capacity
 * ({@code pp.max_len}). Settings, all optional:
 * <ul>
 * <li>{@code poolSize}: the ptr_ring's entries ({@code page_pool_params.pool_size}); default 1024 (what
 * {@code page_pool_init} uses for 0), at most 16384 ({@code min(pool_size, 16384)});</li>
 * <li>{@code offset}: bytes from the page's start to the buffer's data ({@code pp.offset}); default 0;
 * {@code offset + bufferBytes} must fit the page;</li>
 * <li>{@code napiCore}: the core of the NAPI context the driver passes in {@code page_pool_params.napi}, which makes
 * frees in softirq on that core direct; default -1 (no {@code .napi}).</li>
 * </ul>
 * Costs from the profile, 0 when absent: {@code pagepool.pageAllocCycles} and {@code pagepool.pageFreeCycles} (the page
 * allocator, per page), {@code dma.mapCycles} and {@code dma.unmapCycles} (per page).
 */
@Component(service = BufferPoolProvider.class, property = BufferPoolProvider.KIND + "=" + PagePool.KIND)
public final class PagePoolProvider implements BufferPoolProvider {
    private static final Set<String> KEYS = Set.of("poolSize", "offset", "napiCore");

    /** Creates the provider; Declarative Services calls it. */
    public PagePoolProvider() {
    }

    @Override
    public BufferPool create(PoolContext context, String name, int capacity, int bufferBytes, Map<String, Object> settings) {
        if (capacity < 1 || bufferBytes < 1) {
            throw new IllegalArgumentException("pool " + name + ": capacity=" + capacity + ", bufferBytes=" + bufferBytes
                    + "; both must be at least 1");
        }
        for (String key : settings.keySet()) {
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException("pool " + name + ": unknown setting " + key
                        + "; pagepool pools take napiCore, offset, poolSize");
            }
        }
        int poolSize = intSetting(name, settings, "poolSize", PagePool.DEFAULT_RING);
        if (poolSize < 1 || poolSize > PagePool.MAX_RING) {
            throw new IllegalArgumentException("pool " + name + ": poolSize=" + poolSize + ", allowed 1 to "
                    + PagePool.MAX_RING + " (page_pool_init: min(pool_size, 16384))");
        }
        int offset = intSetting(name, settings, "offset", 0);
        if (offset < 0 || offset + bufferBytes > PagePool.PAGE_BYTES) {
            throw new IllegalArgumentException("pool " + name + ": offset=" + offset + ", bufferBytes=" + bufferBytes
                    + "; offset + bufferBytes must fit an order-0 page of " + PagePool.PAGE_BYTES + " bytes");
        }
        int napiCore = intSetting(name, settings, "napiCore", -1);
        if (napiCore < -1 || napiCore >= context.cores()) {
            throw new IllegalArgumentException("pool " + name + ": napiCore=" + napiCore + ", allowed -1 (none) to "
                    + (context.cores() - 1));
        }
        return new PagePool(context, name, capacity, bufferBytes, poolSize, offset, napiCore);
    }

    private static int intSetting(String pool, Map<String, Object> settings, String key, int fallback) {
        Object v = settings.get(key);
        if (v == null) {
            return fallback;
        }
        try {
            return v instanceof Number n ? Math.toIntExact(n.longValue()) : Integer.parseInt(String.valueOf(v).trim());
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("pool " + pool + ": " + key + "=" + v + ", expected an integer");
        }
    }

    @Override
    public String description() {
        return "The kernel's page_pool of v6.12, order-0 pages with PP_FLAG_DMA_MAP, one page per buffer: "
                + "alloc cache, ptr_ring, recycling (net/core/page_pool.c); docs/models/hwbm.md.";
    }
}

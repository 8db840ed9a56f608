package io.ringlab.pool.hwbm;

import java.util.Map;
import java.util.Set;

import org.osgi.service.component.annotations.Component;

import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.BufferPoolProvider;
import io.ringlab.buffer.api.PoolContext;

/**
 * Provides pool kind {@code "pagefrag"} ({@link PageFragPool}): {@code capacity} buffer records of {@code bufferBytes}
 * (the fragment size, {@code frag_size}). Settings, optional: {@code pageBytes} (default 32768,
 * {@code PAGE_FRAG_CACHE_MAX_SIZE}, an order-3 page; 4096 models the order-0 fallback) and {@code pages} (the pages the
 * page allocator can give; default enough for every record twice over plus one per core).
 */
@Component(service = BufferPoolProvider.class, property = BufferPoolProvider.KIND + "=" + PageFragPool.KIND)
public final class PageFragPoolProvider implements BufferPoolProvider {
    /** {@code PAGE_FRAG_CACHE_MAX_SIZE} = {@code __ALIGN_MASK(32768, ~PAGE_MASK)} ({@code include/linux/mm_types.h}). */
    static final int PAGE_FRAG_CACHE_MAX_SIZE = 32768;

    /** Creates the provider; Declarative Services calls it. */
    public PageFragPoolProvider() {
    }

    /** @return pages for every record twice over plus one per core: a fragment's page is never what limits a run */
    static int defaultPages(int records, int fragSize, int pageBytes, int cores) {
        int perPage = Math.max(1, pageBytes / Math.max(1, fragSize));
        return 2 * ((records + perPage - 1) / perPage) + cores;
    }

    @Override
    public BufferPool create(PoolContext context, String name, int capacity, int bufferBytes, Map<String, Object> settings) {
        if (capacity < 1 || bufferBytes < 1) {
            throw new IllegalArgumentException("pool " + name + ": capacity=" + capacity + ", bufferBytes=" + bufferBytes
                    + "; both must be at least 1");
        }
        for (String key : settings.keySet()) {
            if (!Set.of("pageBytes", "pages").contains(key)) {
                throw new IllegalArgumentException("pool " + name + ": unknown setting " + key
                        + "; pagefrag pools take pageBytes, pages");
            }
        }
        int pageBytes = intSetting(name, settings, "pageBytes", PAGE_FRAG_CACHE_MAX_SIZE);
        if (pageBytes < 4096 || Integer.bitCount(pageBytes) != 1 || pageBytes > (1 << 20)) {
            throw new IllegalArgumentException("pool " + name + ": pageBytes=" + pageBytes
                    + ", allowed a power of two from 4096 to 1048576");
        }
        if (bufferBytes > pageBytes) {
            throw new IllegalArgumentException("pool " + name + ": bufferBytes=" + bufferBytes + " does not fit a page of "
                    + pageBytes + " (page_frag_alloc serves fragments up to a page)");
        }
        int pages = intSetting(name, settings, "pages", defaultPages(capacity, bufferBytes, pageBytes, context.cores()));
        if (pages < 1) {
            throw new IllegalArgumentException("pool " + name + ": pages=" + pages + ", must be at least 1");
        }
        return new PageFragPool(context, name, capacity, bufferBytes, pages, pageBytes);
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
        return "Buffers as a driver's software refill gets them: netdev_alloc_frag then build_skb, fragments "
                + "carved from a per-core 32 KB page (net/core/page_alloc.c page_frag_alloc, net/core/skbuff.c); "
                + "docs/models/hwbm.md.";
    }
}

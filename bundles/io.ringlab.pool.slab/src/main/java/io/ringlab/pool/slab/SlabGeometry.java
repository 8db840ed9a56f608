package io.ringlab.pool.slab;

/**
 * The shape of a SLUB cache ({@code mm/slub.c}, 4.x): the object size after alignment, the slab page order
 * ({@code calculate_order}), the objects a slab holds ({@code order_objects}) and {@code min_partial}
 * ({@code set_min_partial}).
 *
 * @param size the object size in bytes, aligned
 * @param order the slab's page order (the slab is {@code 4096 << order} bytes)
 * @param objectsPerSlab objects per slab
 * @param minPartial slabs the node keeps on its partial list before it gives an empty one back
 */
record SlabGeometry(int size, int order, int objectsPerSlab, int minPartial) {
    /** {@code PAGE_SIZE}: 4 KB pages (ARMv7 and x86_64 defaults). */
    static final int PAGE_SIZE = 4096;
    /** {@code slub_max_order} = {@code PAGE_ALLOC_COSTLY_ORDER} = 3 ({@code mm/slub.c}, {@code include/linux/mmzone.h}). */
    static final int MAX_ORDER = 3;
    /** {@code MIN_PARTIAL} and {@code MAX_PARTIAL} ({@code mm/slub.c}): the bounds of {@code min_partial}. */
    static final int MIN_PARTIAL = 5, MAX_PARTIAL = 10;

    /**
     * SLUB's choice for a cache of {@code objectBytes}-byte objects on {@code cpus} CPUs.
     * <p>
     * {@code calculate_order}: {@code min_objects = 4 * (fls(nr_cpu_ids) + 1)}, at most what an order-3 slab holds; for
     * {@code min_objects} down to 2 and an acceptable waste of 1/16, 1/8, then 1/4 of the slab, the lowest order (from
     * {@code get_order(min_objects * size)}) that wastes no more; else one object at up to order 3; else the order that holds
     * one object. {@code set_min_partial}: {@code ilog2(size) / 2} within [5, 10].
     *
     * @param objectBytes the object size, at least 1
     * @param align the alignment (8 for a plain cache, 64 for {@code SLAB_HWCACHE_ALIGN} on a 64-byte-line CPU), a power
     *        of two
     * @param cpus the CPUs ({@code nr_cpu_ids}), at least 1
     * @return the geometry
     */
    static SlabGeometry calculate(int objectBytes, int align, int cpus) {
        int size = (objectBytes + align - 1) & -align;
        int minObjects = 4 * (fls(cpus) + 1);
        int maxObjects = (PAGE_SIZE << MAX_ORDER) / size;
        minObjects = Math.min(minObjects, maxObjects);
        int order = -1;
        search:
        while (minObjects > 1) {
            for (int fraction = 16; fraction >= 4; fraction /= 2) {
                int o = slabOrder(size, minObjects, MAX_ORDER, fraction);
                if (o <= MAX_ORDER) {
                    order = o;
                    break search;
                }
            }
            minObjects--;
        }
        if (order < 0) {
            order = slabOrder(size, 1, MAX_ORDER, 1);
            if (order > MAX_ORDER) {
                order = getOrder(size);
            }
        }
        int objects = (PAGE_SIZE << order) / size;
        int minPartial = Math.max(MIN_PARTIAL, Math.min(MAX_PARTIAL, ilog2(size) / 2));
        return new SlabGeometry(size, order, objects, minPartial);
    }

    /** {@code slab_order}: the lowest order from {@code get_order(minObjects * size)} that wastes at most 1/fraction. */
    private static int slabOrder(int size, int minObjects, int maxOrder, int fraction) {
        int order = Math.max(0, getOrder(minObjects * size));
        for (; order <= maxOrder; order++) {
            int slabSize = PAGE_SIZE << order;
            int rem = slabSize % size;
            if (rem <= slabSize / fraction) {
                break;
            }
        }
        return order;
    }

    /** {@code get_order}: the order of the smallest power-of-two number of pages holding {@code bytes}. */
    static int getOrder(int bytes) {
        int pages = (bytes + PAGE_SIZE - 1) / PAGE_SIZE;
        return pages <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(pages - 1);
    }

    /** {@code fls}: the position of the highest set bit, 1-based; 0 for 0. */
    static int fls(int x) {
        return 32 - Integer.numberOfLeadingZeros(x);
    }

    private static int ilog2(int x) {
        return 31 - Integer.numberOfLeadingZeros(x);
    }
}

package io.ringlab.pool.slab;

import java.util.Map;
import java.util.Set;

/** Reads a pool's settings; every problem names the pool, the setting and what is allowed. */
final class PoolSettings {
    private final String pool;
    private final Map<String, Object> settings;

    PoolSettings(String pool, Map<String, Object> settings, Set<String> known, String kind) {
        this.pool = pool;
        this.settings = settings;
        for (String key : settings.keySet()) {
            if (!known.contains(key)) {
                throw new IllegalArgumentException("pool " + pool + ": unknown setting " + key + "; " + kind
                        + " pools take " + String.join(", ", new java.util.TreeSet<>(known)));
            }
        }
    }

    int integer(String key, int fallback, int min, int max) {
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

    int powerOfTwo(String key, int fallback, int min, int max) {
        int v = integer(key, fallback, min, max);
        if (Integer.bitCount(v) != 1) {
            throw new IllegalArgumentException("pool " + pool + ": " + key + "=" + v + ", must be a power of two from " + min
                    + " to " + max);
        }
        return v;
    }

    String choice(String key, String fallback, String... allowed) {
        String v = String.valueOf(settings.getOrDefault(key, fallback));
        for (String a : allowed) {
            if (a.equals(v)) {
                return v;
            }
        }
        throw new IllegalArgumentException("pool " + pool + ": " + key + "=" + v + ", allowed " + String.join(" or ", allowed));
    }

    /** {@code NR_CPUS} of an x86-64 kernel's Kconfig ({@code MAXSMP}: 8192), the bound of {@code nr_cpu_ids}. */
    static final int NR_CPUS_MAX = 8192;

    /**
     * {@code nr_cpu_ids} of the modelled machine, which SLUB's {@code calculate_order} sizes slabs by: the profile's
     * {@code kernel.nrCpuIds} (the possible CPUs of the machine the figures were measured on), else the run's cores.
     */
    static int nrCpuIds(io.ringlab.buffer.api.PoolContext context) {
        double v = context.profileValue("kernel.nrCpuIds", context.cores());
        if (!(v >= 1 && v <= NR_CPUS_MAX) || v != Math.rint(v)) {
            throw new IllegalArgumentException("cost profile: kernel.nrCpuIds=" + v + ", allowed an integer from 1 to "
                    + NR_CPUS_MAX + " (the possible CPUs of the modelled machine, nr_cpu_ids)");
        }
        return (int) v;
    }

    /**
     * SLUB's geometry for {@code objectBytes}-byte objects on {@code nrCpuIds} possible CPUs, with the
     * {@code objectsPerSlab} and {@code minPartial} overrides.
     */
    SlabGeometry geometry(int objectBytes, int align, int nrCpuIds) {
        int perSlab = integer("objectsPerSlab", 0, 0, 1024);
        int minPartial = integer("minPartial", 0, 0, 1024);
        SlabGeometry g = SlabGeometry.calculate(objectBytes, align, nrCpuIds);
        if (perSlab > 0 || minPartial > 0) {
            int objects = perSlab > 0 ? perSlab : g.objectsPerSlab();
            // a slab big enough for the objects asked for, so that no object lies in the next slab's memory
            int order = Math.max(g.order(), SlabGeometry.getOrder(objects * g.size()));
            g = new SlabGeometry(g.size(), order, objects, minPartial > 0 ? minPartial : g.minPartial());
        }
        return g;
    }
}

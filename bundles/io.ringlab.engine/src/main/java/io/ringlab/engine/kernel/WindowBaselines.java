package io.ringlab.engine.kernel;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.dto.PoolStatsDTO;
import io.ringlab.engine.kernel.cache.CacheModel;

/**
 * What the warm-up counted of the pools and the cores, which the results leave out: each pool's counters, each core's
 * busy time and cache counters at the start of the measured window (docs/engine.md, "Warm-up"). A pool created later
 * (a swap to other sizes) has no baseline and reports its counters whole. Engine thread only.
 */
final class WindowBaselines {
    private final Map<BufferPool, Map<String, Double>> pools = new IdentityHashMap<>();
    private long[] busy = new long[0];
    private List<Map<String, Double>> caches = List.of();

    /** Takes the baselines: the warm-up ends now. */
    void take(List<BufferPool> runPools, CoreImpl[] cores, CacheModel cacheModel) {
        for (BufferPool p : runPools) {
            pools.put(p, poolCounters(p.stats()));
        }
        busy = new long[cores.length];
        java.util.ArrayList<Map<String, Double>> c = new java.util.ArrayList<>();
        for (CoreImpl core : cores) {
            busy[core.index()] = core.busyPicos();
            Map<String, Double> m = null;
            if (cacheModel != null) {
                m = new TreeMap<>();
                cacheModel.metrics(core.index(), m);
            }
            c.add(m);
        }
        caches = c;
    }

    /** @return a pool's metrics over the measured window: capacity, occupancy, its counters less the baseline, gauges */
    Map<String, Double> poolMetrics(BufferPool p) {
        PoolStatsDTO s = p.stats();
        Map<String, Double> m = new TreeMap<>();
        m.put("capacity", (double) s.capacity);
        m.put("inUse", (double) s.inUse);
        m.put("highWaterMark", (double) s.highWaterMark);
        Map<String, Double> base = pools.getOrDefault(p, Map.of());
        poolCounters(s).forEach((k, v) -> m.put(k, v - base.getOrDefault(k, 0.0)));
        s.gauges.forEach((k, v) -> m.put(k, (double) v));
        return m;
    }

    /**
     * @param spanPicos the measured window's length
     * @return a core's metrics over the measured window: busy time, utilisation, cache counters less the baseline
     */
    Map<String, Double> coreMetrics(CoreImpl core, CacheModel cacheModel, long spanPicos) {
        Map<String, Double> m = new TreeMap<>();
        long b = core.busyPicos() - (core.index() < busy.length ? busy[core.index()] : 0);
        m.put("busyNanos", b / 1000.0);
        m.put("utilisationPercent", spanPicos <= 0 ? 0 : 100.0 * b / spanPicos);
        if (cacheModel != null) {
            cacheModel.metrics(core.index(), m);
            Map<String, Double> base = core.index() < caches.size() ? caches.get(core.index()) : null;
            if (base != null) {
                base.forEach((k, v) -> m.computeIfPresent(k, (key, x) -> x - v)); // counters over the window
                double hits = m.getOrDefault("l1dHits", 0.0), misses = m.getOrDefault("l1dMisses", 0.0);
                m.put("l1dHitPercent", hits + misses == 0 ? 0 : 100.0 * hits / (hits + misses));
            }
        }
        return m;
    }

    /** @return a pool's counters by metric name (what a warm-up leaves out): the common ones, then the kind's own */
    private static Map<String, Double> poolCounters(PoolStatsDTO s) {
        Map<String, Double> m = new TreeMap<>();
        m.put("allocs", (double) s.allocs);
        m.put("frees", (double) s.frees);
        m.put("allocFailures", (double) s.allocFailures);
        m.put("doubleFrees", (double) s.doubleFrees);
        for (int c = 0; c < s.cacheHits.length; c++) {
            m.put("cacheHitsCore" + c, (double) s.cacheHits[c]);
        }
        for (int c = 0; c < s.cacheMisses.length; c++) {
            m.put("cacheMissesCore" + c, (double) s.cacheMisses[c]);
        }
        s.counters.forEach((k, v) -> m.put(k, (double) v));
        return m;
    }

    private long base(long[] b, int i) {
        return i < b.length ? b[i] : 0;
    }
}

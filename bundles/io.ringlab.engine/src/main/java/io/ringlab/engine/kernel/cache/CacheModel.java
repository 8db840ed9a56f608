package io.ringlab.engine.kernel.cache;

import io.ringlab.sim.api.CostProfile;
import io.ringlab.engine.kernel.Allocation;

/**
 * The caches of a run's cores, sized from the cost profile: per core a level-1 data and a level-1 instruction cache and a
 * unified level 2, and one level 3 shared by all cores; least-recently-used sets in each (see {@link CacheLevel}). A touch
 * looks each line up from level 1 down and fills every level it missed; the stall is the latency of the level that had the
 * line (nothing for level 1, whose latency the per-operation costs already include), or of memory. A DMA write by a
 * device drops the lines from every cache, or with {@code cache.ddio = 1} (Intel Data Direct I/O) writes them into the
 * level 3. Not modelled: coherence between cores (a line written on one core stays valid in another's cache), write-backs,
 * prefetchers, and the TLB.
 * <p>
 * Profile keys (all required once {@code cache.l1d.bytes} is present, except the level 3's: without {@code cache.l3.bytes}
 * the cores' level 2 misses go to memory; without {@code cache.l1d.bytes} the run has no cache model and touches cost
 * nothing): {@code cache.lineBytes}, {@code cache.l1d.bytes}, {@code cache.l1d.ways}, {@code cache.l1i.bytes},
 * {@code cache.l1i.ways}, {@code cache.l2.bytes}, {@code cache.l2.ways}, {@code cache.l3.bytes}, {@code cache.l3.ways},
 * {@code cache.l2Cycles}, {@code cache.l3Cycles}, {@code cache.memoryCycles}; optional {@code cache.ddio} (0).
 * <p>
 * Allocation-free after construction. Not thread-safe.
 */
public final class CacheModel {
    public final int lineBytes;
    private final CacheLevel[] l1d, l1i, l2;
    // the series sampler's window for the L1d hit rate
    private final long[] windowHits, windowMisses;
    private final double[] windowPercent;
    private final CacheLevel l3;
    private final long l2Cycles, l3Cycles, memoryCycles;
    private final boolean ddio;
    public final long[] stallCycles;
    /** Lines of the last {@link #touch} that missed level 1. */
    public int lastMisses;

    private CacheModel(CostProfile p, int cores) {
        lineBytes = (int) p.value("cache.lineBytes");
        if (lineBytes < 8 || Integer.bitCount(lineBytes) != 1) {
            throw new IllegalArgumentException("profile " + p.name() + ": cache.lineBytes=" + lineBytes
                    + ", must be a power of two of at least 8");
        }
        l1d = new CacheLevel[cores];
        windowHits = new long[cores];
        windowMisses = new long[cores];
        windowPercent = new double[cores];
        l1i = new CacheLevel[cores];
        l2 = new CacheLevel[cores];
        for (int c = 0; c < cores; c++) {
            l1d[c] = level(p, "l1d", "L1d core " + c);
            l1i[c] = level(p, "l1i", "L1i core " + c);
            l2[c] = level(p, "l2", "L2 core " + c);
        }
        l3 = p.has("cache.l3.bytes") ? level(p, "l3", "L3") : null; // an SoC without a level 3 (Armada 38x)
        l2Cycles = (long) p.value("cache.l2Cycles");
        l3Cycles = l3 == null ? 0 : (long) p.value("cache.l3Cycles");
        memoryCycles = (long) p.value("cache.memoryCycles");
        ddio = p.value("cache.ddio", 0) != 0;
        stallCycles = new long[cores];
    }

    private CacheLevel level(CostProfile p, String key, String name) {
        long bytes = (long) p.value("cache." + key + ".bytes");
        int ways = (int) p.value("cache." + key + ".ways");
        long lines = bytes / lineBytes;
        if (lines < 1 || lines > (1 << 26)) {
            throw new IllegalArgumentException("profile " + p.name() + ": cache." + key + ".bytes=" + bytes
                    + ", allowed one line to 2^26 lines");
        }
        return new CacheLevel(name, (int) lines, ways);
    }

    /** @return the run's caches, or {@code null} when the profile describes none */
    public static CacheModel of(CostProfile profile, int cores) {
        return profile.has("cache.l1d.bytes") ? new CacheModel(profile, cores) : null;
    }

    /**
     * Touches {@code bytes} from {@code address} on a core.
     *
     * @param code {@code true} for instruction fetches (L1i), {@code false} for data (L1d)
     * @return the stall cycles; {@link #lastMisses} holds the lines that missed level 1
     */
    public long touch(int core, long address, int bytes, boolean code) {
        long first = address / lineBytes;
        long last = (address + Math.max(1, bytes) - 1) / lineBytes;
        CacheLevel l1 = code ? l1i[core] : l1d[core];
        long stall = 0;
        int missed = 0;
        for (long line = first; line <= last; line++) {
            if (l1.access(line)) {
                continue;
            }
            missed++;
            if (l2[core].access(line)) {
                stall += l2Cycles;
            } else if (l3 != null && l3.access(line)) {
                stall += l3Cycles;
            } else {
                stall += memoryCycles;
            }
        }
        lastMisses = missed;
        stallCycles[core] += stall;
        return stall;
    }

    /** A device writes {@code bytes} at {@code address}: every cache drops the lines, or level 3 takes them with DDIO. */
    public void dmaWrite(long address, int bytes) {
        long first = address / lineBytes;
        long last = (address + Math.max(1, bytes) - 1) / lineBytes;
        for (long line = first; line <= last; line++) {
            for (int c = 0; c < l1d.length; c++) {
                l1d[c].invalidate(line);
                l2[c].invalidate(line);
            }
            if (l3 == null) {
                continue;
            }
            if (ddio) {
                l3.fill(line);
            } else {
                l3.invalidate(line);
            }
        }
    }

    /** @return the core's level-1 data misses so far */
    public double l1dMisses(int core) {
        return l1d[core].misses;
    }

    /**
     * The series sampler's view of the L1d hit rate: hits in percent of the accesses since the previous call for this
     * core (one sampling interval), or the previous interval's value when the core touched no data meanwhile.
     *
     * @return the hit percentage over the last window
     */
    public double l1dHitPercentWindow(int core) {
        long hits = l1d[core].hits - windowHits[core];
        long misses = l1d[core].misses - windowMisses[core];
        windowHits[core] = l1d[core].hits;
        windowMisses[core] = l1d[core].misses;
        if (hits + misses > 0) {
            windowPercent[core] = 100.0 * hits / (hits + misses);
        }
        return windowPercent[core];
    }

    /** @return the core's level-1 instruction misses so far */
    public double l1iMisses(int core) {
        return l1i[core].misses;
    }

    /** Adds the core's cache counters to its metrics. */
    public void metrics(int core, java.util.Map<String, Double> m) {
        m.put("l1dHits", (double) l1d[core].hits);
        m.put("l1dMisses", (double) l1d[core].misses);
        long accesses = l1d[core].hits + l1d[core].misses;
        m.put("l1dHitPercent", accesses == 0 ? 0.0 : 100.0 * l1d[core].hits / accesses);
        m.put("l1iHits", (double) l1i[core].hits);
        m.put("l1iMisses", (double) l1i[core].misses);
        m.put("l2Hits", (double) l2[core].hits);
        m.put("l2Misses", (double) l2[core].misses);
        m.put("cacheStallCycles", (double) stallCycles[core]);
    }

    /** @return the shared level 3's counters */
    public java.util.Map<String, Double> sharedMetrics() {
        java.util.Map<String, Double> m = new java.util.TreeMap<>();
        if (l3 == null) {
            return m;
        }
        m.put("hits", (double) l3.hits);
        m.put("misses", (double) l3.misses);
        return m;
    }
}

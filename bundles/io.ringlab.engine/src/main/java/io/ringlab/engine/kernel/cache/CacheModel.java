package io.ringlab.engine.kernel.cache;

import io.ringlab.sim.api.CostProfile;
import io.ringlab.engine.kernel.Allocation;

/**
 * The caches of a run's cores, sized from the cost profile: per core a level-1 data and a level-1 instruction cache and a
 * unified level 2, and one level 3 shared by all cores; least-recently-used sets in each (see {@link CacheLevel}). A touch
 * looks each line up from level 1 down and fills every level it missed; the stall is the latency of the level that had the
 * line (nothing for level 1, whose latency the per-operation costs already include), or of memory. A DMA write by a
 * device drops the lines from every cache, or with {@code cache.ddio = 1} (Intel Data Direct I/O) writes them into the
 * level 3.
 * <p>
 * With {@code cache.l1dFillBuffers} in the profile (the level-1 data cache's line-fill buffers, which hold its outstanding
 * misses) data misses overlap in time, as an out-of-order core overlaps independent loads: the lines of one touch are
 * independent, each miss takes a fill buffer for its latency, and a miss that finds every buffer busy waits for the first
 * to free; the touch stalls until its last line arrives. A {@link #prefetch} (a software prefetch, or a store whose
 * read-for-ownership the store buffer hides) starts fills without waiting for them; a later touch of such a line waits
 * only for what is left of its fill, and {@link #fence} (a locked instruction) waits for every outstanding fill. Time is
 * the core's clock in cycles, passed by the caller. Successive touches are dependent (each waits for the last), which is
 * what a pointer chase such as a freelist walk is. Without the key every miss is charged in full, one after another, and
 * prefetches and fences cost nothing. Instruction fetches are always serial.
 * <p>
 * Not modelled: coherence between cores (a line written on one core stays valid in another's cache), write-backs,
 * hardware prefetchers, and the TLB.
 * <p>
 * Profile keys (all required once {@code cache.l1d.bytes} is present, except the level 3's: without {@code cache.l3.bytes}
 * the cores' level 2 misses go to memory; without {@code cache.l1d.bytes} the run has no cache model and touches cost
 * nothing): {@code cache.lineBytes}, {@code cache.l1d.bytes}, {@code cache.l1d.ways}, {@code cache.l1i.bytes},
 * {@code cache.l1i.ways}, {@code cache.l2.bytes}, {@code cache.l2.ways}, {@code cache.l3.bytes}, {@code cache.l3.ways},
 * {@code cache.l2Cycles}, {@code cache.l3Cycles}, {@code cache.memoryCycles}; optional {@code cache.ddio} (0) and
 * {@code cache.l1dFillBuffers} (0: misses serial, no prefetch).
 * <p>
 * Allocation-free after construction. Not thread-safe.
 */
public final class CacheModel {
    public final int lineBytes;
    /** log2 of {@link #lineBytes} (a power of two): a line number is a shift, not a division. */
    private final int lineShift;
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
    /** {@code cache.l1dFillBuffers}: outstanding level-1 data misses per core; 0 for none modelled. */
    private final int fillBuffers;
    /** Per core {@link #fillBuffers} slots: the line each fill brings and the cycle it arrives (free once past). */
    private final long[] fillLine, fillReady;
    /** Per core the latest arrival among its fills: nothing is in flight once the clock has passed it. */
    private final long[] lastReady;
    /**
     * Per core the cache model's own clock in cycles: the caller's, or later where the core has waited for the caches
     * since (a stall outside a task does not move the run's clock), so that time never runs backwards here.
     */
    private final long[] clock;
    /** Per core the fills {@link #prefetch} started; for the counters. */
    private final long[] prefetches;
    /** The upper bound of {@code cache.l1dFillBuffers}. */
    static final int MAX_FILL_BUFFERS = 64;

    private CacheModel(CostProfile p, int cores) {
        lineBytes = (int) p.value("cache.lineBytes");
        if (lineBytes < 8 || Integer.bitCount(lineBytes) != 1) {
            throw new IllegalArgumentException("profile " + p.name() + ": cache.lineBytes=" + lineBytes
                    + ", must be a power of two of at least 8");
        }
        lineShift = Integer.numberOfTrailingZeros(lineBytes);
        l1d = new CacheLevel[cores];
        windowHits = new long[cores];
        windowMisses = new long[cores];
        windowPercent = new double[cores];
        l1i = new CacheLevel[cores];
        l2 = new CacheLevel[cores];
        for (int c = 0; c < cores; c++) {
            l1d[c] = level(p, "l1d", "L1d core " + c, false);
            l1i[c] = level(p, "l1i", "L1i core " + c, true); // code ranges remembered: CacheLevel.rehit
            l2[c] = level(p, "l2", "L2 core " + c, false);
        }
        l3 = p.has("cache.l3.bytes") ? level(p, "l3", "L3", false) : null; // an SoC without a level 3 (Armada 38x)
        l2Cycles = (long) p.value("cache.l2Cycles");
        l3Cycles = l3 == null ? 0 : (long) p.value("cache.l3Cycles");
        memoryCycles = (long) p.value("cache.memoryCycles");
        ddio = p.value("cache.ddio", 0) != 0;
        stallCycles = new long[cores];
        double fb = p.value("cache.l1dFillBuffers", 0);
        if (!(fb >= 0 && fb <= MAX_FILL_BUFFERS) || fb != Math.rint(fb)) {
            throw new IllegalArgumentException("profile " + p.name() + ": cache.l1dFillBuffers=" + fb
                    + ", allowed an integer from 0 (misses not overlapped) to " + MAX_FILL_BUFFERS);
        }
        fillBuffers = (int) fb;
        fillLine = new long[cores * fillBuffers];
        fillReady = new long[cores * fillBuffers];
        lastReady = new long[cores];
        clock = new long[cores];
        prefetches = new long[cores];
    }

    private CacheLevel level(CostProfile p, String key, String name, boolean ranges) {
        long bytes = (long) p.value("cache." + key + ".bytes");
        int ways = (int) p.value("cache." + key + ".ways");
        long lines = bytes / lineBytes;
        if (lines < 1 || lines > (1 << 26)) {
            throw new IllegalArgumentException("profile " + p.name() + ": cache." + key + ".bytes=" + bytes
                    + ", allowed one line to 2^26 lines");
        }
        return new CacheLevel(name, (int) lines, ways, ranges);
    }

    /** @return the run's caches, or {@code null} when the profile describes none */
    public static CacheModel of(CostProfile profile, int cores) {
        return profile.has("cache.l1d.bytes") ? new CacheModel(profile, cores) : null;
    }

    /**
     * Touches {@code bytes} from {@code address} on a core (a demand access: the core waits for the data).
     *
     * @param now the core's clock in cycles (only read with {@code cache.l1dFillBuffers}; the model keeps its own
     *        clock from it, which never goes backwards and moves on by the core's waits for the caches)
     * @param code {@code true} for instruction fetches (L1i), {@code false} for data (L1d)
     * @return the stall cycles; {@link #lastMisses} holds the lines that missed level 1
     */
    public long touch(int core, long address, int bytes, boolean code, long now) {
        if (fillBuffers > 0 && !code) {
            return overlapped(core, address, bytes, now);
        }
        long first = line(address);
        long last = line(address + Math.max(1, bytes) - 1);
        CacheLevel l1 = code ? l1i[core] : l1d[core];
        // a function's code (at most RANGE_LINES lines) is remembered whole and fetched again at once (CacheLevel.rehit)
        boolean range = code && last - first < CacheLevel.RANGE_LINES;
        int n = (int) (last - first + 1);
        if (range && l1.rehit(first, n)) {
            lastMisses = 0;
            return 0;
        }
        long stall = 0;
        int missed = 0;
        for (long line = first; line <= last; line++) {
            if (range ? l1.accessInRange(first, (int) (line - first)) : l1.access(line)) {
                continue;
            }
            missed++;
            stall += below(core, line);
        }
        if (range) {
            l1.rangeEnd(first, n, missed == 0);
        }
        lastMisses = missed;
        stallCycles[core] += stall;
        return stall;
    }

    /** @return the line of a byte address: a shift for the addresses the memory map gives (never negative) */
    private long line(long address) {
        return address >= 0 ? address >> lineShift : address / lineBytes;
    }

    /** The latency of the level below level 1 that has the line, or memory's; fills each level that missed. */
    private long below(int core, long line) {
        if (l2[core].access(line)) {
            return l2Cycles;
        }
        if (l3 != null && l3.access(line)) {
            return l3Cycles;
        }
        return memoryCycles;
    }

    /**
     * A demand touch of data with fill buffers: the lines are independent misses that overlap, each in a fill buffer for
     * its latency; a line still in flight (prefetched) costs what is left of its fill.
     */
    private long overlapped(int core, long address, int bytes, long caller) {
        long now = Math.max(caller, clock[core]);
        long first = line(address);
        long last = line(address + Math.max(1, bytes) - 1);
        CacheLevel l1 = l1d[core];
        long issue = now, done = now;
        int missed = 0;
        for (long line = first; line <= last; line++) {
            if (l1.access(line)) {
                if (lastReady[core] > now) { // something is in flight: is it this line?
                    done = Math.max(done, arrival(core, line, now));
                }
                continue;
            }
            missed++;
            issue = startFill(core, line, below(core, line), issue);
            done = Math.max(done, fillReady[lastSlot]);
        }
        lastMisses = missed;
        clock[core] = done;
        long stall = done - now;
        stallCycles[core] += stall;
        return stall;
    }

    /** The slot {@link #startFill} used last. */
    private int lastSlot;

    /**
     * Puts a miss into the core's fill buffer that frees first, no earlier than {@code issue}.
     *
     * @return when the miss got its buffer (later misses issue no earlier)
     */
    private long startFill(int core, long line, long latency, long issue) {
        int base = core * fillBuffers, slot = base;
        if (lastReady[core] > issue) { // some fill is still out: take the buffer that frees first
            for (int k = base + 1, end = base + fillBuffers; k < end; k++) {
                if (fillReady[k] < fillReady[slot]) {
                    slot = k;
                }
            }
        } // else every buffer is free: the first will do, without a scan (the common case, one miss at a time)
        long start = Math.max(issue, fillReady[slot]);
        fillLine[slot] = line;
        fillReady[slot] = start + latency;
        lastReady[core] = Math.max(lastReady[core], start + latency);
        lastSlot = slot;
        return start;
    }

    /** When a line present in level 1 is usable: its fill's arrival if it is still in flight, else {@code now}. */
    private long arrival(int core, long line, long now) {
        for (int k = core * fillBuffers, end = k + fillBuffers; k < end; k++) {
            if (fillLine[k] == line && fillReady[k] > now) {
                return fillReady[k];
            }
        }
        return now;
    }

    /**
     * Starts filling the lines of {@code bytes} from {@code address} into the core's level-1 data cache without waiting
     * for them ({@code prefetcht0}/{@code prefetchw}, or a store's read-for-ownership). A line already there, or in
     * flight, is left alone and not counted as a level-1 access. Only a miss that finds every fill buffer busy waits, for
     * the first to free. Without {@code cache.l1dFillBuffers} it does nothing.
     *
     * @param caller the core's clock in cycles
     * @return the stall cycles (waiting for a fill buffer)
     */
    public long prefetch(int core, long address, int bytes, long caller) {
        if (fillBuffers == 0) {
            return 0;
        }
        long now = Math.max(caller, clock[core]);
        long first = line(address);
        long last = line(address + Math.max(1, bytes) - 1);
        long issue = now;
        for (long line = first; line <= last; line++) {
            if (l1d[core].fill(line)) {
                continue;
            }
            prefetches[core]++;
            issue = startFill(core, line, below(core, line), issue);
        }
        clock[core] = issue;
        long stall = issue - now;
        stallCycles[core] += stall;
        return stall;
    }

    /**
     * A locked instruction (or {@code mfence}): waits until every fill the core has outstanding has arrived. The model
     * does not tell a store's read-for-ownership from a prefetch, so it waits for both. Without
     * {@code cache.l1dFillBuffers} it does nothing.
     *
     * @param caller the core's clock in cycles
     * @return the stall cycles
     */
    public long fence(int core, long caller) {
        long now = fillBuffers == 0 ? 0 : Math.max(caller, clock[core]);
        if (fillBuffers == 0 || lastReady[core] <= now) {
            return 0;
        }
        clock[core] = lastReady[core];
        long stall = lastReady[core] - now;
        stallCycles[core] += stall;
        return stall;
    }

    /** @return {@code cache.l1dFillBuffers}, 0 when misses are not overlapped */
    public int fillBuffers() {
        return fillBuffers;
    }

    /** A device writes {@code bytes} at {@code address}: every cache drops the lines, or level 3 takes them with DDIO. */
    public void dmaWrite(long address, int bytes) {
        long first = line(address);
        long last = line(address + Math.max(1, bytes) - 1);
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
        if (fillBuffers > 0) {
            m.put("l1dPrefetches", (double) prefetches[core]);
        }
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

package io.ringlab.engine.kernel.cache;

import java.util.Arrays;
import io.ringlab.engine.kernel.Allocation;

/**
 * One cache: {@code sets} sets of {@code ways} lines with least-recently-used replacement (a fully associative cache is one
 * set). Addresses are line numbers (byte address / line size); the set is the line number modulo the sets, as a
 * physically indexed cache's low index bits are. Allocation-free. Not thread-safe.
 */
public final class CacheLevel {
    private static final long EMPTY = -1;

    public final String name;
    private final int sets;
    private final int ways;
    private final long[] tags;
    private final long[] used;
    private long clock;
    public long hits, misses;

    /**
     * @param name for messages and metrics
     * @param lines total lines, a multiple of {@code ways}
     * @param ways lines per set, at least 1
     */
    public CacheLevel(String name, int lines, int ways) {
        if (ways < 1 || lines < ways || lines % ways != 0) {
            throw new IllegalArgumentException(name + ": " + lines + " lines in sets of " + ways
                    + " ways; lines must be a positive multiple of ways");
        }
        this.name = name;
        this.sets = lines / ways;
        this.ways = ways;
        this.tags = new long[lines];
        this.used = new long[lines];
        Arrays.fill(tags, EMPTY);
    }

    /**
     * Looks a line up; on a miss it replaces the set's least recently used line (an empty one first).
     *
     * @param line the line number, at least 0
     * @return {@code true} on a hit
     */
    public boolean access(long line) {
        int base = (int) (line % sets) * ways;
        int victim = base;
        for (int k = base, end = base + ways; k < end; k++) {
            if (tags[k] == line) {
                used[k] = ++clock;
                hits++;
                return true;
            }
            if (used[k] < used[victim]) {
                victim = k;
            }
        }
        tags[victim] = line;
        used[victim] = ++clock;
        misses++;
        return false;
    }

    /**
     * Puts a line in without counting a hit or a miss (a device's write into the cache, DDIO; a prefetch).
     *
     * @return {@code true} if the line was there already
     */
    public boolean fill(long line) {
        int base = (int) (line % sets) * ways;
        int victim = base;
        for (int k = base, end = base + ways; k < end; k++) {
            if (tags[k] == line) {
                used[k] = ++clock;
                return true;
            }
            if (used[k] < used[victim]) {
                victim = k;
            }
        }
        tags[victim] = line;
        used[victim] = ++clock;
        return false;
    }

    /** Drops a line if present (a device wrote it by DMA). */
    public void invalidate(long line) {
        int base = (int) (line % sets) * ways;
        for (int k = base, end = base + ways; k < end; k++) {
            if (tags[k] == line) {
                tags[k] = EMPTY;
                used[k] = 0;
                return;
            }
        }
    }
}

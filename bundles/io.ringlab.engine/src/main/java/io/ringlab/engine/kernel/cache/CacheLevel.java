package io.ringlab.engine.kernel.cache;

import java.util.Arrays;
import io.ringlab.engine.kernel.Allocation;

/**
 * One cache: {@code sets} sets of {@code ways} lines with least-recently-used replacement (a fully associative cache is one
 * set). Addresses are line numbers (byte address / line size); the set is the line number modulo the sets, as a
 * physically indexed cache's low index bits are. Allocation-free. Not thread-safe.
 * <p>
 * Two shortcuts that change no hit, miss or replacement (issue 21: this class was 37 % of mlx5-bulk-drop's CPU): with a
 * power-of-two number of sets (every profile's) the set is the line's low bits, a mask instead of a 64-bit division; and
 * each set remembers the way it used last, which is looked at first (a line is in a set at most once, so finding it
 * there is finding it by the scan). A line found there is the set's most recently used already, so its stamp is left as
 * it is: stamps are only ever compared within a set, where it stays the greatest, so every victim is the same.
 */
public final class CacheLevel {
    private static final long EMPTY = -1;

    public final String name;
    private final int sets;
    private final int ways;
    private final long[] tags;
    private final long[] used;
    /** {@code sets - 1} when {@code sets} is a power of two, else -1 (the set by division). */
    private final int setMask;
    /** Per set the way (0 to {@code ways - 1}) accessed or filled last. */
    private final int[] recent;
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
        this.setMask = Integer.bitCount(sets) == 1 ? sets - 1 : -1;
        this.recent = new int[sets];
        Arrays.fill(tags, EMPTY);
    }

    /** @return the set of a line (at least 0) */
    private int set(long line) {
        return setMask >= 0 ? (int) line & setMask : (int) (line % sets);
    }

    /**
     * Looks a line up; on a miss it replaces the set's least recently used line (an empty one first).
     *
     * @param line the line number, at least 0
     * @return {@code true} on a hit
     */
    public boolean access(long line) {
        int set = set(line);
        int base = set * ways;
        int r = base + recent[set];
        if (tags[r] == line) { // the way used last: no scan, and no stamp (it is the set's most recent already)
            hits++;
            return true;
        }
        int victim = base;
        for (int k = base, end = base + ways; k < end; k++) {
            if (tags[k] == line) {
                used[k] = ++clock;
                hits++;
                recent[set] = k - base;
                return true;
            }
            if (used[k] < used[victim]) {
                victim = k;
            }
        }
        tags[victim] = line;
        used[victim] = ++clock;
        misses++;
        recent[set] = victim - base;
        return false;
    }

    /**
     * Puts a line in without counting a hit or a miss (a device's write into the cache, DDIO; a prefetch).
     *
     * @return {@code true} if the line was there already
     */
    public boolean fill(long line) {
        int set = set(line);
        int base = set * ways;
        int r = base + recent[set];
        if (tags[r] == line) {
            return true;
        }
        int victim = base;
        for (int k = base, end = base + ways; k < end; k++) {
            if (tags[k] == line) {
                used[k] = ++clock;
                recent[set] = k - base;
                return true;
            }
            if (used[k] < used[victim]) {
                victim = k;
            }
        }
        tags[victim] = line;
        used[victim] = ++clock;
        recent[set] = victim - base;
        return false;
    }

    /** Drops a line if present (a device wrote it by DMA). */
    public void invalidate(long line) {
        int base = set(line) * ways;
        for (int k = base, end = base + ways; k < end; k++) {
            if (tags[k] == line) {
                tags[k] = EMPTY;
                used[k] = 0;
                return;
            }
        }
    }
}

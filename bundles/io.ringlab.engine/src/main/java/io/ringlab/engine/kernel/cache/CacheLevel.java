package io.ringlab.engine.kernel.cache;

import java.util.Arrays;

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
 * <p>
 * <b>Ranges</b> (a level built with {@code ranges}: the L1i). A driver fetches the same functions for every packet (mlx5:
 * 59 lines of code per received packet), and in steady state its L1i rarely changes. A range of at most
 * {@link #RANGE_LINES} lines found whole ({@link #rehit}, {@link #accessInRange}, {@link #rangeEnd}) is remembered, by its
 * first line in a direct-mapped table of {@code 2^RANGE_BITS} entries, with the slots its lines were found in and the
 * level's count of slot changes ({@link #epoch}: fills and invalidations) then. While that count has not moved, every
 * line is still in its slot, so fetching the range again is {@code n} hits at once: the stamps the lookups would give
 * ({@code clock + 1} to {@code clock + n}, in order) are only noted, and written into the slots, in the order they were
 * given, before anything next reads a stamp (the next {@link #access}, {@link #fill} or {@link #invalidate}). Every
 * stamp, and each set's way used last, is then what looking each line up would have left.
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

    /** The most lines of a remembered range, and log2 of the entries of the table of ranges. */
    public static final int RANGE_LINES = 64, RANGE_BITS = 6;
    /** Changes of a slot's line so far: fills (a miss, {@link #fill}) and {@link #invalidate}s. */
    private long epoch;
    /** Per entry of the table of ranges: its first line (-1: none), lines, {@link #epoch} when found whole, slots. */
    private final long[] rangeFirst, rangeEpoch;
    private final int[] rangeLines, rangeSlots;
    /** Per entry the clock its noted stamps follow (they are {@code +1} to {@code +lines}), or -1 when none are noted. */
    private final long[] rangeStamp;
    /** The entries with noted stamps, {@link #noted} of them, in no order. */
    private final int[] notedEntries;
    private int noted;
    /** The entry the range being looked up line by line fills. */
    private int recording;

    /**
     * @param name for messages and metrics
     * @param lines total lines, a multiple of {@code ways}
     * @param ways lines per set, at least 1
     */
    public CacheLevel(String name, int lines, int ways) {
        this(name, lines, ways, false);
    }

    /**
     * @param name for messages and metrics
     * @param lines total lines, a multiple of {@code ways}
     * @param ways lines per set, at least 1
     * @param ranges whether ranges are remembered ({@link #rehit})
     */
    public CacheLevel(String name, int lines, int ways, boolean ranges) {
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
        int entries = ranges ? 1 << RANGE_BITS : 0;
        rangeFirst = new long[entries];
        Arrays.fill(rangeFirst, -1);
        rangeEpoch = new long[entries];
        rangeLines = new int[entries];
        rangeSlots = new int[entries * RANGE_LINES];
        rangeStamp = new long[entries];
        Arrays.fill(rangeStamp, -1);
        notedEntries = new int[entries];
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
        if (noted != 0) {
            writeNotedStamps();
        }
        int set = set(line);
        int base = set * ways;
        int r = base + recent[set];
        if (tags[r] == line) { // the way used last: no scan, and no stamp (it is the set's most recent already)
            hits++;
            lastSlot = r;
            return true;
        }
        int victim = base;
        for (int k = base, end = base + ways; k < end; k++) {
            if (tags[k] == line) {
                used[k] = ++clock;
                hits++;
                recent[set] = k - base;
                lastSlot = k;
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
        lastSlot = victim;
        epoch++;
        return false;
    }

    /**
     * Puts a line in without counting a hit or a miss (a device's write into the cache, DDIO; a prefetch).
     *
     * @return {@code true} if the line was there already
     */
    public boolean fill(long line) {
        if (noted != 0) {
            writeNotedStamps();
        }
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
        epoch++;
        return false;
    }

    /** Drops a line if present (a device wrote it by DMA). */
    public void invalidate(long line) {
        if (noted != 0) {
            writeNotedStamps();
        }
        int base = set(line) * ways;
        for (int k = base, end = base + ways; k < end; k++) {
            if (tags[k] == line) {
                tags[k] = EMPTY;
                used[k] = 0;
                epoch++;
                return;
            }
        }
    }

    /** The slot {@link #access} found its line in or put it into last. */
    private int lastSlot;

    /**
     * Fetches a range again if it can: when {@code n} lines from {@code first} were found whole last time and no slot of
     * this level changed since, counts {@code n} hits and notes their stamps. Otherwise the caller looks the range up
     * line by line with {@link #accessInRange} and ends with {@link #rangeEnd}. Only for a level built with ranges.
     *
     * @param n lines, 1 to {@link #RANGE_LINES}
     * @return {@code true} when the range was fetched (every line a hit)
     */
    public boolean rehit(long first, int n) {
        int e = (int) ((first * 0x9E3779B97F4A7C15L) >>> (64 - RANGE_BITS));
        if (rangeFirst[e] == first && rangeLines[e] == n && rangeEpoch[e] == epoch) {
            if (rangeStamp[e] < 0) {
                notedEntries[noted++] = e;
            } // else noted already: these later stamps replace those, line for line
            rangeStamp[e] = clock;
            clock += n;
            hits += n;
            return true;
        }
        recording = e;
        return false;
    }

    /**
     * Line {@code i} of the range {@link #rehit} could not fetch: {@link #access}, remembering the slot.
     *
     * @return {@code true} on a hit
     */
    public boolean accessInRange(long first, int i) {
        boolean hit = access(first + i); // writes any noted stamps first, this entry's included, before its slots change
        rangeSlots[recording * RANGE_LINES + i] = lastSlot;
        return hit;
    }

    /** Ends a range looked up line by line: remembered when every line was a hit (so no slot changed meanwhile). */
    public void rangeEnd(long first, int n, boolean whole) {
        rangeFirst[recording] = whole ? first : -1;
        rangeLines[recording] = n;
        rangeEpoch[recording] = epoch;
    }

    /**
     * Writes the noted stamps into their slots, oldest range first (where two share a line the later stamp stays), and
     * marks each line's way as its set's used last, as the lookups would have.
     */
    private void writeNotedStamps() {
        for (int i = 1; i < noted; i++) { // insertion sort by stamp: a few entries
            int e = notedEntries[i];
            int j = i - 1;
            while (j >= 0 && rangeStamp[notedEntries[j]] > rangeStamp[e]) {
                notedEntries[j + 1] = notedEntries[j];
                j--;
            }
            notedEntries[j + 1] = e;
        }
        for (int i = 0; i < noted; i++) {
            int e = notedEntries[i];
            long first = rangeFirst[e];
            long stamp = rangeStamp[e];
            for (int k = 0, n = rangeLines[e], slots = e * RANGE_LINES; k < n; k++) {
                int slot = rangeSlots[slots + k];
                int set = set(first + k);
                used[slot] = stamp + 1 + k;
                recent[set] = slot - set * ways;
            }
            rangeStamp[e] = -1;
        }
        noted = 0;
    }
}

package io.ringlab.engine.kernel.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * {@link CacheLevel}'s shortcuts (the set by a mask, the way used last looked at first) change no hit, miss or
 * replacement: over long random sequences of accesses, fills and invalidations, with power-of-two and other set
 * counts, every answer and every counter equals a plain least-recently-used cache's, written here as the class was
 * before them (a division and a full scan per lookup).
 */
class CacheLevelTest {

    /** The reference: the class before issue 21's shortcuts. */
    private static final class PlainLru {
        final int sets, ways;
        final long[] tags, used;
        long clock, hits, misses;

        PlainLru(int lines, int ways) {
            this.sets = lines / ways;
            this.ways = ways;
            tags = new long[lines];
            used = new long[lines];
            Arrays.fill(tags, -1);
        }

        boolean lookup(long line, boolean count) {
            int base = (int) (line % sets) * ways;
            int victim = base;
            for (int k = base, end = base + ways; k < end; k++) {
                if (tags[k] == line) {
                    used[k] = ++clock;
                    hits += count ? 1 : 0;
                    return true;
                }
                if (used[k] < used[victim]) {
                    victim = k;
                }
            }
            tags[victim] = line;
            used[victim] = ++clock;
            misses += count ? 1 : 0;
            return false;
        }

        void invalidate(long line) {
            int base = (int) (line % sets) * ways;
            for (int k = base, end = base + ways; k < end; k++) {
                if (tags[k] == line) {
                    tags[k] = -1;
                    used[k] = 0;
                    return;
                }
            }
        }
    }

    private static void sameAsPlain(int lines, int ways, long seed) {
        CacheLevel fast = new CacheLevel("test", lines, ways);
        PlainLru plain = new PlainLru(lines, ways);
        SplittableRandom r = new SplittableRandom(seed);
        long span = lines * 3L; // about a third of the lines fit: hits, misses and evictions all happen
        long hot = 0;
        for (int i = 0; i < 200_000; i++) {
            long line = r.nextInt(4) == 0 ? r.nextLong(span) : hot + r.nextInt(ways * 2); // runs of nearby lines
            if (r.nextInt(64) == 0) {
                hot = r.nextLong(span);
            }
            int op = r.nextInt(20);
            if (op == 0) {
                fast.invalidate(line);
                plain.invalidate(line);
            } else if (op == 1) {
                assertEquals(plain.lookup(line, false), fast.fill(line), "fill of " + line + " at step " + i);
            } else {
                assertEquals(plain.lookup(line, true), fast.access(line), "access of " + line + " at step " + i);
            }
        }
        assertEquals(plain.hits, fast.hits, "hits");
        assertEquals(plain.misses, fast.misses, "misses");
        assertEquals(true, plain.hits > 1000 && plain.misses > 1000, "the sequence exercised both: " + plain.hits + " hits, "
                + plain.misses + " misses");
    }

    /**
     * Remembered ranges ({@link CacheLevel#rehit}) as the cache model uses them for instruction fetches: a few fixed
     * ranges (functions) fetched again and again, among random other accesses, fills and invalidations (each of which
     * writes the noted stamps first). Every answer and every counter equals the plain cache's, which looks each line of
     * each fetch up; so do the answers after it, which depend on the stamps the rehits noted.
     */
    private static void rangesSameAsPlain(int lines, int ways, long seed, int ranges, int maxLength) {
        CacheLevel fast = new CacheLevel("test", lines, ways, true);
        PlainLru plain = new PlainLru(lines, ways);
        SplittableRandom r = new SplittableRandom(seed);
        long[] first = new long[ranges];
        int[] length = new int[ranges];
        for (int f = 0; f < ranges; f++) {
            first[f] = r.nextLong(lines * 2L);
            length[f] = 1 + r.nextInt(maxLength);
        }
        long span = lines * 3L;
        int rehits = 0, lookups = 0;
        for (int i = 0; i < 100_000; i++) {
            int op = r.nextInt(34); // mostly ranges, so that several ranges' stamps are often noted at once
            if (op < 30) { // a range: at once when remembered, else line by line
                int f = r.nextInt(ranges);
                if (fast.rehit(first[f], length[f])) {
                    for (int k = 0; k < length[f]; k++) {
                        assertEquals(true, plain.lookup(first[f] + k, true), "line " + k + " of range " + f + " at step " + i);
                    }
                    rehits++;
                    continue;
                }
                boolean whole = true;
                for (int k = 0; k < length[f]; k++) {
                    boolean hit = fast.accessInRange(first[f], k);
                    assertEquals(plain.lookup(first[f] + k, true), hit, "range " + f + " line " + k + " at step " + i);
                    whole &= hit;
                }
                fast.rangeEnd(first[f], length[f], whole);
                lookups++;
                continue;
            }
            long line = r.nextLong(span);
            if (op == 30) {
                fast.invalidate(line);
                plain.invalidate(line);
            } else if (op == 31) {
                assertEquals(plain.lookup(line, false), fast.fill(line), "fill of " + line + " at step " + i);
            } else {
                assertEquals(plain.lookup(line, true), fast.access(line), "access of " + line + " at step " + i);
            }
        }
        assertEquals(plain.hits, fast.hits, "hits");
        assertEquals(plain.misses, fast.misses, "misses");
        assertEquals(true, rehits > 1000 && lookups > 1000 && plain.misses > 1000, "the sequence exercised rehits ("
                + rehits + "), lookups (" + lookups + ") and misses (" + plain.misses + ")");
    }

    @Test
    void rememberedRangesAnswerAsLookingEachLineUp() {
        rangesSameAsPlain(512, 8, 6, 6, 64); // the L1i of generic-x86-4ghz: 64 sets of 8
        rangesSameAsPlain(480, 8, 7, 6, 64); // 60 sets
        rangesSameAsPlain(64, 2, 8, 6, 8); // small: ranges share sets and evict each other
        rangesSameAsPlain(512, 8, 9, 80, 16); // more ranges than entries: entries taken over, ranges overlapping
        rangesSameAsPlain(32, 4, 10, 3, 24); // ranges longer than the sets: a range's own lines share a set
    }

    @Test
    void powerOfTwoSetsAnswerAsAPlainLru() {
        sameAsPlain(512, 8, 1); // the L1d of generic-x86-4ghz: 64 sets of 8
        sameAsPlain(16384, 16, 2);
    }

    @Test
    void otherSetCountsAnswerAsAPlainLru() {
        sameAsPlain(480, 8, 3); // 60 sets: the division path
        sameAsPlain(12, 12, 4); // fully associative, one set
        sameAsPlain(7, 1, 5); // direct-mapped, 7 sets
    }
}

package io.ringlab.qdisc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Checks {@link Codel} against reference values printed by a C program that compiles the kernel's own definitions
 * ({@code codel_Newton_step} and {@code codel_control_law} from {@code include/net/codel_impl.h}, {@code reciprocal_scale},
 * {@code jhash_1word} from {@code include/linux/jhash.h}) with {@code uint32_t}/{@code uint64_t}, gcc on x86-64.
 */
class CodelTest {

    /**
     * {@code rec_inv_sqrt} for count 1 to 32 as {@code codel_dequeue} produces it: {@code 0xFFFF} on entering the dropping
     * state with count 1, then one Newton step per drop after {@code count++}.
     */
    private static final int[] REC_INV_SQRT_BY_COUNT = {65535, 32769, 36864, 31968, 28935, 26481, 24588, 23037, 21746,
            20647, 19699, 18869, 18136, 17481, 16893, 16360, 15874, 15429, 15019, 14640, 14288, 13961, 13655, 13368, 13099,
            12845, 12605, 12379, 12164, 11960, 11766, 11580};

    /** {@code codel_control_law(0, MS2TIME(100), rec_inv_sqrt)} for the counts above: the drop spacing in 1024-ns units. */
    private static final int[] SPACING_BY_COUNT = {97654, 48829, 54931, 47635, 43116, 39459, 36638, 34327, 32403, 30766,
            29353, 28116, 27024, 26048, 25172, 24378, 23654, 22990, 22379, 21815, 21290, 20803, 20347, 19919, 19518, 19140,
            18782, 18446, 18125, 17821, 17532, 17255};

    @Test
    void shouldIterateTheNewtonStepExactlyAsTheKernel() {
        int[] rec = new int[32];
        int r = Codel.REC_INV_SQRT_ONE;
        for (int count = 1; count <= 32; count++) {
            if (count > 1) {
                r = Codel.newtonStep(count, r);
            }
            rec[count - 1] = r;
        }
        assertArrayEquals(REC_INV_SQRT_BY_COUNT, rec, "rec_inv_sqrt for count 1..32");

        // the iteration converges on 2^16 / sqrt(count): the first step from 1.0 gives 0.5 for count 2, not 0.707
        r = Codel.REC_INV_SQRT_ONE;
        for (int count = 2; count <= 100_000; count++) {
            r = Codel.newtonStep(count, r);
            switch (count) {
                case 100 -> assertEquals(6553, r, "count 100");
                case 1000 -> assertEquals(2072, r, "count 1000");
                case 10_000 -> assertEquals(655, r, "count 10000");
                case 100_000 -> assertEquals(207, r, "count 100000");
                default -> {
                }
            }
            if (count >= 10) {
                double exact = 65536 / Math.sqrt(count);
                assertTrue(Math.abs(r - exact) <= Math.max(1.0, exact * 0.005),
                        "count=" + count + ": rec_inv_sqrt=" + r + ", 2^16/sqrt(count)=" + exact);
            }
        }
    }

    @Test
    void shouldWrapInTheNewtonStepWhereTheKernelWraps() {
        // single steps from arbitrary states; count * invsqrt^2 beyond 3 << 32 wraps in u64 in the kernel too
        int[] counts = {1, 2, 3, 7, 100, 5000, 65535, (int) 4_000_000_000L};
        int[] recs = {0xFFFF, 46341, 1, 0x8000, 12345};
        int[] expected = {65535, 57926, 1, 45056, 18298, 32769, 46340, 1, 40960, 18079, 2, 34755, 1, 36864, 17860, 8, 53950,
                1, 20480, 16984, 32916, 25096, 1, 32768, 62151, 40266, 11424, 1, 16384, 37530, 32763, 63074, 1, 53248, 17437,
                54878, 39016, 1, 49152, 6222};
        int[] actual = new int[expected.length];
        int k = 0;
        for (int count : counts) {
            for (int rec : recs) {
                actual[k++] = Codel.newtonStep(count, rec);
            }
        }
        assertArrayEquals(expected, actual, "codel_Newton_step from arbitrary (count, rec_inv_sqrt)");
        assertEquals(0, Codel.newtonStep(5, 0), "codel_vars_init's rec_inv_sqrt 0 stays 0");
    }

    @Test
    void shouldSpaceDropsByTheControlLaw() {
        int interval = Codel.duration(100_000_000_000L);
        assertEquals(97656, interval, "MS2TIME(100)");
        assertEquals(4882, Codel.duration(5_000_000_000L), "MS2TIME(5)");
        int[] spacing = new int[32];
        for (int i = 0; i < 32; i++) {
            spacing[i] = Codel.controlLaw(0, interval, REC_INV_SQRT_BY_COUNT[i]);
        }
        assertArrayEquals(SPACING_BY_COUNT, spacing, "codel_control_law(0, interval, rec_inv_sqrt)");
        assertEquals(5 + 97654, Codel.controlLaw(5, interval, 0xFFFF), "t + interval * rec / 2^16");
        assertEquals(-10 + 97654, Codel.controlLaw(-10, interval, 0xFFFF), "wraps as a u32");
    }

    @Test
    void shouldKeepTheKernelClockAndItsWrappingComparisons() {
        assertEquals(0, Codel.time(1_023_999), "1023.999 ns is 0 units");
        assertEquals(1, Codel.time(1_024_000), "1024 ns is 1 unit");
        assertEquals(4882, Codel.time(5_000_000_000L), "5 ms");
        long wrap = (1L << 42) * 1000; // 2^32 units of 1024 ns
        assertEquals(0, Codel.time(wrap), "u32 wrap after 2^42 ns");
        assertEquals(3, Codel.time(wrap + 3 * 1_024_000), "and on");
        assertEquals(4_294_967_295L * 1_024_000L, Codel.picos(-1), "picos reads the unit as unsigned");

        assertTrue(Codel.after(Codel.time(wrap + 1_024_000), Codel.time(wrap - 1_024_000)), "after across the wrap");
        assertTrue(Codel.before(-5, 5), "before across the wrap");
        assertTrue(Codel.afterEq(7, 7), "after_eq is reflexive");
        assertFalse(Codel.after(7, 7), "after is strict");
        assertFalse(Codel.afterEq(Integer.MIN_VALUE, 0), "2^31 apart: the signed difference says before");
    }

    @Test
    void shouldHashAndScaleAsTheKernel() {
        int[] seeds = {0, 1, 0x12345678, 0xdeadbeef};
        long[] expected = {76781240L, 1923623579L, 3999427786L, 2568451407L, 3651735687L, 1995431821L, 108502543L,
                4098629971L, 4080554381L, 574717940L, 130226095L, 2118737046L, 4195302278L, 3281235730L, 2007597431L,
                7274411L};
        int[] buckets = {18, 458, 953, 612, 870, 475, 25, 977, 972, 137, 31, 505, 1000, 782, 478, 1};
        int k = 0;
        for (int seed : seeds) {
            for (int flow = 0; flow < 4; flow++) {
                int hash = Codel.jhash1Word(flow, seed);
                assertEquals(expected[k], Integer.toUnsignedLong(hash), "jhash_1word(" + flow + ", " + seed + ")");
                assertEquals(buckets[k], Codel.reciprocalScale(hash, 1024), "reciprocal_scale(hash, 1024)");
                k++;
            }
        }
        assertEquals(1044854496L, Integer.toUnsignedLong(Codel.jhash1Word(65536, 0)), "jhash_1word(65536, 0)");
        assertEquals(0, Codel.reciprocalScale(-1, 0), "ep_ro 0");
        assertEquals(1023, Codel.reciprocalScale(-1, 1024), "the largest hash maps to the last bucket");
    }
}

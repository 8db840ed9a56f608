package io.ringlab.qdisc;

/**
 * CoDel's fixed-point arithmetic exactly as Linux computes it, in Java {@code int}s that wrap as the kernel's {@code u32}s
 * do: the clock ({@code include/net/codel.h}), the reciprocal square root and the control law
 * ({@code include/net/codel_impl.h}), {@code reciprocal_scale} ({@code include/linux/kernel.h}, {@code include/linux/math.h}
 * in current kernels) and the Jenkins hash that stands in for the kernel's flow hash ({@code include/linux/jhash.h}).
 * Unsigned values are carried in {@code int} and widened with {@code & 0xFFFFFFFFL} where the kernel multiplies in 64
 * bits; 64-bit products of two 32-bit values are shifted with {@code >>>}, which reads the same bits as the kernel's
 * {@code u64} shift.
 * <p>
 * Stateless; every method allocates nothing.
 */
final class Codel {

    /**
     * CoDel's clock is nanoseconds shifted right by {@code CODEL_SHIFT} = 10, a 1024-ns unit kept in a {@code u32}
     * ({@code codel_time_t}, {@code include/net/codel.h}), which wraps after 2^42 ns (about 73 minutes); comparisons are
     * signed differences, so any two times less than about 36 minutes apart compare right.
     */
    static final int CODEL_SHIFT = 10;

    /** Bits of {@code codel_vars.rec_inv_sqrt}, a {@code u16}: {@code REC_INV_SQRT_BITS} ({@code include/net/codel.h}). */
    static final int REC_INV_SQRT_BITS = 16;

    /** Shift from {@code rec_inv_sqrt} to a Q0.32 number: {@code REC_INV_SQRT_SHIFT = 32 - REC_INV_SQRT_BITS}. */
    static final int REC_INV_SQRT_SHIFT = 32 - REC_INV_SQRT_BITS;

    /**
     * {@code rec_inv_sqrt} for a count of 1 (1.0 in Q0.16, rounded down): {@code ~0U >> REC_INV_SQRT_SHIFT}
     * ({@code codel_dequeue}).
     */
    static final int REC_INV_SQRT_ONE = 0xFFFF;

    /** Initial value of Jenkins' hash state: {@code JHASH_INITVAL} ({@code include/linux/jhash.h}). */
    static final int JHASH_INITVAL = 0xdeadbeef;

    private static final long U32 = 0xFFFF_FFFFL;

    private Codel() {
    }

    /**
     * {@code codel_get_time()}: {@code ktime_get_ns() >> CODEL_SHIFT}, truncated to 32 bits.
     *
     * @param picos virtual time in picoseconds, at least 0
     * @return the time in CoDel units (1024 ns), as a wrapping {@code u32}
     */
    static int time(long picos) {
        return (int) ((picos / 1000) >>> CODEL_SHIFT);
    }

    /**
     * A duration setting in CoDel units, as {@code fq_codel_change} converts {@code tc}'s microseconds:
     * {@code (us * NSEC_PER_USEC) >> CODEL_SHIFT}; from picoseconds, whole nanoseconds first.
     *
     * @param picos the duration in picoseconds, at least 0
     * @return the duration in CoDel units
     */
    static int duration(long picos) {
        return time(picos);
    }

    /**
     * @param codelTime a time or duration in CoDel units, read as unsigned
     * @return the same in picoseconds ({@code << CODEL_SHIFT}, times 1000)
     */
    static long picos(int codelTime) {
        return ((codelTime & U32) << CODEL_SHIFT) * 1000;
    }

    /** {@code codel_time_after(a, b)}: {@code (s32)(a - b) > 0}. */
    static boolean after(int a, int b) {
        return a - b > 0;
    }

    /** {@code codel_time_after_eq(a, b)}: {@code (s32)(a - b) >= 0}. */
    static boolean afterEq(int a, int b) {
        return a - b >= 0;
    }

    /** {@code codel_time_before(a, b)}: {@code codel_time_after(b, a)}. */
    static boolean before(int a, int b) {
        return after(b, a);
    }

    /**
     * {@code reciprocal_scale(val, ep_ro)}: {@code (u32)(((u64) val * ep_ro) >> 32)}, which maps {@code val} into
     * {@code [0, ep_ro)} without a division.
     *
     * @param val a 32-bit value, read as unsigned
     * @param epRo the range, read as unsigned
     * @return the scaled value, as unsigned
     */
    static int reciprocalScale(int val, int epRo) {
        return (int) (((val & U32) * (epRo & U32)) >>> 32);
    }

    /**
     * {@code codel_Newton_step}: one Newton iteration of the reciprocal square root, {@code new_invsqrt = (invsqrt / 2) *
     * (3 - count * invsqrt^2)}, in the kernel's Q0.32 arithmetic with its truncations ({@code val >>= 2} before the
     * multiply, {@code >> (32 - 2 + 1)} after it, and the store into a {@code u16}).
     *
     * @param count {@code codel_vars.count}, read as unsigned
     * @param recInvSqrt {@code codel_vars.rec_inv_sqrt}, 0 to 0xFFFF
     * @return the new {@code rec_inv_sqrt}, 0 to 0xFFFF
     */
    static int newtonStep(int count, int recInvSqrt) {
        long invsqrt = ((long) recInvSqrt << REC_INV_SQRT_SHIFT) & U32;
        long invsqrt2 = (invsqrt * invsqrt) >>> 32;
        long val = (3L << 32) - (count & U32) * invsqrt2;
        val >>>= 2; // avoid overflow in the following multiply (codel_impl.h)
        val = (val * invsqrt) >>> (32 - 2 + 1);
        return (int) (val >>> REC_INV_SQRT_SHIFT) & 0xFFFF;
    }

    /**
     * {@code codel_control_law}: {@code t + interval / sqrt(count)}, as {@code t + reciprocal_scale(interval, rec_inv_sqrt <<
     * REC_INV_SQRT_SHIFT)}.
     *
     * @param t a time in CoDel units
     * @param interval the interval in CoDel units
     * @param recInvSqrt {@code rec_inv_sqrt}, 0 to 0xFFFF
     * @return the time of the next drop, in CoDel units (wrapping)
     */
    static int controlLaw(int t, int interval, int recInvSqrt) {
        return t + reciprocalScale(interval, recInvSqrt << REC_INV_SQRT_SHIFT);
    }

    /**
     * {@code jhash_1word(a, initval)}: Bob Jenkins' lookup3 final mix of one word ({@code __jhash_nwords} with
     * {@code initval + JHASH_INITVAL + (1 << 2)}), the hash the kernel uses for small keys.
     *
     * @param a the key
     * @param initval the seed (the kernel's {@code hashrnd}; here fq_codel's perturbation)
     * @return the 32-bit hash
     */
    static int jhash1Word(int a, int initval) {
        int seed = initval + JHASH_INITVAL + (1 << 2);
        a += seed;
        int b = seed;
        int c = seed;
        // __jhash_final(a, b, c)
        c ^= b;
        c -= Integer.rotateLeft(b, 14);
        a ^= c;
        a -= Integer.rotateLeft(c, 11);
        b ^= a;
        b -= Integer.rotateLeft(a, 25);
        c ^= b;
        c -= Integer.rotateLeft(b, 16);
        a ^= c;
        a -= Integer.rotateLeft(c, 4);
        b ^= a;
        b -= Integer.rotateLeft(a, 14);
        c ^= b;
        c -= Integer.rotateLeft(b, 24);
        return c;
    }
}

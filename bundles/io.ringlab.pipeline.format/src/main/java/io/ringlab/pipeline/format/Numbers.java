package io.ringlab.pipeline.format;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/**
 * How Ringlab writes numbers: for people ({@link #human}) in the command line's and the console's summaries, exactly
 * but without binary float noise for scripts ({@link #exact}, {@code ringlab run --print}). JSON keeps the full double.
 * Stateless and thread-safe.
 *
 * @since 1.3
 */
public final class Numbers {
    /** Significant digits a person reads (for values below 1,000: 984.3, 0.08126, 22.3). */
    private static final MathContext HUMAN = new MathContext(4);
    /**
     * Significant digits of {@link #exact}: a double carries 15.9 decimal digits, and arithmetic on it leaves noise in the
     * last one or two (787.2194399999998); 15 keep every digit the value means and drop the noise.
     */
    private static final MathContext EXACT = new MathContext(15);
    /** Beyond this an integer-valued double may not be an integer count: it is written as a decimal. */
    private static final double LARGEST_COUNT = 1e15;

    private Numbers() {
    }

    /**
     * @param v a value
     * @return {@code v} for a person: whole values and values of 1,000 or more as integers with thousands separators
     *         (16,253; 15,390 for 15,391.7), smaller ones with 4 significant digits and no trailing zeros (984.3, 22.3,
     *         0.08126), never in scientific notation; "n/a" for NaN
     */
    public static String human(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        if (Math.abs(v) >= LARGEST_COUNT) {
            return new BigDecimal(v).round(HUMAN).toString(); // 1.235E+15: a person cannot count the digits anyway
        }
        if (v == Math.rint(v) || Math.abs(v) >= 1000) {
            return String.format(Locale.ROOT, "%,d", Math.round(v));
        }
        return new BigDecimal(v).round(HUMAN).stripTrailingZeros().toPlainString();
    }

    /**
     * @param v a value
     * @return {@code v} for a script: whole values as plain integers (19680486, not 1.9680486E7), others rounded to 15
     *         significant digits without trailing zeros (787.21944, not 787.2194399999998); "NaN" for NaN
     */
    public static String exact(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return Double.toString(v);
        }
        if (v == Math.rint(v) && Math.abs(v) < LARGEST_COUNT) {
            return Long.toString((long) v);
        }
        return new BigDecimal(v).round(EXACT).stripTrailingZeros().toPlainString();
    }
}

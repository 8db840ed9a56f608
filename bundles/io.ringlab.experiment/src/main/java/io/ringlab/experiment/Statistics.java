package io.ringlab.experiment;

import java.util.Arrays;

import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.StatUtils;
import org.apache.commons.math3.stat.inference.TestUtils;

import io.ringlab.experiment.api.dto.ComparisonDTO;
import io.ringlab.experiment.api.dto.MetricSummaryDTO;

/**
 * The experiments' statistics, with Apache Commons Math: the mean of one variant's values with its 95 % confidence
 * interval from Student's t distribution, and the paired comparison of two variants over the same seeds (the mean
 * difference, its interval, and a two-sided paired t-test). The edge cases (fewer than two values, zero variance) give
 * {@code null} or fixed values with a note, never NaN or infinities ({@link MetricSummaryDTO}, {@link ComparisonDTO}).
 * <p>
 * Zero variance means every value (every difference) is exactly the same double, tested with {@code ==}: a variance
 * computed in floating point may be a rounding error away from 0 when the values are equal, which would give a huge t
 * and a p-value of about 0 for what is really no spread at all.
 * <p>
 * Stateless and thread-safe. Results depend only on the values and their order (the sums run in array order).
 */
final class Statistics {

    /** The confidence level of every interval. */
    static final double CONFIDENCE = 0.95;

    private Statistics() {
    }

    /**
     * @param x one variant's values of one metric, one per run, in seed order; not modified
     * @return the mean with its 95 % confidence interval, or as much of it as {@code x.length} allows
     */
    static MetricSummaryDTO summarize(double[] x) {
        MetricSummaryDTO s = new MetricSummaryDTO();
        s.n = x.length;
        if (x.length == 0) {
            s.note = "no run gave a value";
            return s;
        }
        if (x.length == 1) {
            s.mean = x[0];
            s.note = "n = 1: no standard deviation and no confidence interval (they need two values or more)";
            return s;
        }
        if (allEqual(x)) {
            s.mean = x[0];
            s.standardDeviation = 0.0;
            s.ci95Low = x[0];
            s.ci95High = x[0];
            s.note = "zero variance: every run gave the same value, so the interval is the mean itself";
            return s;
        }
        double mean = StatUtils.mean(x);
        double sd = Math.sqrt(StatUtils.variance(x)); // divisor n - 1
        double half = tQuantile(x.length - 1) * sd / Math.sqrt(x.length);
        s.mean = mean;
        s.standardDeviation = sd;
        s.ci95Low = mean - half;
        s.ci95High = mean + half;
        return s;
    }

    /**
     * Compares two variants paired by seed: {@code b[i]} and {@code a[i]} come from runs with the same seed.
     *
     * @param a the baseline's values; not modified
     * @param b the other variant's values, as many as {@code a}; not modified
     * @return the comparison with {@code n}, the difference (b - a), its interval and the paired t-test, as far as the
     *         values allow; {@code metric}, {@code a} and {@code b} (the names) are left for the caller
     * @throws IllegalArgumentException if the arrays differ in length
     */
    static ComparisonDTO compare(double[] a, double[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("paired samples differ in length: a=" + a.length + ", b=" + b.length);
        }
        int n = a.length;
        ComparisonDTO c = new ComparisonDTO();
        c.n = n;
        if (n == 0) {
            c.note = "no seed gave a value in both variants";
            return c;
        }
        double[] d = new double[n];
        for (int i = 0; i < n; i++) {
            d[i] = b[i] - a[i];
        }
        if (n == 1) {
            c.difference = d[0];
            c.note = "n = 1: the difference of one pair; no confidence interval and no t-test (they need two pairs or more)";
            return c;
        }
        if (allEqual(d)) {
            c.difference = d[0];
            c.ci95Low = d[0];
            c.ci95High = d[0];
            c.pValue = d[0] == 0 ? 1.0 : 0.0;
            c.note = d[0] == 0
                    ? "zero variance: every pair gave the same value in both variants; no t statistic, p = 1"
                    : "zero variance: every pair differs by the same amount; no t statistic (it is infinite), p = 0";
            return c;
        }
        double mean = StatUtils.mean(d);
        double half = tQuantile(n - 1) * Math.sqrt(StatUtils.variance(d) / n);
        c.difference = mean;
        c.ci95Low = mean - half;
        c.ci95High = mean + half;
        c.tStatistic = TestUtils.pairedT(b, a);
        c.pValue = TestUtils.pairedTTest(b, a);
        return c;
    }

    /**
     * Compares two variants paired by seed, some seeds possibly without a value in one of them: {@code a[i]} and
     * {@code b[i]} come from the runs with the i-th seed, NaN where that run gave no counted value. The pairs with a NaN
     * are left out, and the note says how many.
     *
     * @param a the baseline's values by seed; not modified
     * @param b the other variant's values by seed, as many as {@code a}; not modified
     * @return as {@link #compare}, over the complete pairs
     * @throws IllegalArgumentException if the arrays differ in length
     */
    static ComparisonDTO comparePaired(double[] a, double[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("paired samples differ in length: a=" + a.length + ", b=" + b.length);
        }
        double[] x = new double[a.length];
        double[] y = new double[a.length];
        int n = 0;
        for (int i = 0; i < a.length; i++) {
            if (!Double.isNaN(a[i]) && !Double.isNaN(b[i])) {
                x[n] = a[i];
                y[n] = b[i];
                n++;
            }
        }
        ComparisonDTO c = compare(Arrays.copyOf(x, n), Arrays.copyOf(y, n));
        if (n < a.length) {
            String unpaired = (a.length - n) + " of " + a.length + " seeds have no value in one of the variants";
            c.note = c.note == null ? unpaired : c.note + "; " + unpaired;
        }
        return c;
    }

    /** @return the two-sided 95 % quantile of Student's t with {@code df} degrees of freedom, t(0.975, df) */
    static double tQuantile(int df) {
        // no random generator: the distribution is only evaluated, never sampled
        return new TDistribution(null, df).inverseCumulativeProbability(1 - (1 - CONFIDENCE) / 2);
    }

    private static boolean allEqual(double[] x) {
        for (double v : x) {
            if (v != x[0]) {
                return false;
            }
        }
        return true;
    }
}

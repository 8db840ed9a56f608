package io.ringlab.experiment.api.dto;

/**
 * One metric of one variant against the baseline, paired by seed: for every seed where both runs gave a value, the
 * difference {@code b - a} (the variant minus the baseline). The difference's mean with its 95 % confidence interval
 * (Student t, {@code n - 1} degrees of freedom) and a two-sided paired t-test of "the mean difference is 0".
 * <p>
 * Undefined quantities are {@code null}, never NaN or infinite:
 * <ul>
 * <li>{@code n = 0}: only {@code n} is set;</li>
 * <li>{@code n = 1}: the difference is the one pair's; no interval, t or p;</li>
 * <li>zero variance (every pair differs by the same amount, as in a scenario that draws no random numbers): the
 * interval is the difference itself, {@code tStatistic} is {@code null} (it would be ±∞, or 0/0), and {@code pValue} is
 * 0 when the difference is not 0 and 1 when it is.</li>
 * </ul>
 * <p>
 * Not thread-safe.
 */
public class ComparisonDTO {
    /** The metric, {@code ELEMENT.METRIC}. */
    public String metric;
    /** The baseline variant's name (the experiment's first variant). */
    public String a;
    /** The compared variant's name. */
    public String b;
    /** How many seeds gave a value in both variants. */
    public int n;
    /** The mean of {@code b - a} over the pairs, in the metric's unit; {@code null} when {@code n = 0}. */
    public Double difference;
    /** Lower end of the 95 % confidence interval of the mean difference; {@code null} when {@code n < 2}. */
    public Double ci95Low;
    /** Upper end of the 95 % confidence interval of the mean difference; {@code null} when {@code n < 2}. */
    public Double ci95High;
    /** The paired t statistic, mean difference over its standard error; {@code null} when {@code n < 2} or zero variance. */
    public Double tStatistic;
    /** Two-sided p-value of the paired t-test; {@code null} when {@code n < 2}; 0 or 1 with zero variance (above). */
    public Double pValue;
    /** Why a field is {@code null} or fixed, in words; {@code null} otherwise. */
    public String note;
}

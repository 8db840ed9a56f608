package io.ringlab.experiment.api.dto;

/**
 * One metric of one variant over the seeds: the mean and its 95 % confidence interval from Student's t distribution
 * with {@code n - 1} degrees of freedom, {@code mean ± t(0.975, n-1) · s / √n}, where {@code s} is the sample standard
 * deviation. Only runs that finished with both invariants holding and reported a finite value count.
 * <p>
 * Undefined quantities are {@code null}, never NaN: with {@code n = 0} everything but {@code n}; with {@code n = 1} the
 * standard deviation and the interval. With zero variance (every seed gave the same value) the interval is the mean
 * itself.
 * <p>
 * Not thread-safe.
 */
public class MetricSummaryDTO {
    /** How many runs gave a value. */
    public int n;
    /** The mean, in the metric's unit; {@code null} when {@code n = 0}. */
    public Double mean;
    /** The sample standard deviation (divisor {@code n - 1}); {@code null} when {@code n < 2}. */
    public Double standardDeviation;
    /** Lower end of the 95 % confidence interval of the mean; {@code null} when {@code n < 2}. */
    public Double ci95Low;
    /** Upper end of the 95 % confidence interval of the mean; {@code null} when {@code n < 2}. */
    public Double ci95High;
    /** Why a field is {@code null} or the interval is a point, in words; {@code null} otherwise. */
    public String note;
}

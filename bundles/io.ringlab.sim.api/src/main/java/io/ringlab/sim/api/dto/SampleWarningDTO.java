package io.ringlab.sim.api.dto;

/**
 * A reported figure that rests on fewer samples than it needs to mean anything (docs/engine.md, "How many samples a
 * figure rests on"): a percentile or mean of a latency histogram with too few values recorded, a rate over too few
 * counted events, or the headline with none. A warning, never an error: the run's exit code does not change.
 *
 * @since 1.4
 */
public class SampleWarningDTO {
    /** The figure, as {@code element.metric}. */
    public String metric;
    /** The samples it rests on, in the measured window (values recorded, or events counted for a rate). */
    public long samples;
    /** The samples it needs. */
    public long needed;
    /** What to do about it, e.g. "run at least 10s (1 sample in 1s measured)". */
    public String advice;
}

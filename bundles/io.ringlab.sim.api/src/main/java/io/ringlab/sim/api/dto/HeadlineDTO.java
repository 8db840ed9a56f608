package io.ringlab.sim.api.dto;

/** The number that summarises a run, named by the pipeline's {@code headline}. */
public class HeadlineDTO {
    /** The metric as {@code element.metric}. */
    public String metric;
    /** The value in {@link #unit}; NaN if the metric had no value. */
    public double value;
    /** The unit, from the list in README: {@code ms us ns s Mpps pps Mbit/s Gbit/s conn/s B packets %} or empty. */
    public String unit;
}

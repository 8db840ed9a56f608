package io.ringlab.sim.api.dto;

import java.util.ArrayList;
import java.util.List;

/**
 * Time series sampled at a fixed interval of virtual time. Column 0 is the sample time in seconds; the other columns are
 * {@code element.metric}. Row i was sampled at {@code i * intervalSeconds}.
 */
public class SeriesDTO {
    /** Sampling interval in seconds of virtual time. */
    public double intervalSeconds;
    /** Column names; the first is {@code "timeSeconds"}. */
    public List<String> columns = new ArrayList<>();
    /** Rows of values, one per sample; each row has one value per column. */
    public List<double[]> rows = new ArrayList<>();
}

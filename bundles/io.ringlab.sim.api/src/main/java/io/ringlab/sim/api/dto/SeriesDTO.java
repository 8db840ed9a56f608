package io.ringlab.sim.api.dto;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Time series sampled at a fixed interval of virtual time. Column 0 is the sample time in seconds; the other columns are
 * {@code element.metric}. Row i was sampled at {@code i * intervalSeconds}. Besides the sampled columns, {@link #points}
 * holds series whose values come at their own times.
 */
public class SeriesDTO {
    /**
     * The prefix of the columns of an element's drops: {@code drops:ELEMENT.REASON} holds the packets the element dropped
     * under the reason from the run's start ({@code InvariantReportDTO.droppedByElement}), one column for each reason the
     * element registered when the run started.
     *
     * @since 1.7
     */
    public static final String DROPS_PREFIX = "drops:";

    /** Sampling interval in seconds of virtual time. */
    public double intervalSeconds;
    /**
     * Column names; the first is {@code "timeSeconds"}. A histogram's columns {@code element.<name>P50<Unit>} and
     * {@code element.<name>P99<Unit>} (for example {@code sink.latencyP50Micros}) hold the percentile of the values
     * recorded in the interval that ends at the row's time, NaN when none were; the result's elements hold the whole
     * run's under the same names.
     */
    public List<String> columns = new ArrayList<>();
    /**
     * Rows of values, one per sample; each row has one value per column. In a run's result and snapshots, a read-only
     * view of fixed size: the rows sampled until then, of which those past the engine's heap budget are read back from
     * a temporary file (docs/engine.md, "Series").
     */
    public List<double[]> rows = new ArrayList<>();
    /**
     * Series of points recorded at their own virtual times, by name ({@code element.metric}, for example
     * {@code ping.rttMillis}); never {@code null}, empty when no element records any. A name is never also a column.
     *
     * @since 1.4
     */
    public Map<String, PointsDTO> points = new TreeMap<>();
}

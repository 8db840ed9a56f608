package io.ringlab.experiment.api.dto;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The statistics of one sweep point of an experiment: per variant and metric a {@link MetricSummaryDTO} over the seeds
 * at this point, and every non-baseline variant against the baseline, paired by seed at this point (common random
 * numbers: the same seed at the same point).
 * <p>
 * Not thread-safe.
 *
 * @since 1.3
 */
public class PointResultDTO {
    /**
     * The point: each sweep target ({@code ELEMENT.PROPERTY} or {@code ELEMENT} for a type) to its value as the runs used
     * it, in the order of {@link ExperimentResultDTO#parameters}. Never {@code null}.
     */
    public Map<String, String> values = new LinkedHashMap<>();
    /** Variant name to metric to its summary at this point, as {@link ExperimentResultDTO#variants}. Never {@code null}. */
    public Map<String, Map<String, MetricSummaryDTO>> variants = new LinkedHashMap<>();
    /** Every non-baseline variant against the baseline at this point, by metric, then by variant. Never {@code null}. */
    public List<ComparisonDTO> comparisons = new ArrayList<>();
}

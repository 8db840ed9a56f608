package io.ringlab.experiment.api.dto;

import java.util.ArrayList;
import java.util.List;

/**
 * A query's result from a results database ({@code ResultsService.query}): column names and rows of values (numbers as
 * {@link Long} or {@link Double}, text, {@link Boolean}, or {@code null}).
 * <p>
 * Not thread-safe.
 *
 * @since 1.3
 */
public class TableDTO {
    /** The column names, in order. Never {@code null}. */
    public List<String> columns = new ArrayList<>();
    /** The rows, each with one value per column. Never {@code null}. */
    public List<List<Object>> rows = new ArrayList<>();
}

package io.ringlab.experiment.api.dto;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One metric's value in one run, from a results database ({@code ResultsService.scalars}).
 * <p>
 * Not thread-safe.
 *
 * @since 1.3
 */
public class ScalarDTO {
    /** The run's key. */
    public String run;
    /** The run's variant. */
    public String variant;
    /** The run's sweep point, target to value; empty without sweeps. Never {@code null}. */
    public Map<String, String> point = new LinkedHashMap<>();
    /** The run's seed. */
    public long seed;
    /** The element, or {@code pool:ELEMENT.POOL}, {@code cpuN}, {@code l3}. */
    public String element;
    /** The metric's name within its element. */
    public String metric;
    /** Its unit as the metric declares it; {@code null} when it declares none. */
    public String unit;
    /** The value; {@code null} when the run reported NaN. */
    public Double value;
}

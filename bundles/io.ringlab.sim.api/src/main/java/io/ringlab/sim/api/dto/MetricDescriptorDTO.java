package io.ringlab.sim.api.dto;

/**
 * Describes one metric an element type reports: what {@code ringlab elements} lists, so that a user learns the metric
 * names, units and meanings without running a pipeline.
 *
 * @since 1.4
 */
public class MetricDescriptorDTO {
    /** A count that only grows over the measured window (packets, bytes, events). */
    public static final String COUNTER = "counter";
    /** A value read when the run reports (a queue length, a limit, a mean over the element's own span). */
    public static final String GAUGE = "gauge";
    /** A counter's increase per second of the measured window (throughput). */
    public static final String RATE = "rate";
    /** A statistic of a latency histogram (a percentile, minimum, maximum, mean or sample count). */
    public static final String HISTOGRAM = "histogram";

    /**
     * The name as the results report it under the element, with its unit in the name ({@code rxMbitPerSecond}); a
     * family of metrics writes its number as {@code <i>} ({@code stream<i>Cwnd}: {@code stream0Cwnd},
     * {@code stream1Cwnd}, ...).
     */
    public String name;
    /** One of {@link #COUNTER}, {@link #GAUGE}, {@link #RATE}, {@link #HISTOGRAM}. */
    public String kind;
    /**
     * The unit, as the summary prints it ({@code Mbit/s}, {@code ms}, {@code B}); {@code ""} for a plain number;
     * {@code null} to let the engine take it from the name's suffix (the suffix table of README and
     * {@code io.ringlab.pipeline.format.MetricUnits}).
     */
    public String unit;
    /** What the metric means, in one line. */
    public String description;

    /** Creates an empty descriptor. */
    public MetricDescriptorDTO() {
    }

    /**
     * @param kind the kind, one of the constants
     * @param name the name
     * @param description the one-line meaning
     */
    public MetricDescriptorDTO(String kind, String name, String description) {
        this.kind = kind;
        this.name = name;
        this.description = description;
    }

    /**
     * @param kind the kind, one of the constants
     * @param name the name
     * @param unit the unit, for a name whose suffix does not give it ({@code limit} in bytes)
     * @param description the one-line meaning
     */
    public MetricDescriptorDTO(String kind, String name, String unit, String description) {
        this(kind, name, description);
        this.unit = unit;
    }

    /**
     * @param declared a metric's declaration
     * @param kind the kind it is registered as, one of the constants
     * @return the declaration's name
     * @throws IllegalArgumentException naming the metric if the declaration is of another kind or has no name
     * @since 1.4
     */
    public static String nameOf(MetricDescriptorDTO declared, String kind) {
        if (declared.name == null || !kind.equals(declared.kind)) {
            throw new IllegalArgumentException("metric=" + declared.name + ", declared kind=" + declared.kind
                    + ", registered as a " + kind);
        }
        return declared.name;
    }

    // The gauges of a TX queue's byte queue limits (include/linux/dynamic_queue_limits.h, sysfs byte_queue_limits),
    // which every driver with BQL reports under the same names: one declaration for them all. Each call makes a new
    // descriptor.

    /**
     * @return the gauge {@code limit}, in bytes: BQL's limit; 0 without BQL
     * @since 1.4
     */
    public static MetricDescriptorDTO bqlLimit() {
        return new MetricDescriptorDTO(GAUGE, "limit", "B", "BQL limit (sysfs byte_queue_limits/limit); 0 without BQL");
    }

    /**
     * @return the gauge {@code inflight}, in bytes: bytes queued and not completed; 0 without BQL
     * @since 1.4
     */
    public static MetricDescriptorDTO bqlInflight() {
        return new MetricDescriptorDTO(GAUGE, "inflight", "B",
                "BQL bytes queued and not completed (sysfs inflight); 0 without BQL");
    }

    /**
     * @return the gauge {@code stackStops}: times BQL stopped the queue, cumulative
     * @since 1.4
     */
    public static MetricDescriptorDTO bqlStackStops() {
        return new MetricDescriptorDTO(GAUGE, "stackStops", "times BQL stopped the queue (STACK_XOFF); cumulative");
    }

    /**
     * @return the gauge {@code driverStops}: times the driver stopped the queue on a full ring, cumulative
     * @since 1.4
     */
    public static MetricDescriptorDTO bqlDriverStops() {
        return new MetricDescriptorDTO(GAUGE, "driverStops",
                "times the ring filled and the driver stopped the queue (DRV_XOFF); cumulative");
    }
}

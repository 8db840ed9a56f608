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
     * {@link #canvas}: a level, what the element holds now (a queue's backlog, a ring's descriptors in use, BQL's bytes
     * in flight), a gauge; the console's canvas draws it as a bar filled to its {@link #capacity}, or as a number
     * without one.
     *
     * @since 1.7
     */
    public static final String LEVEL = "level";
    /**
     * {@link #canvas}: a counter of the packets ({@code packets} or no unit) or bytes ({@code B}) the element passes on;
     * the canvas shows its rate over the last sampling interval (bytes as bit/s), and its share of the
     * {@link #capacity} (a link's utilisation) when it has one.
     *
     * @since 1.7
     */
    public static final String THROUGHPUT = "throughput";
    /**
     * {@link #canvas}: a gauge of the time the element has been busy so far, in seconds (a link's wire: the frame being
     * serialised counted up to the moment it is read); the canvas shows its increase over the last sampling interval
     * as the element's utilisation, 0 to 1 (a link's connections drawn wider and darker as it rises).
     *
     * @since 1.7
     */
    public static final String BUSY = "busy";

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
    /**
     * The name {@code ethtool -S} prints for this counter in the kernel driver the model follows, when that driver has a
     * counter of the same event in the same unit; {@code null} for a counter of the model only. {@code ringlab stats
     * --ethtool} prints the element's counters that have one in the order the type declares them (the driver's
     * {@code get_strings} order), then the others apart.
     *
     * @since 1.6
     */
    public String ethtool;
    /**
     * Where {@link #ethtool} comes from: the kernel file, version and table ({@code drivers/net/ethernet/stmicro/stmmac/
     * stmmac_ethtool.c @v4.6 stmmac_gstrings_stats[]}); {@code null} without one.
     *
     * @since 1.6
     */
    public String ethtoolSource;
    /**
     * What the console's canvas draws this metric as, on the element's box while a run runs and after: {@link #LEVEL},
     * {@link #THROUGHPUT} or {@link #BUSY}; {@code null} for a metric the canvas does not draw (the inspector lists every metric). The
     * engine samples every metric with a canvas role in the series, and its capacity when that is a metric, so that the
     * canvas can show any sampled time.
     *
     * @since 1.7
     */
    public String canvas;
    /**
     * What bounds the metric on the canvas: the name of another metric of the element ({@code limit}, BQL's limit, for
     * {@code inflight}) or else of one of its properties as run ({@code limit}, a qdisc's packet limit, for
     * {@code backlog}); {@code null} without a bound. A throughput's capacity bounds its rate (bit/s for bytes).
     *
     * @since 1.7
     */
    public String capacity;

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
     * Names the kernel driver's {@code ethtool -S} counter this metric equals.
     *
     * @param name the counter's name in the driver's string table
     * @param source the kernel file, version and table it is in
     * @return this descriptor
     * @since 1.6
     */
    public MetricDescriptorDTO ethtool(String name, String source) {
        this.ethtool = name;
        this.ethtoolSource = source;
        return this;
    }

    /**
     * Makes this metric a level on the canvas ({@link #LEVEL}).
     *
     * @param capacity the metric or property that bounds it, or {@code null}
     * @return this descriptor
     * @since 1.7
     */
    public MetricDescriptorDTO level(String capacity) {
        this.canvas = LEVEL;
        this.capacity = capacity;
        return this;
    }

    /**
     * Makes this counter the element's throughput on the canvas ({@link #THROUGHPUT}).
     *
     * @param capacity the metric or property that bounds its rate (a line rate in bit/s for bytes), or {@code null}
     * @return this descriptor
     * @since 1.7
     */
    public MetricDescriptorDTO throughput(String capacity) {
        this.canvas = THROUGHPUT;
        this.capacity = capacity;
        return this;
    }

    /**
     * Makes this gauge the element's busy time on the canvas ({@link #BUSY}).
     *
     * @return this descriptor
     * @since 1.7
     */
    public MetricDescriptorDTO busy() {
        this.canvas = BUSY;
        this.capacity = null;
        return this;
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
     * @return the gauge {@code inflight}, in bytes: bytes queued and not completed; 0 without BQL; on the canvas a level
     *         of the gauge {@code limit} (since 1.7)
     * @since 1.4
     */
    public static MetricDescriptorDTO bqlInflight() {
        return new MetricDescriptorDTO(GAUGE, "inflight", "B",
                "BQL bytes queued and not completed (sysfs inflight); 0 without BQL").level("limit");
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

    /**
     * @return the gauge {@code limitMin}, in bytes: the lower bound of BQL's limit (sysfs {@code limit_min}); 0 without BQL
     * @since 1.6
     */
    public static MetricDescriptorDTO bqlLimitMin() {
        return new MetricDescriptorDTO(GAUGE, "limitMin", "B", "lower bound of the BQL limit (sysfs limit_min); 0 without BQL");
    }

    /**
     * @return the gauge {@code limitMax}, in bytes: the upper bound of BQL's limit (sysfs {@code limit_max}); 0 without BQL
     * @since 1.6
     */
    public static MetricDescriptorDTO bqlLimitMax() {
        return new MetricDescriptorDTO(GAUGE, "limitMax", "B", "upper bound of the BQL limit (sysfs limit_max); 0 without BQL");
    }

    /**
     * @return the gauge {@code holdTimeMillis}: BQL's slack hold time in ms (sysfs {@code hold_time}); 0 without BQL, -1
     *         when the queue limits do not say
     * @since 1.6
     */
    public static MetricDescriptorDTO bqlHoldTimeMillis() {
        return new MetricDescriptorDTO(GAUGE, "holdTimeMillis",
                "time BQL's slack must persist before the limit shrinks (sysfs hold_time); 0 without BQL");
    }
}

package io.ringlab.sim.api;

import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

import org.osgi.annotation.versioning.ProviderType;

import io.ringlab.sim.api.dto.MetricDescriptorDTO;

/**
 * An element's metrics: counters, gauges and latency histograms, reported under the element's name in run results and
 * sampled into time series. Names carry their unit and follow the kernel's own names where one exists (BQL {@code limit},
 * {@code inflight}; {@code tc -s} {@code backlog}, {@code drops}, {@code requeues}; {@code ethtool -S} counters).
 * Register metrics in the element's constructor; updating them allocates nothing. An element registers a metric by the
 * declaration its factory lists ({@link #counter(MetricDescriptorDTO)},
 * {@link #gauge(MetricDescriptorDTO, DoubleSupplier)}, {@link #rate(MetricDescriptorDTO, Counter, double)}), so that
 * the name, kind, unit and meaning are written once, in the factory's
 * {@link io.ringlab.sim.api.dto.ElementDescriptorDTO#metricDescriptors}.
 * <p>
 * Not thread-safe.
 */
@ProviderType
public interface Metrics {

    /**
     * @param name the counter's name, unique within the element
     * @return a new counter starting at 0
     */
    Counter counter(String name);

    /**
     * Registers a gauge, read at the end of the run and at every series sample.
     *
     * @param name the gauge's name
     * @param value the supplier, called on the engine thread
     */
    void gauge(String name, DoubleSupplier value);

    /**
     * Registers a gauge the element computes itself over a span of its own, from {@code sincePicos} to the moment it is
     * read, and that rests on events the element counts: a goodput over the acknowledgements that advanced it, a
     * connection rate over the connections completed. The run reports {@code samples} as the figure's basis
     * ({@link io.ringlab.sim.api.dto.RunResultDTO#samples}) and warns when it is fewer than 10
     * ({@link io.ringlab.sim.api.dto.RunResultDTO#sampleWarnings}), also when it is none: an element registers such a
     * figure for events it expects. Prefer {@link #rate} where the figure is a counter over the run's measured window.
     *
     * @param name the gauge's name, with its unit
     * @param value the supplier, called on the engine thread
     * @param samples the events the figure rests on so far, called on the engine thread; it must not allocate
     * @param sincePicos the virtual time from which the figure counts (a stream's start, the element's own warm-up)
     * @since 1.4
     */
    void gauge(String name, DoubleSupplier value, LongSupplier samples, long sincePicos);

    /**
     * Registers a rate: the counter's increase over the run's measured window (from the end of the warm-up, or from 0
     * without one) per second of that window, times {@code scale}. Use it for throughput gauges (packets or bytes per
     * second), so that a warm-up is excluded from them as from the counters.
     *
     * @param name the gauge's name, with its unit (for example {@code rxMpps} with scale 1e-6)
     * @param counter a counter of this element
     * @param scale the factor from counts per second to the gauge's unit
     * @since 1.2
     */
    void rate(String name, Counter counter, double scale);

    /**
     * Creates a latency histogram. Results report {@code <name>P50<Unit>}, {@code P90}, {@code P99}, {@code Min},
     * {@code Max}, {@code Mean} in the display unit, and {@code <name>Count}. The time series sample its
     * {@code <name>P50<Unit>} and {@code <name>P99<Unit>} over each sampling interval (NaN for an interval without
     * values), under the same names as the whole run's figures.
     *
     * @param name the histogram's name (for example {@code "rtt"} or {@code "latency"})
     * @param unit the display unit: {@code "Millis"}, {@code "Micros"} or {@code "Nanos"}
     * @return the histogram
     */
    LatencyHistogram histogram(String name, String unit);

    /**
     * Samples a metric of this element (a counter or gauge) into the run's time series.
     *
     * @param name a registered counter or gauge name
     */
    void series(String name);

    /**
     * Also keeps each value recorded in one of this element's histograms as a point at its virtual time, in the run's
     * series of points {@code <histogram><Unit>} ({@link io.ringlab.sim.api.dto.SeriesDTO#points}; for example
     * {@code rttMillis} of the {@code rtt} histogram in milliseconds): for plots of every value over time, such as each
     * ping echo's round-trip time. Room for the run's duration divided by {@code intervalPicos}, plus one, points (at
     * most 1,000,000) is allocated before the run starts; points past it are counted as dropped, not kept. Recording
     * allocates nothing. Call it once per histogram, after {@link #histogram}.
     *
     * @param histogram the name of a histogram of this element
     * @param intervalPicos the least virtual time between two of its values (a ping's interval), more than 0
     * @throws IllegalArgumentException if the element has no such histogram or the interval is not positive
     * @since 1.4
     */
    void points(String histogram, long intervalPicos);

    /**
     * Registers the counter a factory declares: {@link #counter(String)} under the declaration's name.
     *
     * @param declared one of the factory's {@link io.ringlab.sim.api.dto.ElementDescriptorDTO#metricDescriptors}, of
     *            kind {@link MetricDescriptorDTO#COUNTER}
     * @return a new counter starting at 0
     * @throws IllegalArgumentException if the declaration is of another kind
     * @since 1.4
     */
    default Counter counter(MetricDescriptorDTO declared) {
        return counter(MetricDescriptorDTO.nameOf(declared, MetricDescriptorDTO.COUNTER));
    }

    /**
     * Registers the gauge a factory declares: {@link #gauge(String, DoubleSupplier)} under the declaration's name.
     *
     * @param declared one of the factory's metric descriptors, of kind {@link MetricDescriptorDTO#GAUGE}
     * @param value the supplier, called on the engine thread
     * @throws IllegalArgumentException if the declaration is of another kind
     * @since 1.4
     */
    default void gauge(MetricDescriptorDTO declared, DoubleSupplier value) {
        gauge(MetricDescriptorDTO.nameOf(declared, MetricDescriptorDTO.GAUGE), value);
    }

    /**
     * Registers the gauge a factory declares, computed over a span of the element's own:
     * {@link #gauge(String, DoubleSupplier, LongSupplier, long)} under the declaration's name.
     *
     * @param declared one of the factory's metric descriptors, of kind {@link MetricDescriptorDTO#GAUGE}
     * @param value the supplier, called on the engine thread
     * @param samples the events the figure rests on so far, called on the engine thread; it must not allocate
     * @param sincePicos the virtual time from which the figure counts
     * @throws IllegalArgumentException if the declaration is of another kind
     * @since 1.4
     */
    default void gauge(MetricDescriptorDTO declared, DoubleSupplier value, LongSupplier samples, long sincePicos) {
        gauge(MetricDescriptorDTO.nameOf(declared, MetricDescriptorDTO.GAUGE), value, samples, sincePicos);
    }

    /**
     * Registers the rate a factory declares: {@link #rate(String, Counter, double)} under the declaration's name.
     *
     * @param declared one of the factory's metric descriptors, of kind {@link MetricDescriptorDTO#RATE}
     * @param counter a counter of this element
     * @param scale the factor from counts per second to the gauge's unit
     * @throws IllegalArgumentException if the declaration is of another kind
     * @since 1.4
     */
    default void rate(MetricDescriptorDTO declared, Counter counter, double scale) {
        rate(MetricDescriptorDTO.nameOf(declared, MetricDescriptorDTO.RATE), counter, scale);
    }

    /** A monotonically growing count. */
    @ProviderType
    interface Counter {
        /** Adds one. */
        void increment();

        /** @param delta amount to add. */
        void add(long delta);

        /** @return the current value. */
        long get();
    }

    /** A latency distribution recorded in picoseconds (HdrHistogram, 3 significant digits). */
    @ProviderType
    interface LatencyHistogram {
        /** @param picos a latency in picoseconds, at least 0. */
        void record(long picos);

        /** @return the number of values recorded. */
        long count();
    }
}

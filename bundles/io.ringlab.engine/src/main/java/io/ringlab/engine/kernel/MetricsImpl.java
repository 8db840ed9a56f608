package io.ringlab.engine.kernel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleSupplier;

import org.HdrHistogram.Histogram;

import io.ringlab.sim.api.Metrics;

/**
 * One element's metrics. Counters are plain longs; gauges are read when the run reports; histograms are HdrHistograms of
 * picoseconds with 3 significant digits, preallocated for 1 ns to 1 hour, so recording never allocates.
 * Not thread-safe.
 */
final class MetricsImpl implements Metrics {
    /** Lowest latency distinguished: 1 ns in picoseconds. */
    private static final long LOWEST_PICOS = 1_000L;
    /** Highest latency recorded: one hour in picoseconds; larger values are clamped to it. */
    static final long HIGHEST_PICOS = 3_600L * 1_000_000_000_000L;

    /** The run's clock and the start of its measured window (the end of the warm-up, or 0). */
    interface Window {
        long nowPicos();

        long measureStartPicos();
    }

    private final String element;
    private final Window window;
    final Map<String, DoubleSupplier> values = new LinkedHashMap<>();
    final Map<String, Hist> histograms = new LinkedHashMap<>();
    final List<String> series = new ArrayList<>();
    /** While a hot swap creates the new instance: its registrations, applied by {@link #commit}; otherwise null. */
    private Map<String, DoubleSupplier> stagedValues;
    private Map<String, Hist> stagedHistograms;

    MetricsImpl(String element, Window window) {
        this.element = element;
        this.window = window;
    }

    @Override
    public Counter counter(String name) {
        CounterImpl c = new CounterImpl();
        if (stagedValues != null && values.get(name) instanceof CounterImpl old) { // a swap: the count goes on
            c.value = old.value;
            c.baseline = old.baseline;
            c.updates = old.updates;
            c.updatesBaseline = old.updatesBaseline;
        }
        register(name, c);
        return c;
    }

    @Override
    public void gauge(String name, DoubleSupplier value) {
        register(name, value);
    }

    private void register(String name, DoubleSupplier s) {
        Map<String, DoubleSupplier> values = stagedValues != null ? stagedValues : this.values;
        if (values.containsKey(name)) {
            throw new IllegalArgumentException("element " + element + ": metric registered twice: name=" + name);
        }
        values.put(name, s);
    }

    @Override
    public void rate(String name, Counter counter, double scale) {
        Map<String, DoubleSupplier> values = stagedValues != null ? stagedValues : this.values;
        if (!(counter instanceof CounterImpl c) || !values.containsValue(c)) {
            throw new IllegalArgumentException("element " + element + ": rate " + name + " of a counter this element did not"
                    + " register");
        }
        register(name, new Rate(c, scale, window));
    }

    /** Starts the measured window: counters count from here, histograms restart empty. */
    void startMeasuring() {
        for (DoubleSupplier s : values.values()) {
            if (s instanceof CounterImpl c) {
                c.baseline = c.value;
                c.updatesBaseline = c.updates;
            }
        }
        for (Hist h : histograms.values()) {
            h.histogram.reset();
        }
    }

    @Override
    public LatencyHistogram histogram(String name, String unit) {
        long divisor = switch (unit) {
            case "Millis" -> 1_000_000_000L;
            case "Micros" -> 1_000_000L;
            case "Nanos" -> 1_000L;
            default -> throw new IllegalArgumentException("histogram " + name + ": unit=" + unit
                    + ", allowed Millis, Micros, Nanos");
        };
        Hist h = new Hist(unit, divisor);
        Map<String, Hist> histograms = stagedHistograms != null ? stagedHistograms : this.histograms;
        Hist old = stagedHistograms != null ? this.histograms.get(name) : null;
        if (old != null && old.divisor == divisor) { // a swap: the distribution goes on
            h.histogram.add(old.histogram);
        }
        if (histograms.putIfAbsent(name, h) != null) {
            throw new IllegalArgumentException("element " + element + ": histogram registered twice: name=" + name);
        }
        return h;
    }

    @Override
    public void series(String name) {
        Map<String, DoubleSupplier> values = stagedValues != null ? stagedValues : this.values;
        if (!values.containsKey(name)) {
            throw new IllegalArgumentException("element " + element + ": series of unknown metric: name=" + name
                    + "; registered: " + values.keySet());
        }
        if (!series.contains(name)) {
            series.add(name);
        }
    }

    /**
     * Starts a hot swap's staging: the new instance's registrations go aside until {@link #commit}, counters and histograms
     * registered again under an existing name start from the old instance's values.
     */
    void stage() {
        stagedValues = new LinkedHashMap<>();
        stagedHistograms = new LinkedHashMap<>();
    }

    /**
     * Makes the staged registrations current: they replace the old instance's; of the old ones not registered again, the
     * counters and histograms stay (history), the gauges and rates go (they would read a retired instance).
     */
    void commit() {
        values.entrySet().removeIf(e -> !(e.getValue() instanceof CounterImpl) && !stagedValues.containsKey(e.getKey()));
        values.putAll(stagedValues);
        histograms.putAll(stagedHistograms);
        stagedValues = null;
        stagedHistograms = null;
    }

    /** Drops the staged registrations: the swap failed and the old instance goes on. */
    void rollback() {
        stagedValues = null;
        stagedHistograms = null;
    }

    /**
     * @param name a metric's name
     * @return a column for the series that reads the metric current at each sample (a swap may replace it); NaN while the
     *         metric does not exist
     */
    DoubleSupplier column(String name) {
        return () -> {
            DoubleSupplier s = values.get(name);
            return s == null ? Double.NaN : s.getAsDouble();
        };
    }

    /** Adds every metric's current value to {@code out}, histograms as their summaries. */
    void report(Map<String, Double> out) {
        for (Map.Entry<String, DoubleSupplier> e : values.entrySet()) {
            DoubleSupplier s = e.getValue();
            out.put(e.getKey(), s instanceof CounterImpl c ? (double) (c.value - c.baseline) : s.getAsDouble()); // counters: the window
        }
        for (Map.Entry<String, Hist> e : histograms.entrySet()) {
            e.getValue().report(e.getKey(), out);
        }
    }

    /**
     * Adds, for every percentile, mean and rate this element reports, the samples it rests on and the samples it needs
     * ({@link SampleRule}); a histogram's figures are listed also while it is empty (they are then not reported).
     */
    void reportSamples(Map<String, SampleRule.Basis> out) {
        for (Map.Entry<String, DoubleSupplier> e : values.entrySet()) {
            if (e.getValue() instanceof Rate r) {
                out.put(e.getKey(), new SampleRule.Basis(r.counter.updates - r.counter.updatesBaseline, SampleRule.RATE_NEEDS));
            }
        }
        for (Map.Entry<String, Hist> e : histograms.entrySet()) {
            Hist h = e.getValue();
            long n = h.histogram.getTotalCount();
            String name = e.getKey();
            out.put(name + "P50" + h.unit, new SampleRule.Basis(n, SampleRule.percentileNeeds(50)));
            out.put(name + "P90" + h.unit, new SampleRule.Basis(n, SampleRule.percentileNeeds(90)));
            out.put(name + "P99" + h.unit, new SampleRule.Basis(n, SampleRule.percentileNeeds(99)));
            out.put(name + "Mean" + h.unit, new SampleRule.Basis(n, SampleRule.MEAN_NEEDS));
            out.put(name + "Min" + h.unit, new SampleRule.Basis(n, 1));
            out.put(name + "Max" + h.unit, new SampleRule.Basis(n, 1));
        }
    }

    /**
     * A counter; its series show the whole run, its report the measured window (from {@link #baseline}). It also counts
     * its updates (calls of increment or add), the events a rate of it rests on.
     */
    static final class CounterImpl implements Counter, DoubleSupplier {
        long value;
        long baseline;
        long updates;
        long updatesBaseline;

        @Override public void increment() { value++; updates++; }
        @Override public void add(long delta) { value += delta; updates++; }
        @Override public long get() { return value; }
        @Override public double getAsDouble() { return value; }
    }

    /** A rate over the measured window. */
    static final class Rate implements DoubleSupplier {
        private final CounterImpl counter;
        private final double scale;
        private final Window window;

        Rate(CounterImpl counter, double scale, Window window) {
            this.counter = counter;
            this.scale = scale;
            this.window = window;
        }

        @Override
        public double getAsDouble() {
            long span = window.nowPicos() - window.measureStartPicos();
            return span <= 0 ? 0 : (counter.value - counter.baseline) * scale / (span / 1e12);
        }
    }

    static final class Hist implements LatencyHistogram {
        final Histogram histogram = new Histogram(LOWEST_PICOS, HIGHEST_PICOS, 3);
        final String unit;
        final double divisor;

        Hist(String unit, long divisor) {
            this.unit = unit;
            this.divisor = divisor;
        }

        @Override
        public void record(long picos) {
            histogram.recordValue(Math.max(0, Math.min(picos, HIGHEST_PICOS)));
        }

        @Override
        public long count() {
            return histogram.getTotalCount();
        }

        void report(String name, Map<String, Double> out) {
            long n = histogram.getTotalCount();
            out.put(name + "Count", (double) n);
            if (n == 0) {
                return;
            }
            out.put(name + "P50" + unit, histogram.getValueAtPercentile(50) / divisor);
            out.put(name + "P90" + unit, histogram.getValueAtPercentile(90) / divisor);
            out.put(name + "P99" + unit, histogram.getValueAtPercentile(99) / divisor);
            out.put(name + "Max" + unit, histogram.getMaxValue() / divisor);
            out.put(name + "Min" + unit, histogram.getMinValue() / divisor);
            out.put(name + "Mean" + unit, histogram.getMean() / divisor);
        }
    }
}

package io.ringlab.engine.kernel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

import org.HdrHistogram.Histogram;

import io.ringlab.sim.api.Metrics;
import io.ringlab.engine.kernel.series.SampleRule;

/**
 * One element's metrics. Counters are plain longs; gauges are read when the run reports; histograms are HdrHistograms of
 * picoseconds with 3 significant digits, preallocated for 1 ns to 1 hour, so recording never allocates. Each histogram
 * has a second one for the current sampling interval, which the series read ({@link #intervalPercentile}) and which
 * {@link #endInterval} empties after each sample; a histogram given {@link #points} also keeps each value at its time in
 * arrays allocated once ({@link #allocatePoints}).
 * Not thread-safe.
 */
final class MetricsImpl implements Metrics {
    /** Lowest latency distinguished: 1 ns in picoseconds. */
    private static final long LOWEST_PICOS = 1_000L;
    /** Highest latency recorded: one hour in picoseconds; larger values are clamped to it. */
    static final long HIGHEST_PICOS = 3_600L * 1_000_000_000_000L;
    /** The most points a series of points keeps (16 MB); the rest are counted as dropped. */
    static final int MAX_POINTS = 1_000_000;
    /** The percentiles of each histogram that the series sample per interval, with their names' infixes. */
    static final double[] INTERVAL_PERCENTILES = {50, 99};
    static final String[] INTERVAL_NAMES = {"P50", "P99"};

    /** The run's clock and the start of its measured window (the end of the warm-up, or 0). */
    interface Window {
        long nowPicos();

        long measureStartPicos();

        /** Counts heap the run will hold ({@link Simulation#reserveHeap}); nothing by default. */
        default void reserveHeap(String what, long bytes) {
        }
    }

    /** Heap one histogram's two HdrHistograms take (the whole run's and the interval's). */
    private static final long HIST_BYTES = 2 * new Histogram(LOWEST_PICOS, HIGHEST_PICOS, 3).getEstimatedFootprintInBytes();

    private final String element;
    private final Window window;
    final Map<String, DoubleSupplier> values = new LinkedHashMap<>();
    final Map<String, Hist> histograms = new LinkedHashMap<>();
    final List<String> series = new ArrayList<>();
    /** Rates sampled in the series over each interval ({@link #sampleAsSeries}): the headline's, when it is a rate. */
    final List<String> intervalRates = new ArrayList<>();
    /** Histogram name to its series of points ({@link #points}). */
    final Map<String, Points> points = new LinkedHashMap<>();
    /** While a hot swap creates the new instance: its registrations, applied by {@link #commit}; otherwise null. */
    private Map<String, DoubleSupplier> stagedValues;
    private Map<String, Hist> stagedHistograms;
    private Map<String, Points> stagedPoints;
    /** The histograms' current instances, for {@link #endInterval} without an iterator. */
    private Hist[] current = new Hist[0];
    /** The run's duration once {@link #allocatePoints} has been called; 0 before. */
    private long durationPicos;

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

    @Override
    public void gauge(String name, DoubleSupplier value, LongSupplier samples, long sincePicos) {
        if (sincePicos < 0) {
            throw new IllegalArgumentException("element " + element + ": gauge " + name + ": sincePicos=" + sincePicos
                    + ", must be 0 or more");
        }
        register(name, new Counted(value, samples, sincePicos));
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
        if (stagedHistograms == null) { // a swap's replaces the old instance's, which goes
            window.reserveHeap("histogram " + element + "." + name, HIST_BYTES); // before its arrays exist
        }
        Hist h = new Hist(unit, divisor, window);
        Map<String, Hist> histograms = stagedHistograms != null ? stagedHistograms : this.histograms;
        Hist old = stagedHistograms != null ? this.histograms.get(name) : null;
        if (old != null && old.divisor == divisor) { // a swap: the distribution goes on
            h.histogram.add(old.histogram);
            h.interval.add(old.interval);
        }
        if (histograms.putIfAbsent(name, h) != null) {
            throw new IllegalArgumentException("element " + element + ": histogram registered twice: name=" + name);
        }
        current = this.histograms.values().toArray(new Hist[0]);
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

    @Override
    public void points(String histogram, long intervalPicos) {
        Map<String, Hist> histograms = stagedHistograms != null ? stagedHistograms : this.histograms;
        Hist h = histograms.get(histogram);
        if (h == null) {
            throw new IllegalArgumentException("element " + element + ": points of unknown histogram: name=" + histogram
                    + "; registered: " + histograms.keySet());
        }
        if (intervalPicos <= 0) {
            throw new IllegalArgumentException("element " + element + ": points of " + histogram + ": intervalPicos="
                    + intervalPicos + ", must be more than 0");
        }
        Map<String, DoubleSupplier> values = stagedValues != null ? stagedValues : this.values;
        if (values.containsKey(histogram + h.unit)) {
            throw new IllegalArgumentException("element " + element + ": points of " + histogram + " would be named "
                    + histogram + h.unit + ", a metric already");
        }
        Points p = this.points.get(histogram); // a swap: the points go on in the same arrays
        if (p == null) {
            p = new Points(histogram + h.unit, intervalPicos, h.divisor);
            if (durationPicos > 0) {
                p.allocate(durationPicos);
            }
            (stagedPoints != null ? stagedPoints : this.points).put(histogram, p);
        }
        h.points = p;
    }

    /** Allocates the arrays of every series of points for a run of this duration; called once, before the run starts. */
    void allocatePoints(long durationPicos) {
        this.durationPicos = durationPicos;
        for (Points p : points.values()) {
            p.allocate(durationPicos);
        }
    }

    /**
     * @param histogram a histogram's name
     * @param i the index in {@link #INTERVAL_PERCENTILES}
     * @return a column that reads the percentile of the values the histogram current at each sample recorded in the
     *         interval; NaN when it recorded none, or while it does not exist
     */
    DoubleSupplier intervalPercentile(String histogram, int i) {
        double percentile = INTERVAL_PERCENTILES[i];
        return () -> {
            Hist h = histograms.get(histogram);
            return h == null ? Double.NaN : h.intervalPercentile(percentile);
        };
    }

    /** Ends a sampling interval (after the sample has been read): the interval histograms start again empty. */
    void endInterval() {
        for (Hist h : current) {
            if (h.interval.getTotalCount() > 0) { // clearing is a pass over the counts: only when there is something
                h.interval.reset();
            }
        }
    }

    /**
     * Starts a hot swap's staging: the new instance's registrations go aside until {@link #commit}, counters and histograms
     * registered again under an existing name start from the old instance's values.
     */
    void stage() {
        stagedValues = new LinkedHashMap<>();
        stagedHistograms = new LinkedHashMap<>();
        stagedPoints = new LinkedHashMap<>();
    }

    /**
     * Makes the staged registrations current: they replace the old instance's; of the old ones not registered again, the
     * counters and histograms stay (history), the gauges and rates go (they would read a retired instance).
     */
    void commit() {
        values.entrySet().removeIf(e -> !(e.getValue() instanceof CounterImpl) && !stagedValues.containsKey(e.getKey()));
        values.putAll(stagedValues);
        histograms.putAll(stagedHistograms);
        points.putAll(stagedPoints);
        current = histograms.values().toArray(new Hist[0]);
        stagedValues = null;
        stagedHistograms = null;
        stagedPoints = null;
    }

    /** Drops the staged registrations: the swap failed and the old instance goes on. */
    void rollback() {
        stagedValues = null;
        stagedHistograms = null;
        stagedPoints = null;
    }

    /**
     * @param name a metric's name
     * @return a column for the series that reads the metric current at each sample (a swap may replace it); NaN while the
     *         metric does not exist
     */
    /**
     * Samples a metric in the series (the pipeline's headline, so that its chart is never empty): a gauge or a counter as
     * its value, a rate as its value over each sampling interval ({@link #intervalRate}). A histogram's statistic is
     * left to its P50 and P99 columns.
     *
     * @return whether the metric is a gauge, counter or rate of this element
     */
    boolean sampleAsSeries(String name) {
        DoubleSupplier s = values.get(name);
        if (s == null) {
            return false;
        }
        if (s instanceof Rate) {
            if (!intervalRates.contains(name)) {
                intervalRates.add(name);
            }
        } else if (!series.contains(name)) {
            series.add(name);
        }
        return true;
    }

    /**
     * @return a reader of a rate over each sampling interval: its counter's increase since the previous read, scaled, per
     *         second of virtual time between the reads; NaN at the first read. It reads the rate registered under the
     *         name at each call (a hot swap's successor registers its own) and allocates nothing.
     */
    DoubleSupplier intervalRate(String name) {
        return new DoubleSupplier() {
            private long last = Long.MIN_VALUE;
            private long lastPicos;

            @Override
            public double getAsDouble() {
                if (!(values.get(name) instanceof Rate r)) {
                    return Double.NaN;
                }
                long v = r.counter.value;
                long now = window.nowPicos();
                double out = last == Long.MIN_VALUE || now <= lastPicos ? Double.NaN
                        : (v - last) * r.scale / ((now - lastPicos) / 1e12);
                last = v;
                lastPicos = now;
                return out;
            }
        };
    }

    DoubleSupplier column(String name) {
        return () -> {
            DoubleSupplier s = values.get(name);
            return s == null ? Double.NaN : s.getAsDouble();
        };
    }

    /** Adds each histogram's distribution ({@link Hist#cdf}) to {@code out}, keyed {@code element.<name><Unit>}. */
    void distributions(Map<String, java.util.List<double[]>> out) {
        for (Map.Entry<String, Hist> e : histograms.entrySet()) {
            java.util.List<double[]> cdf = e.getValue().cdf();
            if (!cdf.isEmpty()) {
                out.put(element + "." + e.getKey() + e.getValue().unit, cdf);
            }
        }
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
            } else if (e.getValue() instanceof Counted c) {
                out.put(e.getKey(), new SampleRule.Basis(c.samples.getAsLong(), SampleRule.RATE_NEEDS, c.sincePicos));
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

    /** A gauge an element computes over its own span, with the events it rests on ({@link #gauge(String, DoubleSupplier, LongSupplier, long)}). */
    record Counted(DoubleSupplier value, LongSupplier samples, long sincePicos) implements DoubleSupplier {
        @Override
        public double getAsDouble() {
            return value.getAsDouble();
        }
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
        /** The values of the current sampling interval. */
        final Histogram interval = new Histogram(LOWEST_PICOS, HIGHEST_PICOS, 3);
        final String unit;
        final double divisor;
        private final Window window;
        /** Where each value also goes with its time; {@code null} for none. */
        Points points;

        Hist(String unit, long divisor, Window window) {
            this.unit = unit;
            this.divisor = divisor;
            this.window = window;
        }

        @Override
        public void record(long picos) {
            long v = Math.max(0, Math.min(picos, HIGHEST_PICOS));
            histogram.recordValue(v);
            interval.recordValue(v);
            if (points != null) {
                points.add(window.nowPicos(), v);
            }
        }

        /**
         * @return the distribution as {value in the display unit, fraction at or below}, HdrHistogram's percentile
         *         iteration with 5 steps per halving of the distance to 100 %; empty without values
         */
        java.util.List<double[]> cdf() {
            java.util.List<double[]> out = new java.util.ArrayList<>();
            if (histogram.getTotalCount() == 0) {
                return out;
            }
            for (org.HdrHistogram.HistogramIterationValue v : histogram.percentiles(5)) {
                out.add(new double[] { histogram.highestEquivalentValue(v.getValueIteratedTo()) / divisor,
                        v.getPercentileLevelIteratedTo() / 100.0 });
            }
            return out;
        }

        double intervalPercentile(double percentile) {
            return interval.getTotalCount() == 0 ? Double.NaN : interval.getValueAtPercentile(percentile) / divisor;
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

    /** A histogram's values at their times, in arrays allocated once for the run; the ones past them are counted. */
    static final class Points {
        /** The series' name within the element, for example {@code rttMillis}. */
        final String name;
        private final long intervalPicos;
        /** Picoseconds per unit of the values. */
        private final double divisor;
        private long[] atPicos = new long[0];
        private long[] valuePicos = new long[0];
        private int count;
        private long dropped;

        Points(String name, long intervalPicos, double divisor) {
            this.name = name;
            this.intervalPicos = intervalPicos;
            this.divisor = divisor;
        }

        void allocate(long durationPicos) {
            int capacity = (int) Math.min(MAX_POINTS, durationPicos / intervalPicos + 1);
            atPicos = new long[capacity];
            valuePicos = new long[capacity];
        }

        void add(long at, long value) {
            if (count < atPicos.length) {
                atPicos[count] = at;
                valuePicos[count] = value;
                count++;
            } else {
                dropped++;
            }
        }

        /** @return the points so far, values in the series' unit (copies: the run goes on writing) */
        io.ringlab.sim.api.dto.PointsDTO dto() {
            io.ringlab.sim.api.dto.PointsDTO d = new io.ringlab.sim.api.dto.PointsDTO();
            d.timeSeconds = new double[count];
            d.values = new double[count];
            for (int i = 0; i < count; i++) {
                d.timeSeconds[i] = atPicos[i] / 1e12;
                d.values[i] = valuePicos[i] / divisor;
            }
            d.dropped = dropped;
            return d;
        }
    }
}

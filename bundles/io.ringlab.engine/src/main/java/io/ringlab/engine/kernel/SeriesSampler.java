package io.ringlab.engine.kernel;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleSupplier;

import io.ringlab.buffer.api.BufferPool;
import io.ringlab.sim.api.dto.SeriesDTO;
import io.ringlab.engine.kernel.cache.CacheModel;
import io.ringlab.engine.kernel.series.SeriesRecorder;

/**
 * A run's sampled series (docs/engine.md, "Series"): the columns, bound once when the run starts (every element's
 * series metrics and its histograms' per-interval percentiles, every pool's occupancy and live values, each core's
 * level-1 cache counters), the sampler timer that reads them at 0 and every interval into a {@link SeriesRecorder}, and
 * the view of the rows so far. Sampling allocates nothing. Engine thread only, but for {@link #series}'s view.
 */
final class SeriesSampler {
    private final Simulation sim;
    private TimerImpl timer;
    private long interval;
    private DoubleSupplier[] columns = new DoubleSupplier[0];
    private final List<String> names = new ArrayList<>();
    /** The sampled rows; {@code null} before {@link #start}. */
    private SeriesRecorder recorder;
    /** Every element's metrics, whose interval histograms each sample ends. */
    private MetricsImpl[] intervalMetrics = new MetricsImpl[0];

    SeriesSampler(Simulation sim) {
        this.sim = sim;
    }

    /** Binds the columns, makes room for the rows and arms the sampler at 0; called once, when the run starts. */
    void start(long durationPicos, long intervalPicos, SeriesRecorder.Limits limits) {
        List<DoubleSupplier> readers = new ArrayList<>();
        bind(names, readers);
        intervalMetrics = new MetricsImpl[sim.contexts.size()];
        for (int i = 0; i < intervalMetrics.length; i++) {
            intervalMetrics[i] = sim.contexts.get(i).metrics;
            intervalMetrics[i].allocatePoints(durationPicos);
        }
        columns = readers.toArray(new DoubleSupplier[0]);
        interval = intervalPicos;
        recorder = new SeriesRecorder(durationPicos, interval, columns.length + 1, limits, sim::warn);
        timer = new TimerImpl(sim, t -> sample(), -1);
        timer.at(0);
    }

    /**
     * Names the sampled columns of the series and gives a reader of each: every element's series metrics, then its
     * histograms' per-interval percentiles, every pool's occupancy and live counters, each core's level-1 cache
     * counters when the profile has caches. The names exist once the pipeline is built (elements and pools created).
     */
    private void bind(List<String> names, List<DoubleSupplier> columns) {
        for (ElementContextImpl c : sim.contexts) {
            for (String m : c.metrics.series) {
                names.add(c.name + "." + m);
                columns.add(c.metrics.column(m));
            }
            for (String m : c.metrics.intervalRates) { // the headline, when it is a rate: its value over each interval
                names.add(c.name + "." + m);
                columns.add(c.metrics.intervalRate(m));
            }
            for (Map.Entry<String, MetricsImpl.Hist> h : c.metrics.histograms.entrySet()) {
                for (int i = 0; i < MetricsImpl.INTERVAL_NAMES.length; i++) {
                    // the whole run's name: the series column holds its value over each interval (docs/engine.md)
                    names.add(c.name + "." + h.getKey() + MetricsImpl.INTERVAL_NAMES[i] + h.getValue().unit);
                    columns.add(c.metrics.intervalPercentile(h.getKey(), i));
                }
            }
        }
        // each element's drops by the reasons it registered, from the run's start (the console's canvas and its time
        // slider); a reason first registered later (a swap's drain) is in the snapshots and the result only
        for (ElementContextImpl c : sim.contexts) {
            for (int reason : c.dropReasons) {
                names.add(SeriesDTO.DROPS_PREFIX + c.name + "." + sim.ledger.reason(reason));
                int element = c.index;
                columns.add(() -> sim.ledger.dropped(element, reason));
            }
        }
        // every pool's occupancy, and each core's level-1 misses when the profile has caches (live views of issue 4)
        for (BufferPool p : sim.pools) {
            names.add("pool:" + p.name() + ".inUse");
            columns.add(p::inUse);
            names.add("pool:" + p.name() + ".available");
            columns.add(p::available);
            p.liveValues((name, value) -> {
                names.add("pool:" + p.name() + "." + name);
                columns.add(value);
            });
        }
        CacheModel caches = sim.caches();
        if (caches != null) {
            for (CoreImpl core : sim.cores) {
                int c = core.index();
                names.add("cpu" + c + ".l1dMisses");
                columns.add(() -> caches.l1dMisses(c));
                names.add("cpu" + c + ".l1iMisses");
                columns.add(() -> caches.l1iMisses(c));
                names.add("cpu" + c + ".l1dHitPercent"); // over each sampling interval
                columns.add(() -> caches.l1dHitPercentWindow(c));
            }
        }
    }

    /**
     * @return the names a run of this built pipeline will have in its series: the sampled columns, then the series of
     *         points ({@code SeriesDTO.points}); in that order, without {@code timeSeconds}
     */
    List<String> names() {
        List<String> names = new ArrayList<>();
        bind(names, new ArrayList<>());
        for (ElementContextImpl c : sim.contexts) {
            for (MetricsImpl.Points p : c.metrics.points.values()) {
                names.add(c.name + "." + p.name);
            }
        }
        return names;
    }

    private void sample() {
        double[] row = recorder.next();
        if (row != null) {
            row[0] = sim.now / 1e12;
            for (int i = 0; i < columns.length; i++) {
                row[i + 1] = columns[i].getAsDouble();
            }
            String stopped = recorder.commit();
            if (stopped != null) {
                sim.warn(stopped);
                return;
            }
            for (MetricsImpl m : intervalMetrics) {
                m.endInterval();
            }
            timer.after(interval);
        }
    }

    /**
     * @return the rows sampled so far, a view of fixed size ({@link SeriesRecorder#rows}): the run never writes a row
     *         again once sampled
     */
    SeriesDTO series() {
        SeriesDTO s = new SeriesDTO();
        s.intervalSeconds = interval / 1e12;
        s.columns.add("timeSeconds");
        s.columns.addAll(names);
        if (recorder != null) {
            s.rows = recorder.rows();
        }
        for (ElementContextImpl c : sim.contexts) {
            for (MetricsImpl.Points p : c.metrics.points.values()) {
                s.points.put(c.name + "." + p.name, p.dto());
            }
        }
        return s;
    }
}

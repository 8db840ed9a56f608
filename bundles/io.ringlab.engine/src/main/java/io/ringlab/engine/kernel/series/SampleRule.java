package io.ringlab.engine.kernel.series;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.ringlab.pipeline.format.Units;
import io.ringlab.sim.api.dto.SampleWarningDTO;

/**
 * How many samples a reported figure needs to mean anything, and the warnings for those that rest on fewer
 * (docs/engine.md, "How many samples a figure rests on"). The rule, a convention of this project rather than a
 * statistical guarantee:
 * <ul>
 * <li>a percentile pQ of a latency histogram needs at least {@value #MIN_SAMPLES} values and at least one value above
 * it, n &middot; (1 - Q/100) &ge; 1: p50 and p90 need 10, p99 needs 100 (below that, p99 is the maximum);</li>
 * <li>a histogram's mean needs {@value #MIN_SAMPLES} values; its minimum and maximum are exact with one;</li>
 * <li>a rate ({@code Metrics.rate}) needs {@value #MIN_SAMPLES} counted events (updates of its counter) in the measured
 * window; a rate over none is not warned about (a direction that carried nothing is exactly 0), unless it is the
 * headline;</li>
 * <li>a figure an element computes over a span of its own ({@code Metrics.gauge} with samples: a TCP goodput over the
 * acknowledgements that advanced it, http-load's connection rate over the connections completed after its own warm-up)
 * needs {@value #MIN_SAMPLES} of the events the element counts, and is warned about also with none (the element
 * registered it for events it expects);</li>
 * <li>the headline is warned about also when it has no value at all.</li>
 * </ul>
 * The advice scales the measured window by the rate at which samples came: 1 sample in 1 s of a figure that needs 10
 * gives "run at least 10s (1 sample in 1s measured)"; a figure that counts from a time of its own scales its own span.
 */
public final class SampleRule {
    /** The fewest samples any averaged or ranked figure needs. */
    public static final int MIN_SAMPLES = 10;
    /** What a histogram's mean needs. */
    public static final long MEAN_NEEDS = MIN_SAMPLES;
    /** What a rate needs: counted events in the measured window. */
    public static final long RATE_NEEDS = MIN_SAMPLES;

    /**
     * The samples a figure rests on and the samples it needs.
     *
     * @param sincePicos the start of the span the element's own figure covers, or {@link #MEASURED} for a figure of the
     *        run's measured window
     */
    public record Basis(long samples, long needed, long sincePicos) {
        public Basis(long samples, long needed) {
            this(samples, needed, MEASURED);
        }

        /** @return whether the element computes the figure over its own span (then no samples is no figure either) */
        public boolean own() {
            return sincePicos != MEASURED;
        }
    }

    /** {@link Basis#sincePicos} of a figure over the run's measured window. */
    public static final long MEASURED = -1;

    private SampleRule() {
    }

    /** @return the values a percentile needs: at least {@link #MIN_SAMPLES}, and one value above it */
    public static long percentileNeeds(int percentile) {
        long oneAbove = (long) Math.ceil(100.0 / (100 - percentile) - 1e-9);
        return Math.max(MIN_SAMPLES, oneAbove);
    }

    /**
     * @param bases element to metric to its basis
     * @param headline the headline as {@code element.metric}, or {@code null}
     * @param headlineHasValue whether the headline had a value
     * @param measuredPicos the measured window
     * @param warmupPicos the warm-up before it, 0 for none
     * @return the warnings, in element then metric order
     */
    public static List<SampleWarningDTO> warnings(Map<String, Map<String, Basis>> bases, String headline, boolean headlineHasValue,
            long measuredPicos, long warmupPicos) {
        List<SampleWarningDTO> out = new ArrayList<>();
        boolean headlineSeen = false;
        for (Map.Entry<String, Map<String, Basis>> e : bases.entrySet()) {
            for (Map.Entry<String, Basis> m : e.getValue().entrySet()) {
                String metric = e.getKey() + "." + m.getKey();
                boolean isHeadline = metric.equals(headline);
                headlineSeen |= isHeadline;
                Basis b = m.getValue();
                // an empty histogram reports no percentiles and an idle rate is exact; an element's own figure is neither
                boolean reported = b.samples() > 0 || b.own();
                if (b.samples() < b.needed() && (reported || isHeadline)) {
                    out.add(b.own() ? ownWarning(metric, b, warmupPicos + measuredPicos)
                            : warning(metric, b.samples(), b.needed(), measuredPicos, warmupPicos));
                }
            }
        }
        if (headline != null && !headlineSeen && !headlineHasValue) {
            out.add(warning(headline, 0, 1, measuredPicos, warmupPicos));
        }
        return out;
    }

    public static SampleWarningDTO warning(String metric, long samples, long needed, long measuredPicos, long warmupPicos) {
        SampleWarningDTO w = dto(metric, samples, needed);
        String measured = Units.formatPicos(measuredPicos);
        String element = metric.substring(0, metric.lastIndexOf('.'));
        if (samples == 0 || measuredPicos <= 0) {
            w.advice = "no samples in the " + measured + " measured: run longer, or check that traffic reaches " + element;
            return w;
        }
        long want = nice((double) measuredPicos * needed / samples);
        String basis = " (" + count(samples) + " in " + measured + " measured)";
        w.advice = warmupPicos > 0
                ? "measure at least " + Units.formatPicos(want) + " after the " + Units.formatPicos(warmupPicos)
                        + " warm-up, --duration " + Units.formatPicos(want + warmupPicos) + basis
                : "run at least " + Units.formatPicos(want) + basis;
        return w;
    }

    /** @return the warning about a figure an element computes over its own span, from its start to {@code endPicos} */
    public static SampleWarningDTO ownWarning(String metric, Basis b, long endPicos) {
        SampleWarningDTO w = dto(metric, b.samples(), b.needed());
        long span = endPicos - b.sincePicos();
        String since = Units.formatPicos(b.sincePicos());
        String element = metric.substring(0, metric.lastIndexOf('.'));
        if (span <= 0) {
            w.advice = "the run ended at " + Units.formatPicos(endPicos) + ", before the figure starts counting at " + since
                    + ": run longer than " + since;
            return w;
        }
        String from = b.sincePicos() > 0 ? ": the figure counts from " + since : "";
        if (b.samples() == 0) {
            w.advice = "no samples in the " + Units.formatPicos(span) + " the figure covers" + from
                    + ": run longer, or check that traffic reaches " + element;
            return w;
        }
        long want = nice(b.sincePicos() + (double) span * b.needed() / b.samples());
        w.advice = "run at least " + Units.formatPicos(want) + from + " (" + count(b.samples()) + " in "
                + Units.formatPicos(span) + ")";
        return w;
    }

    private static SampleWarningDTO dto(String metric, long samples, long needed) {
        SampleWarningDTO w = new SampleWarningDTO();
        w.metric = metric;
        w.samples = samples;
        w.needed = needed;
        return w;
    }

    /** @return {@code "1 sample"} or {@code "N samples"} */
    private static String count(long samples) {
        return samples + (samples == 1 ? " sample" : " samples");
    }

    /** @return the smallest of 1, 2 or 5 times a power of ten picoseconds that is at least {@code picos} */
    public static long nice(double picos) {
        BigDecimal p = BigDecimal.ONE;
        while (true) {
            for (int f : new int[] {1, 2, 5}) {
                BigDecimal c = p.multiply(BigDecimal.valueOf(f));
                if (c.doubleValue() >= picos - 1e-6) {
                    return c.longValueExact();
                }
            }
            p = p.multiply(BigDecimal.TEN);
        }
    }
}

package io.ringlab.pipeline.format;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.ringlab.sim.api.dto.InvariantReportDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.SampleWarningDTO;

/**
 * The lines of a run's summary that the command line ({@code ringlab run}) and the console both write, in one place so
 * that the two can be compared line by line: the headline, the two invariants, and the figures that rest on too few
 * samples. Numbers are written for people ({@link Numbers#human}). Stateless and thread-safe.
 *
 * @since 1.3
 */
public final class RunText {
    /** Marks a figure that rests on too few samples; {@link #fewSamples} says which and why. */
    public static final String FEW_SAMPLES = "*";

    private RunText() {
    }

    /**
     * @param r a run's result; must not be {@code null}
     * @return {@code ping.rttP50Millis = 0.6679 ms}, with {@code   * 1 sample, needs 10: see below} when it rests on too
     *         few samples and {@code n/a} for no value; {@code null} when the pipeline names no headline
     */
    public static String headline(RunResultDTO r) {
        if (r.headline == null) {
            return null;
        }
        SampleWarningDTO few = r.sampleWarnings.stream().filter(w -> w.metric.equals(r.headline.metric)).findFirst()
                .orElse(null);
        return r.headline.metric + " = " + Numbers.human(r.headline.value)
                + (r.headline.unit == null || r.headline.unit.isEmpty() ? "" : " " + r.headline.unit)
                + (few == null ? "" : "   " + FEW_SAMPLES + " " + samples(few) + ": see below");
    }

    /**
     * @param inv a run's invariants; must not be {@code null}
     * @return {@code packets: generated N = delivered N + dropped N {reason=N} + in flight N: ok} (no braces without
     *         drops)
     */
    public static String packets(InvariantReportDTO inv) {
        return String.format(Locale.ROOT, "packets: generated %,d = delivered %,d + dropped %,d%s + in flight %,d: %s",
                inv.generated, inv.delivered, inv.dropped, inv.droppedByReason.isEmpty() ? "" : " " + inv.droppedByReason,
                inv.inFlight, inv.packetConservation ? "ok" : "BROKEN");
    }

    /**
     * @param inv a run's invariants; must not be {@code null}
     * @return {@code buffers: allocated N - freed N = in use N (held N): ok}
     */
    public static String buffers(InvariantReportDTO inv) {
        return String.format(Locale.ROOT, "buffers: allocated %,d - freed %,d = in use %,d (held %,d): %s", inv.buffersAllocated,
                inv.buffersFreed, inv.buffersInUse, inv.buffersHeld, inv.bufferConservation ? "ok" : "BROKEN");
    }

    /**
     * @param r a run's result; must not be {@code null}
     * @return the block that explains the figures marked {@link #FEW_SAMPLES}: a heading, then one line per element and
     *         basis ({@code   ping.rttMeanMillis, rttP50Millis: 1 sample, needs 10; run at least 10s (...)}); empty
     *         without sample warnings
     */
    public static List<String> fewSamples(RunResultDTO r) {
        List<String> out = new ArrayList<>();
        if (r.sampleWarnings.isEmpty()) {
            return out;
        }
        out.add(FEW_SAMPLES + " rests on too few samples to mean much (docs/engine.md, \"How many samples a figure rests on\"):");
        Map<String, List<String>> lines = new LinkedHashMap<>(); // element and basis to its metrics
        Map<String, String> owners = new LinkedHashMap<>();
        for (SampleWarningDTO w : r.sampleWarnings) {
            int dot = w.metric.lastIndexOf('.');
            String basis = samples(w) + "; " + w.advice;
            String key = w.metric.substring(0, dot) + "\n" + basis;
            owners.put(key, w.metric.substring(0, dot));
            lines.computeIfAbsent(key, k -> new ArrayList<>()).add(w.metric.substring(dot + 1));
        }
        lines.forEach((key, metrics) -> out.add("  " + owners.get(key) + "." + String.join(", ", metrics) + ": "
                + key.substring(key.indexOf('\n') + 1)));
        return out;
    }

    /**
     * @param w a sample warning; must not be {@code null}
     * @return {@code 1 sample, needs 10}
     */
    public static String samples(SampleWarningDTO w) {
        return String.format(Locale.ROOT, "%,d sample%s, needs %,d", w.samples, w.samples == 1 ? "" : "s", w.needed);
    }
}

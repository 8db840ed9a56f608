package io.ringlab.console;

import java.util.Locale;

import io.ringlab.pipeline.format.SwapText;
import io.ringlab.sim.api.dto.InvariantReportDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * The summary panel's text for a finished run, without widgets: how it ended, the headline, and the two invariants in the
 * command line's words ({@code ringlab run}'s last lines), so the console and the CLI can be compared line by line.
 */
final class SummaryText {
    private SummaryText() {
    }

    /** @return the headline as the summary writes it: {@code "eth0.ringUsed = 256.0"}, "n/a" for NaN, or {@code null}. */
    static String headline(RunResultDTO r) {
        if (r.headline == null) {
            return null;
        }
        String v = Double.isNaN(r.headline.value) ? "n/a" : String.format(Locale.ROOT, "%.4g", r.headline.value);
        return r.headline.metric + " = " + v + (r.headline.unit == null || r.headline.unit.isEmpty() ? "" : " " + r.headline.unit);
    }

    /**
     * @param r a run's result; never {@code null}
     * @return several lines, no trailing newline
     */
    static String of(RunResultDTO r) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%s: %s, seed %d, profile %s%n", r.pipeline, r.state, r.seed, r.profile));
        sb.append(String.format(Locale.ROOT, "simulated %.6f s in %.3f s wall, %,d events, %,d packets generated%n",
                r.simulatedSeconds, r.wallSeconds, r.events, r.packets));
        if (r.error != null) {
            sb.append("error: ").append(r.error).append('\n');
        }
        String h = headline(r);
        sb.append("headline ").append(h == null ? "(the pipeline names none)" : h).append('\n');
        for (var sw : r.swaps) {
            sb.append(SwapText.of(sw)).append('\n');
        }
        InvariantReportDTO inv = r.invariants;
        sb.append(String.format(Locale.ROOT, "packets: generated %,d = delivered %,d + dropped %,d %s + in flight %,d: %s%n",
                inv.generated, inv.delivered, inv.dropped, inv.droppedByReason, inv.inFlight, inv.packetConservation ? "ok" : "BROKEN"));
        sb.append(String.format(Locale.ROOT, "buffers: allocated %,d - freed %,d = in use %,d (held %,d): %s", inv.buffersAllocated,
                inv.buffersFreed, inv.buffersInUse, inv.buffersHeld, inv.bufferConservation ? "ok" : "BROKEN"));
        for (String v : inv.violations) {
            sb.append("\n  violation: ").append(v);
        }
        r.warnings.forEach((message, count) -> sb.append(String.format(Locale.ROOT, "%nwarning: %s (%,d times)", message, count)));
        return sb.toString();
    }
}

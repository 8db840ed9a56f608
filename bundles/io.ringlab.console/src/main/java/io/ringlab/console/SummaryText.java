package io.ringlab.console;

import java.util.Locale;

import io.ringlab.pipeline.format.RunText;
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

    /**
     * @return the headline as the summary writes it, as {@code ringlab run} does ({@link RunText#headline}):
     *         {@code "ping.rttP50Millis = 3.148 ms"}, "n/a" for no value, or {@code null}
     */
    static String headline(RunResultDTO r) {
        return RunText.headline(r);
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
        sb.append(RunText.packets(inv)).append('\n');
        sb.append(RunText.buffers(inv));
        for (String v : inv.violations) {
            sb.append("\n  violation: ").append(v);
        }
        r.warnings.forEach((message, count) -> sb.append(String.format(Locale.ROOT, "%nwarning: %s (%,d times)", message, count)));
        RunText.fewSamples(r).forEach(l -> sb.append('\n').append(l));
        return sb.toString();
    }
}

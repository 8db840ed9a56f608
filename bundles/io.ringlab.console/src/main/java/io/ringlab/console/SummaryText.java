package io.ringlab.console;

import java.util.Locale;

import io.ringlab.pipeline.format.RunText;
import io.ringlab.pipeline.format.SwapText;
import io.ringlab.pipeline.format.TestbedViews;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
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
     * @param types the installed element types
     * @return the run's counters as {@code tc -s qdisc show}, {@code ethtool -S} and the BQL sysfs files show them
     *         ({@link TestbedViews}, as {@code ringlab stats} prints them), after a blank line; empty for a result that
     *         does not record the pipeline as run
     */
    static String views(RunResultDTO r, java.util.List<ElementDescriptorDTO> types) {
        if (r.types == null || r.types.isEmpty()) {
            return "";
        }
        java.util.Map<String, ElementDescriptorDTO> byType = new java.util.HashMap<>();
        types.forEach(d -> byType.putIfAbsent(d.type, d));
        try {
            return "\n\n" + TestbedViews.print(r, TestbedViews.ALL, null, true, byType::get).stripTrailing();
        } catch (TestbedViews.NotApplicable e) {
            return ""; // with headers a view says why it does not apply; nothing is thrown
        }
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

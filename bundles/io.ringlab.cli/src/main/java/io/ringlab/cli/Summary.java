package io.ringlab.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.ringlab.pipeline.format.Numbers;
import io.ringlab.pipeline.format.RunText;
import io.ringlab.pipeline.format.SwapText;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.SampleWarningDTO;
import io.ringlab.sim.api.dto.RuntimeRowDTO;

/**
 * The human summary of a run: headline, per-element metrics, CPU runtime (like VPP's {@code show runtime}), invariants,
 * and the figures that rest on too few samples. Numbers are written for people ({@link Numbers#human}); element lines
 * whose values are all 0 and pools nothing allocated from are left out (named on one line), and long element lines wrap
 * at {@link #width()}.
 */
final class Summary {
    /**
     * System property the launcher sets to the terminal's width when standard output is a terminal; the summary wraps
     * there, else at {@link #DEFAULT_WIDTH}.
     */
    static final String COLUMNS_PROPERTY = "ringlab.columns";
    static final int DEFAULT_WIDTH = 100;
    /** The element lines' name column: at least 12 wide, wider for longer names up to 24. */
    private static final int NAME_COLUMN = 12, MAX_NAME_COLUMN = 24;

    private Summary() {
    }

    static void print(RunResultDTO r, PrintStream out) {
        print(r, out, width());
    }

    /** @return the width to wrap at: {@link #COLUMNS_PROPERTY} when set and sensible, else {@link #DEFAULT_WIDTH} */
    static int width() {
        Integer w = Integer.getInteger(COLUMNS_PROPERTY);
        return w == null || w < 40 ? DEFAULT_WIDTH : w;
    }

    static void print(RunResultDTO r, PrintStream out, int width) {
        out.printf(Locale.ROOT, "pipeline %s (%s), seed %d, profile %s: %s%n", r.pipeline, r.pipelineFile, r.seed, r.profile, r.state);
        String overrides = RunOverrides.describe(r.overrides);
        if (!overrides.isEmpty()) {
            out.println("overrides: " + overrides);
        }
        out.printf(Locale.ROOT, "simulated %.6f s in %.3f s wall, %,d events, %,d packets generated%n", r.simulatedSeconds, r.wallSeconds,
                r.events, r.packets);
        if (r.error != null) {
            out.println("error: " + r.error);
        }
        Map<String, SampleWarningDTO> few = new LinkedHashMap<>();
        for (SampleWarningDTO w : r.sampleWarnings) {
            few.put(w.metric, w);
        }
        String headline = RunText.headline(r);
        if (headline != null) {
            out.println("headline " + headline);
        }
        out.println();
        List<String> quiet = new ArrayList<>();
        int column = NAME_COLUMN; // wide enough for the longest name (pool:eth0.gso), within reason
        for (String name : r.elements.keySet()) {
            column = Math.min(MAX_NAME_COLUMN, Math.max(column, name.length()));
        }
        for (Map.Entry<String, Map<String, Double>> e : r.elements.entrySet()) {
            String name = e.getKey();
            Map<String, Double> metrics = e.getValue();
            if (leftOut(name, metrics)) {
                quiet.add(name);
                continue;
            }
            List<String> items = new ArrayList<>();
            for (Map.Entry<String, Double> m : metrics.entrySet()) {
                items.add(m.getKey() + '=' + Numbers.human(m.getValue())
                        + (few.containsKey(name + "." + m.getKey()) ? RunText.FEW_SAMPLES : ""));
            }
            printWrapped(out, name, column, items, width);
        }
        if (!quiet.isEmpty()) {
            out.println("  (left out, every value 0 or a pool never allocated from: " + String.join(", ", quiet) + ")");
        }
        if (!r.runtime.isEmpty()) {
            out.println();
            out.printf(Locale.ROOT, "  %-12s %12s %14s %16s %12s %12s%n", "runtime", "calls", "packets", "cycles", "cycles/pkt", "ns/pkt");
            for (RuntimeRowDTO row : r.runtime) {
                out.printf(Locale.ROOT, "  %-12s %,12d %,14d %,16d %12.1f %12.2f%n", row.element, row.calls, row.packets, row.cycles,
                        row.cyclesPerPacket, row.cpuNanosPerPacket);
            }
        }
        for (var sw : r.swaps) {
            out.println(SwapText.of(sw));
        }
        out.println();
        var inv = r.invariants;
        out.println(RunText.packets(inv));
        out.println(RunText.buffers(inv));
        for (String v : inv.violations) {
            out.println("  violation: " + v);
        }
        r.warnings.forEach((message, count) -> out.printf(Locale.ROOT, "warning: %s (%,d times)%n", message, count));
        RunText.fewSamples(r).forEach(out::println);
    }


    /** @return whether the element's line carries nothing: every value 0 (or NaN), or a pool nothing was allocated from */
    static boolean leftOut(String name, Map<String, Double> metrics) {
        if (name.startsWith("pool:")) {
            Double allocs = metrics.get("allocs");
            if (allocs != null && allocs == 0 && metrics.getOrDefault("inUse", 0.0) == 0) {
                return true;
            }
        }
        return metrics.values().stream().allMatch(v -> v == 0 || Double.isNaN(v));
    }

    /** Prints {@code name} and its items two spaces apart, continuing on indented lines past {@code width}. */
    static void printWrapped(PrintStream out, String name, int column, List<String> items, int width) {
        String indent = " ".repeat(2 + column + 1);
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %-" + column + "s ", name));
        boolean first = true;
        for (String item : items) {
            if (!first && line.length() + 2 + item.length() > width) {
                out.println(line);
                line = new StringBuilder(indent);
                first = true;
            }
            if (!first) {
                line.append("  ");
            }
            line.append(item);
            first = false;
        }
        out.println(line);
    }
}

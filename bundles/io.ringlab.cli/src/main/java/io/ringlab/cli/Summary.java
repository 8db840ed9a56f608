package io.ringlab.cli;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;

import io.ringlab.pipeline.format.SwapText;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.RuntimeRowDTO;

/** The human summary of a run: headline, per-element metrics, CPU runtime (like VPP's {@code show runtime}), invariants. */
final class Summary {
    private Summary() {
    }

    static void print(RunResultDTO r, PrintStream out) {
        out.printf(Locale.ROOT, "pipeline %s (%s), seed %d, profile %s: %s%n", r.pipeline, r.pipelineFile, r.seed, r.profile, r.state);
        out.printf(Locale.ROOT, "simulated %.6f s in %.3f s wall, %,d events, %,d packets generated%n", r.simulatedSeconds, r.wallSeconds,
                r.events, r.packets);
        if (r.error != null) {
            out.println("error: " + r.error);
        }
        if (r.headline != null) {
            out.printf(Locale.ROOT, "headline %s = %s %s%n", r.headline.metric,
                    Double.isNaN(r.headline.value) ? "n/a" : String.format(Locale.ROOT, "%.4g", r.headline.value), r.headline.unit);
        }
        out.println();
        for (Map.Entry<String, Map<String, Double>> e : r.elements.entrySet()) {
            StringBuilder sb = new StringBuilder();
            for (Map.Entry<String, Double> m : e.getValue().entrySet()) {
                if (sb.length() > 0) {
                    sb.append("  ");
                }
                double v = m.getValue();
                sb.append(m.getKey()).append('=').append(v == Math.rint(v) && Math.abs(v) < 1e15 ? String.format(Locale.ROOT, "%d", (long) v)
                        : String.format(Locale.ROOT, "%.4g", v));
            }
            out.printf(Locale.ROOT, "  %-12s %s%n", e.getKey(), sb);
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
        out.printf(Locale.ROOT, "packets: generated %,d = delivered %,d + dropped %,d %s + in flight %,d: %s%n", inv.generated, inv.delivered,
                inv.dropped, inv.droppedByReason, inv.inFlight, inv.packetConservation ? "ok" : "BROKEN");
        out.printf(Locale.ROOT, "buffers: allocated %,d - freed %,d = in use %,d (held %,d): %s%n", inv.buffersAllocated, inv.buffersFreed,
                inv.buffersInUse, inv.buffersHeld, inv.bufferConservation ? "ok" : "BROKEN");
        for (String v : inv.violations) {
            out.println("  violation: " + v);
        }
        r.warnings.forEach((message, count) -> out.printf(Locale.ROOT, "warning: %s (%,d times)%n", message, count));
    }
}

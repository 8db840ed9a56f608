package io.ringlab.console;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.ringlab.sim.api.dto.RuntimeRowDTO;

/**
 * The CPU table's rows, like VPP's {@code show runtime} and the command line's runtime table, without widgets.
 * <p>
 * At the end of a run the rows are the result's {@code runtime} table, exactly. While a run goes on the engine's
 * snapshots carry no runtime table, only each charging element's metrics {@code cpuCycles}, {@code cpuNanos},
 * {@code cpuCyclesPerPacket} and {@code cpuNanosPerPacket}; the live rows are made from those: packets are
 * {@code round(cpuCycles / cpuCyclesPerPacket)} and calls are unknown (shown as {@code -}) until the run ends.
 *
 * @param element the element's name
 * @param calls charges made, or -1 when not known (live rows)
 * @param packets packets handled by those charges
 * @param cycles cycles charged
 * @param cyclesPerPacket cycles per packet; 0 without packets
 * @param nanosPerPacket CPU nanoseconds per packet; 0 without packets
 */
record CpuTable(String element, long calls, long packets, long cycles, double cyclesPerPacket, double nanosPerPacket) {

    /** Column titles, as the command line prints them. */
    static final List<String> COLUMNS = List.of("element", "calls", "packets", "cycles", "cycles/pkt", "ns/pkt");

    /** @return the cells in the command line's format: {@code %,d} counts, cycles/pkt with 1 decimal, ns/pkt with 2. */
    List<String> cells() {
        return List.of(element, calls < 0 ? "-" : String.format(Locale.ROOT, "%,d", calls), String.format(Locale.ROOT, "%,d", packets),
                String.format(Locale.ROOT, "%,d", cycles), String.format(Locale.ROOT, "%.1f", cyclesPerPacket),
                String.format(Locale.ROOT, "%.2f", nanosPerPacket));
    }

    /**
     * @param runtime a result's runtime table; may be {@code null}
     * @return a row per element in the table's order; empty when {@code null} or empty
     */
    static List<CpuTable> ofResult(List<RuntimeRowDTO> runtime) {
        List<CpuTable> out = new ArrayList<>();
        if (runtime != null) {
            for (RuntimeRowDTO r : runtime) {
                out.add(new CpuTable(r.element, r.calls, r.packets, r.cycles, r.cyclesPerPacket, r.cpuNanosPerPacket));
            }
        }
        return out;
    }

    /**
     * @param elements a snapshot's element metrics; may be {@code null}
     * @return a row per element that has charged cycles so far, by element name; calls unknown; empty when none
     */
    static List<CpuTable> ofSnapshot(Map<String, Map<String, Double>> elements) {
        List<CpuTable> out = new ArrayList<>();
        if (elements == null) {
            return out;
        }
        for (Map.Entry<String, Map<String, Double>> e : elements.entrySet()) {
            Map<String, Double> m = e.getValue();
            Double cycles = m.get("cpuCycles");
            if (cycles == null) {
                continue;
            }
            double cpp = m.getOrDefault("cpuCyclesPerPacket", 0.0);
            long packets = cpp > 0 ? Math.round(cycles / cpp) : 0;
            out.add(new CpuTable(e.getKey(), -1, packets, cycles.longValue(), cpp, m.getOrDefault("cpuNanosPerPacket", 0.0)));
        }
        return out;
    }
}

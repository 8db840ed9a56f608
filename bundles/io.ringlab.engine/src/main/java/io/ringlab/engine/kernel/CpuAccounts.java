package io.ringlab.engine.kernel;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.ringlab.sim.api.dto.MetricDescriptorDTO;
import io.ringlab.sim.api.dto.RuntimeRowDTO;

/**
 * Each element's account on the simulated cores: the calls it was charged for, the packets they handled, their cycles
 * and the virtual time those took at their core's frequency; and what the warm-up counted of each, which the results
 * leave out ({@code show runtime}'s rows, the {@code cpu*} metrics every element reports once it ran on a core).
 * <p>
 * {@link #account} is the per-call hot path: it allocates nothing. Engine thread only.
 */
final class CpuAccounts {
    private static final String CPU_CYCLES = "cpuCycles", CPU_NANOS = "cpuNanos", CPU_CYCLES_PER_PACKET = "cpuCyclesPerPacket",
            CPU_NANOS_PER_PACKET = "cpuNanosPerPacket";
    /** The metrics {@link #report} adds for an element that charged a core, as every type lists them. */
    static final List<MetricDescriptorDTO> METRICS = List.of(
            new MetricDescriptorDTO(MetricDescriptorDTO.COUNTER, CPU_CYCLES,
                    "CPU cycles the element charged to its cores (reported when it runs on a core)"),
            new MetricDescriptorDTO(MetricDescriptorDTO.COUNTER, CPU_NANOS, "virtual time those cycles took"),
            new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, CPU_CYCLES_PER_PACKET, "cpuCycles per packet it handled"),
            new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, CPU_NANOS_PER_PACKET, "ns",
                    "cpuNanos per packet it handled"));

    private long[] calls = new long[0], packets = new long[0], cycles = new long[0];
    private double[] picos = new double[0];
    /** What the warm-up counted, per element: subtracted from the results. */
    private long[] baseCalls = new long[0], basePackets = new long[0], baseCycles = new long[0];
    private double[] basePicos = new double[0];

    /** Makes room for {@code n} elements (a pipeline's elements are added one at a time). */
    void elements(int n) {
        calls = Arrays.copyOf(calls, n);
        packets = Arrays.copyOf(packets, n);
        cycles = Arrays.copyOf(cycles, n);
        picos = Arrays.copyOf(picos, n);
    }

    /**
     * Charges one call of {@code element}: {@code cycles} on a core whose cycle lasts {@code picosPerCycle}
     * ({@code 1e12 / frequencyHz}, computed once per core), handling {@code packets}.
     */
    void account(int element, long cycles, int packets, double picosPerCycle) {
        calls[element]++;
        this.packets[element] += packets;
        this.cycles[element] += cycles;
        picos[element] += cycles * picosPerCycle;
    }

    /** The end of the warm-up: what was counted so far is left out from now on. */
    void startMeasuring() {
        baseCalls = calls.clone();
        basePackets = packets.clone();
        baseCycles = cycles.clone();
        basePicos = picos.clone();
    }

    /** Adds element {@code i}'s {@link #METRICS} over the measured window to {@code m}, if it was charged work. */
    void report(int i, Map<String, Double> m) {
        long c = calls[i] - base(baseCalls, i);
        long cy = cycles[i] - base(baseCycles, i);
        long p = packets[i] - base(basePackets, i);
        double ps = picos(i);
        if (c > 0) {
            m.put(CPU_CYCLES, (double) cy);
            m.put(CPU_NANOS, ps / 1000.0);
            if (p > 0) {
                m.put(CPU_CYCLES_PER_PACKET, (double) cy / p);
                m.put(CPU_NANOS_PER_PACKET, ps / 1000.0 / p);
            }
        }
    }

    /** @return element {@code i}'s runtime row over the measured window, or {@code null} if it was charged nothing */
    RuntimeRowDTO row(int i, String name) {
        long c = calls[i] - base(baseCalls, i);
        if (c == 0) {
            return null;
        }
        RuntimeRowDTO r = new RuntimeRowDTO();
        r.element = name;
        r.calls = c;
        r.packets = packets[i] - base(basePackets, i);
        r.cycles = cycles[i] - base(baseCycles, i);
        r.cpuNanos = picos(i) / 1000.0;
        r.cyclesPerPacket = r.packets == 0 ? 0 : (double) r.cycles / r.packets;
        r.cpuNanosPerPacket = r.packets == 0 ? 0 : r.cpuNanos / r.packets;
        return r;
    }

    private double picos(int i) {
        return picos[i] - (i < basePicos.length ? basePicos[i] : 0);
    }

    private static long base(long[] b, int i) {
        return i < b.length ? b[i] : 0;
    }
}

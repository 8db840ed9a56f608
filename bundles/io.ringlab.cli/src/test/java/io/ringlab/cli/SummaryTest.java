package io.ringlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.dto.RunOverridesDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.RuntimeRowDTO;
import io.ringlab.sim.api.dto.SampleWarningDTO;

/** {@link Summary}: the human summary of a run. */
class SummaryTest {
    private Locale saved;

    @BeforeEach
    void pinLocale() {
        // the summary formats with the default locale; pin it so the expected digits are stable
        saved = Locale.getDefault();
        Locale.setDefault(Locale.ROOT);
    }

    @AfterEach
    void restoreLocale() {
        Locale.setDefault(saved);
    }

    private static String print(RunResultDTO r) {
        return print(r, Summary.DEFAULT_WIDTH);
    }

    private static String print(RunResultDTO r, int width) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        Summary.print(r, new PrintStream(buf, true, StandardCharsets.UTF_8), width);
        return buf.toString(StandardCharsets.UTF_8);
    }

    @Test
    void linesThatCarryNothingAreLeftOutAndNamed() {
        RunResultDTO r = Results.ok("tiny");
        r.elements.put("cpu0", new java.util.TreeMap<>(java.util.Map.of("busyNanos", 0.0, "l1dHits", 0.0)));
        r.elements.put("l3", new java.util.TreeMap<>(java.util.Map.of("hits", 0.0, "misses", 0.0)));
        r.elements.put("pool:eth0.gso", new java.util.TreeMap<>(java.util.Map.of("allocs", 0.0, "capacity", 1001.0, "inUse", 0.0)));
        r.elements.put("pool:src.pool", new java.util.TreeMap<>(java.util.Map.of("allocs", 5.0, "capacity", 4096.0, "inUse", 0.0)));

        String out = print(r);

        assertFalse(out.contains("  cpu0 "), out);
        assertFalse(out.contains("  l3 "), out);
        assertFalse(out.contains("  pool:eth0.gso "), out);
        assertTrue(out.contains("  pool:src.pool allocs=5  capacity=4,096  inUse=0"), out);
        assertTrue(out.contains("(left out, every value 0 or a pool never allocated from: cpu0, l3, pool:eth0.gso)"), out);
    }

    @Test
    void noDropReasonsPrintNoEmptyBraces() {
        RunResultDTO r = Results.ok("tiny");
        r.invariants.droppedByReason.clear();
        r.invariants.dropped = 0;
        r.invariants.delivered = 1_000;

        assertTrue(print(r).contains("packets: generated 1,000 = delivered 1,000 + dropped 0 + in flight 0: ok"), print(r));
    }

    @Test
    void longElementLinesWrapAtTheWidthUnderTheirValues() {
        RunResultDTO r = Results.ok("tiny");
        java.util.Map<String, Double> many = new java.util.TreeMap<>();
        for (int i = 0; i < 12; i++) {
            many.put("counter" + i + "Packets", 1_000_000.0 + i);
        }
        r.elements.put("eth0", many);

        List<String> lines = print(r, 80).lines().toList();

        int first = lines.indexOf(lines.stream().filter(l -> l.startsWith("  eth0 ")).findFirst().orElseThrow());
        assertTrue(lines.get(first + 1).startsWith(" ".repeat(15) + "counter"), lines.toString());
        for (String l : lines.subList(first, first + 3)) {
            assertTrue(l.length() <= 80, l.length() + ": " + l);
        }
        assertTrue(String.join("\n", lines).contains("counter11Packets=1,000,011"), lines.toString());
    }

    @Test
    void figuresOnTooFewSamplesAreMarkedAndExplained() {
        RunResultDTO r = Results.ok("tiny");
        r.elements.put("ping", new java.util.TreeMap<>(java.util.Map.of("rttP50Millis", 0.6679, "rttP99Millis", 0.6679,
                "rttCount", 1.0)));
        r.headline.metric = "ping.rttP50Millis";
        r.headline.value = 0.6679;
        r.headline.unit = "ms";
        for (String[] m : new String[][] {{"ping.rttP50Millis", "10"}, {"ping.rttP99Millis", "100"}}) {
            SampleWarningDTO w = new SampleWarningDTO();
            w.metric = m[0];
            w.samples = 1;
            w.needed = Long.parseLong(m[1]);
            w.advice = "run at least " + m[1] + "s (1 sample in 1s measured)";
            r.sampleWarnings.add(w);
        }

        String out = print(r);

        assertTrue(out.contains("headline ping.rttP50Millis = 0.6679 ms   * 1 sample, needs 10: see below"), out);
        assertTrue(out.contains("rttCount=1  rttP50Millis=0.6679*  rttP99Millis=0.6679*"), out);
        assertTrue(out.contains("  ping.rttP50Millis: 1 sample, needs 10; run at least 10s (1 sample in 1s measured)"), out);
        assertTrue(out.contains("  ping.rttP99Millis: 1 sample, needs 100; run at least 100s (1 sample in 1s measured)"), out);
        assertFalse(print(Results.ok("tiny")).contains("too few samples"), "no block without warnings");
    }

    @Test
    void theHeaderShowsTheCommandLinesOverrides() {
        RunResultDTO r = Results.ok("tiny");
        assertFalse(print(r).contains("overrides:"));
        r.overrides = new RunOverridesDTO();
        r.overrides.set.add("eth0.bql=false");
        r.overrides.duration = "1s";
        r.overrides.seed = 7L;

        assertEquals("overrides: --set eth0.bql=false --duration 1s --seed 7", print(r).lines().toList().get(1));
    }

    @Test
    void firstLinesNamePipelineFileSeedProfileStateAndCounts() {
        List<String> lines = print(Results.ok("tiny")).lines().toList();

        assertEquals("pipeline tiny (tiny.pipeline), seed 42, profile generic-x86-4ghz: FINISHED", lines.get(0));
        assertEquals("simulated 0.100000 s in 0.250 s wall, 12,345 events, 1,000 packets generated", lines.get(1));
        assertEquals("headline sink.rxMpps = 148.8 Mpps", lines.get(2));
    }

    @Test
    void wholeMetricsPrintWithoutFractionAndOthersWithFourDigits() {
        RunResultDTO r = Results.ok("tiny");
        r.elements.get("sink").put("latencyUs", 12.345678);

        String out = print(r);

        assertTrue(out.contains("  sink         latencyUs=12.35  rxMpps=148.8  rxPackets=990"), out);
        assertTrue(out.contains("  q            drops=10"), out);
    }

    @Test
    void noHeadlineLineWhenThePipelineNamesNone() {
        RunResultDTO r = Results.ok("tiny");
        r.headline = null;

        assertFalse(print(r).contains("headline"), print(r));
    }

    @Test
    void errorLineOnlyWhenThereIsAnError() {
        assertFalse(print(Results.ok("tiny")).contains("error:"));
        assertTrue(print(Results.failed("tiny", "boom")).contains("\nerror: boom\n"));
    }

    @Test
    void runtimeTableIsPrintedOnlyWithRuntimeRows() {
        RunResultDTO r = Results.ok("tiny");
        assertFalse(print(r).contains("cycles/pkt"));

        RuntimeRowDTO row = new RuntimeRowDTO();
        row.element = "eth0";
        row.calls = 10;
        row.packets = 640;
        row.cycles = 64_000;
        row.cyclesPerPacket = 100.0;
        row.cpuNanosPerPacket = 25.0;
        r.runtime.add(row);

        String out = print(r);
        assertTrue(out.contains("cycles/pkt"), out);
        assertTrue(out.lines().anyMatch(l -> l.matches("  eth0 +10 +640 +64,000 +100\\.0 +25\\.00")), out);
    }

    @Test
    void invariantLinesShowTheCountsAndDropReasons() {
        String out = print(Results.ok("tiny"));

        assertTrue(out.contains(
                "packets: generated 1,000 = delivered 990 + dropped 10 {qdisc-full=10} + in flight 0: ok"), out);
        assertTrue(out.contains("buffers: allocated 1,000 - freed 1,000 = in use 0 (held 0): ok"), out);
        assertFalse(out.contains("violation:"), out);
    }
}

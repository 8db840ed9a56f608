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

import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.RuntimeRowDTO;

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
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        Summary.print(r, new PrintStream(buf, true, StandardCharsets.UTF_8));
        return buf.toString(StandardCharsets.UTF_8);
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

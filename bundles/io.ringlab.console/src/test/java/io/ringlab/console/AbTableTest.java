package io.ringlab.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;

class AbTableTest {
    @Test
    void perMetricTheVariantsThenTheComparisonWithItsIntervalRelativeDifferenceAndP() {
        ExperimentResultDTO r = AbFixtures.result();
        List<AbTable.Row> rows = AbTable.rows(r);
        assertEquals(6, rows.size());
        // eth0.ringUsed: the largest mean is 240, so 3 decimals give six significant digits
        assertEquals(List.of("eth0.ringUsed", "off (baseline)", "2", "240.000", "[150.000, 330.000]", "", "", ""), rows.get(0).cells());
        assertEquals(List.of("eth0.ringUsed", "on", "2", "12.500", "[8.000, 17.000]", "", "", ""), rows.get(1).cells());
        assertEquals(List.of("eth0.ringUsed", "on - off", "2", "-227.500", "[-240.000, -215.000]", "-94.79 %", "0.00554", ""),
                rows.get(2).cells());
        assertSame(r.variants.get("off").get("eth0.ringUsed"), rows.get(0).source());
        assertSame(r.comparisons.get(0), rows.get(2).source());
    }

    @Test
    void undefinedNumbersAreNaAndTheNotesOfTheStatisticsAreShown() {
        List<AbTable.Row> rows = AbTable.rows(AbFixtures.result());
        assertEquals(List.of("sink.rxPackets", "off (baseline)", "2", "1,600.00", "[1,600.00, 1,600.00]", "", "",
                "zero variance: every value is the same, the interval is the mean itself"), rows.get(3).cells());
        assertEquals("n/a", rows.get(4).cells().get(4), "n = 1: no interval");
        assertEquals(List.of("sink.rxPackets", "on - off", "1", "+0.00", "n/a", "+0.00 %", "n/a",
                "n = 1: no interval, t or p; 1 of 2 seeds lacked a value"), rows.get(5).cells());
    }

    @Test
    void pIsZeroOrOneExactlyWithZeroVarianceAndAMissingMeanIsNa() {
        ExperimentResultDTO r = AbFixtures.result();
        r.comparisons.get(0).pValue = 0.0;
        r.variants.get("off").get("eth0.ringUsed").mean = null;
        r.variants.get("off").get("eth0.ringUsed").ci95Low = null;
        List<AbTable.Row> rows = AbTable.rows(r);
        assertEquals("0", rows.get(2).cells().get(6));
        assertEquals("n/a", rows.get(0).cells().get(3));
        assertEquals("", rows.get(2).cells().get(5), "no relative difference without the baseline's mean");
    }

    @Test
    void problemsNameFailedStoppedAndCancelledRunsBrokenInvariantsAndMissingMetrics() {
        ExperimentResultDTO r = AbFixtures.result();
        r.runs.get(0).state = RunSummaryDTO.STOPPED;
        r.runs.get(1).state = RunSummaryDTO.CANCELLED;
        r.runs.get(2).bufferConservation = false;
        r.runs.get(2).violations.add("buffers: 3 leaked by eth0");
        assertEquals(List.of("variant off, seed 1: STOPPED by Cancel before the end of its duration; left out",
                "variant off, seed 2: CANCELLED, never started",
                "variant on, seed 1: an invariant is broken: buffers: 3 leaked by eth0",
                "variant on, seed 2: FAILED: eth0 (netdev 0.1.0): IllegalStateException: ring full",
                "bql.experiment:4:11: metric 'eth0.limt' was not reported by variant off (seeds 1-2)"), AbTable.problems(r));
    }

    @Test
    void theOutcomeCountsTheRunsAndSaysCancelled() {
        ExperimentResultDTO r = AbFixtures.result();
        assertEquals("bql: 3 of 4 runs counted, 2 variants x 2 seeds, 1.3 s wall on 2 threads", AbTable.outcome(r));
        r.cancelled = true;
        assertTrue(AbTable.outcome(r).startsWith("CANCELLED bql: "), AbTable.outcome(r));
    }
}

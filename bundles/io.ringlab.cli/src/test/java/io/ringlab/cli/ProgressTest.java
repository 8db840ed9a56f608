package io.ringlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.experiment.api.dto.VariantDTO;

/** {@link Progress}: what ringlab ab says on stderr as runs end, run or taken from the results database. */
class ProgressTest {

    private static ExperimentDTO experiment() {
        ExperimentDTO e = new ExperimentDTO();
        e.name = "x";
        e.variants = List.of(new VariantDTO(), new VariantDTO());
        e.seeds = List.of(1L, 2L);
        return e;
    }

    private static RunSummaryDTO run(String variant, long seed, String state, boolean stored) {
        RunSummaryDTO r = new RunSummaryDTO();
        r.variant = variant;
        r.seed = seed;
        r.state = state;
        r.stored = stored;
        r.packetConservation = true;
        r.bufferConservation = true;
        r.error = "boom";
        return r;
    }

    @Test
    void aPlainLineSaysWhichRunsCameFromTheDatabase() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Progress p = new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8), false);
        p.started(experiment(), 4, 2);
        p.runEnded(run("off", 1, RunSummaryDTO.FINISHED, true), null, 1, 4);
        p.runEnded(run("on", 1, RunSummaryDTO.FINISHED, false), null, 2, 4);
        String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals("experiment x: 2 variants x 2 seeds = 4 runs on 2 threads", lines[0]);
        assertTrue(lines[1].matches("1/4 runs, \\d+:\\d\\d: variant off, seed 1 FINISHED \\(from the results database\\)"), lines[1]);
        assertTrue(lines[2].matches("2/4 runs, \\d+:\\d\\d: variant on, seed 1 FINISHED"), lines[2]);
    }

    @Test
    void theBarCountsStoredAndFailedRuns() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Progress p = new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8), true);
        p.started(experiment(), 4, 2);
        p.runEnded(run("off", 1, RunSummaryDTO.FINISHED, true), null, 1, 4);
        p.runEnded(run("on", 1, RunSummaryDTO.FAILED, false), null, 2, 4);
        String out = bytes.toString(StandardCharsets.UTF_8);
        String bar = out.substring(out.lastIndexOf('\r') + 1);
        assertTrue(bar.matches("\\[#{15}\\.{15}\\] 2/4 runs \\(1 from the database, 1 failed\\), \\d+:\\d\\d elapsed, ETA \\d+:\\d\\d"), bar);
        assertTrue(out.contains("variant on, seed 1: FAILED: boom\n"), out);
    }

    @Test
    void runsInProgressAndRunsPerWorkerAreCounted() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Progress p = new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8), true);
        p.started(experiment(), 4, 2);
        RunSummaryDTO a = run("off", 1, RunSummaryDTO.FINISHED, false);
        a.key = "a";
        a.worker = "10.0.0.1:5701";
        RunSummaryDTO b = run("off", 2, RunSummaryDTO.FINISHED, false);
        b.key = "b";
        b.worker = "10.0.0.2:5701";
        p.runStarted(a);
        p.runStarted(b);
        p.runStarted(b); // sent again after its first worker left: still one run in progress
        p.runEnded(a, null, 1, 4);
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.substring(out.lastIndexOf('\r') + 1).contains("1/4 runs (1 running)"), out);
        p.runEnded(b, null, 2, 4);
        p.runEnded(run("on", 1, RunSummaryDTO.FINISHED, true), null, 3, 4);
        RunSummaryDTO c = run("on", 2, RunSummaryDTO.FINISHED, false);
        c.worker = "10.0.0.2:5701";
        p.runEnded(c, null, 4, 4);
        out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.endsWith("runs per worker: 10.0.0.1:5701 1, 10.0.0.2:5701 2\n"), out);
    }

    @Test
    void theEstimateGoesByTheRunsSimulated() {
        assertEquals(", ETA 0:30", Progress.eta(10, 1, 3), "10 s for the one run simulated, 3 to go");
        assertEquals(", ETA 0:15", Progress.eta(10, 2, 3), "runs taken from the database do not count: 2 simulated");
        assertEquals("", Progress.eta(10, 0, 4), "nothing to go by before a simulated run ended");
        assertEquals("", Progress.eta(40, 4, 0), "none at the end");
        assertEquals("", Progress.counts(0, 0, 0));
        assertEquals(" (2 failed)", Progress.counts(0, 0, 2));
        assertEquals(" (3 from the database)", Progress.counts(0, 3, 0));
        assertEquals(" (2 running, 3 from the database, 1 failed)", Progress.counts(2, 3, 1));
    }
}

package io.ringlab.engine.kernel;

import static io.ringlab.engine.kernel.Pipelines.metric;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.RuntimeRowDTO;

/**
 * A warm-up: the results exclude it (counters, rates, histograms, CPU accounts, the cores' busy time), the series and the
 * invariants cover the whole run.
 */
class WarmupTest {
    /** A steady stream of full frames into a consumer that costs CPU, on a machine with caches. */
    private static final String STEADY = """
            duration = 20ms
            element src : source { rate = 1Gbit; size = 1518B }
            element sink : sink { cycles = 1000 }
            src -> sink
            """;

    private static RunResultDTO run(String text, long warmupPicos) throws PipelineException {
        RunOptionsDTO o = new RunOptionsDTO();
        o.seed = 1L;
        o.snapshotIntervalMillis = 0;
        o.warmupPicos = warmupPicos;
        RunResultDTO r = new PipelineBuilder(new TestRegistry()).build(PipelineReader.read("warmup.pipeline", text), o).run();
        assertEquals("FINISHED", r.state, r.error);
        assertTrue(r.invariants.packetConservation && r.invariants.bufferConservation, r.invariants.violations.toString());
        return r;
    }

    private static RuntimeRowDTO row(RunResultDTO r, String element) {
        return r.runtime.stream().filter(x -> x.element.equals(element)).findFirst().orElseThrow();
    }

    @Test
    void theResultsCountOnlyWhatHappensAfterTheWarmup() throws Exception {
        RunResultDTO whole = run(STEADY, 0);
        RunResultDTO half = run(STEADY, 10_000_000_000L); // 10 ms of 20
        double all = metric(whole, "sink", "rxPackets");
        double after = metric(half, "sink", "rxPackets");
        assertTrue(all > 1000, all + " frames");
        assertEquals(all / 2, after, 2, "a steady stream: half the frames come after a warm-up of half the run");
        assertEquals(metric(whole, "sink", "rxMpps"), metric(half, "sink", "rxMpps"), 1e-3,
                "a rate is per second of the measured window, so a steady rate is the same");
        assertEquals(after, metric(half, "sink", "latencyCount"), 1, "the histogram restarts at the warm-up");
        assertEquals(after, row(half, "sink").packets, 1, "the runtime table counts the window");
        assertEquals(metric(whole, "cpu0", "utilisationPercent"), metric(half, "cpu0", "utilisationPercent"), 0.5,
                "the core's utilisation is over the window");
        assertEquals(metric(whole, "cpu0", "busyNanos") / 2, metric(half, "cpu0", "busyNanos"), 2_000);
        // the series and the invariants still cover the whole run
        assertEquals(whole.series.rows.size(), half.series.rows.size());
        assertEquals(whole.invariants.generated, half.invariants.generated);
    }

    @Test
    void aPoolsCountersCoverTheWindowAndItsLevelsAreTheEnds() throws Exception {
        RunResultDTO whole = run(STEADY, 0);
        RunResultDTO half = run(STEADY, 10_000_000_000L);

        double allocs = metric(whole, "pool:src.pool", "allocs");
        assertTrue(allocs > 1000, allocs + " allocs");
        assertEquals(allocs / 2, metric(half, "pool:src.pool", "allocs"), 2, "the allocations after the warm-up");
        assertEquals(metric(whole, "pool:src.pool", "frees") / 2, metric(half, "pool:src.pool", "frees"), 2);
        for (String level : new String[] {"capacity", "inUse", "highWaterMark"}) {
            assertEquals(metric(whole, "pool:src.pool", level), metric(half, "pool:src.pool", level), level);
        }
    }

    @Test
    void aWarmupAsLongAsTheRunIsRefusedWithWhatIsAllowed() {
        PipelineException e = assertThrows(PipelineException.class, () -> run(STEADY, 20_000_000_000L));
        assertTrue(e.getMessage().contains("warmup=20ms must be at least 0s and less than the run's duration, 20ms"),
                e.getMessage());
    }
}

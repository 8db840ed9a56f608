package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.SampleWarningDTO;

/** A run knows how many samples its figures rest on, and warns about the headline and percentiles that rest on too few. */
class SampleWarningsTest {
    /** PingTest's idle path for 1 s, its ping RTT the headline. */
    private static final String PING = "headline = ping.rttP50Millis\n" + PingTest.IDLE.replace("duration = 10s", "duration = 1s");

    private static SampleWarningDTO find(RunResultDTO r, String metric) {
        return r.sampleWarnings.stream().filter(w -> w.metric.equals(metric)).findFirst().orElse(null);
    }

    @Test
    void aOneSecondPingRunWarnsThatItsHeadlineRestsOnOneSample() throws Exception {
        RunResultDTO r = Pipelines.build(PING, 1).run();

        assertEquals(1L, r.samples.get("ping").get("rttP50Millis"));
        assertEquals(1.0, r.measuredSeconds, 1e-12);
        SampleWarningDTO w = find(r, "ping.rttP50Millis");
        assertEquals(1, w.samples);
        assertEquals(10, w.needed);
        assertEquals("run at least 10s (1 sample in 1s measured)", w.advice);
        assertEquals(100, find(r, "ping.rttP99Millis").needed, "p99 needs one value above it");
        assertEquals(null, find(r, "ping.rttMaxMillis"), "a maximum is exact with one value");
        assertTrue(r.warnings.isEmpty(), "the old warnings map is left as it was: " + r.warnings);
    }

    @Test
    void aLongEnoughRunHasNoWarningForItsMedianButStillForItsP99() throws Exception {
        RunResultDTO r = Pipelines.build(PING.replace("duration = 1s", "duration = 20s"), 1).run();

        assertEquals(20L, r.samples.get("ping").get("rttP50Millis"));
        assertEquals(null, find(r, "ping.rttP50Millis"));
        SampleWarningDTO p99 = find(r, "ping.rttP99Millis");
        assertEquals(20, p99.samples);
        assertEquals("run at least 100s (20 samples in 20s measured)", p99.advice);
    }

    @Test
    void withAWarmUpTheAdviceCountsTheMeasuredWindowAndNamesTheDuration() throws Exception {
        RunOptionsDTO o = new RunOptionsDTO();
        o.seed = 1L;
        o.warmupPicos = 2_000_000_000_000L;
        RunResultDTO r = new PipelineBuilder(new TestRegistry())
                .build(PipelineReader.read("test.pipeline", PING.replace("duration = 1s", "duration = 5s")), o).run();

        assertEquals(3.0, r.measuredSeconds, 1e-12);
        SampleWarningDTO w = find(r, "ping.rttP50Millis");
        assertEquals(3, w.samples, "echoes at 2, 3 and 4 s");
        assertEquals("measure at least 10s after the 2s warm-up, --duration 12s (3 samples in 3s measured)", w.advice);
    }

    @Test
    void aHeadlineWithNoSamplesIsWarnedAbout() throws Exception {
        // the ping's first echo needs the path; a 1 ms run ends before the reply is back
        RunResultDTO r = Pipelines.build(PING.replace("duration = 1s", "duration = 1ms"), 1).run();

        assertTrue(Double.isNaN(r.headline.value));
        SampleWarningDTO w = find(r, "ping.rttP50Millis");
        assertEquals(0, w.samples);
        assertTrue(w.advice.startsWith("no samples in the 1ms measured"), w.advice);
        List<String> others = r.sampleWarnings.stream().map(x -> x.metric).filter(m -> !m.equals("ping.rttP50Millis")).toList();
        assertFalse(others.contains("ping.rttP90Millis"), "an empty histogram reports no percentiles to warn about: " + others);
    }

    @Test
    void ratesRestOnTheEventsTheirCounterCounted() throws Exception {
        String flood = """
                duration = 10ms
                headline = sink.rxMpps
                element src : source { rate = 1Gbit; size = 1500B }
                element q : pfifo
                element eth0 : netdev
                element wire : link { rate = 10Gbit; delay = 1us }
                element sink : sink
                src -> q -> eth0 -> wire -> sink
                """;
        RunResultDTO r = Pipelines.build(flood, 1).run();
        long packets = r.elements.get("sink").get("rxPackets").longValue();
        assertTrue(packets > 100, "packets " + packets);
        assertEquals(packets, r.samples.get("sink").get("rxMpps"), "one update of the counter per packet");
        assertEquals(null, find(r, "sink.rxMpps"));

        RunResultDTO shortRun = Pipelines.build(flood.replace("duration = 10ms", "duration = 50us"), 1).run();
        long few = shortRun.elements.get("sink").get("rxPackets").longValue();
        assertTrue(few > 0 && few < 10, "packets " + few);
        assertEquals(few, find(shortRun, "sink.rxMpps").samples);
    }

    @Test
    void theRuleAndTheRounding() {
        assertEquals(10, SampleRule.percentileNeeds(50));
        assertEquals(10, SampleRule.percentileNeeds(90));
        assertEquals(100, SampleRule.percentileNeeds(99));
        assertEquals(10_000_000_000_000L, SampleRule.nice(1e13));
        assertEquals(20_000_000_000_000L, SampleRule.nice(1.2e13));
        assertEquals(50_000_000_000L, SampleRule.nice(3.4e10));
        assertEquals(1L, SampleRule.nice(0.5));
    }
}

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

import io.ringlab.conformance.ModelTests;
import io.ringlab.engine.kernel.series.SampleRule;

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
    void aFigureAnElementCountsFromItsOwnWarmUpSaysWhenTheRunEndedBeforeIt() throws Exception {
        // http-load counts connections from its own warm-up (200 ms); a 20 ms run completes hundreds before it
        RunResultDTO r = ModelTests.runConserved(ModelTests.sample("mvneta-bm-haproxy.pipeline", "20ms"), 1);

        assertTrue(r.elements.get("load").get("connections") > 10, "connections were completed: " + r.elements.get("load"));
        assertEquals(0.0, r.headline.value, "none after the warm-up");
        assertEquals(0L, r.samples.get("load").get("connPerSecond"));
        SampleWarningDTO w = find(r, "load.connPerSecond");
        assertEquals(0, w.samples);
        assertEquals(10, w.needed);
        assertEquals("the run ended at 20ms, before the figure starts counting at 200ms: run longer than 200ms", w.advice);
        assertEquals(null, find(r, "proxy.cpuCyclesPerConnection"), "rests on the connections closed, more than 10: "
                + r.samples.get("proxy"));
        assertEquals(r.elements.get("proxy").get("closed").longValue(), r.samples.get("proxy").get("cpuCyclesPerConnection"));

        // a run past the warm-up: the span is the element's own, from 200 ms (connections complete in bursts: 300 us
        // after the warm-up hold a few, fewer than the 10 a figure needs)
        RunResultDTO after = ModelTests.runConserved(ModelTests.sample("mvneta-bm-haproxy.pipeline", "200300us"), 1);
        long n = after.samples.get("load").get("connPerSecond");
        assertTrue(n > 0 && n < 10, n + " connections in the first 300 us after the warm-up");
        SampleWarningDTO few = find(after, "load.connPerSecond");
        assertEquals(n, few.samples);
        assertTrue(few.advice.matches("run at least \\d+ms: the figure counts from 200ms \\(" + n + " samples? in 300us\\)"),
                few.advice);
    }

    @Test
    void aTcpGoodputRestsOnTheAcksThatAdvancedIt() throws Exception {
        String tcp = TcpTest.path("%s", "congestion = reno; start = 1ms", "", "", "rate = 100Mbit; delay = 1ms", "delay = 1ms");
        RunResultDTO r = ModelTests.runConserved(tcp.formatted("200ms"), 1);
        long acks = r.samples.get("tcp").get("goodputMbitPerSecond");
        assertTrue(acks > 100, acks + " advancing ACKs");
        assertTrue(acks <= r.elements.get("tcp").get("acksReceived"), "only the ACKs that advanced snd_una");
        assertEquals(acks, r.samples.get("tcp").get("stream0GoodputMbitPerSecond"), "one stream");
        assertEquals(null, find(r, "tcp.goodputMbitPerSecond"));

        // 2.5 ms: the handshake-free stream starts at 1 ms, its first ACK is back after the 2 ms round trip
        RunResultDTO early = ModelTests.runConserved(tcp.formatted("2500us"), 1);
        SampleWarningDTO w = find(early, "tcp.goodputMbitPerSecond");
        assertTrue(w != null && w.samples < 10, "a goodput over a few ACKs is warned about: " + early.sampleWarnings);
        assertTrue(w.advice.contains("the figure counts from 1ms"), w.advice);
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

package io.ringlab.engine.kernel;

import static io.ringlab.conformance.ModelTests.metric;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.RunResultDTO;

import io.ringlab.conformance.ModelTests;

/**
 * Seed 000's scenario (pipelines/mvneta-bm-haproxy.pipeline): short proxied HTTP connections through one mvneta port of
 * an Armada 388, the port's RX buffers refilled by the driver or by the buffer manager.
 */
class HaproxyTest {
    private static String pipeline(String duration) throws Exception {
        return ModelTests.sample("mvneta-bm-haproxy.pipeline", duration).replace("warmup = 200ms", "warmup = 50ms");
    }

    private static RunResultDTO run(String text, long seed, String... sets) throws Exception {
        return ModelTests.runConserved(text, seed, sets);
    }

    @Test
    void aShortConnectionIsNineSmallFramesInAndEightOutAllCopiedAtTheDriver() throws Exception {
        RunResultDTO r = run(pipeline("300ms"), 1);
        double conns = metric(r, "load", "connections");
        double open = metric(r, "load", "open");
        assertTrue(conns > 1000, conns + " connections");
        assertEquals(0, metric(r, "load", "failedConnections"), 0.0);
        double in = metric(r, "eth0", "rxPackets");
        double out = metric(r, "eth0", "txPackets");
        // completed connections plus those still open (each somewhere in its 17 frames)
        assertTrue(in >= 9 * conns && in <= 9 * (conns + open), in + " frames in for " + conns + " connections");
        assertTrue(out >= 8 * conns && out <= 8 * (conns + open), out + " frames out for " + conns + " connections");
        assertEquals(in, metric(r, "eth0", "rxCopybreaks"), 0.0, "an empty file: every frame under rx_copybreak");
        assertEquals(0, metric(r, "eth0", "dmaMaps"), 0.0, "no frame went up whole, so no refill and no DMA map");
        // two haproxy processes share the connections and both cores are saturated: the board's CPU is the bottleneck
        assertTrue(metric(r, "cpu0", "utilisationPercent") > 99 && metric(r, "cpu1", "utilisationPercent") > 99);
    }

    @Test
    void theBufferManagerAddsOnePutBpPerCopiedFrameAndCostsAboutOnePercentOfTheConnectionRate() throws Exception {
        RunResultDTO sw = run(pipeline("600ms"), 1, "eth0.bm=false");
        RunResultDTO bm = run(pipeline("600ms"), 1, "eth0.bm=true");
        double copies = metric(bm, "eth0", "rxCopybreaks");
        assertEquals(copies, metric(bm, "pool:eth0.short", "returnsToDevice"), 0.0, "each copied frame's buffer goes back");
        assertEquals(0, metric(bm, "pool:eth0.long", "allocs"), 0.0, "no frame needs a long buffer");
        double ratio = metric(bm, "load", "connPerSecond") / metric(sw, "load", "connPerSecond");
        // seed 000: 17,500 -> 17,300 (0.989); the issue accepts 0.97 to 0.999. The difference is the MMIO write per frame:
        // 9 x 240 cycles on about 183,000 per connection
        assertTrue(ratio > 0.97 && ratio < 0.999, "BM / software = " + ratio);
        double perConnSw = metric(sw, "proxy", "cpuCyclesPerConnection");
        double perConnBm = metric(bm, "proxy", "cpuCyclesPerConnection");
        assertTrue(perConnBm > perConnSw, "BM costs CPU here: " + perConnBm + " vs " + perConnSw + " cycles per connection");
    }

    @Test
    void longTransfersRunAtTheWireRateEitherWay() throws Exception {
        String[] common = {"load.responseBytes=1MiB", "load.concurrency=8"};
        RunResultDTO sw = run(pipeline("300ms"), 1, append(common, "eth0.bm=false"));
        RunResultDTO bm = run(pipeline("300ms"), 1, append(common, "eth0.bm=true"));
        double a = metric(sw, "load", "goodputMbitPerSecond");
        double b = metric(bm, "load", "goodputMbitPerSecond");
        assertTrue(a > 850, "a gigabit port carries the response bodies: " + a + " Mbit/s");
        assertEquals(1, b / a, 0.01, "long transfers are not CPU-bound, so the BM does not change them: " + a + " vs " + b);
        assertTrue(metric(bm, "pool:eth0.long", "refills") > 2048, "full-sized frames go up whole and are refilled");
        assertTrue(metric(sw, "eth0", "dmaMaps") > 1000, "the software path maps each replacement buffer");
    }

    @Test
    void aLostFrameStallsItsConnectionUntilTheTimeoutAndTheSlotStartsAgain() throws Exception {
        String text = pipeline("1s").replace("element up : link {", "element up : link {\n    loss = 0.001");
        RunResultDTO r = run(text, 3);
        double failed = metric(r, "load", "failedConnections");
        assertTrue(failed > 0, "frames were lost");
        assertTrue(metric(r, "load", "connections") > 100 * failed, "the other connections go on");
        assertTrue(metric(r, "proxy", "aborted") > 0, "the proxy's half of a failed connection is reset by its slot's next SYN");
    }

    @Test
    void sameSeedSameResultAndTheSeedMovesTheStartTimes() throws Exception {
        RunResultDTO a = run(pipeline("200ms"), 5);
        RunResultDTO b = run(pipeline("200ms"), 5);
        RunResultDTO c = run(pipeline("200ms"), 6);
        assertEquals(metric(a, "load", "connections"), metric(b, "load", "connections"), 0.0);
        assertEquals(metric(a, "load", "connectionTimeP50Micros"), metric(b, "load", "connectionTimeP50Micros"), 0.0);
        assertTrue(metric(a, "load", "connectionTimeP50Micros") != metric(c, "load", "connectionTimeP50Micros"),
                "startJitter draws from the seed");
    }

    @Test
    void aCoreListNamingAMissingCoreIsRefusedWithWhatExists() throws Exception {
        String text = pipeline("10ms").replace("cores = \"0,1\"", "cores = \"0,5\"");
        PipelineException e = assertThrows(PipelineException.class, () -> Pipelines.build(new TestRegistry(), text, 1));
        assertTrue(e.getMessage().contains("core 5 does not exist") && e.getMessage().contains("cores 0 to 1"),
                e.getMessage());
    }

    private static String[] append(String[] a, String b) {
        String[] r = java.util.Arrays.copyOf(a, a.length + 1);
        r[a.length] = b;
        return r;
    }
}

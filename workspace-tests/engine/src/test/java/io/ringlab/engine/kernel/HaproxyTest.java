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
        // core 0 is saturated, so in bursts the 128-descriptor RX ring overflows (rx-no-descriptor) and, with no
        // retransmission modelled, the connection that lost a frame fails: a few per thousand
        assertTrue(metric(r, "load", "failedConnections") < conns / 100, metric(r, "load", "failedConnections") + " failed");
        double in = metric(r, "eth0", "rxPackets");
        double out = metric(r, "eth0", "txPackets");
        // completed connections plus those still open (each somewhere in its 17 frames)
        assertTrue(in >= 9 * conns && in <= 9 * (conns + open), in + " frames in for " + conns + " connections");
        assertTrue(out >= 8 * conns && out <= 8 * (conns + open), out + " frames out for " + conns + " connections");
        assertEquals(in, metric(r, "eth0", "rxCopybreaks"), 0.0, "an empty file: every frame under rx_copybreak");
        assertEquals(0, metric(r, "eth0", "dmaMaps"), 0.0, "no frame went up whole, so no refill and no DMA map");
        // the interrupt core carries the driver and the kernel's TCP receive work (and its own SYN-ACKs and ACKs): it is
        // the bottleneck, and the other haproxy process's core has time left
        assertTrue(metric(r, "cpu0", "utilisationPercent") > 99, "core 0 " + metric(r, "cpu0", "utilisationPercent") + " %");
        assertTrue(metric(r, "cpu1", "utilisationPercent") < 90, "core 1 " + metric(r, "cpu1", "utilisationPercent") + " %");
    }

    @Test
    void theBufferManagerAddsOnePutBpPerCopiedFrameAndCostsAboutOnePercentOfTheConnectionRate() throws Exception {
        RunResultDTO sw = run(pipeline("600ms"), 1, "eth0.bm=false");
        RunResultDTO bm = run(pipeline("600ms"), 1, "eth0.bm=true");
        double copies = metric(bm, "eth0", "rxCopybreaks");
        assertEquals(copies, metric(bm, "pool:eth0.short", "returnsToDevice"), 0.0, "each copied frame's buffer goes back");
        assertEquals(0, metric(bm, "pool:eth0.long", "allocs"), 0.0, "no frame needs a long buffer");
        double ratio = metric(bm, "load", "connPerSecond") / metric(sw, "load", "connPerSecond");
        // seed 000: 17,500 -> 17,300 (0.989); the issue accepts 0.97 to 0.999. The difference is the MMIO write per frame,
        // 9 x 240 cycles, on the saturated interrupt core's 91,000 or so per connection
        assertTrue(ratio > 0.97 && ratio < 0.999, "BM / software = " + ratio);
        double perConnSw = metric(sw, "proxy", "cpuCyclesPerConnection");
        double perConnBm = metric(bm, "proxy", "cpuCyclesPerConnection");
        assertTrue(perConnBm > perConnSw, "BM costs CPU here: " + perConnBm + " vs " + perConnSw + " cycles per connection");
    }

    @Test
    void theKernelsReceiveWorkIsChargedOnTheInterruptCoreNotOnHaproxys() throws Exception {
        // haproxy on core 1 only, the port's interrupts and NAPI on core 0; a receive cost large enough to dominate
        long rx = 50_000;
        RunResultDTO r = run(pipeline("300ms").replace("cores = \"0,1\"", "cores = \"1\""), 1,
                "proxy.rxFrameCycles=" + rx, "proxy.txFrameCycles=0");
        double frames = metric(r, "proxy", "framesIn");
        double kernelNanos = frames * rx / 1.6; // 1.6 GHz: cycles / 1.6 = ns
        assertTrue(frames > 1000, frames + " frames");
        assertTrue(metric(r, "cpu0", "busyNanos") >= kernelNanos * 0.999,
                "core 0 ran " + metric(r, "cpu0", "busyNanos") + " ns, the receive work alone is " + kernelNanos);
        assertTrue(metric(r, "cpu1", "busyNanos") < kernelNanos / 4,
                "core 1 (haproxy only) ran " + metric(r, "cpu1", "busyNanos") + " ns against " + kernelNanos + " of receive work");
    }

    @Test
    void longTransfersRefillThroughTheBmAndLoseNoConnection() throws Exception {
        String[] common = {"load.responseBytes=1MiB", "load.concurrency=8"};
        // 1 s: in the first few hundred milliseconds the transfers' slow start is CPU-bound on core 0
        RunResultDTO sw = run(pipeline("1s"), 1, append(common, "eth0.bm=false"));
        RunResultDTO bm = run(pipeline("1s"), 1, append(common, "eth0.bm=true"));
        double a = metric(sw, "load", "goodputMbitPerSecond");
        double b = metric(bm, "load", "goodputMbitPerSecond");
        // the wire (about 930 Mbit/s of bodies) or core 0, nearly saturated by the kernel's per-frame receive work at
        // about 850 Mbit/s after the start (docs/validation/mvneta-bm-haproxy.md), limits them
        assertTrue(a > 700, "the response bodies: " + a + " Mbit/s");
        // with the profile's split core 0 limits these transfers too, and the BM's register writes there cost them a few
        // per cent (0.959 at 1 s, seed 1), more than the short connections: a disagreement with the seed's remark that
        // the drop was "more noticeable on short connections" (docs/validation/mvneta-bm-haproxy.md); not a loss of frames
        assertTrue(b / a > 0.9 && b / a < 1.01, "long transfers, BM / software goodput: " + a + " vs " + b);
        assertEquals(0, metric(bm, "load", "failedConnections"), 0.0);
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
        assertEquals(metric(a, "load", "connectionTimeMeanMicros"), metric(b, "load", "connectionTimeMeanMicros"), 0.0);
        // the mean, not the median: the queueing on the saturated core 0 dominates the time and both seeds' medians fall
        // in the same histogram bucket
        assertTrue(metric(a, "load", "connectionTimeMeanMicros") != metric(c, "load", "connectionTimeMeanMicros"),
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

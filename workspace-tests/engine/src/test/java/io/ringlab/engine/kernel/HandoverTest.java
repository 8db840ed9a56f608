package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.SwapDTO;

import io.ringlab.conformance.ModelTests;

/**
 * Issue 6: every built-in model does the full handover. For each model, a swap in a loaded run of its pipeline is applied
 * with a handover, drops nothing, transfers buffers and leaves packets and buffers conserved; a same-version swap gives
 * the element metrics of the run without it (the strongest check, as
 * {@link HotSwapTest#aSameVersionHandoverChangesNothingButTheRecord}).
 */
class HandoverTest {

    /** A run of {@code text} with {@code sets} and {@code swaps}, with the models on the class path. */
    static RunResultDTO run(String text, long seed, List<String> swaps, String... sets) throws PipelineException {
        RunOptionsDTO o = new RunOptionsDTO();
        o.seed = seed;
        o.snapshotIntervalMillis = 0;
        o.overrides.addAll(List.of(sets));
        o.swaps.addAll(swaps);
        RunResultDTO r = new PipelineBuilder(new TestRegistry()).build(PipelineReader.read("test.pipeline", text), o).run();
        assertEquals("FINISHED", r.state, r.error);
        assertTrue(r.invariants.packetConservation && r.invariants.bufferConservation, r.invariants.violations.toString());
        return r;
    }

    /** Checks what every handover must give: applied with a handover, nothing dropped, nothing drained. */
    static SwapDTO handedOver(RunResultDTO r) {
        assertEquals(1, r.swaps.size());
        SwapDTO d = r.swaps.get(0);
        assertTrue(d.applied && d.handover, d.message);
        assertEquals(0, d.packetsDropped, d.message);
        assertFalse(r.invariants.droppedByReason.containsKey(Swapper.DRAIN_REASON), r.invariants.droppedByReason.toString());
        return d;
    }

    /**
     * The strongest check: a same-version swap of {@code element} at {@code at}, in a run that is conserved, hands buffers
     * over and changes no element metric (the pools' included) and no event count.
     *
     * @return the swap
     */
    static SwapDTO changesNothing(String text, long seed, String at, String element, String... sets) throws Exception {
        SwapDTO d = sameAsWithout(text, seed, List.of(at), element, sets).get(0);
        assertTrue(d.buffersTransferred > 0, "the swap found buffers to hand over: " + d.buffersTransferred);
        return d;
    }

    /**
     * The first instant from {@code from} on, in steps of {@code step}, at which {@code element} holds a buffer: a swap
     * there has buffers to hand over, for an element whose buffers come and go within microseconds (frames a wire drains
     * at once, events a process takes at once). The state a swap at T sees is the one after every event before T.
     *
     * @return the instant, as {@code Nps} for {@code --swap}
     */
    static String loadedInstant(String text, long seed, String element, String from, String step, String... sets)
            throws Exception {
        RunImpl run = Pipelines.build(new TestRegistry(), text, seed, sets);
        Simulation sim = run.simulation();
        long t = io.ringlab.pipeline.format.Units.parsePicos(from);
        long dt = io.ringlab.pipeline.format.Units.parsePicos(step);
        java.util.regex.Matcher duration = java.util.regex.Pattern.compile("(?m)^duration = (\\S+)").matcher(text);
        assertTrue(duration.find(), "the pipeline has a duration");
        sim.start(io.ringlab.pipeline.format.Units.parsePicos(duration.group(1)), 1_000_000_000L, 0);
        int index = HotSwapTest.index(sim, element);
        for (int i = 0; i < 100_000; i++, t += dt) {
            sim.advance(t, Long.MAX_VALUE);
            int[] held = {0};
            sim.elements[index].forEachHeld(b -> held[0]++);
            if (held[0] > 0) {
                return t + "ps";
            }
        }
        throw new AssertionError(element + " holds no buffer from " + from + " on");
    }

    /** {@link #changesNothing} for an element that holds no buffers: it hands none over. */
    static SwapDTO statelessChangesNothing(String text, long seed, String at, String element, String... sets)
            throws Exception {
        SwapDTO d = sameAsWithout(text, seed, List.of(at), element, sets).get(0);
        assertEquals(0, d.buffersTransferred);
        return d;
    }

    private static List<SwapDTO> sameAsWithout(String text, long seed, List<String> ats, String element, String... sets)
            throws Exception {
        RunResultDTO plain = run(text, seed, List.of(), sets);
        List<SwapDTO> swaps = new java.util.ArrayList<>();
        for (String at : ats) {
            RunResultDTO swapped = run(text, seed, List.of(at + ":" + element), sets);
            SwapDTO d = handedOver(swapped);
            assertEquals(d.from, d.to);
            for (String e : plain.elements.keySet()) {
                assertEquals(plain.elements.get(e), swapped.elements.get(e), "metrics of " + e + " after a swap at " + at);
            }
            assertEquals(plain.elements, swapped.elements);
            assertEquals(plain.invariants.delivered, swapped.invariants.delivered);
            assertEquals(plain.invariants.droppedByReason, swapped.invariants.droppedByReason);
            assertEquals(plain.events, swapped.events, "a swap controls the run: it is not an event of the simulation");
            swaps.add(d);
        }
        return swaps;
    }

    // ------------------------------------------------------------------ stmmac

    @Test
    void aSameVersionStmmacSwapUnderTcpChangesNothing() throws Exception {
        SwapDTO d = changesNothing(ModelTests.sample("stmmac-bql-100m.pipeline", "600ms"), 2, "300ms", "eth0");
        assertTrue(d.buffersTransferred >= 256, "the RX ring's buffers and the TX skbs: " + d.buffersTransferred);
    }

    // ------------------------------------------------------------------ mvneta

    /** haproxy behind one mvneta port: RX and TX on the port, the proxy's sends inline on cores 0 and 1. */
    private static String haproxy() throws Exception {
        return ModelTests.sample("mvneta-bm-haproxy.pipeline", "200ms").replace("warmup = 200ms", "warmup = 50ms");
    }

    @Test
    void aSameVersionMvnetaSwapWithSoftwareRefillChangesNothing() throws Exception {
        changesNothing(haproxy(), 1, "120ms", "eth0", "eth0.bm=false");
    }

    @Test
    void aSameVersionMvnetaSwapWithTheBufferManagerChangesNothing() throws Exception {
        // with the BM the RX buffers are the device's, so eth0 holds only frames in its TX ring, which drain in
        // microseconds: swap at an instant when it holds some
        String at = loadedInstant(haproxy(), 1, "eth0", "120ms", "1us", "eth0.bm=true");
        changesNothing(haproxy(), 1, at, "eth0", "eth0.bm=true");
    }

    @Test
    void aSameVersionMvnetaSwapOfTheCurrentKernelPresetChangesNothing() throws Exception {
        changesNothing(haproxy(), 1, "120ms", "eth0", "eth0.kernel=current");
    }

    @Test
    void aSameVersionSwapOfBothBridgedMvnetaPortsAtLineRateChangesNothing() throws Exception {
        String text = ModelTests.sample("mvneta-bridge-64.pipeline", "60ms");
        changesNothing(text, 1, "30ms", "eth0");
        changesNothing(text, 1, "30ms", "eth1", "eth1.bm=true", "eth0.bm=true");
    }

    // ------------------------------------------------------------------ mlx4, mlx5

    @Test
    void aSameVersionMlx4SwapWhileItForwardsChangesNothing() throws Exception {
        // GRO on: the RX skbs in the qdisc and the TX ring hold page references, whose destructors become the new
        // instance's (without that, 128 fragment frees would reach the old instance's allocator in this run)
        String text = ModelTests.sample("mlx4-bulk-free-fwd.pipeline", "10ms");
        changesNothing(text, 1, "5ms", "eth0", "eth0.bulkFree=true");
        changesNothing(text, 1, "5ms", "eth0", "eth0.bulkFree=false", "eth0.gro=false");
    }

    @Test
    void aSameVersionMlx5SwapWhileItDropsEarlyChangesNothing() throws Exception {
        String text = ModelTests.sample("mlx5-bulk-drop.pipeline", "10ms");
        changesNothing(text, 1, "5ms", "eth0");
        changesNothing(text, 1, "5ms", "eth0", "eth0.bulkHint=true", "eth0.earlyDrop=napi_consume_skb");
    }

    @Test
    void aSameVersionSwapOfEitherForwardingMlx5PortChangesNothing() throws Exception {
        String text = """
                duration = 4ms
                profile = generic-x86-4ghz
                element gen : source { rate = 10Gbit; size = 64B; burst = 16 }
                element eth0 : mlx5 { allocBulk = 0 }
                element q : pfifo { limit = 1000 }
                element eth1 : mlx5 { bulkFree = true }
                element wire : link { rate = 100Gbit; batch = 16 }
                element sink : sink
                gen -> eth0.rx
                eth0.stack -> q -> eth1.in
                eth1.wire -> wire -> sink
                """;
        changesNothing(text, 1, "2ms", "eth0");
        changesNothing(text, 1, "2ms", "eth1");
    }

    // ------------------------------------------------------------------ qdiscs

    private static final long MS = 1_000_000_000L;

    /** netdev-bql (1.2 Gbit/s into 1 Gbit/s: the qdisc's backlog grows) with another qdisc. */
    private static String netdevBql(String qdisc) throws Exception {
        String text = ModelTests.sample("netdev-bql.pipeline", "60ms");
        String pfifo = "element q : pfifo_fast {\n    limit = 1000\n}";
        assertTrue(text.contains(pfifo), "netdev-bql.pipeline has its pfifo_fast");
        return text.replace(pfifo, "element q : " + qdisc);
    }

    @Test
    void aSameVersionPfifoSwapWithABacklogChangesNothing() throws Exception {
        SwapDTO d = changesNothing(netdevBql("pfifo { limit = 1000 }"), 1, "30ms", "q");
        assertTrue(d.packetsTransferred > 100, "a backlog of " + d.packetsTransferred);
    }

    @Test
    void aSameVersionFqCodelSwapWhileCodelDropsChangesNothing() throws Exception {
        String text = netdevBql("fq_codel { target = 500us; interval = 5ms; flows = 16 }");
        assertTrue(run(text, 1, List.of()).elements.get("q").get("codelDrops") > 0, "CoDel drops in this run");
        SwapDTO d = changesNothing(text, 1, "30ms", "q");
        assertTrue(d.packetsTransferred > 10, "a backlog of " + d.packetsTransferred);
    }

    @Test
    void aSameVersionPfifoFastSwapUnderTcpChangesNothing() throws Exception {
        changesNothing(ModelTests.sample("stmmac-bql-100m.pipeline", "600ms"), 2, "300ms", "q");
    }

    @Test
    void aPfifoToFqCodelSwapHandsThePacketsOverOldestFirst() throws Exception {
        RunImpl run = Pipelines.build(new TestRegistry(), netdevBql("pfifo { limit = 1000 }"), 1);
        Simulation sim = run.simulation();
        sim.start(60 * MS, MS, 0);
        sim.advance(30 * MS, Long.MAX_VALUE);
        double backlog = HotSwapTest.gauge(sim, "q", "backlog");
        double bytes = HotSwapTest.gauge(sim, "q", "backlogBytes");
        double enqueued = HotSwapTest.gauge(sim, "q", "enqueued");
        assertTrue(backlog > 100, "a backlog at the swap: " + backlog);

        SwapDTO d = run.applySwap("q", "fq_codel", null);

        assertTrue(d.applied && d.handover, d.message);
        String qdiscs = new TestRegistry().version("pfifo");
        assertEquals("pfifo@" + qdiscs, d.from);
        assertEquals("fq_codel@" + qdiscs, d.to);
        assertEquals(0, d.packetsDropped);
        assertEquals((long) backlog, d.packetsTransferred);
        assertEquals((long) backlog, d.buffersTransferred);
        assertEquals(backlog, HotSwapTest.gauge(sim, "q", "backlog"), "fq_codel holds the whole queue");
        assertEquals(bytes, HotSwapTest.gauge(sim, "q", "backlogBytes"));
        assertEquals(enqueued, HotSwapTest.gauge(sim, "q", "enqueued"), "the element's counters go on");
        sim.advance(60 * MS, Long.MAX_VALUE);
        var inv = sim.checkInvariants();
        assertTrue(inv.packetConservation && inv.bufferConservation, inv.violations.toString());
        assertFalse(inv.droppedByReason.containsKey(Swapper.DRAIN_REASON));
        assertFalse(inv.droppedByReason.containsKey("swap-qdisc-refused"));
        assertTrue(HotSwapTest.gauge(sim, "q", "dequeued") > enqueued - backlog, "fq_codel went on serving the driver");
    }

    // ------------------------------------------------------------------ link and traffic

    @Test
    void aSameVersionLinkSwapWithFramesOnTheWireChangesNothing() throws Exception {
        changesNothing(netdevBql("pfifo { limit = 1000 }").replace("delay = 10us", "delay = 200us"), 1, "30ms", "wire");
        changesNothing(Pipelines.RANDOM, 3, "10ms", "wire"); // random loss: the element's stream goes on
        String mlx4 = ModelTests.sample("mlx4-bulk-free-fwd.pipeline", "2ms"); // pull groups of 16 frames, delivered together
        changesNothing(mlx4, 1, loadedInstant(mlx4, 1, "wire", "1ms", "10ns"), "wire");
    }

    @Test
    void aSameVersionSourceSwapWithPoissonArrivalsChangesNothing() throws Exception {
        // a source holds no buffer between its bursts: what it hands over is the next burst's time and its count
        statelessChangesNothing(Pipelines.RANDOM, 3, "10ms", "src");
    }

    @Test
    void aSameVersionSinkSwapWithABacklogOnItsCoreChangesNothing() throws Exception {
        changesNothing(ModelTests.sample("cpu-consumer.pipeline", "20ms"), 1, "10ms", "sink");
        statelessChangesNothing(netdevBql("pfifo { limit = 1000 }"), 1, "30ms", "sink"); // no consumer: nothing held
    }

    @Test
    void aSameVersionSwapOfEachElementOfTheTcpPipelineChangesNothing() throws Exception {
        String text = ModelTests.sample("stmmac-bql-100m.pipeline", "600ms");
        // the sender holds no buffer: its skbs in the qdisc, the ring and on the wire get the new instance's tcp_wfree
        statelessChangesNothing(text, 2, "300ms", "iperf");
        statelessChangesNothing(text, 2, "300ms", "far"); // the receiver: flows, out-of-order ranges, delayed ACKs
        statelessChangesNothing(text, 2, "300ms", "stack"); // demux: stateless
        statelessChangesNothing(text, 2, "300ms", "ping");
        changesNothing(text, 2, "300ms", "wire");
        changesNothing(text, 2, loadedInstant(text, 2, "rwire", "300ms", "1us"), "rwire"); // the ACKs
    }

    @Test
    void aSameVersionHostSwapWithEchoRepliesWaitingChangesNothing() throws Exception {
        String text = """
                duration = 10ms
                element ping : ping { interval = 100us }
                element q : pfifo
                element eth0 : netdev
                element wire : link { rate = 1Gbit; delay = 20us }
                element far : host { delay = 1ms }
                element back : pfifo
                element eth1 : netdev
                element rwire : link { rate = 1Gbit; delay = 20us }
                ping -> q -> eth0 -> wire -> far
                far.out -> back -> eth1 -> rwire -> ping.in
                """;
        changesNothing(text, 1, "5ms", "far"); // ten replies wait for their delay
        statelessChangesNothing(text, 1, "5ms", "ping");
    }

    @Test
    void aSameVersionSwapOfTheHttpClientsOrTheProxyChangesNothing() throws Exception {
        String text = haproxy();
        changesNothing(text, 1, loadedInstant(text, 1, "load", "120ms", "100ns", "eth0.bm=true"), "load", "eth0.bm=true");
        changesNothing(text, 1, loadedInstant(text, 1, "proxy", "120ms", "100ns", "eth0.bm=true"), "proxy", "eth0.bm=true");
    }

    @Test
    void aSameVersionDropSwapChangesNothing() throws Exception {
        statelessChangesNothing("""
                duration = 2ms
                element src : source { rate = 1Gbit; size = 64B; arrivals = poisson }
                element bin : drop { reason = early-drop }
                src -> bin
                """, 1, "1ms", "bin");
    }
}

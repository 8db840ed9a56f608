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

/**
 * Issue 6: every built-in model does the full handover. For each model, a swap in a loaded run of its pipeline is applied
 * with a handover, drops nothing, transfers buffers and leaves packets and buffers conserved; a same-version swap gives
 * the element metrics of the run without it (the strongest check, as
 * {@link HotSwapTest#aSameVersionHandoverChangesNothingButTheRecord}).
 */
class HandoverTest {

    /** A run of {@code text} with {@code sets} and {@code swaps}, with the kernel models ({@link StmmacTest#registry()}). */
    static RunResultDTO run(String text, long seed, List<String> swaps, String... sets) throws PipelineException {
        RunOptionsDTO o = new RunOptionsDTO();
        o.seed = seed;
        o.snapshotIntervalMillis = 0;
        o.overrides.addAll(List.of(sets));
        o.swaps.addAll(swaps);
        RunResultDTO r = new PipelineBuilder(StmmacTest.registry()).build(PipelineReader.read("test.pipeline", text), o).run();
        assertEquals("FINISHED", r.state, r.error);
        assertTrue(r.invariants.packetConservation && r.invariants.bufferConservation, r.invariants.violations.toString());
        return r;
    }

    /**
     * Runs {@code text} with one swap, checks what every handover must give, and returns the swap.
     *
     * @param swap {@code AT:ELEMENT[=TYPE[@VERSION]]}
     */
    static SwapDTO handedOver(RunResultDTO r) {
        assertEquals(1, r.swaps.size());
        SwapDTO d = r.swaps.get(0);
        assertTrue(d.applied && d.handover, d.message);
        assertEquals(0, d.packetsDropped, d.message);
        assertTrue(d.buffersTransferred > 0, "the swap found buffers to hand over: " + d.buffersTransferred);
        assertFalse(r.invariants.droppedByReason.containsKey(Swapper.DRAIN_REASON), r.invariants.droppedByReason.toString());
        return d;
    }

    /**
     * The strongest check: a same-version swap of {@code element} at {@code at} changes no element metric (the pools'
     * included) and adds one event, the swap.
     *
     * @return the swap
     */
    static SwapDTO changesNothing(String text, long seed, String at, String element, String... sets) throws Exception {
        RunResultDTO plain = run(text, seed, List.of(), sets);
        RunResultDTO swapped = run(text, seed, List.of(at + ":" + element), sets);
        SwapDTO d = handedOver(swapped);
        assertEquals(d.from, d.to);
        for (String e : plain.elements.keySet()) {
            assertEquals(plain.elements.get(e), swapped.elements.get(e), "metrics of " + e);
        }
        assertEquals(plain.elements, swapped.elements);
        assertEquals(plain.invariants.delivered, swapped.invariants.delivered);
        assertEquals(plain.invariants.droppedByReason, swapped.invariants.droppedByReason);
        assertEquals(plain.events + 1, swapped.events, "the swap is one event");
        return d;
    }

    // ------------------------------------------------------------------ stmmac

    @Test
    void aSameVersionStmmacSwapUnderTcpChangesNothing() throws Exception {
        SwapDTO d = changesNothing(Pipelines.sample("stmmac-bql-100m.pipeline", "600ms"), 2, "300ms", "eth0");
        assertTrue(d.buffersTransferred >= 256, "the RX ring's buffers and the TX skbs: " + d.buffersTransferred);
    }

    // ------------------------------------------------------------------ mvneta

    /** haproxy behind one mvneta port: RX and TX on the port, the proxy's sends inline on cores 0 and 1. */
    private static String haproxy() throws Exception {
        return Pipelines.sample("mvneta-bm-haproxy.pipeline", "200ms").replace("warmup = 200ms", "warmup = 50ms");
    }

    @Test
    void aSameVersionMvnetaSwapWithSoftwareRefillChangesNothing() throws Exception {
        changesNothing(haproxy(), 1, "120ms", "eth0", "eth0.bm=false");
    }

    @Test
    void aSameVersionMvnetaSwapWithTheBufferManagerChangesNothing() throws Exception {
        changesNothing(haproxy(), 1, "120ms", "eth0", "eth0.bm=true");
    }

    @Test
    void aSameVersionMvnetaSwapOfTheCurrentKernelPresetChangesNothing() throws Exception {
        changesNothing(haproxy(), 1, "120ms", "eth0", "eth0.kernel=current");
    }

    @Test
    void aSameVersionSwapOfBothBridgedMvnetaPortsAtLineRateChangesNothing() throws Exception {
        String text = Pipelines.sample("mvneta-bridge-64.pipeline", "60ms");
        changesNothing(text, 1, "30ms", "eth0");
        changesNothing(text, 1, "30ms", "eth1", "eth1.bm=true", "eth0.bm=true");
    }

    // ------------------------------------------------------------------ mlx4, mlx5

    @Test
    void aSameVersionMlx4SwapWhileItForwardsChangesNothing() throws Exception {
        // GRO on: the RX skbs in the qdisc and the TX ring hold page references, whose destructors become the new
        // instance's (without that, 128 fragment frees would reach the old instance's allocator in this run)
        String text = Pipelines.sample("mlx4-bulk-free-fwd.pipeline", "10ms");
        changesNothing(text, 1, "5ms", "eth0", "eth0.bulkFree=true");
        changesNothing(text, 1, "5ms", "eth0", "eth0.bulkFree=false", "eth0.gro=false");
    }

    @Test
    void aSameVersionMlx5SwapWhileItDropsEarlyChangesNothing() throws Exception {
        String text = Pipelines.sample("mlx5-bulk-drop.pipeline", "10ms");
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
        String text = Pipelines.sample("netdev-bql.pipeline", "60ms");
        String pfifo = "element q : pfifo {\n    limit = 1000\n}";
        assertTrue(text.contains(pfifo), "netdev-bql.pipeline has its pfifo");
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
        changesNothing(Pipelines.sample("stmmac-bql-100m.pipeline", "600ms"), 2, "300ms", "q");
    }

    @Test
    void aPfifoToFqCodelSwapHandsThePacketsOverOldestFirst() throws Exception {
        RunImpl run = Pipelines.build(StmmacTest.registry(), netdevBql("pfifo { limit = 1000 }"), 1);
        Simulation sim = run.simulation();
        sim.start(60 * MS, MS, 0);
        sim.advance(30 * MS, Long.MAX_VALUE);
        double backlog = HotSwapTest.gauge(sim, "q", "backlog");
        double bytes = HotSwapTest.gauge(sim, "q", "backlogBytes");
        double enqueued = HotSwapTest.gauge(sim, "q", "enqueued");
        assertTrue(backlog > 100, "a backlog at the swap: " + backlog);

        SwapDTO d = run.applySwap("q", "fq_codel", null);

        assertTrue(d.applied && d.handover, d.message);
        assertEquals("pfifo@unversioned", d.from);
        assertEquals("fq_codel@unversioned", d.to);
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
}

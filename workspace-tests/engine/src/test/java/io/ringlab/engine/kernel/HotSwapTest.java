package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.SwapDTO;

import io.ringlab.conformance.ModelTests;

/** Hot swap (issue 6): handover, drain-and-restart, failed activation, replay, conservation. */
class HotSwapTest {
    private static final long MS = 1_000_000_000L;

    /** 1.2 Gbit/s of full-size frames into a 1 Gbit/s link through netdev with BQL: the ring and BQL are busy throughout. */
    private static final String BQL = """
            name = "swap-bql"
            duration = 40ms
            element src : source { rate = 1.2Gbit; size = 1518B; flows = 4; arrivals = poisson }
            element q : pfifo { limit = 1000 }
            element eth0 : netdev { ring = 256; bql = true }
            element wire : link { rate = 1Gbit; delay = 10us }
            element sink : sink
            src -> q -> eth0 -> wire -> sink
            """;

    private static RunImpl build(Registry registry, String text, long seed, List<String> swaps) throws PipelineException {
        RunOptionsDTO o = new RunOptionsDTO();
        o.seed = seed;
        o.snapshotIntervalMillis = 0;
        o.swaps.addAll(swaps);
        return new PipelineBuilder(registry).build(PipelineReader.read("swap.pipeline", text), o);
    }

    static double gauge(Simulation sim, String element, String metric) {
        for (ElementContextImpl c : sim.contexts) {
            if (c.name.equals(element)) {
                return c.metrics.values.get(metric).getAsDouble();
            }
        }
        throw new AssertionError("no element " + element);
    }

    static int index(Simulation sim, String element) {
        for (ElementContextImpl c : sim.contexts) {
            if (c.name.equals(element)) {
                return c.index;
            }
        }
        throw new AssertionError("no element " + element);
    }

    private static void assertConserved(RunResultDTO r) {
        assertEquals("FINISHED", r.state, r.error);
        assertTrue(r.invariants.packetConservation && r.invariants.bufferConservation, r.invariants.violations.toString());
    }

    @Test
    void theBqlLimitAndInflightBytesCarryOverUnchangedAndNothingIsDropped() throws Exception {
        RunImpl run = build(new TestRegistry(), BQL, 3, List.of());
        Simulation sim = run.simulation();
        sim.start(40 * MS, MS, 0);
        sim.advance(20 * MS, Long.MAX_VALUE);
        Element before = sim.elements[index(sim, "eth0")];
        double limit = gauge(sim, "eth0", "limit"), inflight = gauge(sim, "eth0", "inflight");
        double ringUsed = gauge(sim, "eth0", "ringUsed"), txPackets = gauge(sim, "eth0", "txPackets");
        assertTrue(limit > 0 && inflight > 0 && ringUsed > 0, "BQL busy at the swap: limit " + limit + ", inflight " + inflight);

        SwapDTO d = run.applySwap("eth0", null, null);

        assertTrue(d.applied && d.handover, d.message);
        assertNotSame(before, sim.elements[index(sim, "eth0")], "a new instance runs");
        assertEquals(limit, gauge(sim, "eth0", "limit"));
        assertEquals(inflight, gauge(sim, "eth0", "inflight"));
        assertEquals(ringUsed, gauge(sim, "eth0", "ringUsed"));
        assertEquals(txPackets, gauge(sim, "eth0", "txPackets"), "counters go on");
        assertEquals(0, d.packetsDropped);
        assertEquals((long) ringUsed, d.packetsTransferred);
        sim.advance(40 * MS, Long.MAX_VALUE);
        assertTrue(sim.checkInvariants().violations.isEmpty(), sim.checkInvariants().violations.toString());
    }

    @Test
    void aSameVersionHandoverChangesNothingButTheRecord() throws Exception {
        RunResultDTO plain = build(new TestRegistry(), BQL, 5, List.of()).run();
        RunResultDTO swapped = build(new TestRegistry(), BQL, 5, List.of("20ms:eth0")).run();
        assertConserved(swapped);
        assertEquals(1, swapped.swaps.size());
        SwapDTO d = swapped.swaps.get(0);
        assertTrue(d.applied && d.handover, d.message);
        assertEquals(0.020, d.atSimulatedSeconds, 1e-15);
        assertEquals("eth0", d.element);
        // type@version: the version of the bundle on the class path that provides the type
        assertEquals("netdev@" + new TestRegistry().version("netdev"), d.from);
        assertEquals(d.from, d.to);
        assertEquals(plain.elements, swapped.elements);
        assertEquals(plain.invariants.delivered, swapped.invariants.delivered);
        assertEquals(plain.events, swapped.events, "a swap controls the run: it is not an event of the simulation");
    }

    @Test
    void aStmmacSwapUnderTcpLoadHandsEverythingOverAndLeavesNothingUnaccounted() throws Exception {
        String text = ModelTests.sample("stmmac-bql-100m.pipeline", "1s");
        RunImpl run = Pipelines.build(new TestRegistry(), text, 2);
        Simulation sim = run.simulation();
        sim.start(1000 * MS, 10 * MS, 0);
        sim.advance(500 * MS, Long.MAX_VALUE);
        double limit = gauge(sim, "eth0", "limit"), inflight = gauge(sim, "eth0", "inflight");
        double descs = gauge(sim, "eth0", "txDescUsed");
        assertTrue(inflight > 0 && descs > 0, "the TX ring is busy at the swap");

        SwapDTO d = run.applySwap("eth0", null, null);

        assertTrue(d.applied && d.handover, d.message);
        assertEquals(limit, gauge(sim, "eth0", "limit"));
        assertEquals(inflight, gauge(sim, "eth0", "inflight"));
        assertEquals(descs, gauge(sim, "eth0", "txDescUsed"));
        assertEquals(0, d.packetsDropped);
        assertTrue(d.buffersTransferred >= 256, "the RX ring's buffers and the TX skbs: " + d.buffersTransferred);
        sim.advance(1000 * MS, Long.MAX_VALUE);
        var inv = sim.checkInvariants();
        assertTrue(inv.packetConservation && inv.bufferConservation, inv.violations.toString());
        assertFalse(inv.droppedByReason.containsKey(Swapper.DRAIN_REASON));
    }

    /** A pfifo of a third party that does not implement Handover: the element wraps the real one, nothing more. */
    private static final class NoHandover implements ElementFactory {
        private final ElementFactory real = new io.ringlab.qdisc.PfifoFactory();

        @Override
        public ElementDescriptorDTO descriptor() {
            return real.descriptor();
        }

        @Override
        public Element create(ElementContext context) {
            Element e = real.create(context);
            return new Element() {
                @Override public void start() { e.start(); }
                @Override public void push(int inPort, io.ringlab.buffer.api.Buffer b) { e.push(inPort, b); }
                @Override
                public void pushBatch(int inPort, io.ringlab.buffer.api.Buffer[] b, int offset, int count) {
                    e.pushBatch(inPort, b, offset, count);
                }
                @Override public io.ringlab.buffer.api.Buffer pull(int outPort) { return e.pull(outPort); }
                @Override public void ready(int inPort) { e.ready(inPort); }
                @Override public void forEachHeld(io.ringlab.buffer.api.BufferVisitor v) { e.forEachHeld(v); }
            };
        }
    }

    /** The test registry, where version {@code version} of {@code type} comes from {@code factory}. */
    private static Registry withVersion(String type, String version, ElementFactory factory) {
        return new TestRegistry() {
            @Override
            public ElementFactory factory(String t, String v) {
                return type.equals(t) && version.equals(v) ? factory : super.factory(t, v);
            }

            @Override
            public List<String> versions(String t) {
                return type.equals(t) ? List.of(version) : super.versions(t);
            }
        };
    }

    @Test
    void aSwapToAnImplementationWithoutHandoverDrainsTheOldOneAndCountsWhatItDrops() throws Exception {
        // this pfifo element does not implement Handover: the queue is drained and a fresh instance starts
        RunResultDTO r = build(withVersion("pfifo", "third-party", new NoHandover()), BQL, 7,
                List.of("20ms:q=pfifo@third-party")).run();
        assertConserved(r);
        SwapDTO d = r.swaps.get(0);
        assertTrue(d.applied, d.message);
        assertFalse(d.handover);
        assertTrue(d.message.contains("does not implement the handover contract"), d.message);
        assertTrue(d.packetsDropped > 0, "1.2 Gbit/s into 1 Gbit/s: the qdisc had a backlog");
        assertEquals(d.packetsDropped, r.invariants.droppedByReason.get(Swapper.DRAIN_REASON));
    }

    /** A factory of the netdev type whose instances fail to initialise. */
    private static final class Broken implements ElementFactory {
        private final ElementFactory real = new io.ringlab.driver.netdev.NetdevFactory();

        @Override
        public ElementDescriptorDTO descriptor() {
            return real.descriptor();
        }

        @Override
        public Element create(ElementContext context) {
            real.create(context); // registers metrics, pools and timers, as a real constructor would, then fails
            throw new IllegalStateException("activation failed on purpose");
        }
    }

    @Test
    void aSwapToAnImplementationWhoseActivationFailsKeepsTheOldOneRunning() throws Exception {
        TestRegistry registry = new TestRegistry();
        RunResultDTO plain = build(registry, BQL, 11, List.of()).run();
        RunResultDTO r = build(withVersion("netdev", "broken", new Broken()), BQL, 11, List.of("20ms:eth0=netdev@broken"))
                .run();
        assertConserved(r);
        SwapDTO d = r.swaps.get(0);
        assertFalse(d.applied);
        assertTrue(d.message.contains("failed to initialise") && d.message.contains("activation failed on purpose")
                && d.message.contains("keeps running"), d.message);
        assertEquals(d.from, d.to);
        assertEquals(plain.elements, r.elements, "the failed swap left the run as it was");
    }

    @Test
    void aLiveSwapIsRecordedAtATimeThatSwapReplaysExactly() throws Exception {
        RunImpl live = build(new TestRegistry(), BQL, 13, List.of());
        live.pause();
        live.start();
        // paused before the first chunk: a step runs one event, then the swap comes at the next safe point
        live.step();
        SwapDTO d = live.swap("eth0", null, null).toCompletableFuture().get(30, java.util.concurrent.TimeUnit.SECONDS);
        assertTrue(d.applied && d.handover, d.message);
        live.resume();
        RunResultDTO a = live.await(60, java.util.concurrent.TimeUnit.SECONDS);
        assertConserved(a);

        String at = Math.round(d.atSimulatedSeconds * 1e12) + "ps";
        RunResultDTO b = build(new TestRegistry(), BQL, 13, List.of(at + ":eth0")).run();
        assertEquals(a.elements, b.elements);
        assertEquals(a.events, b.events);
        assertEquals(a.swaps.get(0).atSimulatedSeconds, b.swaps.get(0).atSimulatedSeconds);
    }

    @Test
    void badSwapRequestsNameWhatIsWrongAndWhatIsAllowed() {
        Map<String, String> cases = Map.of(
                "20ms", "expected AT:ELEMENT[=TYPE[@VERSION]]",
                "soon:eth0", "AT:",
                "0s:eth0", "must be more than 0s",
                "40ms:eth0", "less than the run's duration",
                "20ms:eth9", "no element eth9 (did you mean 'eth0'?); elements: src, q, eth0, wire, sink",
                "20ms:eth0=nic", "unknown element type 'nic'",
                "20ms:eth0=netdev@9.9", "has no bundle of version 9.9");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            PipelineException e = assertThrows(PipelineException.class,
                    () -> build(new TestRegistry(), BQL, 1, List.of(c.getKey())), c.getKey());
            String message = e.problems().get(0).message;
            assertTrue(message.startsWith("--swap " + c.getKey() + ": ") && message.contains(c.getValue()), message);
        }
    }

    @Test
    void aSwapKeepsTheSameEngineObjectsWhereTheHandoverMovesThem() throws Exception {
        RunImpl run = build(new TestRegistry(), BQL, 17, List.of());
        Simulation sim = run.simulation();
        sim.start(40 * MS, MS, 0);
        sim.advance(10 * MS, Long.MAX_VALUE);
        var pool = sim.pool("eth0.gso");
        run.applySwap("eth0", null, null);
        assertSame(pool, sim.pool("eth0.gso"), "the same pool, with its occupancy");
        assertEquals(1, sim.pools.stream().filter(p -> p.name().startsWith("eth0.gso")).count());
    }

    /**
     * A sender that is the destructor of the buffers it sends (as TCP's {@code tcp_wfree}) and counts the releases it
     * gets after {@link #SWAP_AT}; with {@code handover}, its successor takes those buffers' destructors over.
     */
    private static final class Sender implements Element, io.ringlab.buffer.api.BufferDestructor, io.ringlab.sim.api.Handover {
        static final long SWAP_AT = 5 * MS;
        private final ElementContext ctx;
        private final boolean handover;
        private final io.ringlab.buffer.api.BufferPool pool;
        private final io.ringlab.sim.api.Timer timer;
        int released, releasedAfterSwap;

        Sender(ElementContext ctx, boolean handover) {
            this.ctx = ctx;
            this.handover = handover;
            this.pool = ctx.pool("fixed", "pool", 1000, 100, Map.of());
            this.timer = ctx.timer(now -> send());
        }

        @Override
        public void start() {
            timer.after(0); // at 0, or at once after a drain-and-restart
        }

        private void send() {
            var b = pool.alloc(0, ctx.index());
            b.length(100);
            b.destructor(this);
            ctx.generated(b);
            ctx.output("out").push(b);
            timer.after(10_000_000L); // 10 us
        }

        @Override
        public void destroyed(io.ringlab.buffer.api.Buffer b) {
            released++;
            releasedAfterSwap += ctx.nowPicos() >= SWAP_AT ? 1 : 0;
        }

        @Override
        public boolean exportState(io.ringlab.sim.api.ElementState out) {
            out.put("sender.timer", timer);
            out.putDestructors("sender.release", this);
            return handover;
        }

        @Override
        public boolean importState(io.ringlab.sim.api.ElementState in) {
            timer.takeOver(in.get("sender.timer", io.ringlab.sim.api.Timer.class));
            return in.replaceDestructors("sender.release", this) > 0;
        }
    }

    /** Makes {@link Sender}s and keeps them. */
    private static final class SenderFactory implements ElementFactory {
        final List<Sender> made = new ArrayList<>();
        final boolean handover;

        SenderFactory(boolean handover) {
            this.handover = handover;
        }

        @Override
        public ElementDescriptorDTO descriptor() {
            ElementDescriptorDTO d = new ElementDescriptorDTO();
            d.type = "sender";
            d.category = ElementDescriptorDTO.SOURCE;
            d.ports.add(io.ringlab.sim.api.dto.PortDescriptorDTO.of("out", io.ringlab.sim.api.dto.PortDescriptorDTO.Direction.OUT,
                    io.ringlab.sim.api.dto.PortDescriptorDTO.Mode.PUSH, true, "buffers whose destructor is the sender"));
            return d;
        }

        @Override
        public Element create(ElementContext context) {
            Sender s = new Sender(context, handover);
            made.add(s);
            return s;
        }
    }

    /** 80 Mbit/s into a 50 Mbit/s link: the qdisc and the driver's ring hold the sender's buffers at the swap. */
    private static final String SENDER = """
            duration = 10ms
            element s : sender
            element q : pfifo
            element eth0 : netdev
            element wire : link { rate = 50Mbit }
            element sink : sink
            s -> q -> eth0 -> wire -> sink
            """;

    @Test
    void buffersElsewhereReachTheNewInstancesDestructorWhereItAskedForThem() throws Exception {
        SenderFactory f = new SenderFactory(true);
        RunResultDTO r = build(new TestRegistry().with(f), SENDER, 1, List.of("5ms:s")).run();
        assertConserved(r);
        assertTrue(r.swaps.get(0).handover, r.swaps.get(0).message);
        assertEquals(2, f.made.size());
        assertEquals(0, f.made.get(0).releasedAfterSwap, "the old instance is not called again");
        // netdev orphans each skb as the wire takes it (skb_orphan): one release per frame sent
        assertEquals(r.elements.get("eth0").get("txPackets"), f.made.get(0).released + f.made.get(1).released);
        assertTrue(f.made.get(1).released > 100, "the new one got those of the buffers queued at the swap too");
    }

    @Test
    void aDrainTakesTheOldInstanceOffTheBuffersElsewhereThatNameItAsDestructor() throws Exception {
        SenderFactory f = new SenderFactory(false);
        RunResultDTO r = build(new TestRegistry().with(f), SENDER, 1, List.of("5ms:s")).run();
        assertConserved(r);
        assertFalse(r.swaps.get(0).handover);
        assertEquals(0, f.made.get(0).releasedAfterSwap, "the old instance is not called again");
        assertTrue(r.elements.get("eth0").get("txPackets") > f.made.get(0).released + f.made.get(1).released + 100,
                "the buffers queued at the swap were released with no destructor");
    }

    private static RunResultDTO forked(long seed, long forkPicos, List<String> swaps) throws PipelineException {
        RunOptionsDTO o = new RunOptionsDTO();
        o.seed = seed;
        o.snapshotIntervalMillis = 0;
        o.forkAtPicos = forkPicos;
        o.swaps.addAll(swaps);
        return new PipelineBuilder(new TestRegistry()).build(PipelineReader.read("swap.pipeline", BQL), o).run();
    }

    @Test
    void bothBranchesOfAForkedExperimentStartFromTheSameStateHash() throws Exception {
        RunResultDTO a = forked(19, 20 * MS, List.of());
        RunResultDTO b = forked(19, 20 * MS, List.of("20ms:q=fq_codel"));
        assertConserved(a);
        assertConserved(b);
        assertTrue(a.forkStateHash != null && a.forkStateHash.matches("[0-9a-f]{16}"), a.forkStateHash);
        assertEquals(a.forkStateHash, b.forkStateHash, "the same history up to the fork");
        assertEquals(a.forkStateHash, b.swaps.get(0).stateHash, "the swap happens in that state");
        assertFalse(a.elements.equals(b.elements), "the branches differ after the fork");

        // the hash can tell states apart: another seed, or another fork time, gives another one
        assertFalse(a.forkStateHash.equals(forked(23, 20 * MS, List.of()).forkStateHash));
        assertFalse(a.forkStateHash.equals(forked(19, 21 * MS, List.of()).forkStateHash));
    }
}

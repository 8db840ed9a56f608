package io.ringlab.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.engine.standalone.Standalone;
import io.ringlab.pipeline.format.Units;
import io.ringlab.queue.api.Qdisc;
import io.ringlab.queue.api.QdiscProvider;
import io.ringlab.queue.api.dto.QdiscStatsDTO;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Direction;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Mode;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * The contract of a qdisc kind ({@link QdiscProvider}) and, when there is one, of its element type. Extend it in a JUnit 5
 * test:
 *
 * <pre>
 * class MyQdiscConformanceTest extends QdiscContract {
 *     &#64;Override protected QdiscProvider provider() { return new MyQdiscProvider(); }
 *     &#64;Override protected String kind() { return "myq"; }
 *     &#64;Override protected ElementFactory elementFactory() { return new MyQdiscElementFactory(); }
 * }
 * </pre>
 *
 * The qdisc checks run on the kit's bench element inside a run of the engine ({@code Standalone}): it feeds the qdisc
 * packets of its own (lengths 64 to 1518 bytes, four flows, priority 0) and keeps a model of what must be queued, which
 * every step is compared with:
 * <ul>
 * <li><b>conservation</b>: every packet enqueued leaves exactly once, by dequeue or by a drop (returned by
 * {@code enqueue}, or handed to the {@code DropSink}), and only a packet that was queued; {@code peek} is what
 * {@code dequeue} gives next; a requeued packet is the next one dequeued;</li>
 * <li><b>the limit</b>: the backlog never exceeds {@link #limit()} packets, and each drop an overload makes has the
 * qdisc's overlimit reason ({@link #overlimitReason()}), as {@code lastDropReason()} and in {@code dropsByReason};</li>
 * <li><b>backlog counters</b>: {@code backlogPackets()} and {@code backlogBytes()} are the packets and bytes queued,
 * {@code forEachQueued} visits exactly them, and the statistics keep {@code enqueued + requeues - dequeued - drops after
 * enqueue = backlog} and {@code drops} = the sum of {@code dropsByReason};</li>
 * <li><b>ordering</b>, where the qdisc promises one ({@link #order()});</li>
 * <li>with an element factory: the element conserves packets under overload in a pipeline, and a same-version swap of it
 * in the middle of that run hands its queue over: applied with a handover, nothing dropped, every metric as without
 * it; and every metric the element reports is declared by its factory with a kind, a meaning and a unit, and every
 * metric it declares is reported ({@link MetricDeclarations}).</li>
 * </ul>
 * See docs/conformance.md.
 */
public abstract class QdiscContract {

    /** The order in which a qdisc promises that packets leave. */
    public enum Order {
        /** In the order they arrived (pfifo; pfifo_fast for packets of one priority). */
        FIFO,
        /** In the order they arrived within each flow ({@code Buffer.flow()}), flows interleaved (fq_codel). */
        PER_FLOW,
        /** No promise. */
        NONE
    }

    /** @return the provider under test */
    protected abstract QdiscProvider provider();

    /** @return its kind ({@link QdiscProvider#KIND}), under which the kit registers it */
    protected abstract String kind();

    /**
     * @return the element factory around the qdisc kind (its pipeline and handover checks), or {@code null} for a kind
     *         without one: those checks are then skipped. Default {@code null}.
     */
    protected ElementFactory elementFactory() {
        return null;
    }

    /** @return the packet limit {@link #settings()} and {@link #elementProperties()} give the qdisc; default 64 */
    protected int limit() {
        return 64;
    }

    /** @return the provider's settings for the qdisc; default {@code limit} = {@link #limit()} */
    protected Map<String, Object> settings() {
        return Map.of("limit", limit());
    }

    /** @return the element's properties, in the pipeline-file grammar; default {@code limit} = {@link #limit()} */
    protected Map<String, String> elementProperties() {
        return Map.of("limit", String.valueOf(limit()));
    }

    /** @return the order packets leave in; default {@link Order#FIFO} */
    protected Order order() {
        return Order.FIFO;
    }

    /** @return the drop reason of a packet over the limit; default {@link Qdisc#DROP_OVERLIMIT} */
    protected String overlimitReason() {
        return Qdisc.DROP_OVERLIMIT;
    }

    /** @return the cost profile of the runs; default {@code generic-x86-4ghz} */
    protected String profile() {
        return "generic-x86-4ghz";
    }

    // ------------------------------------------------------------------ the bench and its model

    private static final int CORE = 0;
    private static final int FLOWS = 4;
    /** Virtual time between two steps: 1 us, far below any AQM target, so that sojourn times drop nothing. */
    private static final long STEP_PICOS = 1_000_000L;

    /** What a check does on the bench, at time 0 of the run. */
    @FunctionalInterface
    private interface Scenario {
        void run(Bench bench);
    }

    /**
     * The bench element: the qdisc under test, the packets it is fed (from a pool of the kit's), and the model of what it
     * must hold. Every step is followed by {@link #consistent}.
     */
    private final class Bench implements Element {
        final ElementContext ctx;
        final Qdisc qdisc;
        private final BufferPool packets;
        private final Scenario scenario;
        private final KitElement.Failure failure;
        /** The model: what must be queued now, with each packet's arrival number. */
        final Map<Buffer, Integer> queued = new IdentityHashMap<>();
        /** Arrival numbers of the packets fed, queued or not. */
        private final Map<Buffer, Integer> arrival = new IdentityHashMap<>();
        /** Dequeued and not yet delivered: the last dequeue's packet, which a requeue may put back. */
        private final List<Buffer> out = new ArrayList<>();
        private final Map<String, Integer> reasons = new HashMap<>();
        final List<String> dropReasons = new ArrayList<>();
        private final Map<Integer, Integer> lastOut = new HashMap<>();
        private Buffer arriving;
        private boolean arrivingDropped;
        long now;
        int arrivals;
        long enqueued, dequeued, requeues, droppedAfterEnqueue;

        Bench(ElementContext ctx, Scenario scenario, KitElement.Failure failure) {
            this.ctx = ctx;
            this.scenario = scenario;
            this.failure = failure;
            this.qdisc = provider().create(settings());
            this.packets = ctx.pool("fixed", "packets", limit() * 2 + 1024, 1518, Map.of());
            qdisc.dropSink(this::sunk);
        }

        @Override
        public void start() {
            failure.check(() -> {
                assertNotNull(qdisc, "conservation: " + kind() + ".create returned null");
                consistent("creation");
                scenario.run(this);
                drain();
            });
        }

        @Override
        public void forEachHeld(BufferVisitor visitor) {
            qdisc.forEachQueued(visitor);
            out.forEach(visitor::visit);
        }

        /** A packet of the kit's: the next arrival, of a length and a flow that vary. */
        Buffer packet() {
            Buffer b = packets.alloc(CORE, ctx.index());
            assertNotNull(b, "the bench ran out of packets");
            int n = arrivals;
            b.length(64 + (n * 389) % 1455);
            b.flow(n % FLOWS);
            b.segments(1);
            ctx.generated(b);
            arrival.put(b, n);
            return b;
        }

        /** Enqueues a new packet and updates the model; @return the buffer the qdisc dropped instead, or null */
        Buffer enqueue() {
            deliver();
            Buffer b = packet();
            int seq = arrivals++;
            now += STEP_PICOS;
            arriving = b;
            arrivingDropped = false;
            Buffer r = qdisc.enqueue(b, now);
            arriving = null;
            if (r == b) {
                drop(b, qdisc.lastDropReason(), "returned by enqueue");
            } else {
                enqueued++;
                if (r != null) {
                    if (queued.remove(r) == null) {
                        fail("conservation: enqueue returned buffer " + r.id() + " as dropped, which was not queued");
                    }
                    droppedAfterEnqueue++;
                    drop(r, qdisc.lastDropReason(), "returned by enqueue");
                }
                if (arrivingDropped) {
                    droppedAfterEnqueue++;
                } else {
                    queued.put(b, seq);
                }
            }
            consistent("an enqueue");
            return r;
        }

        /** The qdisc's drop sink: a queued packet dropped (or the arriving one, inside its own enqueue). */
        private void sunk(Buffer b, String reason) {
            if (b == arriving) {
                arrivingDropped = true;
            } else if (queued.remove(b) == null) {
                fail("conservation: the qdisc dropped buffer " + b.id() + " (" + reason + "), which was not queued");
            } else {
                droppedAfterEnqueue++;
            }
            drop(b, reason, "handed to the DropSink");
        }

        private void drop(Buffer b, String reason, String how) {
            assertNotNull(reason, "the limit: a drop " + how + " has no reason (lastDropReason() is null)");
            dropReasons.add(reason);
            arrival.remove(b);
            ctx.drop(CORE, b, reasons.computeIfAbsent(reason, ctx::dropReason));
        }

        /** Delivers what was dequeued, once no requeue can follow. */
        private void deliver() {
            for (Buffer b : out) {
                arrival.remove(b);
                ctx.deliver(CORE, b);
            }
            out.clear();
        }

        /** Dequeues and checks against the model and the promised order; @return the packet, or null */
        Buffer dequeue() {
            deliver();
            now += STEP_PICOS;
            Buffer peeked = qdisc.peek();
            long before = droppedAfterEnqueue;
            Buffer b = qdisc.dequeue(now);
            if (b != null) {
                Integer seq = queued.remove(b);
                if (seq == null) {
                    fail("conservation: dequeue returned buffer " + b.id() + ", which was not queued (dequeued twice, or"
                            + " never enqueued)");
                }
                dequeued++;
                ordered(b, seq);
                out.add(b);
            } else {
                assertTrue(queued.isEmpty(), "conservation: dequeue returned null with " + queued.size()
                        + " packet(s) queued");
            }
            if (droppedAfterEnqueue == before) {
                assertSame(peeked, b, "conservation: peek() gave " + id(peeked) + " but dequeue() then gave " + id(b));
            }
            consistent("a dequeue");
            return b;
        }

        private void ordered(Buffer b, int seq) {
            int key = order() == Order.FIFO ? 0 : b.flow();
            Integer last = lastOut.get(key);
            if (order() != Order.NONE && last != null && seq < last) {
                fail("ordering: packet " + seq + (order() == Order.PER_FLOW ? " of flow " + b.flow() : "") + " left after"
                        + " packet " + last + ", which arrived later (" + order() + " promised)");
            }
            lastOut.put(key, seq);
        }

        /** Puts the packet just dequeued back ({@code dev_requeue_skb}): it must be the next one dequeued. */
        void requeue(Buffer b) {
            assertTrue(out.remove(b), "requeue of a packet that was not the last one dequeued");
            int seq = arrival.get(b);
            qdisc.requeue(b);
            requeues++;
            queued.put(b, seq);
            lastOut.put(order() == Order.FIFO ? 0 : b.flow(), seq - 1);
            consistent("a requeue");
            Buffer again = dequeue();
            assertSame(b, again, "conservation: the packet requeued (" + id(b) + ") was not the next one dequeued ("
                    + id(again) + ")");
        }

        /** Dequeues everything left and delivers it: at the end the bench holds nothing. */
        private void drain() {
            while (dequeue() != null) {
                // checked in dequeue
            }
            deliver();
        }

        /** The model against the qdisc: backlog, forEachQueued, the counters' identities. */
        void consistent(String after) {
            long bytes = 0;
            for (Buffer b : queued.keySet()) {
                bytes += b.length();
            }
            String where = " after " + after + " (model: " + queued.size() + " packets, " + bytes + " bytes queued)";
            assertEquals(queued.size(), qdisc.backlogPackets(), "backlog counters: backlogPackets()" + where);
            assertEquals(bytes, qdisc.backlogBytes(), "backlog counters: backlogBytes()" + where);
            Set<Buffer> visited = Collections.newSetFromMap(new IdentityHashMap<>());
            qdisc.forEachQueued(b -> {
                if (!visited.add(b)) {
                    fail("backlog counters: forEachQueued visits buffer " + b.id() + " twice" + where);
                }
                if (!queued.containsKey(b)) {
                    fail("backlog counters: forEachQueued visits buffer " + b.id() + ", which is not queued" + where);
                }
            });
            assertEquals(queued.size(), visited.size(), "backlog counters: forEachQueued misses packets" + where);
            QdiscStatsDTO s = qdisc.stats();
            assertNotNull(s, "backlog counters: stats() returned null");
            assertEquals(queued.size(), s.backlogPackets, "backlog counters: stats().backlogPackets" + where);
            assertEquals(bytes, s.backlogBytes, "backlog counters: stats().backlogBytes" + where);
            assertEquals(enqueued, s.enqueued, "backlog counters: stats().enqueued (packets accepted)" + where);
            assertEquals(requeues, s.requeues, "backlog counters: stats().requeues" + where);
            assertEquals(s.backlogPackets, s.enqueued + s.requeues - s.dequeued - droppedAfterEnqueue,
                    "backlog counters: enqueued + requeues - dequeued - drops after enqueue is not the backlog" + where
                            + "; enqueued " + s.enqueued + ", requeues " + s.requeues + ", dequeued " + s.dequeued
                            + ", drops after enqueue " + droppedAfterEnqueue);
            long byReason = s.dropsByReason.values().stream().mapToLong(Long::longValue).sum();
            assertEquals(s.drops, byReason, "backlog counters: drops is not the sum of dropsByReason " + s.dropsByReason
                    + where);
            assertEquals(dropReasons.size(), s.drops, "backlog counters: stats().drops; the model saw " + dropReasons.size()
                    + " drops" + where);
        }
    }

    private static String id(Buffer b) {
        return b == null ? "null" : "buffer " + b.id();
    }

    /** Runs a scenario on the bench; the run must finish with packets and buffers conserved. */
    private void bench(String what, Scenario scenario) {
        KitElement.Failure failure = new KitElement.Failure();
        Standalone sim = Standalone.builder().provider(QdiscProvider.class, kind(), provider())
                .element(KitElement.bench(ctx -> new Bench(ctx, scenario, failure))).build();
        RunResultDTO r = Runs.run(sim, "the " + what + " run", "name = \"conformance\"\nduration = 1us\nprofile = "
                + profile() + "\nelement bench : " + KitElement.BENCH + "\n", 1, List.of());
        failure.rethrow();
        Runs.conserved(r, "the " + what + " run");
    }

    // ------------------------------------------------------------------ the qdisc

    @Test
    public void enqueueAndDequeueConservePackets() {
        bench("conservation", bench -> {
            int n = Math.max(2, limit() / 2);
            for (int i = 0; i < n; i++) {
                assertTrue(bench.enqueue() == null, "conservation: a packet was dropped below the limit (" + (i + 1)
                        + " of " + n + ", limit " + limit() + "): " + bench.dropReasons);
            }
            for (int i = 0; i < n; i++) { // one out, one in: the backlog stays
                assertNotNull(bench.dequeue(), "conservation: dequeue returned null with packets queued");
                bench.enqueue();
            }
            bench.requeue(bench.dequeue());
        });
    }

    @Test
    public void theLimitDropsWithItsReason() {
        bench("limit", bench -> {
            int over = 16;
            for (int i = 0; i < limit() + over; i++) {
                bench.enqueue();
                assertTrue(bench.qdisc.backlogPackets() <= limit(), "the limit: the backlog is "
                        + bench.qdisc.backlogPackets() + " packets, over the limit of " + limit());
            }
            assertTrue(bench.dropReasons.size() >= over, "the limit: " + (limit() + over) + " packets into a limit of "
                    + limit() + " made " + bench.dropReasons.size() + " drops, at least " + over + " expected");
            for (String reason : bench.dropReasons) {
                assertEquals(overlimitReason(), reason, "the limit: a drop over the limit has the reason");
            }
            assertEquals(overlimitReason(), bench.qdisc.lastDropReason(), "the limit: lastDropReason()");
            assertEquals((long) bench.dropReasons.size(), bench.qdisc.stats().dropsByReason.get(overlimitReason()),
                    "the limit: stats().dropsByReason of " + overlimitReason());
        });
    }

    @Test
    public void backlogCountersMatchTheQueuedPackets() {
        bench("backlog", bench -> {
            SplittableRandom random = new SplittableRandom(42);
            for (int i = 0; i < 20 * limit(); i++) {
                double x = random.nextDouble();
                if (x < 0.55) {
                    bench.enqueue();
                } else if (x < 0.95 || bench.queued.isEmpty()) {
                    bench.dequeue();
                } else {
                    bench.requeue(bench.dequeue());
                }
            }
        });
    }

    @Test
    public void packetsLeaveInThePromisedOrder() {
        assumeTrue(order() != Order.NONE, kind() + " promises no order");
        bench("ordering", bench -> {
            for (int i = 0; i < limit() / 2; i++) {
                bench.enqueue();
            }
            while (bench.dequeue() != null) {
                // the order is checked in dequeue
            }
        });
    }

    // ------------------------------------------------------------------ the element

    /** The element's pipeline: 1.5 times the wire's rate into the qdisc, so that it holds a backlog and drops. */
    private String elementPipeline() {
        ElementFactory f = elementFactory();
        String in = null;
        String out = null;
        for (PortDescriptorDTO p : f.descriptor().ports) {
            if (in == null && p.direction == Direction.IN && p.mode == Mode.PUSH) {
                in = p.name;
            }
            if (out == null && p.direction == Direction.OUT && p.mode == Mode.PULL) {
                out = p.name;
            }
        }
        List<String> props = new ArrayList<>();
        new TreeMap<>(elementProperties()).forEach((k, v) -> props.add(k + " = " + v));
        return "name = \"conformance\"\nduration = 4ms\nprofile = " + profile() + "\n"
                + "element src : source { rate = 1500Mbit; sizes = uniform; size = 64B; sizeMax = 1518B; flows = 8 }\n"
                + "element qut : " + f.descriptor().type + (props.isEmpty() ? "" : " { " + String.join("; ", props) + " }")
                + "\nelement wire : link { rate = 1Gbit }\nelement sink : sink\n"
                + "src -> qut." + in + "\nqut." + out + " -> wire -> sink\n";
    }

    private RunResultDTO runElement(String what, String... swaps) {
        Standalone sim = Standalone.builder().provider(QdiscProvider.class, kind(), provider()).element(elementFactory())
                .build();
        return Runs.run(sim, what, elementPipeline(), 5, List.of(swaps));
    }

    @Test
    public void theElementConservesPacketsUnderOverload() {
        assumeTrue(elementFactory() != null, kind() + " has no element factory");
        RunResultDTO r = runElement("the overload run");
        Runs.conserved(r, "the overload run");
        assertTrue(r.invariants.droppedByReason.getOrDefault(overlimitReason(), 0L) > 0, "the limit: 1.5 times the wire's"
                + " rate into a limit of " + limit() + " dropped nothing as " + overlimitReason() + ": "
                + r.invariants.droppedByReason);
    }

    @Test
    public void aSameVersionSwapOfTheElementHandsTheQueueOver() {
        assumeTrue(elementFactory() != null, kind() + " has no element factory");
        RunResultDTO plain = runElement("the overload run");
        String at = Units.formatPicos(2_000_000_000L);
        RunResultDTO swapped = runElement("the overload run with a swap at " + at, at + ":qut");
        Runs.finished(plain, "the overload run");
        DriverContract.handedOver(swapped, at);
        List<String> diff = Runs.differences(plain, swapped);
        assertTrue(diff.isEmpty(), "handover: a same-version swap at " + at + " changed the results: "
                + Runs.firstOf(diff, 5));
    }

    @Test
    public void everyMetricTheElementReportsIsDeclared() {
        assumeTrue(elementFactory() != null, kind() + " has no element factory");
        RunResultDTO r = runElement("the overload run");
        Runs.finished(r, "the overload run");
        Set<String> reported = r.elements.getOrDefault("qut", Map.of()).keySet();
        List<String> bad = MetricDeclarations.undeclared(MetricDeclarations.listed(elementFactory()), reported);
        assertTrue(bad.isEmpty(), "declarations: the " + kind() + " element reports metrics its factory does not declare"
                + " with a kind, a meaning and a unit (ElementDescriptorDTO.metricDescriptors): " + Runs.firstOf(bad, 5));
        List<String> unreported = MetricDeclarations.unreported(elementFactory().descriptor(), reported);
        assertTrue(unreported.isEmpty(), "declarations: the " + kind() + " element's factory declares metrics the"
                + " overload run does not report: " + Runs.firstOf(unreported, 5));
        List<String> roles = MetricDeclarations.canvasRoles(MetricDeclarations.listed(elementFactory()));
        assertTrue(roles.isEmpty(), "declarations: canvas roles (MetricDescriptorDTO.canvas): " + Runs.firstOf(roles, 5));
    }
}

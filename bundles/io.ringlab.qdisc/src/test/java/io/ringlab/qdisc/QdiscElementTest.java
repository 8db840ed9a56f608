package io.ringlab.qdisc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleSupplier;
import java.util.random.RandomGenerator;

import org.junit.jupiter.api.Test;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.queue.api.Qdisc;
import io.ringlab.queue.api.QdiscProvider;
import io.ringlab.sim.api.Configuration;
import io.ringlab.sim.api.Core;
import io.ringlab.sim.api.CostProfile;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.InputPort;
import io.ringlab.sim.api.Metrics;
import io.ringlab.sim.api.OutputPort;
import io.ringlab.sim.api.Timer;
import io.ringlab.sim.api.TimerCallback;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;

/** Checks the {@code "pfifo"} element and its factory with hand-written fakes of the engine's side. */
class QdiscElementTest {


    @Test
    void shouldDescribeThePfifoElement() {
        ElementDescriptorDTO d = new PfifoFactory().descriptor();
        assertEquals("pfifo", d.type, "type");
        assertEquals(ElementDescriptorDTO.QDISC, d.category, "category");
        assertTrue(d.description.contains("net/sched/sch_fifo.c"), "cites the kernel source");
        assertEquals(2, d.ports.size(), "two ports");
        PortDescriptorDTO in = d.ports.get(0);
        assertEquals(List.of("in", "IN", "PUSH", "true"),
                List.of(in.name, in.direction.name(), in.mode.name(), String.valueOf(in.required)), "input");
        PortDescriptorDTO out = d.ports.get(1);
        assertEquals(List.of("out", "OUT", "PULL", "true"),
                List.of(out.name, out.direction.name(), out.mode.name(), String.valueOf(out.required)), "output");
        PropertyDescriptorDTO limit = d.properties.get(0);
        assertEquals(List.of("limit", "INTEGER", "1000", "1", "1000000", "queue limit in packets (txqueuelen)"),
                List.of(limit.name, limit.kind.name(), limit.defaultValue, limit.min, limit.max, limit.description),
                "limit");
        assertEquals(List.of("backlog", "backlogBytes", "drops", "requeues", "enqueued", "dequeued", "sentBytes",
                "sentPackets", "overlimits"), d.metricDescriptors.stream().map(m -> m.name).toList(), "metrics");
    }

    @Test
    void shouldRegisterReasonsAndMetricsInTheConstructor() {
        FakeElementContext ctx = new FakeElementContext(1, java.util.Map.of("limit", 2L));
        new PfifoFactory().create(ctx);
        assertEquals(List.of(Qdisc.DROP_OVERLIMIT), ctx.reasons, "drop reasons registered up front");
        List<String> names = new ArrayList<>(ctx.counters.keySet());
        names.addAll(ctx.gauges.keySet());
        assertEquals(new java.util.TreeSet<>(
                new PfifoFactory().descriptor().metricDescriptors.stream().map(m -> m.name).toList()),
                new java.util.TreeSet<>(names), "registered metrics = descriptor metrics");
        assertEquals(List.of("backlog"), ctx.series, "backlog sampled as a series");
    }

    @Test
    void shouldQueueSignalReadyAndHandOutOnPull() {
        FakeElementContext ctx = new FakeElementContext(1, java.util.Map.of("limit", 1000L));
        Element e = new PfifoFactory().create(ctx);
        ctx.nowPicos = 5_000;
        TestBuffer a = new TestBuffer(1, 1514);
        a.segments(3); // a GSO skb of three segments
        e.push(0, a);
        e.push(0, new TestBuffer(2, 60));
        assertEquals(2, ctx.readies, "netif_schedule after each enqueue");
        assertEquals(5_000L, a.enqueuedPicos(), "enqueue time from the context");
        assertEquals(2.0, ctx.metric("backlog"), "backlog");
        assertEquals(1574.0, ctx.metric("backlogBytes"), "backlogBytes");
        List<Integer> held = new ArrayList<>();
        e.forEachHeld(b -> held.add(b.id()));
        assertEquals(List.of(1, 2), held, "the invariant walk sees the queue");

        assertSame(a, e.pull(0), "FIFO");
        assertEquals(2, e.pull(0).id(), "FIFO");
        assertNull(e.pull(0), "empty");
        assertEquals(2.0, ctx.metric("enqueued"), "enqueued");
        assertEquals(2.0, ctx.metric("dequeued"), "dequeued");
        assertEquals(1574.0, ctx.metric("sentBytes"), "tc's Sent bytes: the skbs' lengths");
        assertEquals(4.0, ctx.metric("sentPackets"), "tc's Sent pkt: gso_segs, 3 + 1");
        assertEquals(0.0, ctx.metric("overlimits"), "pfifo does not shape");
        assertEquals(0.0, ctx.metric("backlog"), "backlog");
        assertEquals(0.0, ctx.metric("requeues"), "requeues");
        assertEquals(List.of(), ctx.drops, "no drops");
    }

    @Test
    void shouldDropAtTheLimitUnderTheRegisteredReason() {
        FakeElementContext ctx = new FakeElementContext(1, java.util.Map.of("limit", 2L));
        QdiscElement e = (QdiscElement) new PfifoFactory().create(ctx);
        for (int i = 1; i <= 4; i++) {
            e.push(0, new TestBuffer(i, 100));
        }
        assertEquals(List.of("core=0 id=3 reason=100", "core=0 id=4 reason=100"), ctx.drops, "tail drops, freed");
        assertEquals(2, ctx.readies, "no ready for a dropped packet");
        assertEquals(2.0, ctx.metric("drops"), "drops");
        assertEquals(2.0, ctx.metric("enqueued"), "enqueued");
        assertEquals(2L, e.qdisc().stats().drops, "the element and the qdisc agree");
        assertEquals(List.of(), ctx.failures, "no undeclared reason");
    }

    @Test
    void shouldFailTheRunOnAnUndeclaredReasonAndStillDrop() {
        FakeElementContext ctx = new FakeElementContext(1, java.util.Map.of("limit", 10L));
        PfifoQdisc qdisc = new PfifoQdisc(10);
        new QdiscElement(ctx, qdisc, List.of(Qdisc.DROP_OVERLIMIT));
        qdisc.dropSink().dropped(new TestBuffer(7, 100), "qdisc-mystery");
        assertEquals(List.of("core=0 id=7 reason=100"), ctx.drops, "dropped under the first reason");
        assertEquals(List.of("dropReason=qdisc-mystery, not declared for this qdisc element; declared [qdisc-overlimit]"),
                ctx.failures, "the run fails with a key=value message");
    }
}

package io.ringlab.qdisc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.function.DoubleSupplier;
import java.util.random.RandomGenerator;

import org.junit.jupiter.api.Test;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.pipeline.format.Units;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.queue.api.Qdisc;
import io.ringlab.queue.api.QdiscProvider;
import io.ringlab.sim.api.Configuration;
import io.ringlab.sim.api.Core;
import io.ringlab.sim.api.CostProfile;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.InputPort;
import io.ringlab.sim.api.Metrics;
import io.ringlab.sim.api.OutputPort;
import io.ringlab.sim.api.Timer;
import io.ringlab.sim.api.TimerCallback;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;

/** Checks the {@code "pfifo_fast"} and {@code "fq_codel"} elements and factories with hand-written fakes of the engine. */
class QdiscKindElementTest {


    /** The descriptor's defaults in base units (picoseconds, bytes), as the engine's configuration would give them. */
    private static Map<String, Long> fqCodelDefaults() {
        Map<String, Long> m = new HashMap<>();
        m.put("limit", 10_240L);
        m.put("flows", 1024L);
        m.put("quantum", 1514L);
        m.put("target", 5_000_000_000L);
        m.put("interval", 100_000_000_000L);
        m.put("memoryLimit", 32L << 20);
        m.put("dropBatch", 64L);
        m.put("mtu", 1514L);
        return m;
    }

    private static PropertyDescriptorDTO property(ElementDescriptorDTO d, String name) {
        return d.properties.stream().filter(p -> p.name.equals(name)).findFirst().orElseThrow();
    }

    private static void assertRegisteredMetricsAreTheDescriptors(FakeElementContext ctx, ElementDescriptorDTO d) {
        List<String> names = new ArrayList<>(ctx.counters.keySet());
        names.addAll(ctx.gauges.keySet());
        assertEquals(new TreeSet<>(metrics(d)), new TreeSet<>(names), "registered metrics = descriptor metrics");
        assertEquals(metrics(d).size(), names.size(), "each once");
    }

    private static List<String> metrics(ElementDescriptorDTO d) {
        return d.metricDescriptors.stream().map(m -> m.name).toList();
    }

    @Test
    void shouldDescribeThePfifoFastElementAndGaugeEachBand() {
        ElementDescriptorDTO d = new PfifoFastFactory().descriptor();
        assertEquals("pfifo_fast", d.type, "type");
        assertEquals(ElementDescriptorDTO.QDISC, d.category, "category");
        assertTrue(d.description.contains("net/sched/sch_generic.c"), "cites the kernel source");
        PropertyDescriptorDTO limit = property(d, "limit");
        assertEquals(List.of("INTEGER", "1000", "1", "1000000"), List.of(limit.kind.name(), limit.defaultValue, limit.min,
                limit.max), "limit");
        assertEquals(List.of("backlog", "backlogBytes", "drops", "requeues", "enqueued", "dequeued", "sentBytes",
                "sentPackets", "overlimits", "backlogBand0",
                "backlogBand1", "backlogBand2"), metrics(d), "metrics: generic, then per band");

        FakeElementContext ctx = new FakeElementContext(1, Map.of("limit", 3L));
        QdiscElement e = (QdiscElement) new PfifoFastFactory().create(ctx);
        assertRegisteredMetricsAreTheDescriptors(ctx, d);
        assertEquals(List.of("backlog", "backlogBand0", "backlogBand1", "backlogBand2"), ctx.series, "sampled series");
        assertEquals(List.of(Qdisc.DROP_OVERLIMIT), ctx.reasons, "drop reasons registered up front");

        int[] priorities = {6, 0, 0, 1};
        for (int i = 0; i < priorities.length; i++) {
            TestBuffer b = new TestBuffer(i, 100);
            b.priority(priorities[i]);
            e.push(0, b);
        }
        assertEquals(List.of(1.0, 2.0, 0.0), List.of(ctx.metric("backlogBand0"), ctx.metric("backlogBand1"),
                ctx.metric("backlogBand2")), "band gauges");
        assertEquals(List.of("core=0 id=3 reason=100"), ctx.drops, "the fourth packet hits the total limit of 3");
        assertEquals(0, e.pull(0).id(), "band 0 first");
        assertEquals(0.0, ctx.metric("backlogBand0"), "band 0 empty");
        assertEquals(1.0, ctx.metric("drops"), "drops");
        assertEquals(3, ctx.readies, "ready per queued packet");
    }

    @Test
    void shouldDescribeTheFqCodelElementWithUnitsAndKernelDefaults() {
        ElementDescriptorDTO d = new FqCodelFactory().descriptor();
        assertEquals("fq_codel", d.type, "type");
        assertTrue(d.description.contains("net/sched/sch_fq_codel.c"), "cites the kernel source");
        assertEquals(List.of("limit", "flows", "quantum", "target", "interval", "memoryLimit", "dropBatch", "mtu"),
                d.properties.stream().map(p -> p.name).toList(), "properties");
        List<String> kinds = new ArrayList<>();
        for (PropertyDescriptorDTO p : d.properties) {
            kinds.add(p.name + ":" + p.kind + ":" + p.defaultValue + ":" + p.min + ":" + p.max);
        }
        assertEquals(List.of("limit:INTEGER:10240:1:1000000", "flows:INTEGER:1024:1:65536", "quantum:SIZE:1514B:256B:1048576B",
                "target:DURATION:5ms:0s:100s", "interval:DURATION:100ms:0s:100s", "memoryLimit:SIZE:32MiB:1B:2GiB",
                "dropBatch:INTEGER:64:1:1000000", "mtu:SIZE:1514B:1B:1048576B"), kinds, "kinds, defaults and ranges");
        assertEquals(List.of("backlog", "backlogBytes", "drops", "requeues", "enqueued", "dequeued", "sentBytes",
                "sentPackets", "overlimits", "dropOverlimit", "dropOvermemory", "codelDrops", "newFlowCount", "maxPacket",
                "memoryUsed", "newFlowsLen", "oldFlowsLen"), metrics(d), "metrics; no ecnMark");

        FakeElementContext ctx = new FakeElementContext(9, fqCodelDefaults());
        QdiscElement e = (QdiscElement) new FqCodelFactory().create(ctx);
        assertRegisteredMetricsAreTheDescriptors(ctx, d);
        assertEquals(List.of(Qdisc.DROP_OVERLIMIT, Qdisc.DROP_AQM), ctx.reasons, "both reasons registered up front");
        FqCodelQdisc q = (FqCodelQdisc) e.qdisc();
        assertEquals(new SplittableRandom(9).nextInt(), q.perturbation(), "perturbation drawn from the element's stream");
        assertEquals(q.perturbation(), ((FqCodelQdisc) ((QdiscElement) new FqCodelFactory()
                .create(new FakeElementContext(9, fqCodelDefaults()))).qdisc()).perturbation(), "same seed, same perturbation");
        assertEquals(List.of(10_240, 1024, 1514, 4882, 97656, 64, 1514), List.of(q.limit(), q.flows(), q.quantum(),
                q.targetCodelTime(), q.intervalCodelTime(), q.dropBatch(), q.mtu()), "properties reach the qdisc");
    }

    @Test
    void shouldFreeCodelDropsAtPullAndOverlimitDropsAtPushUnderTheirReasons() {
        Map<String, Long> config = fqCodelDefaults();
        config.put("limit", 300L);
        FakeElementContext ctx = new FakeElementContext(3, config);
        QdiscElement e = (QdiscElement) new FqCodelFactory().create(ctx);
        // one flow: two packets in per ms, one out per ms; after 5 ms of sojourn and 100 ms more, CoDel drops at pull
        int id = 0;
        for (long t = 0; t < 400_000_000_000L; t += 500_000_000L) {
            ctx.nowPicos = t;
            TestBuffer b = new TestBuffer(id++, 1514);
            b.flow(7);
            e.push(0, b);
            if (t % 1_000_000_000L == 0) {
                assertTrue(e.pull(0) != null, "a packet every ms");
            }
        }
        long aqm = ctx.drops.stream().filter(s -> s.endsWith("reason=101")).count();
        long overlimit = ctx.drops.stream().filter(s -> s.endsWith("reason=100")).count();
        assertTrue(aqm > 0, "CoDel drops freed by the element under qdisc-aqm: " + aqm);
        assertTrue(overlimit > 0, "the 300-packet limit was reached: overlimit drops under qdisc-overlimit: " + overlimit);
        assertTrue(ctx.drops.stream().allMatch(s -> s.startsWith("core=0 ")), "on core 0");
        assertEquals(aqm, ctx.metric("codelDrops"), "codelDrops");
        assertEquals(overlimit, ctx.metric("dropOverlimit"), "dropOverlimit");
        assertEquals(0.0, ctx.metric("dropOvermemory"), "dropOvermemory");
        assertEquals(aqm + overlimit, ctx.metric("drops"), "drops counts both reasons");
        assertEquals(1.0, ctx.metric("newFlowCount"), "one flow, never idle");
        assertEquals(1514.0, ctx.metric("maxPacket"), "maxPacket");
        assertEquals(ctx.metric("enqueued") - ctx.metric("dequeued") - ctx.metric("drops"), ctx.metric("backlog"),
                "enqueued - dequeued - drops = backlog");
        assertEquals(1.0, ctx.metric("oldFlowsLen") + ctx.metric("newFlowsLen"), "the one flow is on a list");
        assertEquals(ctx.metric("backlog") * 1514, ctx.metric("backlogBytes"));
        assertEquals(ctx.metric("backlog") * new TestBuffer(0, 1514).truesize(), ctx.metric("memoryUsed"),
                "memory_used: the queued packets' truesize");
        assertEquals(ctx.metric("dequeued") * 1514, ctx.metric("sentBytes"), "Sent bytes");
        assertEquals(List.of(), ctx.failures, "every reason was declared");
    }

    @Test
    void shouldRefuseAQdiscOfAnotherClassForTheKindsMetrics() {
        PfifoQdisc foreign = new PfifoQdisc(10);
        Metrics none = new FakeElementContext(1, Map.of()).metrics();
        assertEquals("qdisc=io.ringlab.qdisc.PfifoQdisc, the pfifo_fast element reads its per-band backlogs from "
                + "io.ringlab.qdisc's PfifoFastQdisc", assertThrows(IllegalArgumentException.class,
                        () -> new PfifoFastFactory().registerMetrics(foreign, none)).getMessage());
        assertEquals("qdisc=io.ringlab.qdisc.PfifoQdisc, the fq_codel element reads its counters from io.ringlab.qdisc's "
                + "FqCodelQdisc", assertThrows(IllegalArgumentException.class,
                        () -> new FqCodelFactory().registerMetrics(foreign, none)).getMessage());
    }

    /** @return a property's default, minimum and maximum in base units (packets, bytes, picoseconds) */
    private static List<Long> values(ElementDescriptorDTO d, String name,
            java.util.function.ToLongFunction<String> parse) {
        PropertyDescriptorDTO p = property(d, name);
        return List.of(parse.applyAsLong(p.defaultValue), parse.applyAsLong(p.min), parse.applyAsLong(p.max));
    }

    @Test
    void shouldDescribeFqCodelWithTheProvidersDefaultsAndRanges() {
        ElementDescriptorDTO d = new FqCodelFactory().descriptor();
        assertEquals(List.of((long) FqCodelProvider.DEFAULT_LIMIT, 1L, (long) FqCodelProvider.MAX_LIMIT),
                values(d, "limit", Units::parseInteger), "limit");
        assertEquals(List.of((long) FqCodelProvider.DEFAULT_FLOWS, 1L, (long) FqCodelProvider.MAX_FLOWS),
                values(d, "flows", Units::parseInteger), "flows");
        assertEquals(List.of((long) FqCodelProvider.DEFAULT_QUANTUM, (long) FqCodelProvider.MIN_QUANTUM,
                (long) FqCodelProvider.MAX_QUANTUM), values(d, "quantum", Units::parseBytes), "quantum");
        assertEquals(List.of(FqCodelProvider.DEFAULT_TARGET_PICOS, 0L, FqCodelProvider.MAX_TIME_PICOS),
                values(d, "target", Units::parsePicos), "target");
        assertEquals(List.of(FqCodelProvider.DEFAULT_INTERVAL_PICOS, 0L, FqCodelProvider.MAX_TIME_PICOS),
                values(d, "interval", Units::parsePicos), "interval");
        assertEquals(List.of(FqCodelProvider.DEFAULT_MEMORY_LIMIT, 1L, FqCodelProvider.MAX_MEMORY_LIMIT),
                values(d, "memoryLimit", Units::parseBytes), "memoryLimit");
        assertEquals(List.of((long) FqCodelProvider.DEFAULT_DROP_BATCH, 1L, (long) FqCodelProvider.MAX_DROP_BATCH),
                values(d, "dropBatch", Units::parseInteger), "dropBatch");
        assertEquals(List.of((long) FqCodelProvider.DEFAULT_QUANTUM, 1L, (long) FqCodelProvider.MAX_MTU),
                values(d, "mtu", Units::parseBytes), "mtu");
        assertEquals(fqCodelDefaults().keySet(), new TreeSet<>(d.properties.stream().map(p -> p.name).toList()),
                "every property is one of the provider's settings");
        for (ElementDescriptorDTO pfifo : List.of(new PfifoFactory().descriptor(),
                new PfifoFastFactory().descriptor())) {
            assertEquals(List.of((long) PfifoQdisc.DEFAULT_LIMIT, 1L, (long) PfifoQdisc.MAX_LIMIT),
                    values(pfifo, "limit", Units::parseInteger), pfifo.type + " limit");
        }
    }

    @Test
    void shouldRefuseADeclarationRegisteredAsAnotherKind() {
        FakeElementContext ctx = new FakeElementContext(1, Map.of());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ctx.metrics().counter(FqCodelFactory.MAX_PACKET));
        assertEquals("metric=maxPacket, declared kind=gauge, registered as a counter", e.getMessage());
    }
}

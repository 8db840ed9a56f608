package io.ringlab.qdisc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.queue.api.Qdisc;

/**
 * The qdisc element's hot swap: a successor of the same kind takes the qdisc's whole state (bands, flows, CoDel,
 * counters); any other enqueues the packets again, oldest first, keeping their enqueue times, and drops what it refuses
 * as {@value QdiscElement#DROP_SWAP_REFUSED}.
 */
class QdiscHandoverTest {
    private static final long MS = 1_000_000_000L;

    private static QdiscElement pfifo(FakeElementContext ctx) {
        return (QdiscElement) new PfifoFactory().create(ctx);
    }

    /** @return a pfifo with packets 1 to {@code n} of 100 bytes, packet i enqueued at i ms */
    private static QdiscElement filled(FakeElementContext ctx, int n) {
        QdiscElement e = pfifo(ctx);
        for (int i = 1; i <= n; i++) {
            ctx.nowPicos = i * MS;
            e.push(0, new TestBuffer(i, 100));
        }
        return e;
    }

    private static QdiscElement fqCodel(FakeElementContext ctx) {
        return (QdiscElement) new FqCodelFactory().create(ctx);
    }

    private static Map<String, Long> fqCodelConfig(long limit) {
        return Map.of("limit", limit, "flows", 1024L, "quantum", 1514L, "target", 5 * MS, "interval", 100 * MS,
                "memoryLimit", 32L << 20, "dropBatch", 64L, "mtu", 1514L);
    }

    private static MapElementState swap(QdiscElement from, String fromType, QdiscElement to) {
        MapElementState s = new MapElementState(fromType);
        assertTrue(from.exportState(s));
        assertTrue(to.importState(s));
        return s;
    }

    private static List<Integer> ids(QdiscElement e) {
        List<Integer> ids = new ArrayList<>();
        e.forEachHeld(b -> ids.add(b.id()));
        return ids;
    }

    private static List<Integer> drain(QdiscElement e) {
        List<Integer> ids = new ArrayList<>();
        for (Buffer b = e.pull(0); b != null; b = e.pull(0)) {
            ids.add(b.id());
        }
        return ids;
    }

    @Test
    void aPfifoOfTheSameLimitTakesTheQueueAndTheCountersAsTheyAre() {
        FakeElementContext a = new FakeElementContext(1, Map.of("limit", 10L));
        QdiscElement old = filled(a, 6);
        old.pull(0);
        old.qdisc().requeue(old.qdisc().dequeue(7 * MS)); // one requeue, counted
        FakeElementContext b = new FakeElementContext(1, Map.of("limit", 10L));
        QdiscElement neu = pfifo(b);
        swap(old, "pfifo", neu);
        assertEquals(ids(old), ids(neu));
        assertEquals(old.qdisc().stats().enqueued, neu.qdisc().stats().enqueued, "the qdisc's own counters go on");
        assertEquals(old.qdisc().stats().dequeued, neu.qdisc().stats().dequeued);
        assertEquals(1.0, b.metric("requeues"));
        assertEquals(List.of(2, 3, 4, 5, 6), drain(neu));
    }

    @Test
    void aPfifoOfALowerLimitTakesTheOldestAndDropsTheRestAsRefused() {
        FakeElementContext a = new FakeElementContext(1, Map.of("limit", 10L));
        QdiscElement old = filled(a, 8);
        FakeElementContext b = new FakeElementContext(1, Map.of("limit", 5L));
        b.nowPicos = 9 * MS;
        QdiscElement neu = pfifo(b);
        swap(old, "pfifo", neu);
        assertEquals(List.of("core=0 id=6 reason=101", "core=0 id=7 reason=101", "core=0 id=8 reason=101"), b.drops);
        assertEquals(List.of(Qdisc.DROP_OVERLIMIT, QdiscElement.DROP_SWAP_REFUSED), b.reasons, "registered at the first");
        assertEquals(3.0, b.metric("drops"));
        List<Long> stamps = new ArrayList<>();
        neu.forEachHeld(x -> stamps.add(x.enqueuedPicos()));
        assertEquals(List.of(MS, 2 * MS, 3 * MS, 4 * MS, 5 * MS), stamps, "each keeps its first enqueue time");
    }

    @Test
    void anFqCodelTakesFlowsCodelAndThePerturbationOverAndDequeuesAsTheOldOneWould() {
        FakeElementContext a = new FakeElementContext(1, fqCodelConfig(10_240));
        QdiscElement old = fqCodel(a);
        // four flows, 1 ms apart, then a dequeue every 2 ms: sojourn times grow past the target and CoDel starts dropping
        int id = 0;
        for (int i = 0; i < 400; i++) {
            a.nowPicos = i * MS / 2;
            TestBuffer p = new TestBuffer(++id, i % 7 == 0 ? 200 : 1500);
            p.flow(i % 4);
            old.push(0, p);
            if (i % 4 == 3) {
                old.pull(0);
            }
        }
        assertTrue(a.metric("codelDrops") > 0, "CoDel is dropping at the swap");
        FakeElementContext b = new FakeElementContext(99, fqCodelConfig(10_240)); // another perturbation drawn
        b.nowPicos = a.nowPicos;
        QdiscElement neu = fqCodel(b);
        swap(old, "fq_codel", neu);
        assertEquals(ids(old), ids(neu));
        for (String m : FqCodelFactory.FQ_CODEL_METRICS.stream().map(d -> d.name).toList()) {
            assertEquals(a.metric(m), b.metric(m), m);
        }
        assertEquals(a.metric("requeues"), b.metric("requeues"));
        // the same packets leave, and CoDel drops the same ones, from here on
        List<Integer> fromOld = new ArrayList<>(), fromNew = new ArrayList<>();
        for (int k = 1; k <= 100; k++) {
            a.nowPicos = b.nowPicos = 200 * MS + k * 2 * MS;
            Buffer x = old.pull(0), y = neu.pull(0);
            fromOld.add(x == null ? -1 : x.id());
            fromNew.add(y == null ? -1 : y.id());
        }
        assertEquals(fromOld, fromNew);
        assertTrue(!b.drops.isEmpty(), "CoDel dropped after the swap too");
        assertEquals(a.drops.subList(a.drops.size() - (b.drops.size()), a.drops.size()), b.drops);
        assertEquals(a.metric("codelDrops"), b.metric("codelDrops"));
    }

    @Test
    void anFqCodelTakingAPfifosQueueEnqueuesItOldestFirstKeepingTheEnqueueTimes() {
        FakeElementContext a = new FakeElementContext(1, Map.of("limit", 1000L));
        QdiscElement old = pfifo(a);
        for (int i = 1; i <= 12; i++) {
            a.nowPicos = i * MS;
            TestBuffer p = new TestBuffer(i, 1000);
            p.flow(i % 3);
            old.push(0, p);
        }
        FakeElementContext b = new FakeElementContext(1, fqCodelConfig(10_240));
        b.nowPicos = 13 * MS;
        QdiscElement neu = fqCodel(b);
        swap(old, "pfifo", neu);
        assertEquals(List.of(), b.drops);
        assertEquals(12.0, b.metric("backlog"));
        assertEquals(0.0, b.metric("enqueued"), "the element's counter counted them at their first enqueue");
        // each flow's packets leave in their order, with their first enqueue time
        List<Integer> flow1 = new ArrayList<>();
        for (Buffer x = neu.pull(0); x != null; x = neu.pull(0)) {
            assertEquals(x.id() * MS, x.enqueuedPicos());
            if (x.flow() == 1) {
                flow1.add(x.id());
            }
        }
        assertEquals(List.of(1, 4, 7, 10), flow1);
    }

    @Test
    void theStateOfAnElementThatIsNotAQdiscIsRefused() {
        MapElementState s = new MapElementState("netdev");
        s.put("netdev.ring", new Buffer[0]);
        FakeElementContext b = new FakeElementContext(1, Map.of("limit", 10L));
        assertEquals(false, pfifo(b).importState(s), "no packets under the shared name: drain and restart");
    }
}

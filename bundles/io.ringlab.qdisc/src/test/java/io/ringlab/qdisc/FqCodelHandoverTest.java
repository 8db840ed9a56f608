package io.ringlab.qdisc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * {@link FqCodelHandover}: the state format an fq_codel qdisc writes for its successor (the keys, their order, the totals'
 * layout) and the states a successor refuses.
 */
class FqCodelHandoverTest {
    private static final long MS = 1_000_000_000L;
    private static final String KIND = "fq_codel.fq_codel";

    /** @return an fq_codel with a backlog in several buckets, CoDel dropping, and a requeued packet held */
    private static FqCodelQdisc busy(int limit, int flows) {
        FqCodelQdisc q = (FqCodelQdisc) new FqCodelProvider().create(Map.of(FqCodelProvider.LIMIT, limit,
                FqCodelProvider.FLOWS, flows, FqCodelProvider.PERTURBATION, 77));
        for (int i = 0; i < 300; i++) {
            TestBuffer p = new TestBuffer(i, i % 5 == 0 ? 64 : 1500);
            p.flow(i % 6);
            p.truesize(2304);
            q.enqueue(p, i * MS / 2);
            if (i % 3 == 2) {
                q.dequeue(i * MS / 2);
            }
        }
        q.requeue(q.dequeue(150 * MS));
        return q;
    }

    @Test
    void shouldWriteTheStateUnderItsKeysInTheirOrderWithTheTotalsLaidOutAsTheFormatSays() {
        FqCodelQdisc q = busy(1000, 64);
        assertTrue(q.codelDrops() > 0, "CoDel has dropped before the export");
        MapElementState s = new MapElementState("fq_codel");
        q.exportState(s, KIND);
        List<String> names = s.values.keySet().stream().map(k -> k.substring(KIND.length() + 1)).toList();
        assertEquals(List.of("qdiscClass", "perturbation", "flowLengths", "flowPackets", "packetMemory", "held",
                "backlogs", "deficit", "newFlows", "oldFlows", "count", "lastcount", "dropping", "recInvSqrt",
                "firstAboveTime", "dropNext", "ldelay", "totals", "lastDropReason"), names);
        assertEquals(FqCodelQdisc.class.getName(), s.get(KIND + ".qdiscClass", String.class));
        assertEquals(77, s.getInt(KIND + ".perturbation", 0));
        long[] totals = s.get(KIND + ".totals", long[].class);
        assertArrayEquals(new long[] {q.backlogBytes(), q.memoryUsage(), 150 * MS, q.stats().enqueued,
            q.stats().dequeued, 1, q.dropOverlimit(), q.dropOvermemory(), q.codelDrops(), q.newFlowCount(),
            q.maxPacket()}, totals);
        assertEquals(q.backlogPackets() - 1, s.get(KIND + ".flowPackets", Object[].class).length,
                "the held packet is written apart");
    }

    @Test
    void shouldReadBackWhatWasWritten() {
        FqCodelQdisc q = busy(1000, 64);
        MapElementState s = new MapElementState("fq_codel");
        q.exportState(s, KIND);
        FqCodelHandover h = FqCodelHandover.read(s, KIND, FqCodelQdisc.class.getName(), 64, 1001, 5);
        assertNotNull(h);
        assertEquals(77, h.perturbation(), "the predecessor's perturbation, not the reader's");
        assertSame(s.get(KIND + ".held", Object.class), h.held());
        assertEquals(q.backlogBytes(), h.totals().backlogBytes());
        assertEquals(q.memoryUsage(), h.flows().memoryUsage());
        assertEquals(q.codelDrops(), h.codel().dropCount());
        assertEquals(q.maxPacket(), h.codel().maxPacket());
        assertEquals(q.newFlowCount(), h.totals().newFlowCount());
        assertEquals(q.lastDropReason(), h.lastDropReason());
        MapElementState again = new MapElementState("fq_codel");
        h.write(again, KIND);
        assertEquals(s.values.keySet(), again.values.keySet());
        for (String k : s.values.keySet()) {
            Object a = s.values.get(k);
            Object b = again.values.get(k);
            if (a instanceof long[] x) {
                assertArrayEquals(x, (long[]) b, k);
            } else if (a instanceof int[] x) {
                assertArrayEquals(x, (int[]) b, k);
            } else if (a instanceof boolean[] x) {
                assertArrayEquals(x, (boolean[]) b, k);
            } else if (a instanceof Object[] x) {
                assertArrayEquals(x, (Object[]) b, k);
            } else {
                assertEquals(a, b, k);
            }
        }
    }

    @Test
    void shouldRefuseAnotherClassOtherBucketsTooManyPacketsOrNoState() {
        FqCodelQdisc q = busy(1000, 64);
        MapElementState s = new MapElementState("fq_codel");
        q.exportState(s, KIND);
        int packets = q.backlogPackets() - 1;
        String cls = FqCodelQdisc.class.getName();
        assertNull(FqCodelHandover.read(s, KIND, "some.other.Qdisc", 64, 1001, 0), "another class");
        assertNull(FqCodelHandover.read(s, KIND, cls, 128, 1001, 0), "another number of buckets");
        assertNull(FqCodelHandover.read(s, KIND, cls, 64, packets - 1, 0), "fewer slots than packets");
        assertNotNull(FqCodelHandover.read(s, KIND, cls, 64, packets, 0), "exactly as many slots as packets");
        assertNull(FqCodelHandover.read(new MapElementState("fq_codel"), KIND, cls, 64, 1001, 0), "nothing written");
        assertNull(FqCodelHandover.read(s, "other.kind", cls, 64, 1001, 0), "written under another kind");
    }

    @Test
    void aQdiscThatAlreadyHoldsPacketsRefusesAHandoverAndChangesNothing() {
        FqCodelQdisc from = busy(1000, 64);
        MapElementState s = new MapElementState("fq_codel");
        from.exportState(s, KIND);
        FqCodelQdisc to = busy(1000, 64);
        long bytes = to.backlogBytes();
        int packets = to.backlogPackets();
        assertFalse(to.importState(s, KIND));
        assertEquals(bytes, to.backlogBytes());
        assertEquals(packets, to.backlogPackets());
        FqCodelQdisc fewerSlots = (FqCodelQdisc) new FqCodelProvider().create(Map.of(FqCodelProvider.LIMIT, 10,
                FqCodelProvider.FLOWS, 64));
        assertFalse(fewerSlots.importState(s, KIND), "a limit too low for the packets");
        assertEquals(0, fewerSlots.backlogPackets());
    }
}

package io.ringlab.qdisc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.queue.api.Qdisc;
import io.ringlab.queue.api.dto.QdiscStatsDTO;

/**
 * Checks {@link FqCodelQdisc} against {@code net/sched/sch_fq_codel.c} and {@code include/net/codel_impl.h}, driving
 * enqueue and dequeue with explicit virtual times (picoseconds).
 */
class FqCodelQdiscTest {

    private static final long MS = 1_000_000_000L;
    private static final long US = 1_000_000L;
    /** One 1514-byte frame at 10 Mbit/s: 1514 * 8 / 10^7 s = 1.2112 ms. */
    private static final long DRAIN_PICOS = 1_211_200_000L;

    /** Drops handed to the qdisc's sink, with the test's clock at the time. */
    private static final class Sink implements Qdisc.DropSink {
        final List<Buffer> buffers = new ArrayList<>();
        final List<String> reasons = new ArrayList<>();
        final List<Long> times = new ArrayList<>();
        long now;

        @Override
        public void dropped(Buffer buffer, String reason) {
            buffers.add(buffer);
            reasons.add(reason);
            times.add(now);
        }

        long count(String reason) {
            return reasons.stream().filter(reason::equals).count();
        }
    }

    /** The defaults of {@code fq_codel_init} with the given perturbation. */
    private static FqCodelQdisc defaults(int perturbation) {
        return (FqCodelQdisc) new FqCodelProvider().create(Map.of(FqCodelProvider.PERTURBATION, perturbation));
    }

    private static TestBuffer packet(int id, int flow, int length) {
        TestBuffer b = new TestBuffer(id, length);
        b.flow(flow);
        return b;
    }

    /** Two flow numbers from {@code from} on that this qdisc puts in different buckets. */
    private static int[] twoFlowsInDifferentBuckets(FqCodelQdisc q, int from) {
        int a = from;
        int b = from + 1;
        while (q.classify(b) == q.classify(a)) {
            b++;
        }
        return new int[] {a, b};
    }

    private static void assertIdentities(FqCodelQdisc q) {
        QdiscStatsDTO s = q.stats();
        assertEquals(s.backlogPackets, s.enqueued + s.requeues - s.dequeued - s.drops,
                "enqueued + requeues - dequeued - drops = backlog");
        assertEquals(s.drops, s.dropsByReason.values().stream().mapToLong(Long::longValue).sum(), "drops by reason");
        long[] bytes = {0};
        int[] packets = {0};
        q.forEachQueued(b -> {
            bytes[0] += b.length();
            packets[0]++;
        });
        assertEquals(s.backlogPackets, packets[0], "walk finds the backlog");
        assertEquals(s.backlogBytes, bytes[0], "walk finds the byte backlog");
    }

    @Test
    void shouldShareBytesEquallyBetweenTwoBulkFlowsByDeficitRoundRobin() {
        FqCodelQdisc q = defaults(7);
        int[] flows = twoFlowsInDifferentBuckets(q, 1);
        int[] lengths = {1514, 300}; // a full-size flow against a small-packet flow: DRR shares bytes, not packets
        int[] queued = new int[2];
        long[] bytes = new long[2];
        long[] packets = new long[2];
        int id = 0;
        long now = 0;
        for (int i = 0; i < 40_000; i++) {
            for (int f = 0; f < 2; f++) {
                while (queued[f] < 8) { // both flows stay backlogged
                    q.enqueue(packet(id++, flows[f], lengths[f]), now);
                    queued[f]++;
                }
            }
            Buffer b = q.dequeue(now);
            int f = b.flow() == flows[0] ? 0 : 1;
            queued[f]--;
            bytes[f] += b.length();
            packets[f]++;
            now += 100 * US; // sojourn stays far below target: no CoDel drop disturbs the shares
        }
        double share = (double) bytes[0] / (bytes[0] + bytes[1]);
        assertEquals(0.5, share, 0.005, "byte share of the 1514-B flow: " + bytes[0] + " vs " + bytes[1] + " bytes");
        assertTrue(packets[1] > 4 * packets[0], "the 300-B flow sends about five packets per 1514-B packet: " + packets[0]
                + " vs " + packets[1]);
        assertEquals(0, q.stats().drops, "no drops");
        assertIdentities(q);
    }

    @Test
    void shouldKeepASparseFlowsSojournWellUnderTargetWhileABulkFlowReachesIt() {
        // a 10 Mbit/s drain: one 1514-B packet dequeued every 1.2112 ms; a bulk flow offers one 1514-B packet every 1 ms
        // (12.1 Mbit/s), a sparse flow one 64-B packet every 10 ms
        FqCodelQdisc q = defaults(42);
        Sink sink = new Sink();
        q.dropSink(sink);
        int[] flows = twoFlowsInDifferentBuckets(q, 1);
        int bulk = flows[0];
        int sparse = flows[1];
        long end = 20_000 * MS;
        long nextBulk = 0;
        long nextSparse = 5 * MS + 300 * US;
        long nextDrain = DRAIN_PICOS;
        int id = 0;
        List<Long> sparseSojourn = new ArrayList<>();
        List<Long> bulkSojourn = new ArrayList<>();
        List<Long> bulkSojournLate = new ArrayList<>();
        while (true) {
            long now = Math.min(nextBulk, Math.min(nextSparse, nextDrain));
            if (now > end) {
                break;
            }
            sink.now = now;
            if (now == nextBulk) {
                q.enqueue(packet(id++, bulk, 1514), now);
                nextBulk += MS;
            }
            if (now == nextSparse) {
                q.enqueue(packet(id++, sparse, 64), now);
                nextSparse += 10 * MS;
            }
            if (now == nextDrain) {
                Buffer b = q.dequeue(now);
                if (b != null) {
                    long sojourn = now - b.enqueuedPicos();
                    if (b.flow() == sparse) {
                        sparseSojourn.add(sojourn);
                    } else {
                        bulkSojourn.add(sojourn);
                        if (now > 10_000 * MS) {
                            bulkSojournLate.add(sojourn);
                        }
                    }
                }
                nextDrain += DRAIN_PICOS;
            }
        }
        long sparseMax = sparseSojourn.stream().mapToLong(Long::longValue).max().orElseThrow();
        double sparseMean = sparseSojourn.stream().mapToLong(Long::longValue).average().orElseThrow();
        long bulkMax = bulkSojourn.stream().mapToLong(Long::longValue).max().orElseThrow();
        long bulkMedianLate = median(bulkSojournLate);
        System.out.printf("fq_codel sparse vs bulk: sparse %d packets, sojourn mean %.3f ms, max %.3f ms; bulk %d packets, "
                + "sojourn max %.3f ms, median over the last 10 s %.3f ms; CoDel drops %d, overlimit drops %d%n",
                sparseSojourn.size(), sparseMean / MS, (double) sparseMax / MS, bulkSojourn.size(), (double) bulkMax / MS,
                (double) bulkMedianLate / MS, q.codelDrops(), q.dropOverlimit());

        assertEquals(2000, sparseSojourn.size(), "every sparse packet leaves: none dropped");
        assertTrue(sparseMax <= DRAIN_PICOS, "a sparse packet waits at most one drain slot: max " + sparseMax + " ps");
        assertTrue(sparseMax < Codel.picos(q.targetCodelTime()) / 4, "well under the 5 ms target");
        assertTrue(bulkMax > 5 * MS, "the bulk flow's sojourn reaches the target: max " + bulkMax + " ps");
        assertTrue(bulkMedianLate >= 5 * MS, "and stays in the target region or above: median " + bulkMedianLate + " ps");
        assertTrue(q.codelDrops() > 0, "CoDel drops the bulk flow's excess");
        assertEquals(0, sink.buffers.stream().filter(b -> b.flow() == sparse).count(), "never the sparse flow");
        assertEquals(q.codelDrops(), sink.count(Qdisc.DROP_AQM), "every CoDel drop reached the sink as qdisc-aqm");
        assertEquals(0, q.dropOverlimit(), "the 10240-packet limit is never reached");
        assertIdentities(q);
    }

    private static long median(List<Long> values) {
        long[] sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
        return sorted[sorted.length / 2];
    }

    @Test
    void shouldNotDropWhileTheSojournStaysBelowTarget() {
        FqCodelQdisc q = defaults(3);
        Sink sink = new Sink();
        q.dropSink(sink);
        // one 1514-B packet per ms, each dequeued 4.99 ms after it arrived: about five packets (7.5 KB > mtu) are always queued
        long sojourn = 4_990 * US;
        int id = 0;
        for (long t = 0; t < 10_000 * MS; t += MS) {
            q.enqueue(packet(id++, 9, 1514), t);
            if (t >= sojourn - 990 * US) {
                Buffer b = q.dequeue(t + 990 * US); // at t + 0.99 ms: the packet of t - 4 ms, four stay queued (> mtu)
                assertEquals(sojourn, t + 990 * US - b.enqueuedPicos(), "sojourn just under target");
            }
        }
        assertEquals(List.of(), sink.buffers, "no CoDel drop below target, however long");
        assertFalse(q.codelDropping(q.classify(9)), "never in the dropping state");
        assertEquals(0, q.stats().drops, "no drops");
        assertIdentities(q);
    }

    @Test
    void shouldStartDroppingOneIntervalAfterTheSojournExceedsTargetAndSpaceDropsByIntervalOverSqrtCount() {
        FqCodelQdisc q = defaults(11);
        Sink sink = new Sink();
        q.dropSink(sink);
        int flow = 5;
        int bucket = q.classify(flow);
        // two packets per ms in, one per ms out: the queue and the sojourn grow without end
        int id = 0;
        long firstAbove = -1;
        List<Long> dequeueTimes = new ArrayList<>();
        for (long t = 0; t < 1_500 * MS; t += 500 * US) {
            sink.now = t;
            q.enqueue(packet(id++, flow, 1514), t);
            if (t % MS == 0 && t > 0) {
                int before = sink.buffers.size();
                Buffer b = q.dequeue(t);
                dequeueTimes.add(t);
                if (firstAbove < 0 && Codel.time(t) - Codel.time(b.enqueuedPicos()) >= q.targetCodelTime()
                        && sink.buffers.size() == before) {
                    firstAbove = t; // codel_should_drop sets first_above_time = now + interval here
                }
            }
        }
        List<Long> drops = sink.times;
        assertTrue(drops.size() > 20, "drops: " + drops.size());
        assertTrue(firstAbove > 0, "the sojourn went above target");
        // the first drop: the first dequeue strictly after first_above_time = firstAbove + interval (in CoDel units)
        int firstAboveTime = Codel.time(firstAbove) + q.intervalCodelTime();
        long expectedFirst = dequeueTimes.stream().filter(t -> Codel.after(Codel.time(t), firstAboveTime)).findFirst()
                .orElseThrow();
        assertEquals(expectedFirst, drops.get(0), "dropping starts one interval after the sojourn exceeded target");
        assertTrue(drops.get(0) - firstAbove >= 100 * MS && drops.get(0) - firstAbove <= 101 * MS,
                "about 100 ms after: " + (drops.get(0) - firstAbove) + " ps");

        // drop k+1 is due at drop_next = drop_next + control_law(count = k); each happens at the first dequeue at or after it
        int scheduled = Codel.time(drops.get(0));
        int rec = Codel.REC_INV_SQRT_ONE;
        for (int count = 1; count < 20; count++) {
            if (count > 1) {
                rec = Codel.newtonStep(count, rec);
            }
            scheduled = Codel.controlLaw(scheduled, q.intervalCodelTime(), rec);
            int due = scheduled;
            long expected = dequeueTimes.stream().filter(t -> Codel.afterEq(Codel.time(t), due)).findFirst().orElseThrow();
            assertEquals(expected, drops.get(count), "drop " + (count + 1));
        }
        // and the spacing shrinks as interval / sqrt(count): within the kernel's Newton approximation and 1 ms of dequeue
        for (int k = 8; k < 20; k++) {
            double spacingMs = (drops.get(k) - drops.get(k - 1)) / (double) MS;
            double law = 100.0 / Math.sqrt(k);
            assertEquals(law, spacingMs, 0.01 * law + 1.0, "spacing before drop " + (k + 1) + " (count " + k + ")");
        }
        assertTrue(drops.get(19) - drops.get(18) < drops.get(2) - drops.get(1), "shrinking");
        assertTrue(q.codelDropping(bucket), "still dropping: the queue still grows");
        assertEquals(drops.size(), q.codelCount(bucket), "count = drops since entering the dropping state");
        assertEquals(Qdisc.DROP_AQM, q.lastDropReason(), "reason");
        assertEquals(1514, q.maxPacket(), "maxpacket");
        assertIdentities(q);
    }

    @Test
    void shouldLeaveTheDroppingStateWhenTheBacklogFallsToOneMtu() {
        FqCodelQdisc q = defaults(11);
        Sink sink = new Sink();
        q.dropSink(sink);
        int id = 0;
        for (long t = 0; t < 600 * MS; t += 500 * US) {
            q.enqueue(packet(id++, 5, 1514), t);
            if (t % MS == 0 && t > 0) {
                q.dequeue(t);
            }
        }
        int bucket = q.classify(5);
        assertTrue(q.codelDropping(bucket), "dropping after 600 ms of a growing queue");
        long t = 600 * MS;
        while (q.backlogPackets() > 1) {
            q.dequeue(t += MS);
        }
        assertFalse(q.codelDropping(bucket), "a packet with at most mtu bytes behind it is not dropped: state left");
        assertIdentities(q);
    }

    @Test
    void shouldDropHalfTheFattestFlowFromItsHeadAboveTheLimit() {
        FqCodelQdisc q = (FqCodelQdisc) new FqCodelProvider().create(Map.of(FqCodelProvider.LIMIT, 100,
                FqCodelProvider.PERTURBATION, 1));
        Sink sink = new Sink();
        q.dropSink(sink);
        int[] flows = twoFlowsInDifferentBuckets(q, 100);
        int fat = flows[0];
        int thin = flows[1];
        for (int i = 0; i < 60; i++) {
            assertNull(q.enqueue(packet(i, fat, 1000), i), "queued");
        }
        for (int i = 60; i < 100; i++) {
            q.enqueue(packet(i, thin, 100), i);
        }
        assertEquals(100, q.backlogPackets(), "at the limit");
        assertEquals(List.of(), sink.buffers, "no drop yet");

        TestBuffer arrival = packet(100, thin, 100);
        assertNull(q.enqueue(arrival, 200), "the arriving packet is queued; the drops go to the sink");
        // threshold = 60,000 / 2: 30 packets of 1000 B from the head of the fat flow
        assertEquals(30, sink.buffers.size(), "half the fat flow's bytes");
        for (int i = 0; i < 30; i++) {
            assertEquals(i, sink.buffers.get(i).id(), "head drops, in order");
            assertEquals(Qdisc.DROP_OVERLIMIT, sink.reasons.get(i), "reason");
        }
        assertEquals(30_000, q.bucketBacklogBytes(q.classify(fat)), "fat flow halved");
        assertEquals(4_100, q.bucketBacklogBytes(q.classify(thin)), "thin flow untouched, arrival included");
        assertEquals(30, q.codelCount(q.classify(fat)), "count += dropped: CoDel's signal grows too");
        assertEquals(71, q.backlogPackets(), "qlen");
        assertEquals(30, q.dropOverlimit(), "drop_overlimit");
        assertEquals(0, q.dropOvermemory(), "not memory");
        assertEquals(Map.of(Qdisc.DROP_OVERLIMIT, 30L, Qdisc.DROP_AQM, 0L), q.stats().dropsByReason, "by reason");
        assertIdentities(q);

        // drop_batch bounds the batch
        FqCodelQdisc small = (FqCodelQdisc) new FqCodelProvider().create(Map.of(FqCodelProvider.LIMIT, 100,
                FqCodelProvider.DROP_BATCH, 8, FqCodelProvider.PERTURBATION, 1));
        Sink smallSink = new Sink();
        small.dropSink(smallSink);
        for (int i = 0; i < 101; i++) {
            small.enqueue(packet(i, fat, 1000), i);
        }
        assertEquals(8, smallSink.buffers.size(), "at most dropBatch per overlimit event");
        assertEquals(93, small.backlogPackets(), "qlen");
        assertIdentities(small);
    }

    @Test
    void shouldDropFromTheFattestFlowWhenMemoryIsOverItsLimit() {
        FqCodelQdisc q = (FqCodelQdisc) new FqCodelProvider().create(Map.of(FqCodelProvider.MEMORY_LIMIT, 20_000,
                FqCodelProvider.PERTURBATION, 1));
        Sink sink = new Sink();
        q.dropSink(sink);
        int[] flows = twoFlowsInDifferentBuckets(q, 0);
        for (int i = 0; i < 8; i++) {
            TestBuffer b = packet(i, flows[i % 3 == 0 ? 1 : 0], 1500);
            b.truesize(2304); // a 2 KiB data area plus the sk_buff: memory counts truesize, not length
            q.enqueue(b, i);
        }
        assertEquals(8 * 2304, q.memoryUsage(), "18,432 bytes of truesize, under 20,000");
        assertEquals(List.of(), sink.buffers, "no drop: 8 packets are far below the packet limit");
        TestBuffer b = packet(8, flows[1], 1500);
        b.truesize(2304);
        q.enqueue(b, 8);
        // 20,736 > 20,000: the fattest flow (5 x 1500 B against 4 x 1500 B) loses half its bytes, 3 packets
        assertEquals(3, sink.buffers.size(), "drops");
        assertEquals(3, q.dropOvermemory(), "drop_overmemory");
        assertEquals(3, q.dropOverlimit(), "counted in drop_overlimit too");
        assertEquals(List.of(1, 2, 4), sink.buffers.stream().map(Buffer::id).toList(), "from the head of the fat flow");
        assertEquals(6 * 2304, q.memoryUsage(), "memory given back");
        assertIdentities(q);
    }

    @Test
    void shouldHashDeterministicallyForAPerturbationAndDifferentlyForAnother() {
        FqCodelQdisc a = defaults(0x1234);
        FqCodelQdisc b = defaults(0x1234);
        FqCodelQdisc c = defaults(0x4321);
        int[] bucketsA = new int[256];
        int[] bucketsB = new int[256];
        int[] bucketsC = new int[256];
        for (int flow = 0; flow < 256; flow++) {
            bucketsA[flow] = a.classify(flow);
            bucketsB[flow] = b.classify(flow);
            bucketsC[flow] = c.classify(flow);
            assertEquals(Codel.reciprocalScale(Codel.jhash1Word(flow, 0x1234), 1024), bucketsA[flow],
                    "reciprocal_scale(jhash_1word(flow, perturbation), flows)");
        }
        assertTrue(Arrays.equals(bucketsA, bucketsB), "same perturbation, same buckets");
        int same = 0;
        for (int flow = 0; flow < 256; flow++) {
            same += bucketsA[flow] == bucketsC[flow] ? 1 : 0;
        }
        assertTrue(same < 10, "another perturbation moves the flows: " + same + " of 256 kept their bucket");
        assertEquals(18, defaults(0).classify(0), "jhash_1word(0, 0) = 76781240 -> bucket 18 of 1024 (C reference)");
        // a source's flows are element index * 65536 + n: they spread like any other numbers
        Map<Integer, Integer> used = new HashMap<>();
        for (int flow = 0; flow < 512; flow++) {
            used.merge(a.classify(65536 + flow), 1, Integer::sum);
        }
        assertTrue(used.size() > 300, "512 flows over 1024 buckets use " + used.size() + " buckets");
    }

    @Test
    void shouldServeNewFlowsFirstAndMoveThemToOldFlowsAfterTheirQuantum() {
        FqCodelQdisc q = defaults(5);
        int[] flows = twoFlowsInDifferentBuckets(q, 20);
        int old = flows[0];
        int fresh = flows[1];
        for (int i = 0; i < 4; i++) {
            q.enqueue(packet(i, old, 1000), 0);
        }
        assertEquals(1, q.newFlowCount(), "one new flow, deficit = quantum = 1514");
        assertEquals(old, q.dequeue(0).flow(), "deficit 514 left");
        assertEquals(old, q.dequeue(0).flow(), "deficit -486");
        assertEquals(1, q.newFlowsLength(), "still on new_flows");
        assertEquals(old, q.dequeue(0).flow(), "deficit used up: +quantum, moved to old_flows, served: deficit 28");
        assertEquals(0, q.newFlowsLength(), "now an old flow");
        assertEquals(1, q.oldFlowsLength(), "on old_flows");

        q.enqueue(packet(10, fresh, 200), 0);
        q.enqueue(packet(11, fresh, 200), 0);
        assertEquals(2, q.newFlowCount(), "new_flow_count");
        assertEquals(fresh, q.dequeue(0).flow(), "a new flow goes before old ones");
        assertEquals(fresh, q.dequeue(0).flow(), "and keeps going while it has deficit (1114 left)");
        // the fresh flow is empty; old_flows is not, so it moves to the tail of old_flows instead of leaving the lists
        assertEquals(old, q.dequeue(0).flow(), "then the old flow, with its 28 bytes of deficit");
        assertEquals(0, q.newFlowsLength(), "no new flow");
        assertEquals(2, q.oldFlowsLength(), "the emptied new flow waits on old_flows");
        q.enqueue(packet(12, fresh, 200), 0);
        assertEquals(2, q.newFlowCount(), "a flow still on old_flows is not new again");
        assertEquals(0, q.newFlowsLength(), "and does not jump the queue");
        assertEquals(fresh, q.dequeue(0).flow(), "the old flow's deficit is used up: it goes behind the fresh one");
        assertNull(q.dequeue(0), "empty");
        assertEquals(0, q.newFlowsLength() + q.oldFlowsLength(), "empty buckets leave the lists");
        assertIdentities(q);
    }

    @Test
    void shouldHoldARequeuedOrPeekedPacketAndHandItOutFirst() {
        FqCodelQdisc q = defaults(1);
        int[] flows = twoFlowsInDifferentBuckets(q, 0);
        q.enqueue(packet(1, flows[0], 1000), 10);
        q.enqueue(packet(2, flows[1], 500), 20);
        Buffer first = q.dequeue(30);
        q.requeue(first);
        assertEquals(2, q.backlogPackets(), "a requeued packet counts in qlen");
        assertEquals(1500, q.backlogBytes(), "and in the byte backlog");
        assertEquals(10L, first.enqueuedPicos(), "keeps its enqueue time");
        assertSame(first, q.peek(), "peek shows it");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> q.requeue(packet(9, 0, 1)));
        assertEquals("requeue with a packet already held: backlogPackets=2, requeue only the packet last dequeued",
                e.getMessage());
        assertSame(first, q.dequeue(40), "handed out first");
        Buffer peeked = q.peek();
        assertEquals(2, peeked.id(), "peek runs the dequeue");
        assertEquals(1, q.backlogPackets(), "a peeked packet stays counted");
        assertSame(peeked, q.dequeue(50), "the next dequeue returns what peek showed");
        assertNull(q.peek(), "empty");
        QdiscStatsDTO s = q.stats();
        assertEquals(1, s.requeues, "requeues");
        assertEquals(3, s.dequeued, "a requeued packet counts again when it leaves again");
        assertIdentities(q);
    }

    @Test
    void shouldKeepTheIdentitiesUnderRandomTraffic() {
        FqCodelQdisc q = (FqCodelQdisc) new FqCodelProvider().create(Map.of(FqCodelProvider.LIMIT, 300,
                FqCodelProvider.FLOWS, 16, FqCodelProvider.DROP_BATCH, 4, FqCodelProvider.PERTURBATION, 99));
        Sink sink = new Sink();
        q.dropSink(sink);
        java.util.SplittableRandom random = new java.util.SplittableRandom(5);
        long now = 0;
        int id = 0;
        long delivered = 0;
        for (int i = 0; i < 200_000; i++) {
            now += random.nextLong(200 * US);
            if (random.nextInt(100) < 55) {
                q.enqueue(packet(id++, random.nextInt(40), 64 + random.nextInt(1451)), now);
            } else {
                Buffer b = q.dequeue(now);
                if (b != null) {
                    delivered++;
                    if (random.nextInt(50) == 0) {
                        q.requeue(b);
                        delivered--;
                    }
                }
            }
            if (i % 10_000 == 0) {
                assertIdentities(q);
            }
        }
        assertIdentities(q);
        assertTrue(q.codelDrops() > 0 && q.dropOverlimit() > 0, "both kinds of drop occurred: " + q.codelDrops() + ", "
                + q.dropOverlimit());
        assertEquals(id, delivered + sink.buffers.size() + q.backlogPackets(), "every packet left, was dropped or is queued");
        assertTrue(q.backlogPackets() <= 301, "limit kept");
    }

    @Test
    void shouldAllocateNothingOnTheHotPath() {
        FqCodelQdisc q = (FqCodelQdisc) new FqCodelProvider().create(Map.of(FqCodelProvider.LIMIT, 64,
                FqCodelProvider.PERTURBATION, 3));
        long[] drops = {0};
        q.dropSink((b, reason) -> drops[0]++);
        TestBuffer[] buffers = new TestBuffer[1000];
        for (int i = 0; i < buffers.length; i++) {
            buffers[i] = packet(i, i % 13, 60 + i % 1400);
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long[] clock = {0};
        for (int i = 0; i < 3; i++) {
            exercise(q, buffers, clock);
        }
        long allocated = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            exercise(q, buffers, clock);
            allocated = Math.min(allocated, threads.getCurrentThreadAllocatedBytes() - before);
        }
        assertEquals(0L, allocated, "bytes allocated by 100,000 enqueues with dequeues, CoDel and overlimit drops");
        assertTrue(q.codelDrops() > 0 && q.dropOverlimit() > 0, "both drop paths ran");
        assertEquals(q.stats().drops, drops[0], "every drop reached the sink");
    }

    /** 100,000 enqueues of 13 flows, drained at two thirds of the rate with a 0.5 ms clock step: the queue builds. */
    private static void exercise(FqCodelQdisc q, TestBuffer[] buffers, long[] clock) {
        for (int i = 0; i < 100_000; i++) {
            clock[0] += 500 * US;
            q.enqueue(buffers[i % buffers.length], clock[0]);
            if (i % 3 != 0) {
                Buffer b = q.dequeue(clock[0]);
                if (b != null && i % 31 == 0) {
                    q.requeue(b);
                    q.dequeue(clock[0]);
                }
            }
        }
        while (q.dequeue(clock[0]) != null) {
            clock[0] += 1;
        }
    }
}

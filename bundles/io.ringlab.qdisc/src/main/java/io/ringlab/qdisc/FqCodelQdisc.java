package io.ringlab.qdisc;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.queue.api.Qdisc;
import io.ringlab.queue.api.dto.QdiscStatsDTO;
import io.ringlab.sim.api.ElementState;

/**
 * Linux {@code fq_codel}: flows hashed into buckets, deficit round robin between them with new flows served first, and a
 * CoDel AQM on each bucket ({@code net/sched/sch_fq_codel.c}, Eric Dumazet; CoDel from {@code include/net/codel.h},
 * {@code include/net/codel_impl.h}, {@code include/net/codel_qdisc.h}, Kathleen Nichols and Van Jacobson, "Controlling Queue
 * Delay", ACM Queue 10(5), 2012).
 * <p>
 * <b>Classification</b> ({@code fq_codel_classify}, {@code fq_codel_hash}). The kernel hashes the packet's 5-tuple with a
 * random per-boot key ({@code skb_get_hash}) and maps it with {@code reciprocal_scale(hash, flows)}. Here the hash is
 * {@code jhash_1word(Buffer.flow(), perturbation)} ({@link Codel#jhash1Word}), the perturbation an {@code int} drawn from the
 * element's random stream, so that the same seed gives the same buckets; then {@code reciprocal_scale} exactly as the
 * kernel ({@code (u32)(((u64) hash * flows) >> 32)}). As in the kernel, different flows may share a bucket. Classification by
 * {@code skb->priority} or tc filters is not modelled.
 * <p>
 * <b>Enqueue</b> ({@code fq_codel_enqueue}). The packet is stamped ({@code codel_set_enqueue_time}; here
 * {@link Buffer#enqueuedPicos(long)}, from which the CoDel time is derived exactly), added to the tail of its bucket, whose
 * byte backlog grows; a bucket not on either list joins the tail of {@code new_flows} with {@code deficit = quantum} and
 * counts in {@code new_flow_count}. Its memory ({@code skb->truesize}, {@link Buffer#truesize()}) is added to
 * {@code memory_usage}. If then {@code qlen > limit} or {@code memory_usage > memory_limit}, {@code fq_codel_drop} finds the
 * bucket with the largest byte backlog (the first one on a tie) and drops packets from its head until half of that backlog
 * is gone or {@code drop_batch} packets are, and adds the number dropped to that bucket's CoDel {@code count}. These drops are
 * counted in {@code drop_overlimit} (and in {@code drop_overmemory} when memory was the cause) and handed to the
 * {@link Qdisc.DropSink} with reason {@link Qdisc#DROP_OVERLIMIT}; the arriving packet itself was queued, so
 * {@link #enqueue} returns {@code null} even when the batch reached it.
 * <p>
 * <b>Dequeue</b> ({@code fq_codel_dequeue}). Take the first bucket of {@code new_flows}, else of {@code old_flows}, else
 * return {@code null}. A bucket whose deficit is used up ({@code <= 0}) gets {@code quantum} more and moves to the tail of
 * {@code old_flows}, and the search starts again. Otherwise CoDel dequeues from the bucket; if it returns nothing, the bucket
 * moves to the tail of {@code old_flows} when it came from {@code new_flows} and {@code old_flows} is not empty (so that old
 * flows are not starved), else it leaves the lists; the search starts again. A packet that leaves takes its length from the
 * bucket's deficit.
 * <p>
 * <b>CoDel</b> ({@code codel_dequeue}, {@code codel_should_drop}), per bucket, in the kernel's 1024-ns {@code u32} clock:
 * {@link CodelVars}, with the whole qdisc's byte backlog (after taking the packet) compared with {@code mtu}. CoDel drops
 * are handed to the {@link Qdisc.DropSink} with reason {@link Qdisc#DROP_AQM}; {@code maxpacket} keeps the largest length
 * seen.
 * <p>
 * <b>ECN.</b> The kernel's fq_codel has {@code ecn} on by default and marks ECN-capable packets (CE) instead of dropping
 * them. Ringlab packets carry no ECN capability, so {@code INET_ECN_set_ce} would fail for every packet and CoDel drops
 * instead of marking, which is the kernel's behaviour for non-ECT traffic; {@code ecn_mark} and {@code ce_mark} stay 0 and
 * {@code ce_threshold} is off ({@code CODEL_DISABLED_THRESHOLD}).
 * <p>
 * <b>Requeue and peek</b> ({@code dev_requeue_skb}, {@code qdisc_peek_dequeued}, {@code net/sched/sch_generic.c} and
 * {@code include/net/sch_generic.h}). A requeued packet is held in one slot, the kernel's {@code q->gso_skb}, counts in
 * {@code qlen} and the byte backlog, and is handed out by the next {@link #dequeue} before fq_codel runs again. {@link #peek}
 * runs the real dequeue (at the latest time the qdisc has seen) and holds the packet in that slot, as
 * {@code qdisc_peek_dequeued} does, so that the next dequeue returns exactly what peek showed.
 * <p>
 * <b>Configuration and defaults</b> ({@code fq_codel_init}, {@code codel_params_init}): see {@link FqCodelProvider}.
 * <p>
 * <b>Storage.</b> The buckets, their packets and the two lists are {@link FqCodelFlows}, allocated at construction.
 * Enqueue, dequeue and the drops allocate nothing, box nothing and throw nothing.
 * <p>
 * <b>Counters</b> (since creation, never reset): {@code enqueued}, {@code dequeued}, {@code requeues}, drops by reason
 * ({@link #dropOverlimit()}, {@link #codelDrops()}), {@link #dropOvermemory()}, {@link #newFlowCount()},
 * {@link #maxPacket()}. Identity: {@code enqueued + requeues - dequeued - drops = backlogPackets} (every fq_codel drop
 * happens after enqueue).
 * <p>
 * <b>Hot swap</b> ({@link QdiscState}, written and read by {@link FqCodelHandover}): a successor with the same number
 * of flows and room for the packets takes over everything: the hash perturbation (so each flow stays in its bucket), each
 * bucket's packets in order with their memory, its byte backlog and deficit, new_flows and old_flows in order, every
 * bucket's CoDel variables, the held packet, the totals and counters. Its own limit, quantum, target and interval apply
 * from then on.
 * <p>
 * <b>Not modelled.</b> tc filters and {@code skb->priority} classification, {@code ce_threshold}, ECN marking,
 * {@code tc qdisc change}; the {@code CODEL_MAX_DROPS_PER_DEQUEUE} cap that recent kernels declare in {@code codel.h} (the
 * {@code codel_impl.h} read for this port has no cap on the drop loop).
 * <p>
 * Not thread-safe: one engine thread.
 *
 * @see FqCodelProvider
 */
final class FqCodelQdisc implements Qdisc, QdiscState, CodelVars.Queue {

    private final int limit;
    private final int quantum;
    private final int dropBatch;
    private final long memoryLimit;
    /** The hash seed: drawn when the element is created, taken over from a predecessor in a hot swap. */
    private int perturbation;

    /** The buckets ({@code q->flows}, {@code q->backlogs}), new_flows, old_flows and {@code memory_usage}. */
    private final FqCodelFlows flows;
    /** CoDel per bucket ({@code q->cvars}, {@code q->cparams}, {@code q->cstats}). */
    private final CodelVars codel;

    private int qlen;
    private long backlogBytes;
    private Buffer held;
    private long latestPicos;

    private long enqueued;
    private long dequeued;
    private long requeues;
    private long dropOverlimit;
    private long dropOvermemory;
    private long newFlowCount;
    private String lastDropReason;
    private DropSink dropSink;

    /**
     * @param limit packet limit, 1 to {@link FqCodelProvider#MAX_LIMIT}
     * @param flows number of buckets, 1 to 65536
     * @param quantum DRR quantum in bytes, 256 to 1,048,576
     * @param targetPicos CoDel target in picoseconds
     * @param intervalPicos CoDel interval in picoseconds
     * @param memoryLimit memory limit in bytes of {@link Buffer#truesize()}, 1 to 2^31
     * @param dropBatch packets dropped at most per overlimit event, at least 1
     * @param mtu bytes of backlog at or below which CoDel never drops ({@code psched_mtu})
     * @param perturbation the hash seed
     * @throws IllegalArgumentException with a {@code key=value} message when out of range
     */
    FqCodelQdisc(int limit, int flows, int quantum, long targetPicos, long intervalPicos, long memoryLimit, int dropBatch,
            int mtu, int perturbation) {
        check("limit", limit, 1, FqCodelProvider.MAX_LIMIT);
        check("flows", flows, 1, FqCodelProvider.MAX_FLOWS);
        check("quantum", quantum, FqCodelProvider.MIN_QUANTUM, FqCodelProvider.MAX_QUANTUM);
        check("target", targetPicos, 0, FqCodelProvider.MAX_TIME_PICOS);
        check("interval", intervalPicos, 0, FqCodelProvider.MAX_TIME_PICOS);
        check("memoryLimit", memoryLimit, 1, FqCodelProvider.MAX_MEMORY_LIMIT);
        check("dropBatch", dropBatch, 1, FqCodelProvider.MAX_DROP_BATCH);
        check("mtu", mtu, 1, FqCodelProvider.MAX_MTU);
        this.limit = limit;
        this.quantum = quantum;
        this.memoryLimit = memoryLimit;
        this.dropBatch = dropBatch;
        this.perturbation = perturbation;
        // limit queued, plus the arrival that fq_codel_drop then trims
        this.flows = new FqCodelFlows(flows, limit + 1);
        this.codel = new CodelVars(flows, Codel.duration(targetPicos), Codel.duration(intervalPicos), mtu);
    }

    private static void check(String key, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(key + "=" + value + ", allowed " + min + " to " + max);
        }
    }

    /**
     * {@code fq_codel_classify} without filters: {@code reciprocal_scale(jhash_1word(flow, perturbation), flows)}.
     *
     * @param flow a packet's {@link Buffer#flow()}
     * @return its bucket, 0 to {@code flows - 1}
     */
    int classify(int flow) {
        return Codel.reciprocalScale(Codel.jhash1Word(flow, perturbation), flows.count());
    }

    /** {@code fq_codel_enqueue}; drops from the fattest bucket go to the sink, so this returns {@code null}. */
    @Override
    public Buffer enqueue(Buffer buffer, long nowPicos) {
        if (nowPicos > latestPicos) {
            latestPicos = nowPicos;
        }
        int idx = classify(buffer.flow());
        buffer.enqueuedPicos(nowPicos);
        boolean offList = flows.enqueue(idx, buffer, buffer.truesize());
        backlogBytes += buffer.length();
        if (offList) {
            flows.addNew(idx, quantum);
            newFlowCount++;
        }
        boolean memoryLimited = flows.memoryUsage() > memoryLimit;
        enqueued++;
        if (++qlen <= limit && !memoryLimited) {
            return null;
        }
        int prevQlen = qlen;
        fqCodelDrop(dropBatch);
        int dropped = prevQlen - qlen;
        dropOverlimit += dropped;
        if (memoryLimited) {
            dropOvermemory += dropped;
        }
        return null;
    }

    /**
     * {@code fq_codel_drop}: drops from the head of the bucket with the largest byte backlog until half of it is gone or
     * {@code maxPackets} are, and tells that bucket's CoDel ({@code count += dropped}).
     */
    private void fqCodelDrop(int maxPackets) {
        int idx = flows.fattest();
        if (idx == FqCodelFlows.NIL) {
            return;
        }
        long threshold = flows.backlog(idx) >>> 1;
        long len = 0;
        int i = 0;
        do {
            Buffer skb = dequeueHead(idx);
            len += skb.length();
            lastDropReason = DROP_OVERLIMIT;
            if (dropSink != null) {
                dropSink.dropped(skb, DROP_OVERLIMIT);
            }
        } while (++i < maxPackets && len < threshold && !flows.isEmpty(idx));
        codel.addCount(idx, i);
    }

    /**
     * {@code dequeue_func}: removes the head packet of a bucket and takes it out of every backlog (the kernel's
     * {@code dequeue_head} plus the accounting of {@code dequeue_func} and {@code fq_codel_drop}).
     *
     * @return the packet, or {@code null} if the bucket is empty
     */
    @Override
    public Buffer dequeueHead(int flow) {
        Buffer skb = flows.dequeueHead(flow);
        if (skb != null) {
            qlen--;
            backlogBytes -= skb.length();
        }
        return skb;
    }

    /** CoDel's {@code drop_func}: handed to the sink with {@link Qdisc#DROP_AQM}. */
    @Override
    public void codelDrop(Buffer skb) {
        lastDropReason = DROP_AQM;
        if (dropSink != null) {
            dropSink.dropped(skb, DROP_AQM);
        }
    }

    /** The held packet (requeued or peeked) first, then {@code fq_codel_dequeue} at {@code now}. */
    @Override
    public Buffer dequeue(long nowPicos) {
        if (nowPicos > latestPicos) {
            latestPicos = nowPicos;
        }
        Buffer skb = held;
        if (skb != null) {
            held = null;
            qlen--;
            backlogBytes -= skb.length();
        } else {
            skb = fqCodelDequeue(Codel.time(nowPicos));
        }
        if (skb != null) {
            dequeued++;
        }
        return skb;
    }

    /** {@code fq_codel_dequeue}: DRR over new_flows, then old_flows, with CoDel on each bucket. */
    private Buffer fqCodelDequeue(int now) {
        while (true) {
            boolean fromNew = flows.firstNew() != FqCodelFlows.NIL;
            int flow = fromNew ? flows.firstNew() : flows.firstOld();
            if (flow == FqCodelFlows.NIL) {
                return null;
            }
            if (flows.deficit(flow) <= 0) {
                flows.addDeficit(flow, quantum);
                flows.moveHeadToOldTail(fromNew);
                continue;
            }
            Buffer skb = codel.dequeue(this, flow, now);
            if (skb == null) {
                // force a pass through old_flows to prevent starvation
                if (fromNew && flows.firstOld() != FqCodelFlows.NIL) {
                    flows.moveHeadToOldTail(true);
                } else {
                    flows.removeHead(fromNew);
                }
                continue;
            }
            flows.addDeficit(flow, -skb.length());
            return skb;
        }
    }

    /**
     * {@code qdisc_peek_dequeued}: runs the dequeue at the latest time seen and holds the packet, which the next
     * {@link #dequeue} returns.
     */
    @Override
    public Buffer peek() {
        if (held == null) {
            Buffer skb = fqCodelDequeue(Codel.time(latestPicos));
            if (skb != null) {
                held = skb;
                qlen++;
                backlogBytes += skb.length();
            }
        }
        return held;
    }

    /**
     * {@code dev_requeue_skb}: holds the packet in the requeue slot ({@code q->gso_skb}); it counts in {@code qlen} and the
     * byte backlog and leaves first. It keeps its {@link Buffer#enqueuedPicos()} and its bucket's deficit stays charged.
     *
     * @throws IllegalStateException if a packet is already held, which only happens when the caller requeues a packet it did
     *             not just dequeue
     */
    @Override
    public void requeue(Buffer buffer) {
        if (held != null) {
            throw new IllegalStateException("requeue with a packet already held: backlogPackets=" + qlen
                    + ", requeue only the packet last dequeued");
        }
        held = buffer;
        qlen++;
        backlogBytes += buffer.length();
        requeues++;
    }

    @Override
    public int backlogPackets() {
        return qlen;
    }

    @Override
    public long backlogBytes() {
        return backlogBytes;
    }

    /** @return {@link Qdisc#DROP_OVERLIMIT} or {@link Qdisc#DROP_AQM} after the first drop, {@code null} before. */
    @Override
    public String lastDropReason() {
        return lastDropReason;
    }

    /**
     * Sets the receiver of every fq_codel drop (overlimit and CoDel). Without one (the default) dropped packets are only
     * counted; an element always sets one.
     */
    @Override
    public void dropSink(DropSink sink) {
        this.dropSink = sink;
    }

    /** Visits the held packet, then every bucket in index order from head to tail. */
    @Override
    public void forEachQueued(BufferVisitor visitor) {
        if (held != null) {
            visitor.visit(held);
        }
        flows.forEachQueued(visitor);
    }

    /**
     * @return a new snapshot; {@code dropsByReason} always holds {@link Qdisc#DROP_OVERLIMIT} and {@link Qdisc#DROP_AQM}, 0
     *         before any drop
     */
    @Override
    public QdiscStatsDTO stats() {
        QdiscStatsDTO stats = new QdiscStatsDTO();
        stats.enqueued = enqueued;
        stats.dequeued = dequeued;
        stats.requeues = requeues;
        stats.drops = dropOverlimit + codel.dropCount();
        stats.dropsByReason.put(DROP_OVERLIMIT, dropOverlimit);
        stats.dropsByReason.put(DROP_AQM, codel.dropCount());
        stats.backlogPackets = qlen;
        stats.backlogBytes = backlogBytes;
        return stats;
    }

    // fq_codel_dump_stats (struct tc_fq_codel_xstats) and the settings, for the element's gauges and the tests

    /** @return packets dropped by {@code fq_codel_drop} ({@code drop_overlimit}), memory-limited ones included. */
    long dropOverlimit() {
        return dropOverlimit;
    }

    /** @return packets dropped by {@code fq_codel_drop} while memory was over its limit ({@code drop_overmemory}). */
    long dropOvermemory() {
        return dropOvermemory;
    }

    /** @return packets CoDel dropped at dequeue (the {@code drop_count} sum; {@code tc -s} counts them in "dropped"). */
    long codelDrops() {
        return codel.dropCount();
    }

    /** @return buckets that joined new_flows ({@code new_flow_count}). */
    long newFlowCount() {
        return newFlowCount;
    }

    /** @return the largest packet length CoDel has seen, in bytes ({@code maxpacket}). */
    int maxPacket() {
        return codel.maxPacket();
    }

    /** @return {@code memory_usage}: the truesize bytes of the packets in the buckets. */
    long memoryUsage() {
        return flows.memoryUsage();
    }

    /** @return buckets on new_flows now ({@code new_flows_len}). */
    int newFlowsLength() {
        return flows.newFlowsLength();
    }

    /** @return buckets on old_flows now ({@code old_flows_len}). */
    int oldFlowsLength() {
        return flows.oldFlowsLength();
    }

    /**
     * @param flow a bucket
     * @return its byte backlog ({@code q->backlogs[flow]})
     */
    long bucketBacklogBytes(int flow) {
        return flows.backlog(flow);
    }

    /**
     * @param flow a bucket
     * @return its CoDel {@code count}
     */
    int codelCount(int flow) {
        return codel.count(flow);
    }

    /**
     * @param flow a bucket
     * @return whether its CoDel is in the dropping state
     */
    boolean codelDropping(int flow) {
        return codel.dropping(flow);
    }

    /**
     * @param flow a bucket
     * @return its DRR deficit in bytes
     */
    int deficit(int flow) {
        return flows.deficit(flow);
    }

    /** @return the CoDel target in CoDel units (1024 ns). */
    int targetCodelTime() {
        return codel.target();
    }

    /** @return the CoDel interval in CoDel units (1024 ns). */
    int intervalCodelTime() {
        return codel.interval();
    }

    /** @return the packet limit. */
    int limit() {
        return limit;
    }

    /** @return the number of buckets. */
    int flows() {
        return flows.count();
    }

    /** @return the DRR quantum in bytes. */
    int quantum() {
        return quantum;
    }

    /** @return the memory limit in bytes. */
    long memoryLimit() {
        return memoryLimit;
    }

    /** @return packets dropped per overlimit event at most. */
    int dropBatch() {
        return dropBatch;
    }

    /** @return CoDel's {@code mtu} in bytes. */
    int mtu() {
        return codel.mtu();
    }

    /** @return the hash perturbation. */
    int perturbation() {
        return perturbation;
    }

    @Override
    public String toString() {
        return "FqCodelQdisc[limit=" + limit + ", flows=" + flows.count() + ", backlogPackets=" + qlen + ", backlogBytes="
                + backlogBytes + "]";
    }

    /** Writes the whole state through {@link FqCodelHandover}. */
    @Override
    public void exportState(ElementState out, String kind) {
        new FqCodelHandover(getClass().getName(), perturbation, flows.snapshot(), codel.snapshot(), held,
                new FqCodelHandover.Totals(backlogBytes, latestPicos, enqueued, dequeued, requeues, dropOverlimit,
                        dropOvermemory, newFlowCount),
                lastDropReason).write(out, kind);
    }

    /** Takes over a predecessor's whole state, read by {@link FqCodelHandover}, if this empty qdisc can hold it. */
    @Override
    public boolean importState(ElementState in, String kind) {
        if (qlen != 0) {
            return false; // a handover goes to a new, empty qdisc
        }
        FqCodelHandover h = FqCodelHandover.read(in, kind, getClass().getName(), flows.count(), flows.slots(),
                perturbation);
        if (h == null) {
            return false; // another class, other buckets, or more packets than this qdisc has slots for
        }
        perturbation = h.perturbation();
        flows.restore(h.flows());
        codel.restore(h.codel());
        held = h.held();
        qlen = h.flows().packets().length + (held != null ? 1 : 0);
        FqCodelHandover.Totals t = h.totals();
        backlogBytes = t.backlogBytes();
        latestPicos = t.latestPicos();
        enqueued = t.enqueued();
        dequeued = t.dequeued();
        requeues = t.requeues();
        dropOverlimit = t.dropOverlimit();
        dropOvermemory = t.dropOvermemory();
        newFlowCount = t.newFlowCount();
        lastDropReason = h.lastDropReason();
        return true;
    }
}

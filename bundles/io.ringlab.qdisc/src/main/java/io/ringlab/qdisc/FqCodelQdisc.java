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
 * <b>CoDel</b> ({@code codel_dequeue}, {@code codel_should_drop}), per bucket, in the kernel's 1024-ns {@code u32} clock with
 * wrapping comparisons ({@link Codel}). A packet's sojourn time {@code ldelay = now - enqueue_time}. Below {@code target},
 * or with the whole qdisc's byte backlog (after taking the packet) at most {@code mtu}, the bucket is "below" and
 * {@code first_above_time} is cleared; the first time it is above, {@code first_above_time = now + interval}; once {@code now}
 * is after that, it is OK to drop. Outside the dropping state, an OK-to-drop packet is dropped, the next one taken, and the
 * dropping state entered with {@code count = count - lastcount} (and one Newton step) if that delta is above 1 and the last
 * drop schedule is less than {@code 16 * interval} old, else {@code count = 1}, {@code rec_inv_sqrt = 0xFFFF};
 * {@code lastcount = count}, {@code drop_next = control_law(now)}. In the dropping state a packet that is not OK to drop
 * ends it; otherwise, while {@code now >= drop_next}: {@code count++}, a Newton step, drop, take the next packet, and either
 * leave the state or set {@code drop_next = control_law(drop_next) = drop_next + interval / sqrt(count)}. The reciprocal
 * square root is the kernel's Newton iteration in Q0.16 ({@link Codel#newtonStep}), not {@code Math.sqrt}. CoDel drops are
 * handed to the {@link Qdisc.DropSink} with reason {@link Qdisc#DROP_AQM}; {@code maxpacket} keeps the largest length seen.
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
 * <b>Storage.</b> Everything is allocated at construction: per bucket, the head and tail of its packet list, byte backlog,
 * deficit, list link and CoDel variables, in arrays of {@code flows}; the packets in {@code limit + 1} slots linked by index
 * (a bucket's queue) with a free list. {@code new_flows} and {@code old_flows} are index-linked FIFOs through the buckets.
 * Enqueue, dequeue and the drops allocate nothing, box nothing and throw nothing.
 * <p>
 * <b>Counters</b> (since creation, never reset): {@code enqueued}, {@code dequeued}, {@code requeues}, drops by reason
 * ({@link #dropOverlimit()}, {@link #codelDrops()}), {@link #dropOvermemory()}, {@link #newFlowCount()},
 * {@link #maxPacket()}. Identity: {@code enqueued + requeues - dequeued - drops = backlogPackets} (every fq_codel drop
 * happens after enqueue).
 * <p>
 * <b>Hot swap</b> ({@link QdiscState}): a successor with the same number of flows and room for the packets takes over
 * everything: the hash perturbation (so each flow stays in its bucket), each bucket's packets in order with their memory,
 * its byte backlog and deficit, new_flows and old_flows in order, every bucket's CoDel variables, the held packet, the
 * totals and counters. Its own limit, quantum, target and interval apply from then on.
 * <p>
 * <b>Not modelled.</b> tc filters and {@code skb->priority} classification, {@code ce_threshold}, ECN marking,
 * {@code tc qdisc change}; the {@code CODEL_MAX_DROPS_PER_DEQUEUE} cap that recent kernels declare in {@code codel.h} (the
 * {@code codel_impl.h} read for this port has no cap on the drop loop).
 * <p>
 * Not thread-safe: one engine thread.
 *
 * @see FqCodelProvider
 */
final class FqCodelQdisc implements Qdisc, QdiscState {

    private static final int NIL = -1;
    private static final byte OFF_LIST = 0;
    private static final byte ON_NEW = 1;
    private static final byte ON_OLD = 2;

    private final int limit;
    private final int flowsCnt;
    private final int quantum;
    private final int dropBatch;
    private final long memoryLimit;
    private final int mtu;
    private final int target;
    private final int interval;
    /** The hash seed: drawn when the element is created, taken over from a predecessor in a hot swap. */
    private int perturbation;

    // packet slots: each bucket's queue is a list linked through slotNext
    private final Buffer[] slotBuffer;
    private final int[] slotNext;
    private final int[] slotMem;
    private int freeSlot;

    // buckets (struct fq_codel_flow and q->backlogs[])
    private final int[] flowHead;
    private final int[] flowTail;
    private final long[] backlogs;
    private final int[] deficit;
    private final int[] chainNext;
    private final byte[] chain;
    private int newHead = NIL;
    private int newTail = NIL;
    private int oldHead = NIL;
    private int oldTail = NIL;

    // struct codel_vars per bucket
    private final int[] count;
    private final int[] lastcount;
    private final boolean[] dropping;
    private final int[] recInvSqrt;
    private final int[] firstAboveTime;
    private final int[] dropNext;
    private final int[] ldelay;

    private int qlen;
    private long backlogBytes;
    private long memoryUsage;
    private Buffer held;
    private long latestPicos;

    private long enqueued;
    private long dequeued;
    private long requeues;
    private long dropOverlimit;
    private long dropOvermemory;
    private long codelDrops;
    private long newFlowCount;
    private int maxPacket;
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
        this.flowsCnt = flows;
        this.quantum = quantum;
        this.target = Codel.duration(targetPicos);
        this.interval = Codel.duration(intervalPicos);
        this.memoryLimit = memoryLimit;
        this.dropBatch = dropBatch;
        this.mtu = mtu;
        this.perturbation = perturbation;

        int slots = limit + 1; // limit queued, plus the arrival that fq_codel_drop then trims
        slotBuffer = new Buffer[slots];
        slotNext = new int[slots];
        slotMem = new int[slots];
        for (int i = 0; i < slots; i++) {
            slotNext[i] = i + 1 < slots ? i + 1 : NIL;
        }
        freeSlot = 0;

        flowHead = new int[flows];
        flowTail = new int[flows];
        backlogs = new long[flows];
        deficit = new int[flows];
        chainNext = new int[flows];
        chain = new byte[flows];
        java.util.Arrays.fill(flowHead, NIL);
        java.util.Arrays.fill(flowTail, NIL);
        java.util.Arrays.fill(chainNext, NIL);
        count = new int[flows];
        lastcount = new int[flows];
        dropping = new boolean[flows];
        recInvSqrt = new int[flows];
        firstAboveTime = new int[flows];
        dropNext = new int[flows];
        ldelay = new int[flows];
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
        return Codel.reciprocalScale(Codel.jhash1Word(flow, perturbation), flowsCnt);
    }

    /** {@code fq_codel_enqueue}; drops from the fattest bucket go to the sink, so this returns {@code null}. */
    @Override
    public Buffer enqueue(Buffer buffer, long nowPicos) {
        if (nowPicos > latestPicos) {
            latestPicos = nowPicos;
        }
        int idx = classify(buffer.flow());
        buffer.enqueuedPicos(nowPicos);
        int mem = buffer.truesize();
        addTail(idx, buffer, mem);
        int len = buffer.length();
        backlogs[idx] += len;
        backlogBytes += len;
        if (chain[idx] == OFF_LIST) {
            append(ON_NEW, idx);
            newFlowCount++;
            deficit[idx] = quantum;
        }
        memoryUsage += mem;
        boolean memoryLimited = memoryUsage > memoryLimit;
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

    /** Puts a packet in a free slot at the tail of a bucket's queue ({@code flow_queue_add}). */
    private void addTail(int flow, Buffer buffer, int mem) {
        int slot = freeSlot;
        freeSlot = slotNext[slot];
        slotBuffer[slot] = buffer;
        slotNext[slot] = NIL;
        slotMem[slot] = mem;
        if (flowHead[flow] == NIL) {
            flowHead[flow] = slot;
        } else {
            slotNext[flowTail[flow]] = slot;
        }
        flowTail[flow] = slot;
    }

    /**
     * {@code fq_codel_drop}: drops from the head of the bucket with the largest byte backlog until half of it is gone or
     * {@code maxPackets} are, and tells that bucket's CoDel ({@code count += dropped}).
     */
    private void fqCodelDrop(int maxPackets) {
        long maxbacklog = 0;
        int idx = 0;
        for (int i = 0; i < flowsCnt; i++) {
            if (backlogs[i] > maxbacklog) {
                maxbacklog = backlogs[i];
                idx = i;
            }
        }
        if (flowHead[idx] == NIL) {
            // only zero-length packets are queued (the kernel would dereference an empty bucket): take the first non-empty
            for (idx = 0; idx < flowsCnt && flowHead[idx] == NIL; idx++) {
                // scanning
            }
            if (idx == flowsCnt) {
                return;
            }
        }
        long threshold = maxbacklog >>> 1;
        long len = 0;
        int i = 0;
        do {
            Buffer skb = dequeueHead(idx);
            len += skb.length();
            lastDropReason = DROP_OVERLIMIT;
            if (dropSink != null) {
                dropSink.dropped(skb, DROP_OVERLIMIT);
            }
        } while (++i < maxPackets && len < threshold && flowHead[idx] != NIL);
        count[idx] += i;
    }

    /**
     * Removes the head packet of a bucket and takes it out of every backlog (the kernel's {@code dequeue_head} plus the
     * accounting of {@code dequeue_func} and {@code fq_codel_drop}).
     *
     * @return the packet, or {@code null} if the bucket is empty
     */
    private Buffer dequeueHead(int flow) {
        int slot = flowHead[flow];
        if (slot == NIL) {
            return null;
        }
        Buffer skb = slotBuffer[slot];
        flowHead[flow] = slotNext[slot];
        if (flowHead[flow] == NIL) {
            flowTail[flow] = NIL;
        }
        slotBuffer[slot] = null;
        slotNext[slot] = freeSlot;
        freeSlot = slot;
        int len = skb.length();
        backlogs[flow] -= len;
        memoryUsage -= slotMem[slot];
        qlen--;
        backlogBytes -= len;
        return skb;
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
            boolean fromNew = newHead != NIL;
            int flow = fromNew ? newHead : oldHead;
            if (flow == NIL) {
                return null;
            }
            if (deficit[flow] <= 0) {
                deficit[flow] += quantum;
                moveHeadToOldTail(fromNew);
                continue;
            }
            Buffer skb = codelDequeue(flow, now);
            if (skb == null) {
                // force a pass through old_flows to prevent starvation
                if (fromNew && oldHead != NIL) {
                    moveHeadToOldTail(true);
                } else {
                    removeHead(fromNew);
                }
                continue;
            }
            deficit[flow] -= skb.length();
            return skb;
        }
    }

    /** {@code codel_dequeue} on one bucket, with {@code dequeue_func} = {@link #dequeueHead} and drops to the sink. */
    private Buffer codelDequeue(int flow, int now) {
        Buffer skb = dequeueHead(flow);
        if (skb == null) {
            dropping[flow] = false;
            return null;
        }
        boolean drop = shouldDrop(skb, flow, now);
        if (dropping[flow]) {
            if (!drop) {
                // sojourn time below target: leave the dropping state
                dropping[flow] = false;
            } else if (Codel.afterEq(now, dropNext[flow])) {
                // time for the next drop; a large backlog may need several now, hence the loop
                while (dropping[flow] && Codel.afterEq(now, dropNext[flow])) {
                    count[flow]++;
                    recInvSqrt[flow] = Codel.newtonStep(count[flow], recInvSqrt[flow]);
                    codelDrop(skb);
                    skb = dequeueHead(flow);
                    if (!shouldDrop(skb, flow, now)) {
                        dropping[flow] = false;
                    } else {
                        dropNext[flow] = Codel.controlLaw(dropNext[flow], interval, recInvSqrt[flow]);
                    }
                }
            }
        } else if (drop) {
            codelDrop(skb);
            skb = dequeueHead(flow);
            shouldDrop(skb, flow, now); // result unused, as in the kernel; it updates first_above_time and ldelay
            dropping[flow] = true;
            // if min went above target close to when it last went below, start from the drop rate that controlled it then
            int delta = count[flow] - lastcount[flow];
            if (Integer.compareUnsigned(delta, 1) > 0
                    && Codel.before(now - dropNext[flow], 16 * interval)) {
                count[flow] = delta;
                recInvSqrt[flow] = Codel.newtonStep(count[flow], recInvSqrt[flow]);
            } else {
                count[flow] = 1;
                recInvSqrt[flow] = Codel.REC_INV_SQRT_ONE;
            }
            lastcount[flow] = count[flow];
            dropNext[flow] = Codel.controlLaw(now, interval, recInvSqrt[flow]);
        }
        return skb;
    }

    /** {@code codel_should_drop}, with the whole qdisc's byte backlog as the kernel passes {@code &sch->qstats.backlog}. */
    private boolean shouldDrop(Buffer skb, int flow, int now) {
        if (skb == null) {
            firstAboveTime[flow] = 0;
            return false;
        }
        int len = skb.length();
        ldelay[flow] = now - Codel.time(skb.enqueuedPicos());
        if (len > maxPacket) {
            maxPacket = len;
        }
        if (Codel.before(ldelay[flow], target) || backlogBytes <= mtu) {
            // went below: stay below for at least interval
            firstAboveTime[flow] = 0;
            return false;
        }
        boolean okToDrop = false;
        if (firstAboveTime[flow] == 0) {
            // just went above from below: if it stays above for at least interval, it is OK to drop
            firstAboveTime[flow] = now + interval;
        } else if (Codel.after(now, firstAboveTime[flow])) {
            okToDrop = true;
        }
        return okToDrop;
    }

    /** CoDel's {@code drop_func}: counted, handed to the sink with {@link Qdisc#DROP_AQM}. */
    private void codelDrop(Buffer skb) {
        codelDrops++;
        lastDropReason = DROP_AQM;
        if (dropSink != null) {
            dropSink.dropped(skb, DROP_AQM);
        }
    }

    private void append(byte list, int flow) {
        chain[flow] = list;
        chainNext[flow] = NIL;
        if (list == ON_NEW) {
            if (newTail == NIL) {
                newHead = flow;
            } else {
                chainNext[newTail] = flow;
            }
            newTail = flow;
        } else {
            if (oldTail == NIL) {
                oldHead = flow;
            } else {
                chainNext[oldTail] = flow;
            }
            oldTail = flow;
        }
    }

    /** {@code list_del_init} of the first bucket of new_flows or old_flows. */
    private int removeHead(boolean fromNew) {
        int flow;
        if (fromNew) {
            flow = newHead;
            newHead = chainNext[flow];
            if (newHead == NIL) {
                newTail = NIL;
            }
        } else {
            flow = oldHead;
            oldHead = chainNext[flow];
            if (oldHead == NIL) {
                oldTail = NIL;
            }
        }
        chainNext[flow] = NIL;
        chain[flow] = OFF_LIST;
        return flow;
    }

    /** {@code list_move_tail(&flow->flowchain, &q->old_flows)} of the first bucket of new_flows or old_flows. */
    private void moveHeadToOldTail(boolean fromNew) {
        append(ON_OLD, removeHead(fromNew));
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
        for (int flow = 0; flow < flowsCnt; flow++) {
            for (int slot = flowHead[flow]; slot != NIL; slot = slotNext[slot]) {
                visitor.visit(slotBuffer[slot]);
            }
        }
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
        stats.drops = dropOverlimit + codelDrops;
        stats.dropsByReason.put(DROP_OVERLIMIT, dropOverlimit);
        stats.dropsByReason.put(DROP_AQM, codelDrops);
        stats.backlogPackets = qlen;
        stats.backlogBytes = backlogBytes;
        return stats;
    }

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
        return codelDrops;
    }

    /** @return buckets that joined new_flows ({@code new_flow_count}). */
    long newFlowCount() {
        return newFlowCount;
    }

    /** @return the largest packet length CoDel has seen, in bytes ({@code maxpacket}). */
    int maxPacket() {
        return maxPacket;
    }

    /** @return {@code memory_usage}: the truesize bytes of the packets in the buckets. */
    long memoryUsage() {
        return memoryUsage;
    }

    /** @return buckets on new_flows now ({@code new_flows_len}). */
    int newFlowsLength() {
        return length(newHead);
    }

    /** @return buckets on old_flows now ({@code old_flows_len}). */
    int oldFlowsLength() {
        return length(oldHead);
    }

    private int length(int head) {
        int n = 0;
        for (int flow = head; flow != NIL; flow = chainNext[flow]) {
            n++;
        }
        return n;
    }

    /**
     * @param flow a bucket
     * @return its byte backlog ({@code q->backlogs[flow]})
     */
    long bucketBacklogBytes(int flow) {
        return backlogs[flow];
    }

    /**
     * @param flow a bucket
     * @return its CoDel {@code count}
     */
    int codelCount(int flow) {
        return count[flow];
    }

    /**
     * @param flow a bucket
     * @return whether its CoDel is in the dropping state
     */
    boolean codelDropping(int flow) {
        return dropping[flow];
    }

    /**
     * @param flow a bucket
     * @return its DRR deficit in bytes
     */
    int deficit(int flow) {
        return deficit[flow];
    }

    /** @return the CoDel target in CoDel units (1024 ns). */
    int targetCodelTime() {
        return target;
    }

    /** @return the CoDel interval in CoDel units (1024 ns). */
    int intervalCodelTime() {
        return interval;
    }

    /** @return the packet limit. */
    int limit() {
        return limit;
    }

    /** @return the number of buckets. */
    int flows() {
        return flowsCnt;
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
        return mtu;
    }

    /** @return the hash perturbation. */
    int perturbation() {
        return perturbation;
    }

    @Override
    public String toString() {
        return "FqCodelQdisc[limit=" + limit + ", flows=" + flowsCnt + ", backlogPackets=" + qlen + ", backlogBytes="
                + backlogBytes + "]";
    }

    @Override
    public void exportState(ElementState out, String kind) {
        int total = qlen - (held != null ? 1 : 0);
        int[] lengths = new int[flowsCnt];
        Buffer[] packets = new Buffer[total];
        int[] memory = new int[total];
        int k = 0;
        for (int flow = 0; flow < flowsCnt; flow++) {
            for (int slot = flowHead[flow]; slot != NIL; slot = slotNext[slot]) {
                packets[k] = slotBuffer[slot];
                memory[k++] = slotMem[slot];
                lengths[flow]++;
            }
        }
        out.put(kind + ".qdiscClass", getClass().getName());
        out.put(kind + ".perturbation", perturbation);
        out.put(kind + ".flowLengths", lengths);
        out.put(kind + ".flowPackets", packets);
        out.put(kind + ".packetMemory", memory);
        if (held != null) {
            out.put(kind + ".held", held);
        }
        out.put(kind + ".backlogs", backlogs.clone());
        out.put(kind + ".deficit", deficit.clone());
        out.put(kind + ".newFlows", flowList(newHead));
        out.put(kind + ".oldFlows", flowList(oldHead));
        out.put(kind + ".count", count.clone());
        out.put(kind + ".lastcount", lastcount.clone());
        out.put(kind + ".dropping", dropping.clone());
        out.put(kind + ".recInvSqrt", recInvSqrt.clone());
        out.put(kind + ".firstAboveTime", firstAboveTime.clone());
        out.put(kind + ".dropNext", dropNext.clone());
        out.put(kind + ".ldelay", ldelay.clone());
        out.put(kind + ".totals", new long[] {backlogBytes, memoryUsage, latestPicos, enqueued, dequeued, requeues,
            dropOverlimit, dropOvermemory, codelDrops, newFlowCount, maxPacket});
        if (lastDropReason != null) {
            out.put(kind + ".lastDropReason", lastDropReason);
        }
    }

    private int[] flowList(int head) {
        int[] flows = new int[length(head)];
        int i = 0;
        for (int flow = head; flow != NIL; flow = chainNext[flow]) {
            flows[i++] = flow;
        }
        return flows;
    }

    @Override
    public boolean importState(ElementState in, String kind) {
        int[] lengths = in.get(kind + ".flowLengths", int[].class);
        Buffer[] packets = in.get(kind + ".flowPackets", Buffer[].class);
        long[] totals = in.get(kind + ".totals", long[].class);
        if (!getClass().getName().equals(in.get(kind + ".qdiscClass", String.class)) || lengths == null
                || lengths.length != flowsCnt || packets == null || totals == null || packets.length > slotBuffer.length
                || qlen != 0) {
            return false; // another class, other buckets, or more packets than this qdisc has slots for
        }
        perturbation = in.getInt(kind + ".perturbation", perturbation);
        int[] memory = in.get(kind + ".packetMemory", int[].class);
        int k = 0;
        for (int flow = 0; flow < flowsCnt; flow++) {
            for (int i = 0; i < lengths[flow]; i++, k++) {
                addTail(flow, packets[k], memory[k]);
            }
        }
        for (int flow : in.get(kind + ".newFlows", int[].class)) {
            append(ON_NEW, flow);
        }
        for (int flow : in.get(kind + ".oldFlows", int[].class)) {
            append(ON_OLD, flow);
        }
        System.arraycopy(in.get(kind + ".backlogs", long[].class), 0, backlogs, 0, flowsCnt);
        System.arraycopy(in.get(kind + ".deficit", int[].class), 0, deficit, 0, flowsCnt);
        System.arraycopy(in.get(kind + ".count", int[].class), 0, count, 0, flowsCnt);
        System.arraycopy(in.get(kind + ".lastcount", int[].class), 0, lastcount, 0, flowsCnt);
        System.arraycopy(in.get(kind + ".dropping", boolean[].class), 0, dropping, 0, flowsCnt);
        System.arraycopy(in.get(kind + ".recInvSqrt", int[].class), 0, recInvSqrt, 0, flowsCnt);
        System.arraycopy(in.get(kind + ".firstAboveTime", int[].class), 0, firstAboveTime, 0, flowsCnt);
        System.arraycopy(in.get(kind + ".dropNext", int[].class), 0, dropNext, 0, flowsCnt);
        System.arraycopy(in.get(kind + ".ldelay", int[].class), 0, ldelay, 0, flowsCnt);
        held = in.get(kind + ".held", Buffer.class);
        qlen = packets.length + (held != null ? 1 : 0);
        backlogBytes = totals[0];
        memoryUsage = totals[1];
        latestPicos = totals[2];
        enqueued = totals[3];
        dequeued = totals[4];
        requeues = totals[5];
        dropOverlimit = totals[6];
        dropOvermemory = totals[7];
        codelDrops = totals[8];
        newFlowCount = totals[9];
        maxPacket = (int) totals[10];
        lastDropReason = in.get(kind + ".lastDropReason", String.class);
        return true;
    }
}

package io.ringlab.qdisc;

import io.ringlab.buffer.api.Buffer;

/**
 * CoDel on each bucket of fq_codel: {@code struct codel_vars} per bucket ({@code q->cvars[]}), the qdisc's
 * {@code struct codel_params} (target, interval, mtu) and {@code struct codel_stats} ({@code maxpacket},
 * {@code drop_count}), and {@code codel_dequeue} with {@code codel_should_drop} over them ({@code include/net/codel.h},
 * {@code include/net/codel_impl.h}, Kathleen Nichols and Van Jacobson, "Controlling Queue Delay", ACM Queue 10(5), 2012),
 * in the kernel's 1024-ns {@code u32} clock with wrapping comparisons ({@link Codel}).
 * <p>
 * A packet's sojourn time {@code ldelay = now - enqueue_time}. Below {@code target}, or with the whole qdisc's byte backlog
 * (after taking the packet) at most {@code mtu}, the bucket is "below" and {@code first_above_time} is cleared; the first
 * time it is above, {@code first_above_time = now + interval}; once {@code now} is after that, it is OK to drop. Outside the
 * dropping state, an OK-to-drop packet is dropped, the next one taken, and the dropping state entered with
 * {@code count = count - lastcount} (and one Newton step) if that delta is above 1 and the last drop schedule is less than
 * {@code 16 * interval} old, else {@code count = 1}, {@code rec_inv_sqrt = 0xFFFF}; {@code lastcount = count},
 * {@code drop_next = control_law(now)}. In the dropping state a packet that is not OK to drop ends it; otherwise, while
 * {@code now >= drop_next}: {@code count++}, a Newton step, drop, take the next packet, and either leave the state or set
 * {@code drop_next = control_law(drop_next) = drop_next + interval / sqrt(count)}. The reciprocal square root is the
 * kernel's Newton iteration in Q0.16 ({@link Codel#newtonStep}), not {@code Math.sqrt}.
 * <p>
 * The queue CoDel runs on is the kernel's {@code ctx} with {@code dequeue_func} and {@code drop_func}: a {@link Queue}.
 * Everything is allocated at construction; {@link #dequeue} allocates nothing, boxes nothing and throws nothing.
 * <p>
 * Not thread-safe: one engine thread.
 */
final class CodelVars {

    /** What {@code codel_dequeue} works on: fq_codel's {@code dequeue_func}, {@code drop_func} and byte backlog. */
    interface Queue {

        /**
         * {@code dequeue_func}: removes the head packet of a bucket and takes it out of every backlog.
         *
         * @param flow a bucket
         * @return the packet, or {@code null} if the bucket is empty
         */
        Buffer dequeueHead(int flow);

        /** @return the whole qdisc's byte backlog ({@code sch->qstats.backlog}), after the packet was taken */
        long backlogBytes();

        /**
         * {@code drop_func}: the packet CoDel dropped, already counted in {@link CodelVars#dropCount()}.
         *
         * @param skb the dropped packet
         */
        void codelDrop(Buffer skb);
    }

    /**
     * The variables of every bucket (new arrays) and the stats, for a successor's {@link #restore}.
     */
    record Snapshot(int[] count, int[] lastcount, boolean[] dropping, int[] recInvSqrt, int[] firstAboveTime,
            int[] dropNext, int[] ldelay, long dropCount, int maxPacket) {
    }

    // struct codel_params
    private final int target;
    private final int interval;
    private final int mtu;

    // struct codel_vars per bucket
    private final int[] count;
    private final int[] lastcount;
    private final boolean[] dropping;
    private final int[] recInvSqrt;
    private final int[] firstAboveTime;
    private final int[] dropNext;
    private final int[] ldelay;

    // struct codel_stats
    private long dropCount;
    private int maxPacket;

    /**
     * @param flows the number of buckets
     * @param target CoDel target in CoDel units (1024 ns)
     * @param interval CoDel interval in CoDel units
     * @param mtu bytes of backlog at or below which CoDel never drops ({@code psched_mtu})
     */
    CodelVars(int flows, int target, int interval, int mtu) {
        this.target = target;
        this.interval = interval;
        this.mtu = mtu;
        count = new int[flows];
        lastcount = new int[flows];
        dropping = new boolean[flows];
        recInvSqrt = new int[flows];
        firstAboveTime = new int[flows];
        dropNext = new int[flows];
        ldelay = new int[flows];
    }

    /**
     * {@code codel_dequeue} on one bucket.
     *
     * @param q the queue, its {@code dequeue_func} and {@code drop_func}
     * @param flow the bucket
     * @param now CoDel time
     * @return the packet that leaves, or {@code null} if the bucket is empty or CoDel dropped all it had
     */
    Buffer dequeue(Queue q, int flow, int now) {
        Buffer skb = q.dequeueHead(flow);
        if (skb == null) {
            dropping[flow] = false;
            return null;
        }
        boolean drop = shouldDrop(q, skb, flow, now);
        if (dropping[flow]) {
            if (!drop) {
                // sojourn time below target: leave the dropping state
                dropping[flow] = false;
            } else if (Codel.afterEq(now, dropNext[flow])) {
                // time for the next drop; a large backlog may need several now, hence the loop
                while (dropping[flow] && Codel.afterEq(now, dropNext[flow])) {
                    count[flow]++;
                    recInvSqrt[flow] = Codel.newtonStep(count[flow], recInvSqrt[flow]);
                    drop(q, skb);
                    skb = q.dequeueHead(flow);
                    if (!shouldDrop(q, skb, flow, now)) {
                        dropping[flow] = false;
                    } else {
                        dropNext[flow] = Codel.controlLaw(dropNext[flow], interval, recInvSqrt[flow]);
                    }
                }
            }
        } else if (drop) {
            drop(q, skb);
            skb = q.dequeueHead(flow);
            shouldDrop(q, skb, flow, now); // result unused, as in the kernel; it updates first_above_time and ldelay
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
    private boolean shouldDrop(Queue q, Buffer skb, int flow, int now) {
        if (skb == null) {
            firstAboveTime[flow] = 0;
            return false;
        }
        int len = skb.length();
        ldelay[flow] = now - Codel.time(skb.enqueuedPicos());
        if (len > maxPacket) {
            maxPacket = len;
        }
        if (Codel.before(ldelay[flow], target) || q.backlogBytes() <= mtu) {
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

    /** {@code stats->drop_count++}, then {@code drop_func}. */
    private void drop(Queue q, Buffer skb) {
        dropCount++;
        q.codelDrop(skb);
    }

    /**
     * {@code fq_codel_drop} tells the bucket's CoDel of the packets it dropped ({@code vars.count += i}).
     *
     * @param flow the bucket
     * @param dropped the packets dropped from its head
     */
    void addCount(int flow, int dropped) {
        count[flow] += dropped;
    }

    /**
     * @param flow a bucket
     * @return its CoDel {@code count}
     */
    int count(int flow) {
        return count[flow];
    }

    /**
     * @param flow a bucket
     * @return whether its CoDel is in the dropping state
     */
    boolean dropping(int flow) {
        return dropping[flow];
    }

    /** @return packets CoDel dropped ({@code codel_stats.drop_count} summed over the run) */
    long dropCount() {
        return dropCount;
    }

    /** @return the largest packet length CoDel has seen, in bytes ({@code codel_stats.maxpacket}) */
    int maxPacket() {
        return maxPacket;
    }

    /** @return the target in CoDel units (1024 ns) */
    int target() {
        return target;
    }

    /** @return the interval in CoDel units (1024 ns) */
    int interval() {
        return interval;
    }

    /** @return CoDel's {@code mtu} in bytes */
    int mtu() {
        return mtu;
    }

    /** @return every bucket's variables and the stats (new arrays); changes nothing */
    Snapshot snapshot() {
        return new Snapshot(count.clone(), lastcount.clone(), dropping.clone(), recInvSqrt.clone(),
                firstAboveTime.clone(), dropNext.clone(), ldelay.clone(), dropCount, maxPacket);
    }

    /**
     * Takes over a predecessor's variables and stats; its own params stay.
     *
     * @param s what the predecessor's {@link #snapshot()} gave, for as many buckets as this one has
     */
    void restore(Snapshot s) {
        int flows = count.length;
        System.arraycopy(s.count(), 0, count, 0, flows);
        System.arraycopy(s.lastcount(), 0, lastcount, 0, flows);
        System.arraycopy(s.dropping(), 0, dropping, 0, flows);
        System.arraycopy(s.recInvSqrt(), 0, recInvSqrt, 0, flows);
        System.arraycopy(s.firstAboveTime(), 0, firstAboveTime, 0, flows);
        System.arraycopy(s.dropNext(), 0, dropNext, 0, flows);
        System.arraycopy(s.ldelay(), 0, ldelay, 0, flows);
        dropCount = s.dropCount();
        maxPacket = s.maxPacket();
    }
}

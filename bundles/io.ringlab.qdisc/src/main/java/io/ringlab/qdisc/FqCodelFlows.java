package io.ringlab.qdisc;

import java.util.Arrays;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferVisitor;

/**
 * fq_codel's flow table ({@code net/sched/sch_fq_codel.c}): the buckets, {@code struct fq_codel_flow flows[]}, each with its
 * packet queue ({@code head}, {@code tail}), its byte backlog ({@code q->backlogs[]}), its DRR {@code deficit} and its link
 * on {@code new_flows} or {@code old_flows} ({@code flowchain}); the two lists; and {@code q->memory_usage}, the truesize of
 * the packets in the buckets. The per-bucket CoDel variables are {@link CodelVars}; what the qdisc does with the table
 * (classification, DRR, {@code fq_codel_drop}) is {@link FqCodelQdisc}.
 * <p>
 * <b>Storage.</b> Everything is allocated at construction: per bucket the head and tail of its packet list, byte backlog,
 * deficit and list link, in arrays of {@code flows}; the packets in a fixed number of slots linked by index (a bucket's
 * queue) with a free list. {@code new_flows} and {@code old_flows} are index-linked FIFOs through the buckets. Nothing here
 * allocates, boxes or throws after construction, except {@link #snapshot()} and {@link #restore} (a hot swap's handover).
 * <p>
 * Not thread-safe: one engine thread.
 */
final class FqCodelFlows {

    /** No slot, no bucket: the end of a list. */
    static final int NIL = -1;
    private static final byte OFF_LIST = 0;
    private static final byte ON_NEW = 1;
    private static final byte ON_OLD = 2;

    private final int flowsCnt;

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

    private long memoryUsage;

    /**
     * The buckets' state as plain values, for a successor's {@link #restore}: per bucket its queue length, then every
     * queued packet and its truesize in bucket order, head to tail; the byte backlogs and deficits; the buckets on
     * {@code new_flows} and {@code old_flows}, in list order; {@code memory_usage}.
     */
    record Snapshot(int[] lengths, Buffer[] packets, int[] memory, long[] backlogs, int[] deficit, int[] newFlows,
            int[] oldFlows, long memoryUsage) {
    }

    /**
     * @param flows the number of buckets, at least 1
     * @param slots the packets the buckets can hold together, at least 1
     */
    FqCodelFlows(int flows, int slots) {
        this.flowsCnt = flows;
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
        Arrays.fill(flowHead, NIL);
        Arrays.fill(flowTail, NIL);
        Arrays.fill(chainNext, NIL);
    }

    /** @return the number of buckets */
    int count() {
        return flowsCnt;
    }

    /** @return the packets the buckets can hold together */
    int slots() {
        return slotBuffer.length;
    }

    /**
     * The enqueue side of {@code fq_codel_enqueue} on the table: the packet goes to the tail of its bucket
     * ({@code flow_queue_add}), whose byte backlog grows by its length, and its memory to {@code memory_usage}.
     *
     * @param flow the packet's bucket
     * @param buffer the packet
     * @param mem its {@link Buffer#truesize()}
     * @return whether the bucket was on neither list, so that it must join {@code new_flows}
     */
    boolean enqueue(int flow, Buffer buffer, int mem) {
        addTail(flow, buffer, mem);
        backlogs[flow] += buffer.length();
        memoryUsage += mem;
        return chain[flow] == OFF_LIST;
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
     * Removes the head packet of a bucket ({@code dequeue_head}) and takes it out of the bucket's byte backlog and
     * {@code memory_usage}.
     *
     * @param flow a bucket
     * @return the packet, or {@code null} if the bucket is empty
     */
    Buffer dequeueHead(int flow) {
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
        backlogs[flow] -= skb.length();
        memoryUsage -= slotMem[slot];
        return skb;
    }

    /**
     * @param flow a bucket
     * @return whether it holds no packet
     */
    boolean isEmpty(int flow) {
        return flowHead[flow] == NIL;
    }

    /**
     * {@code fq_codel_drop}'s search: the bucket with the largest byte backlog, the first one on a tie; when no bucket has
     * bytes but some hold (zero-length) packets, the first of those (the kernel would dereference an empty bucket).
     *
     * @return the bucket, or {@link #NIL} if every bucket is empty
     */
    int fattest() {
        long maxbacklog = 0;
        int idx = 0;
        for (int i = 0; i < flowsCnt; i++) {
            if (backlogs[i] > maxbacklog) {
                maxbacklog = backlogs[i];
                idx = i;
            }
        }
        if (flowHead[idx] == NIL) {
            for (idx = 0; idx < flowsCnt && flowHead[idx] == NIL; idx++) {
                // scanning
            }
            if (idx == flowsCnt) {
                return NIL;
            }
        }
        return idx;
    }

    /**
     * @param flow a bucket
     * @return its byte backlog ({@code q->backlogs[flow]})
     */
    long backlog(int flow) {
        return backlogs[flow];
    }

    /**
     * @param flow a bucket
     * @return its DRR deficit in bytes
     */
    int deficit(int flow) {
        return deficit[flow];
    }

    /**
     * @param flow a bucket
     * @param bytes added to its deficit (negative to charge a packet that left)
     */
    void addDeficit(int flow, int bytes) {
        deficit[flow] += bytes;
    }

    /** @return {@code memory_usage}: the truesize bytes of the packets in the buckets */
    long memoryUsage() {
        return memoryUsage;
    }

    /**
     * A bucket joins the tail of {@code new_flows} with a full quantum ({@code list_add_tail(&flow->flowchain,
     * &q->new_flows)}, {@code flow->deficit = q->quantum}).
     *
     * @param flow a bucket on neither list
     * @param quantum its deficit from now
     */
    void addNew(int flow, int quantum) {
        append(ON_NEW, flow);
        deficit[flow] = quantum;
    }

    /** @return the first bucket of {@code new_flows}, or {@link #NIL} */
    int firstNew() {
        return newHead;
    }

    /** @return the first bucket of {@code old_flows}, or {@link #NIL} */
    int firstOld() {
        return oldHead;
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

    /**
     * {@code list_del_init} of the first bucket of new_flows or old_flows.
     *
     * @param fromNew whether from new_flows
     * @return the bucket
     */
    int removeHead(boolean fromNew) {
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

    /**
     * {@code list_move_tail(&flow->flowchain, &q->old_flows)} of the first bucket of new_flows or old_flows.
     *
     * @param fromNew whether from new_flows
     */
    void moveHeadToOldTail(boolean fromNew) {
        append(ON_OLD, removeHead(fromNew));
    }

    /** @return buckets on new_flows now ({@code new_flows_len}) */
    int newFlowsLength() {
        return length(newHead);
    }

    /** @return buckets on old_flows now ({@code old_flows_len}) */
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
     * Visits every bucket's packets in bucket index order, each from head to tail.
     *
     * @param visitor called once per packet
     */
    void forEachQueued(BufferVisitor visitor) {
        for (int flow = 0; flow < flowsCnt; flow++) {
            for (int slot = flowHead[flow]; slot != NIL; slot = slotNext[slot]) {
                visitor.visit(slotBuffer[slot]);
            }
        }
    }

    /** @return the table as plain values (new arrays); changes nothing */
    Snapshot snapshot() {
        int total = 0;
        int[] lengths = new int[flowsCnt];
        for (int flow = 0; flow < flowsCnt; flow++) {
            for (int slot = flowHead[flow]; slot != NIL; slot = slotNext[slot]) {
                lengths[flow]++;
                total++;
            }
        }
        Buffer[] packets = new Buffer[total];
        int[] memory = new int[total];
        int k = 0;
        for (int flow = 0; flow < flowsCnt; flow++) {
            for (int slot = flowHead[flow]; slot != NIL; slot = slotNext[slot]) {
                packets[k] = slotBuffer[slot];
                memory[k++] = slotMem[slot];
            }
        }
        return new Snapshot(lengths, packets, memory, backlogs.clone(), deficit.clone(), flowList(newHead),
                flowList(oldHead), memoryUsage);
    }

    private int[] flowList(int head) {
        int[] flows = new int[length(head)];
        int i = 0;
        for (int flow = head; flow != NIL; flow = chainNext[flow]) {
            flows[i++] = flow;
        }
        return flows;
    }

    /**
     * Takes over a predecessor's table, on an empty one with as many buckets and at least as many slots as it has packets
     * (the caller checks).
     *
     * @param s what the predecessor's {@link #snapshot()} gave
     */
    void restore(Snapshot s) {
        int k = 0;
        for (int flow = 0; flow < flowsCnt; flow++) {
            for (int i = 0; i < s.lengths()[flow]; i++, k++) {
                addTail(flow, s.packets()[k], s.memory()[k]);
            }
        }
        for (int flow : s.newFlows()) {
            append(ON_NEW, flow);
        }
        for (int flow : s.oldFlows()) {
            append(ON_OLD, flow);
        }
        System.arraycopy(s.backlogs(), 0, backlogs, 0, flowsCnt);
        System.arraycopy(s.deficit(), 0, deficit, 0, flowsCnt);
        memoryUsage = s.memoryUsage();
    }
}

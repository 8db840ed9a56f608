package io.ringlab.qdisc;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.sim.api.ElementState;

/**
 * What a successor of the same kind takes over from an {@link FqCodelQdisc} in a hot swap ({@link QdiscState}), as plain
 * values, and how they are written to and read from the element's {@link ElementState}: the hash perturbation (so each flow
 * stays in its bucket), the flow table ({@link FqCodelFlows.Snapshot}: each bucket's packets in order with their memory,
 * byte backlog and deficit, new_flows and old_flows in order, {@code memory_usage}), every bucket's CoDel variables
 * ({@link CodelVars.Snapshot}), the held packet, the qdisc's totals and counters, the last drop reason. The keys are
 * {@code <kind>.<name>}; the names and their order are the state format every version of this bundle reads.
 * <p>
 * Not thread-safe: the run's engine thread, during the swap.
 *
 * @param qdiscClass the class of the qdisc that wrote it; a successor of another class does not take it
 * @param perturbation the hash seed
 * @param flows the flow table
 * @param codel the per-bucket CoDel variables and the CoDel stats
 * @param held the requeued or peeked packet, {@code null} for none
 * @param totals the qdisc's own totals and counters
 * @param lastDropReason the reason of the last drop, {@code null} before the first
 */
record FqCodelHandover(String qdiscClass, int perturbation, FqCodelFlows.Snapshot flows, CodelVars.Snapshot codel,
        Buffer held, Totals totals, String lastDropReason) {

    /**
     * The qdisc's totals and counters that are neither the flow table's nor CoDel's.
     *
     * @param backlogBytes byte backlog, the held packet included
     * @param latestPicos the latest time the qdisc has seen
     * @param enqueued packets enqueued
     * @param dequeued packets dequeued
     * @param requeues packets requeued
     * @param dropOverlimit {@code drop_overlimit}
     * @param dropOvermemory {@code drop_overmemory}
     * @param newFlowCount {@code new_flow_count}
     */
    record Totals(long backlogBytes, long latestPicos, long enqueued, long dequeued, long requeues, long dropOverlimit,
            long dropOvermemory, long newFlowCount) {
    }

    /**
     * Writes the state under {@code kind.*}.
     *
     * @param out where to write
     * @param kind the prefix of the keys
     */
    void write(ElementState out, String kind) {
        out.put(kind + ".qdiscClass", qdiscClass);
        out.put(kind + ".perturbation", perturbation);
        out.put(kind + ".flowLengths", flows.lengths());
        out.put(kind + ".flowPackets", flows.packets());
        out.put(kind + ".packetMemory", flows.memory());
        if (held != null) {
            out.put(kind + ".held", held);
        }
        out.put(kind + ".backlogs", flows.backlogs());
        out.put(kind + ".deficit", flows.deficit());
        out.put(kind + ".newFlows", flows.newFlows());
        out.put(kind + ".oldFlows", flows.oldFlows());
        out.put(kind + ".count", codel.count());
        out.put(kind + ".lastcount", codel.lastcount());
        out.put(kind + ".dropping", codel.dropping());
        out.put(kind + ".recInvSqrt", codel.recInvSqrt());
        out.put(kind + ".firstAboveTime", codel.firstAboveTime());
        out.put(kind + ".dropNext", codel.dropNext());
        out.put(kind + ".ldelay", codel.ldelay());
        out.put(kind + ".totals", new long[] {totals.backlogBytes, flows.memoryUsage(), totals.latestPicos,
            totals.enqueued, totals.dequeued, totals.requeues, totals.dropOverlimit, totals.dropOvermemory,
            codel.dropCount(), totals.newFlowCount, codel.maxPacket()});
        if (lastDropReason != null) {
            out.put(kind + ".lastDropReason", lastDropReason);
        }
    }

    /**
     * Reads what a predecessor wrote, if a qdisc of {@code qdiscClass} with {@code flowCount} buckets and {@code slots}
     * packet slots can take it.
     *
     * @param in what the predecessor wrote
     * @param kind the prefix of the keys
     * @param qdiscClass the reader's class: state written by another class is not taken
     * @param flowCount the reader's number of buckets: state of another number is not taken
     * @param slots the reader's packet slots: state with more packets is not taken
     * @param perturbation the reader's own hash seed, kept if the state has none
     * @return the state, or {@code null} when it cannot be taken
     */
    static FqCodelHandover read(ElementState in, String kind, String qdiscClass, int flowCount, int slots,
            int perturbation) {
        int[] lengths = in.get(kind + ".flowLengths", int[].class);
        Buffer[] packets = in.get(kind + ".flowPackets", Buffer[].class);
        long[] t = in.get(kind + ".totals", long[].class);
        if (!qdiscClass.equals(in.get(kind + ".qdiscClass", String.class)) || lengths == null
                || lengths.length != flowCount || packets == null || t == null || packets.length > slots) {
            return null; // another class, other buckets, or more packets than the reader has slots for
        }
        FqCodelFlows.Snapshot flows = new FqCodelFlows.Snapshot(lengths, packets, in.get(kind + ".packetMemory",
                int[].class), in.get(kind + ".backlogs", long[].class), in.get(kind + ".deficit", int[].class),
                in.get(kind + ".newFlows", int[].class), in.get(kind + ".oldFlows", int[].class), t[1]);
        CodelVars.Snapshot codel = new CodelVars.Snapshot(in.get(kind + ".count", int[].class),
                in.get(kind + ".lastcount", int[].class), in.get(kind + ".dropping", boolean[].class),
                in.get(kind + ".recInvSqrt", int[].class), in.get(kind + ".firstAboveTime", int[].class),
                in.get(kind + ".dropNext", int[].class), in.get(kind + ".ldelay", int[].class), t[8], (int) t[10]);
        Totals totals = new Totals(t[0], t[2], t[3], t[4], t[5], t[6], t[7], t[9]);
        return new FqCodelHandover(qdiscClass, in.getInt(kind + ".perturbation", perturbation), flows, codel,
                in.get(kind + ".held", Buffer.class), totals, in.get(kind + ".lastDropReason", String.class));
    }
}

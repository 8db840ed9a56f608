package io.ringlab.engine.kernel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.dto.PoolStatsDTO;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.dto.InvariantReportDTO;

/**
 * A run's packet ledger and its invariants: the packets generated (one per wire segment, with consecutive ids), those
 * delivered, those dropped by named reason, and the double frees by who freed; {@link #check} walks what every element
 * holds and every pool has in use to prove packet conservation (generated = delivered + dropped + in flight) and
 * buffer conservation (no leak, no double free, no buffer held twice or after its free).
 * <p>
 * The counting methods are the per-packet hot path: they allocate nothing but a new drop reason's slot. Engine thread
 * only.
 */
final class PacketLedger {
    long generated;
    long delivered;
    private long nextPacketId;
    private final Map<String, Integer> reasonIds = new HashMap<>();
    private final List<String> reasons = new ArrayList<>();
    private long[] dropCounts = new long[8];
    /** Drops by element index, then reason id; an element's row grows when it first drops under a new reason. */
    private long[][] elementDrops = new long[0][];
    /** Refused frees by who freed (an element and its pool). */
    private final Map<String, Long> doubleFrees = new TreeMap<>();

    /** @return the id of a drop reason, made on its first use */
    int dropReason(String reason) {
        Integer id = reasonIds.get(reason);
        if (id != null) {
            return id;
        }
        int n = reasons.size();
        reasons.add(reason);
        reasonIds.put(reason, n);
        if (n >= dropCounts.length) {
            dropCounts = Arrays.copyOf(dropCounts, n * 2);
        }
        return n;
    }

    /**
     * Counts {@code packets} new packets.
     *
     * @return the first one's id; the others follow it
     */
    long generated(int packets) {
        long first = nextPacketId;
        nextPacketId += packets;
        generated += packets;
        return first;
    }

    void delivered(int packets) {
        delivered += packets;
    }

    /** Counts a drop by {@code element} (an index, or -1 for none) under a reason. */
    void dropped(int element, int reasonId, int packets) {
        dropCounts[reasonId] += packets;
        if (element >= 0) {
            long[] row = element < elementDrops.length ? elementDrops[element] : null;
            if (row == null || reasonId >= row.length) {
                row = grow(element);
            }
            row[reasonId] += packets;
        }
    }

    /** Makes room for every reason known now in {@code element}'s row; allocates, so only on a first drop. */
    private long[] grow(int element) {
        if (element >= elementDrops.length) {
            elementDrops = Arrays.copyOf(elementDrops, Math.max(element + 1, 2 * elementDrops.length));
        }
        long[] row = elementDrops[element];
        long[] bigger = new long[Math.max(reasons.size(), 8)];
        if (row != null) {
            System.arraycopy(row, 0, bigger, 0, row.length);
        }
        elementDrops[element] = bigger;
        return bigger;
    }

    /** @return the packets {@code element} dropped under the reason so far (whole run); allocates nothing */
    long dropped(int element, int reasonId) {
        long[] row = element < elementDrops.length ? elementDrops[element] : null;
        return row == null || reasonId >= row.length ? 0 : row[reasonId];
    }

    /**
     * @param names the elements' names by index
     * @return the drops so far by element name and reason, elements and reasons without drops left out
     */
    Map<String, Map<String, Long>> droppedByElement(List<String> names) {
        Map<String, Map<String, Long>> out = new TreeMap<>();
        for (int e = 0; e < elementDrops.length && e < names.size(); e++) {
            long[] row = elementDrops[e];
            for (int i = 0; row != null && i < row.length && i < reasons.size(); i++) {
                if (row[i] > 0) {
                    out.computeIfAbsent(names.get(e), k -> new TreeMap<>()).put(reasons.get(i), row[i]);
                }
            }
        }
        return out;
    }

    /** @return the reason's name */
    String reason(int reasonId) {
        return reasons.get(reasonId);
    }

    /** Counts a refused free by {@code who}. */
    void doubleFree(String who) {
        doubleFrees.merge(who, 1L, Long::sum);
    }

    long totalDropped() {
        long d = 0;
        for (int i = 0; i < reasons.size(); i++) {
            d += dropCounts[i];
        }
        return d;
    }

    /** Adds the ledger to a run's state hash. */
    void hash(StateHash h) {
        h.add(generated).add(delivered).add(nextPacketId);
        for (int i = 0; i < reasons.size(); i++) {
            h.add(reasons.get(i)).add(dropCounts[i]);
        }
    }

    /**
     * Checks packet and buffer conservation by walking every element's held buffers and every pool's in-use buffers.
     * Safe to call once the engine thread has stopped processing events.
     *
     * @param sim the run whose elements, buffers and pools are walked
     */
    InvariantReportDTO check(Simulation sim) {
        InvariantReportDTO r = new InvariantReportDTO();
        r.generated = generated;
        r.delivered = delivered;
        for (int i = 0; i < reasons.size(); i++) {
            if (dropCounts[i] > 0) {
                r.droppedByReason.put(reasons.get(i), dropCounts[i]);
            }
        }
        r.dropped = totalDropped();
        r.droppedByElement.putAll(droppedByElement(sim.elementNames()));

        BitSet held = new BitSet(sim.buffers.size());
        Map<Integer, String> holders = new HashMap<>();
        // a packet may sit in two buffers at once (a transmitted skb awaiting its TX clean and the frame on the wire;
        // a copybreak copy): packets in flight are the distinct packet ids held
        java.util.Set<Long> packets = new java.util.HashSet<>();
        for (ElementContextImpl c : sim.contexts) {
            Element e = sim.elements[c.index];
            e.forEachHeld(b -> {
                int id = b.id();
                if (held.get(id)) {
                    r.violations.add("buffer " + id + " is held by both " + holders.get(id) + " and " + c.name);
                    return;
                }
                held.set(id);
                holders.put(id, c.name);
                if (!b.allocated()) {
                    r.violations.add("element " + c.name + " holds buffer " + id + " of pool " + b.pool().name()
                            + ", which is free (used after free)");
                }
                long first = b.packetId();
                if (first >= 0) {
                    for (int k = b.segments() - 1; k >= 0; k--) { // a GSO buffer holds one packet per segment
                        packets.add(first + k);
                    }
                }
            });
        }
        r.inFlight = packets.size();
        r.buffersHeld = held.cardinality();

        boolean countersOk = true;
        for (BufferPool p : sim.pools) {
            PoolStatsDTO s = p.stats();
            r.buffersAllocated += s.allocs;
            r.buffersFreed += s.frees;
            r.buffersInUse += s.inUse;
            if (s.allocs - s.frees != s.inUse) {
                countersOk = false;
                r.violations.add("pool " + p.name() + ": allocs - frees = " + (s.allocs - s.frees) + " but inUse = " + s.inUse);
            }
            Map<String, Long> leaks = new LinkedHashMap<>();
            p.forEachInUse(b -> {
                if (!held.get(b.id())) {
                    leaks.merge(sim.ownerName(b.owner()), 1L, Long::sum);
                }
            });
            for (Map.Entry<String, Long> e : leaks.entrySet()) {
                r.leaksByOwner.merge(e.getKey(), e.getValue(), Long::sum);
                r.violations.add("leak: " + e.getValue() + " buffer(s) of pool " + p.name() + " in use but held by no element;"
                        + " last owner " + sim.ownerDescription(e.getKey()));
            }
        }
        r.doubleFreesByOwner.putAll(doubleFrees);
        for (Map.Entry<String, Long> e : doubleFrees.entrySet()) {
            r.violations.add("double free: " + e.getValue() + " free(s) of a buffer that was not allocated, by " + e.getKey());
        }
        r.packetConservation = r.generated == r.delivered + r.dropped + r.inFlight;
        if (!r.packetConservation) {
            r.violations.add(0, "packets: generated " + r.generated + " != delivered " + r.delivered + " + dropped " + r.dropped
                    + " + in flight " + r.inFlight + " (difference " + (r.generated - r.delivered - r.dropped - r.inFlight) + ")");
        }
        r.bufferConservation = countersOk && r.leaksByOwner.isEmpty() && doubleFrees.isEmpty()
                && r.violations.stream().noneMatch(v -> v.startsWith("buffer ") || v.contains("used after free"));
        return r;
    }
}

package io.ringlab.engine.kernel;

import java.util.Map;
import java.util.TreeMap;

import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.dto.PoolStatsDTO;
import io.ringlab.engine.kernel.cache.CacheModel;

/**
 * A 64-bit hash of a run's state at a safe point, to show that two runs are in the same state (the two branches of a
 * forked A/B experiment at their fork). Each value is folded in with SplitMix64's finaliser, so the order matters and
 * a single differing bit changes the result. Not cryptographic.
 */
final class StateHash {
    private long h = 0x243F6A8885A308D3L;

    StateHash add(long v) {
        long z = h ^ v;
        z += 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        h = z ^ (z >>> 31);
        return this;
    }

    StateHash add(double v) {
        return add(Double.doubleToLongBits(v));
    }

    StateHash add(String s) {
        add(s.length());
        for (int i = 0; i < s.length(); i++) {
            add(s.charAt(i));
        }
        return this;
    }

    /** @return the hash as 16 hex digits */
    String hex() {
        return String.format("%016x", h);
    }

    /**
     * A hash of the run's state now (at a safe point): virtual time, events processed and pending (time, sequence,
     * owner), packet counts and drops by reason, every element's metrics and the buffers it holds (id, packet, length,
     * segments, owner), every pool's counters, every core's busy time and queues, the caches' counters. Two runs with equal
     * hashes are, for everything the results can see, in the same state: a forked A/B experiment's branches check it at
     * their fork. The elements' random streams are not read (that would draw from them); a stream that had diverged
     * would have left a trace in the rest.
     *
     * @param sim the run
     * @return 16 hex digits
     */
    static String of(Simulation sim) {
        StateHash h = new StateHash();
        h.add(sim.now).add(sim.eventCount);
        sim.ledger.hash(h);
        sim.events.hash(h);
        CacheModel caches = sim.caches();
        for (CoreImpl core : sim.cores) {
            core.hash(h);
            if (caches != null) {
                Map<String, Double> m = new TreeMap<>();
                caches.metrics(core.index(), m);
                m.forEach((k, v) -> h.add(k).add(v));
            }
        }
        for (ElementContextImpl c : sim.contexts) {
            h.add(c.name).add(c.implementation);
            c.metrics.values.forEach((k, v) -> h.add(k).add(v.getAsDouble()));
            c.metrics.histograms.forEach((k, v) -> h.add(k).add(v.histogram.getTotalCount()).add(v.histogram.getMaxValue())
                    .add(v.histogram.getMean()));
            sim.elements[c.index].forEachHeld(b -> h.add(b.id()).add(b.packetId()).add(b.length()).add(b.segments())
                    .add(b.owner()));
        }
        for (BufferPool p : sim.pools) {
            PoolStatsDTO st = p.stats();
            h.add(p.name()).add(st.inUse).add(st.allocs).add(st.frees).add(st.allocFailures);
        }
        return h.hex();
    }
}

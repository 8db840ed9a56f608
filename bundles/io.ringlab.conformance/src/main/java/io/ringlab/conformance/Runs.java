package io.ringlab.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

import io.ringlab.engine.standalone.Standalone;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.ProblemDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/** Runs the contracts' pipelines and states what they show, in the words of docs/engine.md and docs/hot-swap.md. */
final class Runs {
    /** The drop reason of packets a swap drained (docs/hot-swap.md). */
    static final String SWAP_DRAIN = "swap-drain";

    private Runs() {
    }

    /**
     * Runs a pipeline of the kit's to its end.
     *
     * @param what the run's name in messages ("the loaded run")
     * @return the result
     * @throws AssertionError when the engine refuses the pipeline, with its problems and text (a hook gave a property the
     *             type does not have, or a value out of range)
     */
    static RunResultDTO run(Standalone sim, String what, String text, long seed, List<String> swaps) {
        RunOptionsDTO o = new RunOptionsDTO();
        o.seed = seed;
        o.snapshotIntervalMillis = 0;
        o.swaps.addAll(swaps);
        try {
            return sim.run(text, o);
        } catch (PipelineException e) {
            List<String> problems = new ArrayList<>();
            for (ProblemDTO p : e.problems()) {
                problems.add(p.message);
            }
            throw new AssertionError("the engine refused the pipeline of " + what + ": " + String.join("; ", problems)
                    + "\n" + text);
        }
    }

    /** The run finished: it was not ended by an element's failure. */
    static void finished(RunResultDTO r, String what) {
        if (!"FINISHED".equals(r.state)) {
            throw new AssertionError(what + " ended " + r.state + ": " + r.error);
        }
    }

    /**
     * The run finished, and packets and buffers are conserved: generated = delivered + dropped + in flight (walked),
     * allocs - frees = in use for every pool, no leak, no double free, no buffer held twice or after its free.
     */
    static void conserved(RunResultDTO r, String what) {
        finished(r, what);
        if (!r.invariants.packetConservation || !r.invariants.bufferConservation) {
            throw new AssertionError((r.invariants.bufferConservation ? "packet conservation" : "buffer ownership") + ", "
                    + what + ": " + String.join("; ", r.invariants.violations));
        }
    }

    /**
     * @return what differs between two results, one line each ({@code element.metric: a vs b}), the event count and the
     *         packet counts first; empty when they are equal apart from wall time and swaps
     */
    static List<String> differences(RunResultDTO a, RunResultDTO b) {
        List<String> out = new ArrayList<>();
        if (a.events != b.events) {
            out.add("events: " + a.events + " vs " + b.events);
        }
        if (a.invariants.delivered != b.invariants.delivered || a.invariants.dropped != b.invariants.dropped) {
            out.add("delivered, dropped: " + a.invariants.delivered + ", " + a.invariants.dropped + " vs "
                    + b.invariants.delivered + ", " + b.invariants.dropped);
        }
        TreeSet<String> elements = new TreeSet<>(a.elements.keySet());
        elements.addAll(b.elements.keySet());
        for (String e : elements) {
            Map<String, Double> ma = a.elements.getOrDefault(e, Map.of());
            Map<String, Double> mb = b.elements.getOrDefault(e, Map.of());
            TreeSet<String> names = new TreeSet<>(ma.keySet());
            names.addAll(mb.keySet());
            for (String m : names) {
                if (!Objects.equals(ma.get(m), mb.get(m))) {
                    out.add(e + "." + m + ": " + ma.get(m) + " vs " + mb.get(m));
                }
            }
        }
        return out;
    }

    /** @return the first lines of a list, and how many more there are */
    static String firstOf(List<String> lines, int n) {
        String shown = String.join("; ", lines.subList(0, Math.min(n, lines.size())));
        return lines.size() > n ? shown + "; and " + (lines.size() - n) + " more" : shown;
    }
}

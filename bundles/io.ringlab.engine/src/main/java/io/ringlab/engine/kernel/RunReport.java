package io.ringlab.engine.kernel;

import java.util.ArrayList;
import java.util.Map;
import java.util.Set;

import io.ringlab.pipeline.format.MetricNames;
import io.ringlab.pipeline.format.MetricUnits;
import io.ringlab.sim.api.RunState;
import io.ringlab.sim.api.dto.ConnectionDTO;
import io.ringlab.sim.api.dto.HeadlineDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.RunSnapshotDTO;
import io.ringlab.engine.kernel.series.SampleRule;

/** A run's result, as {@link RunImpl} hands it over when the run ends however it ends. */
final class RunReport {
    private RunReport() {
    }

    /**
     * @return the result of a run whose engine thread has stopped: what it ran, its figures over the measured window,
     *         its series, its invariants, its headline and the warnings about too few samples; the run's pools are
     *         closed (their teardown counts)
     */
    static RunResultDTO of(Simulation sim, PipelineDTO pipeline, Set<String> types, String forkStateHash, RunState end,
            String error, long wallStart, long allocStart, long allocEnd, long loopNanos, long cpuNanos) {
        RunResultDTO r = new RunResultDTO();
        Map<String, String> core = sim.registry.coreBundles();
        r.ringlabVersion = core.getOrDefault("io.ringlab.engine", "dev");
        r.bundles.putAll(core);
        java.util.Set<String> used = new java.util.TreeSet<>(sim.providerBundles);
        for (String type : types) {
            String b = sim.registry.bundleOf(type);
            if (b != null) {
                used.add(b);
            }
        }
        for (String b : used) {
            int colon = b.lastIndexOf(':');
            r.bundles.put(b.substring(0, colon), b.substring(colon + 1));
        }
        r.pipeline = pipeline.name;
        r.pipelineFile = pipeline.file;
        r.seed = sim.seed;
        r.state = end.name();
        r.error = error;
        r.simulatedSeconds = sim.now / 1e12;
        r.wallSeconds = (System.nanoTime() - wallStart) / 1e9;
        r.events = sim.eventCount;
        r.wallMeasurements.put("engineAllocatedBytes", allocStart < 0 || allocEnd < 0 ? -1.0 : (double) (allocEnd - allocStart));
        r.wallMeasurements.put("eventsPerSecond", loopNanos <= 0 ? 0.0 : sim.eventCount / (loopNanos / 1e9));
        r.wallMeasurements.put("packetsPerSecond", loopNanos <= 0 ? 0.0 : sim.ledger.generated / (loopNanos / 1e9));
        // the engine thread's CPU time over the same loop: what a shared, noisy machine does not inflate as it does wall time
        r.wallMeasurements.put("engineCpuSeconds", cpuNanos < 0 ? -1.0 : cpuNanos / 1e9);
        r.wallMeasurements.put("packetsPerCpuSecond", cpuNanos <= 0 ? 0.0 : sim.ledger.generated / (cpuNanos / 1e9));
        r.packets = sim.ledger.generated;
        r.profile = sim.profile.name();
        r.elements = sim.elementMetrics();
        asRun(sim, r);
        r.runtime = sim.runtime();
        r.series = sim.series();
        r.invariants = sim.checkInvariants();
        r.distributions = sim.distributions();
        r.swaps = new ArrayList<>(sim.swaps);
        r.forkStateHash = forkStateHash;
        r.headline = headline(pipeline, r.elements);
        long measured = sim.now - sim.measureStartPicos();
        r.measuredSeconds = measured / 1e12;
        Map<String, Map<String, SampleRule.Basis>> bases = sim.elementSamples();
        bases.forEach((element, m) -> {
            Map<String, Long> counts = new java.util.TreeMap<>();
            m.forEach((metric, b) -> counts.put(metric, b.samples()));
            r.samples.put(element, counts);
        });
        r.sampleWarnings.addAll(SampleRule.warnings(bases, r.headline == null ? null : r.headline.metric,
                r.headline != null && !Double.isNaN(r.headline.value), measured, sim.measureStartPicos()));
        sim.closePools();
        r.warnings.putAll(sim.warnings); // teardown's included
        return r;
    }

    /**
     * @return the result of a run the watchdog ended while its engine thread was stuck: the figures of the last
     *         snapshot, since the state cannot be read safely, and the invariants said not to be checked
     */
    static RunResultDTO ofSnapshot(Simulation sim, PipelineDTO pipeline, RunSnapshotDTO last, String message, int culprit) {
        RunResultDTO r = new RunResultDTO();
        r.pipeline = pipeline.name;
        r.pipelineFile = pipeline.file;
        r.seed = sim.seed;
        r.state = RunState.FAILED.name();
        r.error = message;
        r.profile = sim.profile.name();
        r.simulatedSeconds = last.simulatedSeconds;
        r.events = last.events;
        r.elements = last.elements;
        r.distributions = last.distributions;
        r.series = last.series;
        r.swaps = new ArrayList<>(last.swaps);
        asRun(sim, r); // types, properties and wiring change only in a hot swap, which runs on the stuck thread
        r.invariants.violations.add("invariants not checked: the engine thread is stuck in "
                + (culprit >= 0 ? "element " + sim.ownerName(culprit) : "an event") + " and its state cannot be read safely;"
                + " the metrics are those of the last snapshot, at " + last.simulatedSeconds + " s");
        return r;
    }

    /**
     * Records the pipeline as run: each element's type and properties, and every connection with its ports named, from
     * the output's side.
     */
    private static void asRun(Simulation sim, RunResultDTO r) {
        for (ElementContextImpl c : sim.contexts) {
            r.types.put(c.name, c.type);
            r.properties.put(c.name, c.config.texts());
        }
        for (ElementContextImpl c : sim.contexts) {
            for (Ports.Out out : c.outputs.values()) {
                if (out.targetIndex >= 0) {
                    ConnectionDTO d = new ConnectionDTO();
                    d.from = c.name;
                    d.fromPort = out.name;
                    d.to = sim.contexts.get(out.targetIndex).name;
                    d.toPort = out.targetPortName;
                    r.connections.add(d);
                }
            }
        }
    }

    /** @return the last snapshot as a FAILED run's final one: the same figures, the state FAILED */
    static RunSnapshotDTO failed(RunSnapshotDTO last) {
        RunSnapshotDTO s = new RunSnapshotDTO();
        s.state = RunState.FAILED;
        s.simulatedSeconds = last.simulatedSeconds;
        s.durationSeconds = last.durationSeconds;
        s.events = last.events;
        s.elements = last.elements;
        s.series = last.series;
        s.swaps = last.swaps;
        return s;
    }

    /** @return the pipeline's headline metric and its value in {@code elements}, or {@code null} without one */
    static HeadlineDTO headline(PipelineDTO pipeline, Map<String, Map<String, Double>> elements) {
        if (pipeline.headline == null) {
            return null;
        }
        String h = MetricNames.current(pipeline.headline.text); // an old name (rxMbps) reads today's metric
        int dot = h.lastIndexOf('.'); // metric names have no dots; pool names (pool:eth0.rx) do
        HeadlineDTO d = new HeadlineDTO();
        d.metric = h;
        Map<String, Double> m = elements.get(h.substring(0, dot));
        Double v = m == null ? null : m.get(h.substring(dot + 1));
        d.value = v == null ? Double.NaN : v;
        d.unit = MetricUnits.unitOf(h.substring(dot + 1));
        return d;
    }
}

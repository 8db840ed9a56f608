package io.ringlab.cli;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.ringlab.sim.api.dto.HeadlineDTO;
import io.ringlab.sim.api.dto.InvariantReportDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.SeriesDTO;

/** Ready-made run results for the fake simulator. */
final class Results {
    private Results() {
    }

    /** @return a FINISHED run of pipeline {@code name} with every field set and both invariants holding. */
    static RunResultDTO ok(String name) {
        RunResultDTO r = new RunResultDTO();
        r.ringlabVersion = "0.1.0.test";
        r.bundles.put("io.ringlab.engine", "0.1.0.test");
        r.bundles.put("io.ringlab.traffic", "0.1.0.test");
        r.pipeline = name;
        r.pipelineFile = name + ".pipeline";
        r.seed = 42;
        r.state = "FINISHED";
        r.simulatedSeconds = 0.1;
        r.wallSeconds = 0.25;
        r.events = 12_345;
        r.packets = 1_000;
        r.profile = "generic-x86-4ghz";
        r.wallMeasurements.put("packetsPerSecond", 4_000.0);
        r.wallMeasurements.put("eventsPerSecond", 49_380.0);
        r.wallMeasurements.put("engineAllocatedBytes", 0.0);
        Map<String, Double> sink = new TreeMap<>();
        sink.put("rxMpps", 148.8);
        sink.put("rxPackets", 990.0);
        r.elements.put("sink", sink);
        Map<String, Double> q = new TreeMap<>();
        q.put("drops", 10.0);
        r.elements.put("q", q);
        SeriesDTO s = new SeriesDTO();
        s.intervalSeconds = 0.05;
        s.columns.addAll(List.of("timeSeconds", "q.backlog"));
        s.rows.add(new double[] {0.0, 0.0});
        s.rows.add(new double[] {0.05, 12.0});
        r.series = s;
        InvariantReportDTO inv = r.invariants;
        inv.packetConservation = true;
        inv.bufferConservation = true;
        inv.generated = 1_000;
        inv.delivered = 990;
        inv.dropped = 10;
        inv.droppedByReason.put("qdisc-full", 10L);
        inv.inFlight = 0;
        inv.buffersAllocated = 1_000;
        inv.buffersFreed = 1_000;
        inv.buffersInUse = 0;
        inv.buffersHeld = 0;
        HeadlineDTO h = new HeadlineDTO();
        h.metric = "sink.rxMpps";
        h.value = 148.8;
        h.unit = "Mpps";
        r.headline = h;
        return r;
    }

    /** @return a FAILED run with {@code error}. */
    static RunResultDTO failed(String name, String error) {
        RunResultDTO r = ok(name);
        r.state = "FAILED";
        r.error = error;
        return r;
    }

    /** @return a run with wall measurements set to the given values (a null leaves the measurement out). */
    static RunResultDTO measured(String name, Double packetsPerSecond, Double eventsPerSecond, Double allocatedBytes,
            long packets) {
        RunResultDTO r = ok(name);
        r.wallMeasurements.clear();
        if (packetsPerSecond != null) {
            r.wallMeasurements.put("packetsPerSecond", packetsPerSecond);
        }
        if (eventsPerSecond != null) {
            r.wallMeasurements.put("eventsPerSecond", eventsPerSecond);
        }
        if (allocatedBytes != null) {
            r.wallMeasurements.put("engineAllocatedBytes", allocatedBytes);
        }
        r.packets = packets;
        return r;
    }
}

package io.ringlab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringlab.conformance.ModelTests;
import io.ringlab.experiment.api.ExperimentService;
import io.ringlab.experiment.api.dto.ComparisonDTO;
import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.experiment.api.dto.PointResultDTO;
import io.ringlab.pipeline.format.Units;

/**
 * experiments/netdev-ring-sweep.experiment, the analytic check of issue 18 section 5, run through the real experiment
 * service and engine: behind a full device ring of N MTU frames at rate R, with fq_codel keeping the ping out of the
 * qdisc's queue, the ping's median round-trip time rises by N x 1538 B x 8 / R over the idle system's, at every point
 * of the sweep (N from 16 to 512, R 100 Mbit/s and 1 Gbit/s), within one frame time or 2 %, whichever is larger.
 */
class NetdevRingSweepTest {
    /** A 1518-byte frame (FCS included) with its 8 bytes of preamble and 12 of inter-frame gap, in bits. */
    private static final double FRAME_BITS = 1538 * 8;

    private static Path experiment() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isDirectory(dir.resolve("experiments"))) {
            dir = dir.getParent();
        }
        assertTrue(dir != null, "no experiments folder above " + Path.of("").toAbsolutePath());
        return dir.resolve("experiments/netdev-ring-sweep.experiment");
    }

    @Test
    void thePingsRiseIsTheRingsWireTimeAtEveryPoint() throws Exception {
        ExperimentService service = TestExperiments.of(ModelTests.simulator());
        ExperimentDTO e = service.read(experiment());
        ExperimentResultDTO r = service.run(e, 0, null);

        assertFalse(r.cancelled);
        assertTrue(r.problems.isEmpty(), r.problems.toString());
        assertEquals(List.of("eth0.ring", "wire.rate"), r.parameters);
        assertEquals(12, r.points.size(), "N = 16, 32, ..., 512 at two rates");
        assertEquals(24, r.runs.stream().filter(Report::counts).count(), "every run counts");
        List<String> misses = new ArrayList<>();
        for (PointResultDTO p : r.points) {
            int n = Integer.parseInt(p.values.get("eth0.ring"));
            double rate = Units.parseBitsPerSecond(p.values.get("wire.rate"));
            double frameMillis = FRAME_BITS / rate * 1e3;
            double expected = n * frameMillis;
            assertEquals(n, p.variants.get("full").get("eth0.ringUsed").mean, "the ring is full at " + p.values);
            ComparisonDTO rise = p.comparisons.stream().filter(c -> c.metric.equals("ping.rttP50Millis")).findFirst()
                    .orElseThrow();
            double tolerance = Math.max(frameMillis, 0.02 * expected);
            if (Math.abs(rise.difference - expected) > tolerance) {
                misses.add(p.values + ": rise " + rise.difference + " ms, expected " + expected + " ms +- " + tolerance);
            }
        }
        assertTrue(misses.isEmpty(), String.join("\n", misses));
    }
}

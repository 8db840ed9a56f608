package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.dto.RunResultDTO;

class DeterminismTest {

    /** Everything in a result except wall-clock measurements, with doubles as their exact bits. */
    static String fingerprint(RunResultDTO r) {
        StringBuilder sb = new StringBuilder();
        sb.append(r.pipeline).append(' ').append(r.seed).append(' ').append(r.state).append(' ').append(r.events).append(' ')
                .append(r.packets).append(' ').append(Double.doubleToRawLongBits(r.simulatedSeconds)).append('\n');
        for (Map.Entry<String, Map<String, Double>> e : r.elements.entrySet()) {
            for (Map.Entry<String, Double> m : e.getValue().entrySet()) {
                sb.append(e.getKey()).append('.').append(m.getKey()).append('=')
                        .append(Long.toHexString(Double.doubleToRawLongBits(m.getValue()))).append('\n');
            }
        }
        for (double[] row : r.series.rows) {
            for (double v : row) {
                sb.append(Long.toHexString(Double.doubleToRawLongBits(v))).append(',');
            }
            sb.append('\n');
        }
        r.series.points.forEach((name, p) -> {
            sb.append(name).append(" dropped ").append(p.dropped).append(':');
            for (int i = 0; i < p.values.length; i++) {
                sb.append(Long.toHexString(Double.doubleToRawLongBits(p.timeSeconds[i]))).append('=')
                        .append(Long.toHexString(Double.doubleToRawLongBits(p.values[i]))).append(',');
            }
            sb.append('\n');
        });
        sb.append(r.invariants.generated).append(' ').append(r.invariants.delivered).append(' ')
                .append(r.invariants.droppedByReason).append(' ').append(r.invariants.inFlight).append(' ')
                .append(r.invariants.violations);
        return sb.toString();
    }

    @Test
    void theSameSeedGivesIdenticalResults() throws Exception {
        RunResultDTO a = Pipelines.build(Pipelines.RANDOM, 42).run();
        RunResultDTO b = Pipelines.build(Pipelines.RANDOM, 42).run();
        assertEquals("FINISHED", a.state, a.error);
        assertTrue(a.packets > 1000, "the pipeline must do real work: packets=" + a.packets);
        assertTrue(a.invariants.droppedByReason.containsKey("link-loss"), a.invariants.droppedByReason.toString());
        assertEquals(fingerprint(a), fingerprint(b));
    }

    @Test
    void differentSeedsGiveDifferentResults() throws Exception {
        RunResultDTO a = Pipelines.build(Pipelines.RANDOM, 1).run();
        RunResultDTO b = Pipelines.build(Pipelines.RANDOM, 2).run();
        assertNotEquals(fingerprint(a), fingerprint(b));
        assertNotEquals(a.elements.get("sink").get("rxPackets"), b.elements.get("sink").get("rxPackets"));
    }

    @Test
    void runsInParallelGiveTheSameResultsAsAlone() throws Exception {
        String alone = fingerprint(Pipelines.build(Pipelines.RANDOM, 9).run());
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            Future<String> f1 = pool.submit(() -> fingerprint(Pipelines.build(Pipelines.RANDOM, 9).run()));
            Future<String> f2 = pool.submit(() -> fingerprint(Pipelines.build(Pipelines.RANDOM, 9).run()));
            Future<String> f3 = pool.submit(() -> fingerprint(Pipelines.build(Pipelines.RANDOM, 5).run()));
            assertEquals(alone, f1.get());
            assertEquals(alone, f2.get());
            assertNotEquals(alone, f3.get());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void addingAnElementLeavesTheOtherRandomStreamsUnchanged() throws Exception {
        // common random numbers: a stream depends on the seed and the element's name only
        String extra = Pipelines.RANDOM.replace("src -> q", "element src2 : source { rate = 1Mbit; arrivals = poisson }\n"
                + "element sink2 : sink\nsrc2 -> sink2\nsrc -> q");
        RunResultDTO a = Pipelines.build(Pipelines.RANDOM, 3).run();
        RunResultDTO b = Pipelines.build(extra, 3).run();
        assertEquals(a.elements.get("sink").get("rxPackets"), b.elements.get("sink").get("rxPackets"));
        assertEquals(a.elements.get("wire").get("lost"), b.elements.get("wire").get("lost"));
    }
}

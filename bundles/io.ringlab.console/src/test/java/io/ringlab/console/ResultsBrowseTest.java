package io.ringlab.console;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ringlab.experiment.api.dto.ComparisonDTO;
import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.experiment.api.dto.MetricSummaryDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;

/** A database's runs as a result: summaries per variant (and point) over the runs that count, by the given statistics. */
class ResultsBrowseTest {
    private static RunSummaryDTO run(String variant, long seed, String ring, double backlog, boolean ok) {
        RunSummaryDTO s = new RunSummaryDTO();
        s.variant = variant;
        s.seed = seed;
        s.state = RunSummaryDTO.FINISHED;
        s.packetConservation = ok;
        s.bufferConservation = true;
        if (ring != null) {
            s.point.put("eth0.ring", ring);
        }
        s.metrics.put("q.backlog", backlog);
        return s;
    }

    /** The statistics stand-in: n and the mean, and the values seen, in order. */
    private static MetricSummaryDTO mean(double[] v) {
        MetricSummaryDTO s = new MetricSummaryDTO();
        s.n = v.length;
        s.mean = v.length == 0 ? null : Arrays.stream(v).average().orElseThrow();
        return s;
    }

    /** The pairs each comparison was given, in order. */
    private final List<double[][]> paired = new ArrayList<>();

    /** The comparison stand-in: records its pairs, n counts the seeds with both values. */
    private ComparisonDTO pairs(double[] a, double[] b) {
        paired.add(new double[][] { a.clone(), b.clone() });
        ComparisonDTO c = new ComparisonDTO();
        for (int i = 0; i < a.length; i++) {
            c.n += Double.isNaN(a[i]) || Double.isNaN(b[i]) ? 0 : 1;
        }
        return c;
    }

    @Test
    void runsBecomeSummariesPerVariantOrPointCountingOnlyTheRunsThatCount() {
        List<RunSummaryDTO> sweep = new ArrayList<>(List.of(run("A", 1, "16", 10, true), run("A", 2, "16", 20, true),
                run("B", 1, "16", 5, true), run("B", 2, "16", 999, false), run("A", 1, "64", 40, true)));
        ExperimentResultDTO r = ResultsBrowse.result("x", sweep, ResultsBrowseTest::mean, this::pairs);
        assertEquals(List.of("eth0.ring"), r.parameters);
        assertEquals("A", r.baseline);
        assertEquals(List.of(1L, 2L), r.seeds);
        assertEquals(2, r.points.size());
        assertEquals(Map.of("eth0.ring", "16"), r.points.get(0).values);
        assertEquals(15.0, r.points.get(0).variants.get("A").get("q.backlog").mean);
        assertEquals(1, r.points.get(0).variants.get("B").get("q.backlog").n, "a run with a broken invariant does not count");
        assertEquals(40.0, r.points.get(1).variants.get("A").get("q.backlog").mean);
        assertEquals(5, r.runs.size());
        // B against A at each point, paired by seed: at ring 16, seed 2's B broke an invariant (NaN); at 64, B never ran
        assertEquals(2, paired.size());
        assertArrayEquals(new double[] { 10, 20 }, paired.get(0)[0]);
        assertArrayEquals(new double[] { 5, Double.NaN }, paired.get(0)[1]);
        assertArrayEquals(new double[] { 40, Double.NaN }, paired.get(1)[0]);
        assertArrayEquals(new double[] { Double.NaN, Double.NaN }, paired.get(1)[1]);
        ComparisonDTO c = r.points.get(0).comparisons.get(0);
        assertEquals(List.of("q.backlog", "A", "B", 1), List.of(c.metric, c.a, c.b, c.n));
        assertTrue(r.comparisons.isEmpty(), "a sweep's comparisons are its points'");

        ExperimentResultDTO ab = ResultsBrowse.result("y", List.of(run("A", 1, null, 1, true), run("B", 1, null, 3, true)),
                ResultsBrowseTest::mean, this::pairs);
        assertTrue(ab.points.isEmpty() && ab.parameters.isEmpty());
        assertEquals(3.0, ab.variants.get("B").get("q.backlog").mean);
        assertEquals(1, ab.comparisons.size());
        assertEquals(List.of("A", "B", 1), List.of(ab.comparisons.get(0).a, ab.comparisons.get(0).b, ab.comparisons.get(0).n));
        assertEquals("y: 2 of 2 runs counted, 2 variants x 1 seeds (from a results database)", AbTable.outcome(ab));
    }
}

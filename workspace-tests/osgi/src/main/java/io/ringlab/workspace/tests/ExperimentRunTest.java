package io.ringlab.workspace.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.common.annotation.InjectService;
import org.osgi.test.junit5.context.BundleContextExtension;
import org.osgi.test.junit5.service.ServiceExtension;

import io.ringlab.experiment.api.ExperimentService;
import io.ringlab.experiment.api.dto.ComparisonDTO;
import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;

/**
 * The experiment service inside Felix with the real engine, on the sample {@code pipelines/netdev-bql.pipeline} at 20 ms:
 * the same seeds give the same results, on one thread or two, and the variants run on common random numbers.
 */
@ExtendWith({BundleContextExtension.class, ServiceExtension.class})
class ExperimentRunTest {
    /** The sample's own comparison: where the queue sits without and with BQL, after a 5 ms warm-up. */
    static final String EXPERIMENT = """
            pipeline = "pipelines/netdev-bql.pipeline"; seeds = [1, 2, 3]
            duration = 20ms; warmup = 5ms
            metrics = [sink.rxPackets, eth0.ringUsed, q.backlog, src.txPackets]
            variant off { set eth0.bql = false }
            variant on { set eth0.bql = true }
            """;

    @InjectBundleContext
    BundleContext context;

    /** @return every value of the result that must not depend on threads or timing, in order */
    private static List<Object> values(ExperimentResultDTO r) {
        List<Object> v = new ArrayList<>();
        for (RunSummaryDTO s : r.runs) {
            v.addAll(List.of(s.variant, s.seed, s.state, s.metrics, s.packetConservation, s.bufferConservation, s.events,
                    s.packets));
        }
        r.variants.forEach((name, byMetric) -> byMetric.forEach((m, s) -> v.addAll(List.of(name, m, s.n,
                String.valueOf(s.mean), String.valueOf(s.ci95Low), String.valueOf(s.ci95High)))));
        for (ComparisonDTO c : r.comparisons) {
            v.addAll(List.of(c.metric, c.b, c.n, String.valueOf(c.difference), String.valueOf(c.ci95Low),
                    String.valueOf(c.ci95High), String.valueOf(c.tStatistic), String.valueOf(c.pValue)));
        }
        return v;
    }

    @Test
    void theSameSeedsGiveTheSameResultsOnOneThreadOrTwo(@InjectService ExperimentService experiments) throws Exception {
        ExperimentDTO e = experiments.read("netdev-bql.experiment", EXPERIMENT, Path.of(context.getProperty("ringlab.home")));
        ExperimentResultDTO one = experiments.run(e, 1, null);
        ExperimentResultDTO two = experiments.run(e, 2, null);
        ExperimentResultDTO again = experiments.run(e, 2, null);

        assertEquals(values(one), values(two));
        assertEquals(values(two), values(again));
        assertEquals(6, one.runs.size());
        for (RunSummaryDTO s : one.runs) {
            assertEquals("FINISHED", s.state, s.error);
            assertTrue(s.packetConservation && s.bufferConservation, s.violations.toString());
            assertEquals(4, s.metrics.size(), s.metrics.toString());
        }
        assertEquals(List.of(), one.problems);
        String engine = null;
        for (Bundle b : context.getBundles()) {
            if (b.getSymbolicName().equals("io.ringlab.engine")) {
                engine = b.getVersion().toString();
            }
        }
        assertEquals(engine, one.ringlabVersion);
    }

    @Test
    void variantsSeeTheSameTrafficForTheSameSeed(@InjectService ExperimentService experiments) throws Exception {
        ExperimentResultDTO r = experiments.run(experiments.read("netdev-bql.experiment", EXPERIMENT,
                Path.of(context.getProperty("ringlab.home"))), 0, null);

        // the source's Poisson stream depends on the seed and its name only: both variants generate the same packets
        // (the ping's echoes differ: pfifo_fast drops some requests while it is full, and the host answers the others)
        for (int s = 0; s < 3; s++) {
            assertEquals(r.runs.get(s).metrics.get("src.txPackets"), r.runs.get(3 + s).metrics.get("src.txPackets"),
                    "seed " + r.runs.get(s).seed);
        }
        assertNotEquals(r.runs.get(0).metrics.get("src.txPackets"), r.runs.get(1).metrics.get("src.txPackets"),
                "another seed, other traffic");
        // without BQL the device's 256-frame queue fills; with it only a few frames wait there
        double off = r.variants.get("off").get("eth0.ringUsed").mean;
        double on = r.variants.get("on").get("eth0.ringUsed").mean;
        assertTrue(off > 5 * on, "ringUsed off " + off + ", on " + on);
        ComparisonDTO ring = r.comparisons.stream().filter(c -> c.metric.equals("eth0.ringUsed")).findFirst().orElseThrow();
        assertEquals(3, ring.n);
        assertTrue(ring.ci95High < 0, "the difference on - off is negative with 95 % confidence: " + ring.ci95High);
    }

    /** A forked comparison: the same pipeline to 10 ms, then pfifo goes on in one branch and fq_codel takes over in the other. */
    static final String FORKED = """
            pipeline = "pipelines/netdev-bql.pipeline"; seeds = [1, 2]
            duration = 20ms; fork = 10ms
            metrics = [sink.latencyP99Micros, q.backlog]
            variant pfifo { }
            variant fq_codel { swap = "10ms:q=fq_codel" }
            """;

    @Test
    void theBranchesOfAForkedComparisonShareTheirStateAtTheFork(@InjectService ExperimentService experiments)
            throws Exception {
        ExperimentResultDTO r = experiments.run(experiments.read("fork.experiment", FORKED,
                Path.of(context.getProperty("ringlab.home"))), 2, null);
        assertEquals(List.of(), r.problems, "every seed's branches recorded the same state hash at the fork");
        assertEquals(0.010, r.forkSeconds);
        assertEquals(0.010, r.warmupSeconds, "only what follows the fork is compared");
        for (int s = 0; s < 2; s++) {
            RunSummaryDTO a = r.runs.get(s), b = r.runs.get(2 + s);
            assertTrue(a.forkStateHash != null && a.forkStateHash.equals(b.forkStateHash), a.forkStateHash + " " + b.forkStateHash);
            assertEquals(1, b.swaps.size());
            assertTrue(b.swaps.get(0).applied && b.swaps.get(0).handover && b.swaps.get(0).packetsDropped == 0,
                    b.swaps.get(0).message);
            assertEquals(a.forkStateHash, b.swaps.get(0).stateHash, "the swap happened in the shared state");
        }
        assertNotEquals(r.runs.get(0).forkStateHash, r.runs.get(1).forkStateHash, "another seed, another state");
        assertEquals(2, r.variants.get("fq_codel").get("sink.latencyP99Micros").n);
    }
}

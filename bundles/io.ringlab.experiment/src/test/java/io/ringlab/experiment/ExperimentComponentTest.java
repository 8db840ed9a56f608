package io.ringlab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringlab.experiment.api.ExperimentListener;
import io.ringlab.experiment.api.dto.ComparisonDTO;
import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.experiment.api.dto.MetricSummaryDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.ProblemDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * {@link ExperimentComponent} over a {@link ModelSimulator}: what each run is given, determinism whatever the threads and
 * the order runs end in, failed runs, refused variants, missing metrics and cancellation.
 */
class ExperimentComponentTest {
    static final String EXPERIMENT = """
            name = "bql"
            pipeline = "pipelines/ab.pipeline"
            duration = 20ms
            warmup = 5ms
            seeds = [1, 2, 3, 5]
            metrics = [sink.rxMpps, eth0.limit]
            variant off { set eth0.bql = false }
            variant on { set eth0.bql = true }
            variant fast { type eth0 = fastnic; set eth0.bql = true; swap = "10ms:eth0" }
            """;

    @TempDir
    Path dir;

    private ExperimentComponent component;
    private ModelSimulator sim;

    @BeforeEach
    void setUp() throws IOException {
        Files.createDirectories(dir.resolve("pipelines"));
        Files.writeString(dir.resolve("pipelines/ab.pipeline"), ExperimentReaderTest.PIPELINE);
        sim = new ModelSimulator(ExperimentReaderTest.TYPES, ExperimentComponentTest::model);
        component = new ExperimentComponent();
        component.simulator = sim;
    }

    /**
     * The model: throughput 10 + seed % 3 without BQL, plus 0.5 + 0.1 * seed with it (fastnic another 0.25); the BQL
     * limit exists only with BQL on, as 3000 + 7 * seed.
     */
    static RunResultDTO model(PipelineDTO p, RunOptionsDTO o) {
        boolean bql = o.overrides.contains("eth0.bql=true");
        boolean fast = p.elements.stream().anyMatch(e -> e.type.equals("fastnic"));
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("sink.rxMpps", 10 + o.seed % 3 + (bql ? 0.5 + 0.1 * o.seed : 0) + (fast ? 0.25 : 0));
        m.put("sink.rxPackets", 1000.0 * o.seed);
        if (bql) {
            m.put("eth0.limit", 3000.0 + 7 * o.seed);
        }
        m.put("eth0.inflight", 1.0);
        return ModelSimulator.result(p, o, m);
    }

    private ExperimentDTO experiment(String text) throws PipelineException {
        return component.read("bql.experiment", text, dir);
    }

    /** @return every field of the result that must not depend on threads or timing, as text (doubles exactly) */
    static String fingerprint(ExperimentResultDTO r) {
        StringBuilder sb = new StringBuilder();
        sb.append(r.name).append(r.seeds).append(r.metrics).append(r.baseline).append(r.durationSeconds).append(' ')
                .append(r.warmupSeconds).append(r.cancelled).append('\n');
        r.variants.forEach((v, byMetric) -> byMetric.forEach((m, s) -> sb.append(v).append(' ').append(m).append(" n=")
                .append(s.n).append(" mean=").append(s.mean).append(" sd=").append(s.standardDeviation).append(" ci=")
                .append(s.ci95Low).append(',').append(s.ci95High).append(" note=").append(s.note).append('\n')));
        for (ComparisonDTO c : r.comparisons) {
            sb.append(c.metric).append(' ').append(c.a).append('>').append(c.b).append(" n=").append(c.n).append(" d=")
                    .append(c.difference).append(" ci=").append(c.ci95Low).append(',').append(c.ci95High).append(" t=")
                    .append(c.tStatistic).append(" p=").append(c.pValue).append(" note=").append(c.note).append('\n');
        }
        r.points.forEach(p -> {
            sb.append(p.values).append('\n');
            p.variants.forEach((v, byMetric) -> byMetric.forEach((m, s) -> sb.append(v).append(' ').append(m)
                    .append(" mean=").append(s.mean).append(" ci=").append(s.ci95Low).append(',').append(s.ci95High)
                    .append('\n')));
            p.comparisons.forEach(c -> sb.append(c.b).append(" d=").append(c.difference).append(" p=").append(c.pValue)
                    .append('\n'));
        });
        for (RunSummaryDTO s : r.runs) {
            sb.append(s.point).append(' ').append(s.variant).append(' ').append(s.seed).append(' ').append(s.state).append(' ').append(s.error)
                    .append(' ').append(s.metrics).append(' ').append(s.packetConservation).append(s.bufferConservation)
                    .append(' ').append(s.events).append(' ').append(s.packets).append('\n');
        }
        r.problems.forEach(p -> sb.append(p).append('\n'));
        return sb.toString();
    }

    // ---- what each run gets -----------------------------------------------------------------------------------------

    @Test
    void everyVariantRunsWithTheSameSeedsAndItsOwnOverridesTypesAndSwaps() throws Exception {
        ExperimentResultDTO r = component.run(experiment(EXPERIMENT), 1, null);

        // the check prepares each variant once with the first seed, then 3 variants x 4 seeds run, seed by seed
        assertEquals(3 + 12, sim.prepared.size());
        List<String> runs = sim.prepared.subList(3, 15);
        assertEquals("ab 1 [eth0.bql=false] [src:source, q:pfifo, eth0:netdev, sink:sink]", runs.get(0));
        assertEquals("ab 1 [eth0.bql=true] [src:source, q:pfifo, eth0:netdev, sink:sink]", runs.get(1));
        assertEquals("ab 1 [eth0.bql=true] [src:source, q:pfifo, eth0:fastnic, sink:sink]", runs.get(2));
        assertEquals("ab 5 [eth0.bql=true] [src:source, q:pfifo, eth0:fastnic, sink:sink]", runs.get(11));
        for (RunOptionsDTO o : sim.options) {
            assertEquals(20_000_000_000L, o.durationPicos);
            assertEquals(5_000_000_000L, o.warmupPicos);
            assertEquals(0, o.snapshotIntervalMillis);
        }
        assertEquals(List.of("10ms:eth0"), sim.options.get(5).swaps);
        assertEquals(List.of(), sim.options.get(4).swaps);
        assertEquals("netdev", sim.pipelines.get(0).elements.get(2).type, "the base pipeline is not changed");

        assertEquals(List.of(1L, 2L, 3L, 5L), r.seeds);
        assertEquals(List.of("off", "on", "fast"), List.copyOf(r.variants.keySet()));
        assertEquals("off", r.baseline);
        assertEquals(0.02, r.durationSeconds);
        assertEquals(0.005, r.warmupSeconds);
        assertEquals(12, r.runs.size());
        assertEquals("on", r.runs.get(4).variant, "runs by variant, then seed");
        assertEquals(1L, r.runs.get(4).seed);
        assertEquals("0.1.0.test", r.ringlabVersion);
    }

    @Test
    void theStatisticsPairRunsBySeed() throws Exception {
        ExperimentResultDTO r = component.run(experiment(EXPERIMENT), 1, null);

        // off: 10 + seed % 3 over seeds 1, 2, 3, 5 = 11, 12, 10, 12
        MetricSummaryDTO off = r.variants.get("off").get("sink.rxMpps");
        assertEquals(4, off.n);
        assertEquals(11.25, off.mean, 1e-12);
        // on - off = 0.5 + 0.1 * seed: 0.6, 0.7, 0.8, 1.0, mean 0.775
        ComparisonDTO onVsOff = r.comparisons.get(0);
        assertEquals("sink.rxMpps", onVsOff.metric);
        assertEquals("off", onVsOff.a);
        assertEquals("on", onVsOff.b);
        assertEquals(4, onVsOff.n);
        assertEquals(0.775, onVsOff.difference, 1e-12);
        ComparisonDTO direct = Statistics.compare(new double[] {11, 12, 10, 12},
                new double[] {11 + 0.6, 12 + 0.7, 10 + 0.8, 12 + 1.0});
        assertEquals(direct.pValue, onVsOff.pValue, 1e-12);
        assertEquals(direct.ci95Low, onVsOff.ci95Low, 1e-12);
        assertEquals("fast", r.comparisons.get(1).b);
        assertEquals(2 * 2, r.comparisons.size(), "two metrics, two variants against the baseline");
    }

    // ---- sweeps -----------------------------------------------------------------------------------------------------

    /** Two rings by two eth0 types, BQL off and on, two seeds: 16 runs at 4 points. */
    static final String SWEEP = """
            pipeline = "pipelines/ab.pipeline"
            duration = 20ms
            seeds = [1, 2]
            metrics = [sink.rxMpps]
            sweep eth0.ring = 64..128 *2
            sweep eth0 = [netdev, fastnic]
            variant off { set eth0.bql = false }
            variant on { set eth0.bql = true }
            """;

    /** {@link #model} plus the ring: ring / 1000 more throughput. */
    static RunResultDTO ringModel(PipelineDTO p, RunOptionsDTO o) {
        RunResultDTO r = model(p, o);
        for (String x : o.overrides) {
            if (x.startsWith("eth0.ring=")) {
                r.elements.get("sink").merge("rxMpps", Integer.parseInt(x.substring(10)) / 1000.0, Double::sum);
            }
        }
        return r;
    }

    @Test
    void aSweepRunsEveryVariantWithEverySeedAtEveryPointAndPairsThemThere() throws Exception {
        sim = new ModelSimulator(ExperimentReaderTest.TYPES, ExperimentComponentTest::ringModel);
        component.simulator = sim;
        ExperimentDTO e = experiment(SWEEP);
        ExperimentResultDTO r = component.run(e, 1, null);

        // prepared once per variant and set of swept types (2 x 2), then 2 variants x 4 points x 2 seeds
        assertEquals(4 + 16, sim.prepared.size());
        assertEquals("ab 1 [eth0.bql=false, eth0.ring=64] [src:source, q:pfifo, eth0:netdev, sink:sink]",
                sim.prepared.get(4), "the variant's settings, then the point's");
        assertEquals("ab 1 [eth0.bql=true, eth0.ring=64] [src:source, q:pfifo, eth0:fastnic, sink:sink]",
                sim.prepared.get(4 + 5), "points by point: the first sweep slowest");
        assertEquals("ab 2 [eth0.bql=true, eth0.ring=128] [src:source, q:pfifo, eth0:fastnic, sink:sink]",
                sim.prepared.get(4 + 15));

        assertEquals(List.of("eth0.ring", "eth0"), r.parameters);
        assertTrue(r.variants.isEmpty() && r.comparisons.isEmpty(), "with sweeps the statistics are per point");
        assertEquals(4, r.points.size());
        assertEquals(Map.of("eth0.ring", "128", "eth0", "fastnic"), r.points.get(3).values);
        assertEquals(List.of("eth0.ring", "eth0"), List.copyOf(r.points.get(3).values.keySet()));
        // off at (128, fastnic): 10 + seed % 3 over seeds 1, 2 (11, 12) + 0.128 + 0.25
        assertEquals(11.5 + 0.128 + 0.25, r.points.get(3).variants.get("off").get("sink.rxMpps").mean, 1e-12);
        assertEquals(11.5 + 0.064, r.points.get(0).variants.get("off").get("sink.rxMpps").mean, 1e-12);
        // on - off = 0.5 + 0.1 * seed, paired by seed at the same point
        ComparisonDTO c = r.points.get(1).comparisons.get(0);
        assertEquals("on", c.b);
        assertEquals(2, c.n);
        assertEquals(0.65, c.difference, 1e-12);
        assertEquals(16, r.runs.size());
        assertEquals(Map.of("eth0.ring", "64", "eth0", "fastnic"), r.runs.get(4).point, "runs by point, variant, seed");
        assertEquals("off", r.runs.get(4).variant);
    }

    @Test
    void theRunsOfAnExperimentAreListedCheckedAndInTheOrderTheyRun() throws Exception {
        sim = new ModelSimulator(ExperimentReaderTest.TYPES, ExperimentComponentTest::ringModel);
        component.simulator = sim;
        ExperimentDTO e = experiment(SWEEP);
        List<RunSummaryDTO> planned = component.runs(e);
        assertEquals(4, sim.prepared.size(), "checked as run() checks, nothing run");
        assertEquals(16, planned.size());
        assertEquals(RunSummaryDTO.PLANNED, planned.get(0).state);
        List<String> order = new ArrayList<>();
        planned.forEach(x -> order.add(x.point + " " + x.variant + " " + x.seed));
        assertEquals("{eth0.ring=64, eth0=netdev} off 1", order.get(0));
        assertEquals("{eth0.ring=64, eth0=netdev} on 1", order.get(1));
        assertEquals("{eth0.ring=64, eth0=netdev} off 2", order.get(2));
        assertEquals("{eth0.ring=64, eth0=fastnic} off 1", order.get(4));

        sim.refuse = "eth0.bql=true"; // prepared at the first point of each set of swept types
        PipelineException ex = assertThrows(PipelineException.class, () -> component.runs(experiment(SWEEP)));
        assertTrue(ex.getMessage().contains("variant 'on' at sweep point {eth0.ring=64, eth0=netdev}"), ex.getMessage());
        assertTrue(ex.getMessage().contains("variant 'on' at sweep point {eth0.ring=64, eth0=fastnic}"), ex.getMessage());
    }

    @Test
    void aSweepsResultsDoNotDependOnTheThreads() throws Exception {
        sim = new ModelSimulator(ExperimentReaderTest.TYPES, ExperimentComponentTest::ringModel);
        component.simulator = sim;
        ExperimentDTO e = experiment(SWEEP);
        assertEquals(fingerprint(component.run(e, 1, null)), fingerprint(component.run(e, 3, null)));
    }

    // ---- determinism ------------------------------------------------------------------------------------------------

    @Test
    void theSameSeedsGiveIdenticalResults() throws Exception {
        ExperimentDTO e = experiment(EXPERIMENT);
        String first = fingerprint(component.run(e, 2, null));
        String second = fingerprint(component.run(e, 2, null));
        assertEquals(first, second);
        assertTrue(first.contains("on sink.rxMpps n=4"), first);
    }

    @Test
    void resultsDoNotDependOnTheThreadsNorTheOrderRunsEndIn() throws Exception {
        ExperimentDTO e = experiment(EXPERIMENT);
        String alone = fingerprint(component.run(e, 1, null));
        List<String> aloneOrder = List.copyOf(sim.ended);

        // with two threads, the first run waits until the last one has ended, so it ends last
        sim.ended.clear();
        CountDownLatch lastEnded = new CountDownLatch(1);
        sim.hook = (p, o, stopped) -> {
            if (o.seed == 1 && o.overrides.contains("eth0.bql=false")) {
                ModelSimulator.await(lastEnded);
            }
        };
        List<String> told = Collections.synchronizedList(new ArrayList<>());
        ExperimentListener listener = (run, result, done, total) -> {
            told.add(run.variant + " " + run.seed + " " + done + "/" + total);
            if (run.variant.equals("fast") && run.seed == 5) {
                lastEnded.countDown();
            }
        };
        ExperimentResultDTO parallel = component.run(e, 2, listener);

        assertEquals(alone, fingerprint(parallel));
        assertEquals(2, parallel.threads);
        assertEquals("1 [eth0.bql=false]", sim.ended.get(sim.ended.size() - 1));
        assertNotEquals(aloneOrder, sim.ended, "the runs ended in another order");
        assertEquals("off 1 12/12", told.get(11));
    }

    // ---- failures ---------------------------------------------------------------------------------------------------

    @Test
    void aFailedRunAndABrokenInvariantAreReportedAndTheOtherRunsStillCount() throws Exception {
        ModelSimulator failing = new ModelSimulator(ExperimentReaderTest.TYPES, (p, o) -> {
            RunResultDTO r = model(p, o);
            boolean on = o.overrides.contains("eth0.bql=true");
            if (on && o.seed == 2) {
                r.state = "FAILED";
                r.error = "element eth0 (type netdev): threw java.lang.IllegalStateException: ring corrupted";
            } else if (on && o.seed == 3) {
                r.invariants.packetConservation = false;
                r.invariants.violations.add("packets: generated 10 != delivered 9 + dropped 0 + in flight 0");
            } else if (on && o.seed == 5) {
                throw new IllegalStateException("engine bug");
            }
            return r;
        });
        component.simulator = failing;
        ExperimentResultDTO r = component.run(experiment(EXPERIMENT.replace("variant fast", "# variant fast")
                .replace(", eth0.limit]", "]")), 2, null);

        RunSummaryDTO s2 = r.runs.get(5);
        assertEquals("on", s2.variant);
        assertEquals(2L, s2.seed);
        assertEquals("FAILED", s2.state);
        assertTrue(s2.error.contains("ring corrupted"), s2.error);
        RunSummaryDTO s3 = r.runs.get(6);
        assertEquals("FINISHED", s3.state);
        assertFalse(s3.packetConservation);
        assertEquals(List.of("packets: generated 10 != delivered 9 + dropped 0 + in flight 0"), s3.violations);
        assertEquals(10.8, s3.metrics.get("sink.rxMpps"), 1e-12, "a run with a broken invariant still reports its values");
        RunSummaryDTO s5 = r.runs.get(7);
        assertEquals("FAILED", s5.state);
        assertEquals("java.lang.IllegalStateException: engine bug", s5.error);

        MetricSummaryDTO on = r.variants.get("on").get("sink.rxMpps");
        assertEquals(1, on.n, "only seed 1 counts");
        assertTrue(on.note.contains("left out: seeds 2, 3, 5 (failed, cancelled or broke an invariant)"), on.note);
        assertEquals(4, r.variants.get("off").get("sink.rxMpps").n);
        assertEquals(1, r.comparisons.size());
        assertEquals(1, r.comparisons.get(0).n);
        assertTrue(r.comparisons.get(0).note.contains("3 of 4 seeds have no value in one of the variants"),
                r.comparisons.get(0).note);
        assertEquals(List.of(), r.problems, "a failed run's missing metrics are not an input problem");
    }

    @Test
    void aVariantTheEngineRefusesStopsTheExperimentBeforeAnyRun() throws Exception {
        sim.refuse = "eth0.bql=true";
        PipelineException ex = assertThrows(PipelineException.class, () -> component.run(experiment(EXPERIMENT), 2, null));
        assertEquals(List.of("bql.experiment:8:9: variant 'on': " + dir.resolve("pipelines/ab.pipeline")
                + ": --set 'eth0.bql=true': refused by the model", "bql.experiment:9:9: variant 'fast': "
                + dir.resolve("pipelines/ab.pipeline") + ": --set 'eth0.bql=true': refused by the model"),
                ex.problems().stream().map(ProblemDTO::toString).toList());
        assertEquals(List.of(), sim.ended, "nothing ran");
    }

    @Test
    void aProblemTheEngineFindsInThePipelineIsReportedOnceAtTheLineThatNamesIt() throws Exception {
        sim.refuseAtLine5 = "unknown element type 'snik'";
        PipelineException ex = assertThrows(PipelineException.class, () -> component.run(experiment(EXPERIMENT), 2, null));
        String at = dir.resolve("pipelines/ab.pipeline") + ":5:1: unknown element type 'snik'";
        // off and on run the pipeline as it is: its problem, once; fast retypes eth0: the problem may be the variant's
        assertEquals(List.of("bql.experiment:2:12: in pipeline pipelines/ab.pipeline: " + at,
                "bql.experiment:9:9: variant 'fast': " + at),
                ex.problems().stream().map(ProblemDTO::toString).toList());
    }

    @Test
    void aWarmUpAsLongAsAnOverriddenDurationIsRefused() throws Exception {
        ExperimentDTO e = experiment(EXPERIMENT);
        e.durationPicos = 5_000_000_000L;
        PipelineException ex = assertThrows(PipelineException.class, () -> component.run(e, 1, null));
        assertEquals("bql.experiment:4:10: warmup 5ms must be at least 0s and less than each run's duration, 5ms", ex.getMessage(),
                "at the line that sets the warm-up");
        assertThrows(IllegalArgumentException.class, () -> component.run(experiment(EXPERIMENT), -1, null));
    }

    @Test
    void aMetricNoRunReportedIsAProblemNamingTheVariantsTheSeedsAndWhatExists() throws Exception {
        ExperimentResultDTO r = component.run(experiment(EXPERIMENT), 1, null);

        // eth0.limit exists only with BQL on: the baseline lacks it (a metric no variant reports is refused before the
        // runs: aMetricNoVariantReportsIsRefusedBeforeAnyRunWithTheClosestName)
        assertEquals(List.of(
                "bql.experiment:6:25: metric 'eth0.limit' was not reported by variant off (seeds 1-3, 5); eth0 reported "
                        + "inflight (variant off, seed 1)"),
                r.problems.stream().map(ProblemDTO::toString).toList());
        MetricSummaryDTO offLimit = r.variants.get("off").get("eth0.limit");
        assertEquals(0, offLimit.n);
        assertNull(offLimit.mean);
        assertEquals(4, r.variants.get("on").get("eth0.limit").n);
        assertFalse(r.runs.get(0).metrics.containsKey("eth0.limit"));
    }

    @Test
    void aHeadlineStandingInForMissingMetricsIsReportedWhereThePipelineDeclaresIt() throws Exception {
        // no 'metrics': the experiment compares the pipeline's headline, here eth0.limit, which the baseline lacks
        Files.writeString(dir.resolve("pipelines/ab.pipeline"),
                ExperimentReaderTest.PIPELINE.replace("headline = sink.rxMpps", "headline = eth0.limit"));
        ExperimentResultDTO r = component.run(experiment(EXPERIMENT.replace("metrics = [sink.rxMpps, eth0.limit]\n", "")),
                1, null);
        assertEquals(List.of(dir.resolve("pipelines/ab.pipeline") + ":3:12: headline 'eth0.limit' was not reported by"
                + " variant off (seeds 1-3, 5); eth0 reported inflight (variant off, seed 1) (bql.experiment names no"
                + " metrics: it compares the pipeline's headline)"), r.problems.stream().map(ProblemDTO::toString).toList());
    }

    @Test
    void interruptingTheCallerStopsTheRunningRunAndStartsNoOther() throws Exception {
        Thread caller = Thread.currentThread();
        // the second run interrupts the caller, then waits until the experiment stops it
        sim.hook = (p, o, stopped) -> {
            if (o.seed == 1 && o.overrides.contains("eth0.bql=true") && p.elements.get(2).type.equals("netdev")) {
                caller.interrupt();
                ModelSimulator.await(stopped);
            }
        };
        ExperimentResultDTO r;
        try {
            r = component.run(experiment(EXPERIMENT), 1, null);
        } finally {
            assertTrue(Thread.interrupted(), "the interrupt status is set again (and cleared here)");
        }

        assertTrue(r.cancelled);
        assertEquals("FINISHED", r.runs.get(0).state);
        assertEquals("STOPPED", r.runs.get(4).state);
        long cancelled = r.runs.stream().filter(s -> s.state.equals("CANCELLED")).count();
        assertEquals(10, cancelled, "every other run was never started");
        assertEquals(1, r.variants.get("off").get("sink.rxMpps").n);
        assertEquals(0, r.variants.get("on").get("sink.rxMpps").n);
        assertEquals(2, sim.ended.size());
    }

    private static final String FORKED = """
            name = "fork"
            pipeline = "pipelines/ab.pipeline"
            duration = 20ms
            fork = 10ms
            seeds = 3
            metrics = [sink.rxMpps]
            variant stay { }
            variant swapped { swap = "10ms:eth0=fastnic" }
            """;

    @Test
    void aForkNotShorterThanAnOverriddenDurationIsNamedAtItsLine() throws Exception {
        ExperimentDTO e = experiment(FORKED);
        e.durationPicos = 2_000_000_000L; // --duration 2ms
        e.warmupPicos = 1_000_000_000L; // --warmup 1ms, not the file's
        e.warmupValue = null; // then the fork's line, which the warm-up must cover, is named
        PipelineException ex = assertThrows(PipelineException.class, () -> component.run(e, 1, null));
        assertEquals(List.of("bql.experiment:4:8: fork 10ms must be more than 0s and less than each run's duration, 2ms",
                "bql.experiment:4:8: warmup 1ms must be at least the fork, 10ms: the branches share everything before it, so"
                        + " only what comes after is compared"), ex.problems().stream().map(ProblemDTO::toString).toList());
    }

    @Test
    void aForkedExperimentGivesEveryRunTheForkAndTheWarmupAndChecksTheBranchesStates() throws Exception {
        java.util.List<RunOptionsDTO> given = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        ModelSimulator same = new ModelSimulator(ExperimentReaderTest.TYPES, (p, o) -> {
            given.add(o);
            RunResultDTO r = model(p, o);
            r.forkStateHash = "seed" + o.seed; // every branch of a seed reaches the fork in the same state
            return r;
        });
        component.simulator = same;
        ExperimentResultDTO r = component.run(experiment(FORKED), 2, null);
        assertEquals(0.010, r.forkSeconds);
        assertEquals(0.010, r.warmupSeconds, "the warm-up is the fork when not given");
        assertTrue(r.problems.isEmpty(), r.problems.toString());
        assertTrue(given.stream().allMatch(o -> o.forkAtPicos == 10_000_000_000L && o.warmupPicos == 10_000_000_000L));
        assertTrue(r.runs.stream().allMatch(run -> run.forkStateHash != null));

        ModelSimulator diverging = new ModelSimulator(ExperimentReaderTest.TYPES, (p, o) -> {
            RunResultDTO x = model(p, o);
            x.forkStateHash = o.swaps.isEmpty() ? "aaaa" : "bbbb"; // a branch that changed something before the fork
            return x;
        });
        component.simulator = diverging;
        ExperimentResultDTO bad = component.run(experiment(FORKED), 1, null);
        assertEquals(3, bad.problems.size(), bad.problems.toString());
        assertTrue(bad.problems.get(0).message.startsWith("seed 1: the branches reached the fork, 10ms, in different states"
                + " (state hash by variant: {stay=aaaa, swapped=bbbb})"), bad.problems.get(0).message);
    }

    @Test
    void aForkedExperimentsVariantsMayOnlySwapAtOrAfterTheFork() {
        PipelineException e = assertThrows(PipelineException.class, () -> experiment(FORKED.replace(
                "variant stay { }", "variant stay { set eth0.bql = true }").replace("10ms:eth0=fastnic", "5ms:eth0=fastnic")));
        String all = e.getMessage();
        assertTrue(all.contains("variant 'stay' changes the pipeline from the start with its own 'set' or 'type'"), all);
        PipelineException late = assertThrows(PipelineException.class, () -> component.run(experiment(FORKED.replace(
                "10ms:eth0=fastnic", "5ms:eth0=fastnic")), 1, null));
        assertTrue(late.getMessage().contains("variant 'swapped' swaps at 5ms, before the fork, 10ms"), late.getMessage());
        PipelineException warm = assertThrows(PipelineException.class, () -> experiment(FORKED.replace("fork = 10ms",
                "fork = 10ms\nwarmup = 2ms")));
        assertTrue(warm.getMessage().contains("warmup 2ms must be at least the fork, 10ms"), warm.getMessage());
    }

    @Test
    void aMetricNoVariantReportsIsRefusedBeforeAnyRunWithTheClosestName() throws Exception {
        ExperimentDTO e = experiment(EXPERIMENT.replace("metrics = [sink.rxMpps, eth0.limit]",
                "metrics = [sink.rxMps, eth0.limit, eth0.limt]"));

        PipelineException ex = assertThrows(PipelineException.class, () -> component.run(e, 1, null));

        String m = ex.getMessage();
        assertTrue(m.contains("bql.experiment:6:12: metric sink.rxMps: sink reports no metric 'rxMps' in any variant (did you"
                + " mean 'rxMpps'?); its metrics: rxMpps, rxPackets"), m);
        assertTrue(m.contains("metric eth0.limt: eth0 reports no metric 'limt' in any variant (did you mean 'limit'?)"), m);
        assertEquals(2, ex.problems().size(), "eth0.limit is reported by the variants with BQL on: left to the runs: " + m);
        assertEquals(List.of(), sim.ended, "nothing ran");
    }
}

package io.ringlab.experiment;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import io.ringlab.experiment.api.ExperimentListener;
import io.ringlab.experiment.api.ExperimentService;
import io.ringlab.experiment.api.ResultsException;
import io.ringlab.experiment.api.RunExecutor;
import io.ringlab.experiment.api.RunStore;
import io.ringlab.experiment.api.dto.ComparisonDTO;
import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.experiment.api.dto.MetricSummaryDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.experiment.api.dto.RunTaskDTO;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.Simulator;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.ProblemDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * The {@link ExperimentService}: a thin shell over {@link ExperimentReader} (files), {@link Plan} (checks), {@link
 * ParallelRuns} (the runs, over the engine's {@link Simulator}) and {@link Report} with {@link Statistics} (the
 * result).
 * <p>
 * Thread-safe: it keeps no state between calls.
 */
@Component(service = ExperimentService.class)
public class ExperimentComponent implements ExperimentService {

    /** The engine; package-private so that the unit tests set a fake one without a framework. */
    @Reference
    Simulator simulator;
    /** The bundles in run keys; without a framework (the unit tests) none. */
    private volatile BundleFingerprints fingerprints = new BundleFingerprints(null);

    @Activate
    void activate(BundleContext context) {
        fingerprints = new BundleFingerprints(context);
    }

    @Override
    public ExperimentDTO read(Path file) throws PipelineException {
        return ExperimentReader.read(file, simulator.elementTypes());
    }

    @Override
    public ExperimentDTO read(String fileName, String text, Path directory) throws PipelineException {
        return ExperimentReader.read(fileName, text, directory, simulator.elementTypes());
    }

    @Override
    public List<RunSummaryDTO> runs(ExperimentDTO experiment) throws PipelineException {
        Objects.requireNonNull(experiment, "experiment");
        Plan plan = Plan.of(experiment, simulator);
        List<RunSummaryDTO> runs = new ArrayList<>();
        for (Plan.Job j : plan.jobs) {
            RunSummaryDTO s = new RunSummaryDTO();
            s.variant = experiment.variants.get(j.variant()).name;
            s.seed = j.seed();
            s.point.putAll(plan.points.get(j.point()));
            s.state = RunSummaryDTO.PLANNED;
            runs.add(s);
        }
        return runs;
    }

    @Override
    public MetricSummaryDTO summarize(double[] values) {
        return Statistics.summarize(Objects.requireNonNull(values, "values").clone());
    }

    @Override
    public ComparisonDTO compare(double[] a, double[] b) {
        return Statistics.comparePaired(Objects.requireNonNull(a, "a").clone(), Objects.requireNonNull(b, "b").clone());
    }

    @Override
    public ExperimentResultDTO run(ExperimentDTO experiment, int threads, ExperimentListener listener)
            throws PipelineException {
        try {
            return run(experiment, threads, listener, null, false);
        } catch (ResultsException e) {
            throw new IllegalStateException("no store, no store failure", e);
        }
    }

    @Override
    public ExperimentResultDTO run(ExperimentDTO experiment, int threads, ExperimentListener listener, RunStore store,
            boolean rerun) throws PipelineException, ResultsException {
        Objects.requireNonNull(experiment, "experiment");
        if (threads < 0) {
            throw new IllegalArgumentException("threads=" + threads + " must be at least 0 (0: one per processor)");
        }
        return run(experiment, threads, null, listener, store, rerun);
    }

    @Override
    public ExperimentResultDTO run(ExperimentDTO experiment, RunExecutor executor, ExperimentListener listener,
            RunStore store, boolean rerun) throws PipelineException, ResultsException {
        Objects.requireNonNull(experiment, "experiment");
        Objects.requireNonNull(executor, "executor");
        return run(experiment, Math.max(1, executor.parallelism()), executor, listener, store, rerun);
    }

    private ExperimentResultDTO run(ExperimentDTO experiment, int threads, RunExecutor executor,
            ExperimentListener listener, RunStore store, boolean rerun) throws PipelineException, ResultsException {
        Plan plan = Plan.of(experiment, simulator);
        int t = Math.min(threads == 0 ? Runtime.getRuntime().availableProcessors() : threads, plan.jobs.size());
        long start = System.nanoTime();
        Map<String, String> bundles = store == null && executor == null ? null : bundles();
        String[] keys = bundles == null ? null : keys(plan, bundles);
        ParallelRuns runs = new ParallelRuns(simulator, executor, bundles, plan, t, listener, store, keys, rerun);
        ParallelRuns.Outcome[] outcomes = runs.execute();
        ExperimentResultDTO r = Report.build(plan, outcomes, t, (System.nanoTime() - start) / 1e9, runs.cancelled());
        if (runs.storeFailure() != null) {
            r.problems.add(new io.ringlab.sim.api.dto.ProblemDTO(experiment.file, 0, 0, runs.storeFailure()
                    + "; the runs after it were not started"));
        }
        return r;
    }

    @Override
    public Map<String, String> bundles() {
        Set<String> elementBundles = new HashSet<>();
        for (ElementDescriptorDTO d : simulator.elementTypes()) {
            if (d.bundle != null) {
                elementBundles.add(d.bundle);
            }
        }
        return fingerprints.of(elementBundles);
    }

    @Override
    public RunResultDTO execute(RunTaskDTO task) throws PipelineException {
        Objects.requireNonNull(task, "task");
        Map<String, String> own = bundles();
        if (!RunKeys.of(task.pipeline, task.options, own).equals(task.key)) {
            throw new PipelineException(List.of(new ProblemDTO(task.experiment, 0, 0, "run of variant " + task.variant
                    + ", seed " + task.seed + " refused: " + differences(task.bundles, own))));
        }
        return simulator.prepare(task.pipeline, task.options).run();
    }

    /** @return what differs between the submitter's bundles and these, for a refused task */
    static String differences(Map<String, String> theirs, Map<String, String> own) {
        List<String> d = new ArrayList<>();
        Set<String> names = new java.util.TreeSet<>(theirs.keySet());
        names.addAll(own.keySet());
        for (String n : names) {
            String t = theirs.get(n);
            String o = own.get(n);
            if (t == null) {
                d.add(n + " " + shortly(o) + " is here but not on the submitter");
            } else if (o == null) {
                d.add(n + " " + shortly(t) + " is missing here");
            } else if (!t.equals(o)) {
                d.add(n + " is " + shortly(o) + " here and " + shortly(t) + " on the submitter");
            }
        }
        if (d.isEmpty()) {
            return "this installation computes another key from the task than the submitter did, with the same bundles:"
                    + " the task changed on its way";
        }
        return "its bundles differ from the submitter's (" + String.join("; ", d) + "): a worker must run the same Ringlab"
                + " build and the same plug-ins as the submitter";
    }

    /** @return {@code version#hash} with the hash cut to 12 digits */
    private static String shortly(String fingerprint) {
        int h = fingerprint.indexOf('#');
        return h < 0 || fingerprint.length() < h + 13 ? fingerprint : fingerprint.substring(0, h + 13);
    }

    /** @return every job's run key, by job index */
    private String[] keys(Plan plan, Map<String, String> bundles) {
        String[] keys = new String[plan.jobs.size()];
        for (Plan.Job j : plan.jobs) {
            keys[j.index()] = RunKeys.of(plan.pipeline(j.variant(), j.point()), plan.options(j.variant(), j.point(),
                    j.seed()), bundles);
        }
        return keys;
    }
}

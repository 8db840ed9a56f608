package io.ringlab.experiment;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import io.ringlab.experiment.api.ExperimentListener;
import io.ringlab.experiment.api.ExperimentService;
import io.ringlab.experiment.api.dto.ExperimentDTO;
import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.Simulator;

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
    public ExperimentResultDTO run(ExperimentDTO experiment, int threads, ExperimentListener listener)
            throws PipelineException {
        Objects.requireNonNull(experiment, "experiment");
        if (threads < 0) {
            throw new IllegalArgumentException("threads=" + threads + " must be at least 0 (0: one per processor)");
        }
        Plan plan = Plan.of(experiment, simulator);
        int t = Math.min(threads == 0 ? Runtime.getRuntime().availableProcessors() : threads, plan.jobs.size());
        long start = System.nanoTime();
        ParallelRuns runs = new ParallelRuns(simulator, plan, t, listener);
        ParallelRuns.Outcome[] outcomes = runs.execute();
        return Report.build(plan, outcomes, t, (System.nanoTime() - start) / 1e9, runs.cancelled());
    }
}

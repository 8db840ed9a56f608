package io.ringlab.experiment.api.dto;

import java.util.Map;
import java.util.TreeMap;

import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;

/**
 * One run of an experiment, complete enough to be run by another Ringlab installation (a cluster worker): the pipeline
 * as the run prepares it (the variant's and sweep point's element types applied), the run's options (overrides, swaps,
 * seed, duration, warm-up, fork), and the run's key with the bundles it was computed from, so that the installation
 * that runs it can check it would compute the same key, and so give the same result
 * ({@link io.ringlab.experiment.api.ExperimentService#execute(RunTaskDTO)}).
 *
 * @since 1.4
 */
public class RunTaskDTO {
    /** The run's key (64 hex digits), as the submitter computed it. */
    public String key;
    /** The experiment's name, for messages and a worker's log. */
    public String experiment;
    /** The variant's name, for messages. */
    public String variant;
    /** The run's seed, for messages (the run's own is in {@link #options}). */
    public long seed;
    /** The pipeline the run prepares. */
    public PipelineDTO pipeline;
    /** The run's options. */
    public RunOptionsDTO options;
    /**
     * The bundles whose code can change the run's result on the submitter, symbolic name to {@code version#sha256} of
     * its content ({@link io.ringlab.experiment.api.ExperimentService#bundles()}), sorted: what the key was computed
     * with.
     */
    public Map<String, String> bundles = new TreeMap<>();
}

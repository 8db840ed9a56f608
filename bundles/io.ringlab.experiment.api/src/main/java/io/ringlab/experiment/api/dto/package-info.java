/**
 * Data of A/B experiments: the experiment and its variants as read from a file, and the result: per-run summaries,
 * per-variant metric summaries with confidence intervals, and paired comparisons against the baseline. Public-field DTOs,
 * not thread-safe; fields that may be undefined are boxed and {@code null} rather than NaN, so the JSON the command line
 * writes from them has no surprises.
 * <p>
 * Users import it up to the next major version (bnd computes the range from the version built against).
 * <p>
 * 1.2: {@code RunSummaryDTO.sampleWarnings}, a run's figures that rest on too few samples;
 * {@code ExperimentDTO.warmupValue}, {@code forkValue} and {@code pipelineValue}, where the experiment file sets the
 * warm-up and the fork and names the pipeline; {@code ExperimentDTO.MAX_SEEDS}.
 * <p>
 * 1.3: sweeps: {@code ExperimentDTO.sweeps} ({@link io.ringlab.experiment.api.dto.SweepDTO}) and
 * {@code ExperimentDTO.MAX_RUNS}; {@code RunSummaryDTO.point}, {@code key}, {@code stored} and {@code PLANNED}; {@code ScalarDTO} and
 * {@code TableDTO}, what {@code ResultsService} reads from a results database; {@code ExperimentResultDTO.parameters} and
 * {@code points} ({@link io.ringlab.experiment.api.dto.PointResultDTO}), the statistics per sweep point.
 */
@Export
@Version("1.4.0")
package io.ringlab.experiment.api.dto;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

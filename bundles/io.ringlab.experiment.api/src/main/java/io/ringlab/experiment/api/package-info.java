/**
 * A/B experiments over Ringlab pipelines: {@link io.ringlab.experiment.api.ExperimentService} reads experiment files
 * ({@code docs/experiments.md}) and runs their variants on common random numbers, and an
 * {@link io.ringlab.experiment.api.ExperimentListener} follows the runs as they end.
 * <p>
 * Import ranges (bnd computes them): users (the command line, the console) import up to the next major version; the
 * implementation, which provides the {@code @ProviderType} service, up to the next minor. The listener is {@code @ConsumerType}: adding an abstract
 * method to it is a major change.
 * <p>
 * 1.1: {@code ExperimentService.runs}, the runs an experiment expands to, checked but not run ({@code ringlab ab
 * --dry-run}); {@code ExperimentService.summarize}, the report's statistics for a group of runs; results databases: {@code ResultsService}, {@code RunStore}, {@code ResultsException}, and
 * {@code ExperimentService.run} with a store, which skips the runs it holds.
 * <p>
 * 1.3: {@code ExperimentService.compare}, the report's paired comparison for runs read back from a database.
 */
@Export
@Version("1.3.0")
package io.ringlab.experiment.api;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

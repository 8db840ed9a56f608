/**
 * Data of the simulation SPI: pipeline descriptions with source positions, element type descriptors, run options, run
 * results and snapshots. Public-field DTOs, not thread-safe unless a type says otherwise; the JSON a run writes mirrors
 * {@link io.ringlab.sim.api.dto.RunResultDTO}.
 * <p>
 * Users import it up to the next major version (bnd computes the range from the version built against).
 * <p>
 * 1.4: how many samples a figure rests on ({@code RunResultDTO.samples}, {@code measuredSeconds},
 * {@code sampleWarnings}, {@link io.ringlab.sim.api.dto.SampleWarningDTO}) and the command line's overrides of a run
 * ({@code RunResultDTO.overrides}, {@link io.ringlab.sim.api.dto.RunOverridesDTO});
 * {@link io.ringlab.sim.api.dto.MetricDescriptorDTO} and {@link io.ringlab.sim.api.dto.ElementDescriptorDTO}'s
 * {@code metricDescriptors} (each metric's unit, kind and meaning; {@code MetricDescriptorDTO.nameOf}, a
 * declaration's name checked against the kind it is registered as, and the BQL gauges' declarations
 * {@code bqlLimit}, {@code bqlInflight}, {@code bqlStackStops}, {@code bqlDriverStops}) and {@code modelPage}
 * (the type's model page);
 * {@link io.ringlab.sim.api.dto.PipelineDTO#plot} (a pipeline's key series), {@link
 * io.ringlab.sim.api.dto.SeriesDTO#points} with {@link io.ringlab.sim.api.dto.PointsDTO} (values at the virtual times
 * they were recorded, such as each ping echo's round-trip time); {@code PortDescriptorDTO.pushesInCall} (the outputs an
 * input's packets may leave by within the same call, for the check of push cycles).
 * <p>
 * 1.5: packet captures ({@code RunOptionsDTO.captures}, {@code RunOptionsDTO.captureSnaplen}, and the {@code tap}
 * element of pipeline files, {@code ElementSpecDTO.TAP}).
 * <p>
 * 1.6: the pipeline as run in the result ({@code RunResultDTO.types}, {@code properties}, {@code connections}), the
 * name {@code ethtool -S} gives a driver's counter ({@code MetricDescriptorDTO.ethtool}, {@code ethtoolSource}) and the
 * BQL gauges of the sysfs files {@code limit_min}, {@code limit_max}, {@code hold_time}
 * ({@code MetricDescriptorDTO.bqlLimitMin}, {@code bqlLimitMax}, {@code bqlHoldTimeMillis}).
 * <p>
 * 1.7: what a metric shows on the console's canvas ({@code MetricDescriptorDTO.canvas}, {@code capacity},
 * {@code level}, {@code throughput}, {@code busy}) and the drops of each element by reason ({@code
 * InvariantReportDTO.droppedByElement}, {@code RunSnapshotDTO.droppedByElement}), and each latency histogram's
 * distribution ({@code RunResultDTO.distributions}, {@code RunSnapshotDTO.distributions}).
 */
@Export
@Version("1.7.0")
package io.ringlab.sim.api.dto;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

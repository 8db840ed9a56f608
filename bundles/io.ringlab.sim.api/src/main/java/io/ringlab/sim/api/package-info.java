/**
 * The simulation SPI: elements and their factories, ports, virtual time, timers, simulated CPU cores, metrics, and run
 * control.
 * <p>
 * A pipeline is a graph of {@link io.ringlab.sim.api.Element}s created per run by {@link io.ringlab.sim.api.ElementFactory}
 * services. A run is single-threaded and deterministic: every callback of an element comes on the run's engine thread, and
 * time is virtual, counted in picoseconds in a {@code long} (a 64-byte frame lasts 6.72 ns at 100 Gbit/s).
 * <p>
 * Import ranges (bnd computes them from the version a bundle is built against): element and driver bundles import up to
 * the next major version; the engine, which implements the {@code @ProviderType} types, up to the next minor.
 * <p>
 * 1.1: {@code ElementContext.segment} (software GSO) and {@code ElementContext.GSO_HEADER_BYTES}; packets are counted in
 * wire segments.
 * <p>
 * 1.3: hot swap: {@code Handover}, {@code ElementState}, {@code SimulationRun.swap}, {@code Core.queued},
 * {@code Timer.takeOver}.
 * <p>
 * 1.4: {@code Simulator.poolKindDescription}, what an installed pool kind models; {@code SimulationRun.metricNames} and
 * {@code seriesNames}, the metrics and series a prepared run can report;
 * {@code Metrics.points}, a histogram's values kept as points at their virtual times; {@code Metrics.gauge} with the
 * samples an element's own figure rests on; {@code RunControlProtocol}, the words of {@code ringlab run --control};
 * {@code Metrics.counter}, {@code gauge} and {@code rate} by a factory's metric declaration; {@code KernelBuild}, the keys
 * of a cost profile that state the kernel build (structure sizes, {@code SMP_CACHE_BYTES}, the options that size
 * {@code MAX_HEADER}).
 */
@Export
@Version("1.4.0")
package io.ringlab.sim.api;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

/**
 * Queue contracts: Byte Queue Limits (the kernel's DQL), the state of a device TX queue, and queueing disciplines.
 * <p>
 * Import ranges (bnd computes them): users (drivers, the engine) import up to the next major version; implementations of
 * a {@code @ProviderType} type up to the next minor. {@link io.ringlab.queue.api.Qdisc}, {@link io.ringlab.queue.api.QueueLimits} and the providers are
 * {@code @ConsumerType}: third parties implement them.
 */
@Export
@Version("1.2.0")
package io.ringlab.queue.api;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

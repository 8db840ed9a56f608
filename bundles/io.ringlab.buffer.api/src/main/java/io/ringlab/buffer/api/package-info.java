/**
 * Packet buffers and the pools they come from.
 * <p>
 * A packet in Ringlab is a preallocated {@link io.ringlab.buffer.api.Buffer} taken from a {@link io.ringlab.buffer.api.BufferPool};
 * ownership moves along the pipeline's ports and the element that releases it names the reason. Pool kinds (software slab,
 * hardware buffer manager, third-party kinds) are {@link io.ringlab.buffer.api.BufferPoolProvider} services selected by
 * {@link io.ringlab.buffer.api.BufferPoolProvider#KIND}.
 * <p>
 * Import ranges (bnd computes them from the version a bundle is built against): a bundle that only uses these types or
 * implements a {@code @ConsumerType} (a driver, a pool kind) imports up to the next major version; one that implements a
 * {@code @ProviderType} here (only the engine does) up to the next minor.
 * <p>
 * 1.2: {@link io.ringlab.buffer.api.BufferPoolProvider#description()}, what a pool kind models, for
 * {@code ringlab pools}. {@code BufferPool}'s bulk allocation and free are default methods (one buffer at a time, the
 * missing ones counted through {@link io.ringlab.buffer.api.BufferPool#countAllocFailures}), and a pool names its live
 * values beside their readers ({@link io.ringlab.buffer.api.BufferPool#liveValues}, {@link io.ringlab.buffer.api.LiveValues})
 * instead of a {@code String[]} and an index. {@code Buffer} carries the TCP header's fields that the TCP models and a
 * capture need: the flag bits ({@code TCP_*}), the header length, the window field, the options ({@code TCPOPT_*}, MSS,
 * window scale, timestamps) and up to four SACK blocks. {@code PoolContext.prefetch} and {@code PoolContext.fence}: a
 * pool's software prefetches and non-blocking stores, and its locked instructions, through the cache model's fill buffers.
 */
@Export
@Version("1.2.0")
package io.ringlab.buffer.api;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

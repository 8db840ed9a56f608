/**
 * Packet buffers and the pools they come from.
 * <p>
 * A packet in Ringlab is a preallocated {@link io.ringlab.buffer.api.Buffer} taken from a {@link io.ringlab.buffer.api.BufferPool};
 * ownership moves along the pipeline's ports and the element that releases it names the reason. Pool kinds (software slab,
 * hardware buffer manager, third-party kinds) are {@link io.ringlab.buffer.api.BufferPoolProvider} services selected by
 * {@link io.ringlab.buffer.api.BufferPoolProvider#KIND}.
 * <p>
 * Import ranges: a bundle that only uses these types (a driver that allocates from a pool) imports {@code [1.0,2.0)}; a bundle
 * that implements a {@code @ProviderType} here (only the engine does) imports {@code [1.0,1.1)}.
 * <p>
 * 1.2: {@link io.ringlab.buffer.api.BufferPoolProvider#description()}, what a pool kind models, for
 * {@code ringlab pools}.
 */
@Export
@Version("1.2.0")
package io.ringlab.buffer.api;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

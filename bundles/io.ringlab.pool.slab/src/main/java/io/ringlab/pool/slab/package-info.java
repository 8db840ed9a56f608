/**
 * Pool kind {@code "slab"}: a model of the SLUB allocator's {@code kmem_cache} with its single and bulk API. Internal to
 * its bundle; drivers ask the run for a pool of this kind.
 */
package io.ringlab.pool.slab;

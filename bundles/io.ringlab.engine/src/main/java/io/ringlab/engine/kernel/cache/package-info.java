/**
 * The CPU cache model: set-associative levels with LRU replacement ({@code CacheLevel}) and the hierarchy of a cost
 * profile's cores ({@code CacheModel}) that turns the memory touches of elements and DMA writes into stall cycles. It
 * knows addresses and sizes only, nothing of the simulation around it (docs/engine.md, "Caches").
 */
package io.ringlab.engine.kernel.cache;

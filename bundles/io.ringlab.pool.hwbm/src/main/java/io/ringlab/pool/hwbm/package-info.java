/**
 * Pool kind {@code "hwbm"}: a hardware buffer manager behind the kernel's hwbm API. Internal to its bundle; drivers ask
 * the run for a pool of this kind and use it through {@link io.ringlab.buffer.api.HardwareBufferPool}.
 * Also the page-level kinds of software refill: {@code "pagefrag"} (netdev_alloc_frag) and {@code "pagepool"} (the
 * kernel's page_pool of v6.12).
 */
package io.ringlab.pool.hwbm;

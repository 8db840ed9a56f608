/**
 * Pool kind {@code "hwbm"}: a hardware buffer manager behind the kernel's hwbm API. Internal to its bundle; drivers ask
 * the run for a pool of this kind and use it through {@link io.ringlab.buffer.api.HardwareBufferPool}.
 */
package io.ringlab.pool.hwbm;

/**
 * The NIC-driver SPI: what a driver model implements (descriptor rings, interrupt handlers, a NAPI poll with a budget) and
 * what it obtains from Ringlab (NAPI contexts from {@link io.ringlab.driver.api.DriverSupport}; buffer pools and TX queues
 * by kind through {@code ElementContext}). A driver is an {@code Element} whose factory is an {@code ElementFactory}.
 * <p>
 * Import ranges (bnd computes them from the version a bundle is built against): drivers import up to the next major
 * version; the engine, which implements {@link io.ringlab.driver.api.Napi}, {@link io.ringlab.driver.api.QdiscRun} and
 * {@link io.ringlab.driver.api.DriverSupport}, up to the next minor.
 * <p>
 * 1.2: {@code DriverSupport.receiveRing}. 1.3: hot swap: {@code DriverState}, {@code Napi.takeOver}. 1.4: the transmit
 * loop once: {@code QdiscRun}, {@code StartXmit}, {@code DriverSupport.qdiscRun} and {@code DEV_TX_WEIGHT},
 * {@code TxSegments.requeue}, {@code DriverState.QDISC_RUN}; {@code DriverSupport.bqlMetrics}, a TX queue's BQL gauges
 * registered once for every driver.
 */
@Export
@Version("1.5.0")
package io.ringlab.driver.api;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

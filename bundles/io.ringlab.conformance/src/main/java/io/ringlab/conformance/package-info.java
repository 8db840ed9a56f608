/**
 * The conformance kit: abstract JUnit 5 test classes that an implementation of Ringlab's SPIs extends, supplying its
 * factory or provider, to check the contract every element, pool and qdisc must keep (docs/conformance.md):
 * {@link io.ringlab.conformance.DriverContract} for NIC-driver element factories,
 * {@link io.ringlab.conformance.PoolContract} for pool kinds ({@code BufferPoolProvider}) and
 * {@link io.ringlab.conformance.QdiscContract} for qdisc kinds ({@code QdiscProvider}) and their elements;
 * {@link io.ringlab.conformance.MetricDeclarations}, the contracts' check of declared against reported metrics, for a
 * test of several types. The contracts run real pipelines with the engine's {@code Standalone}, on the test's class
 * path, without a framework.
 * <p>
 * {@link io.ringlab.conformance.Prerequisites} skips a test whose prerequisite is missing, except in CI, where it fails.
 * <p>
 * A test bundle imports it up to the next major version (bnd computes the range). A minor version may add checks, so an
 * implementation that passed may fail a newer kit; a check's hooks and defaults change only with a major version.
 */
@Export
@Version("1.1.0")
package io.ringlab.conformance;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

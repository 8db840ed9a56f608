/**
 * Runs pipelines outside an OSGi framework, for tests on a plain class path (JUnit under Maven surefire):
 * {@link io.ringlab.engine.standalone.Standalone} is a {@code Simulator} built from the element factories, pool kinds,
 * providers and cost profiles of the bundles on the class path, plus those a test registers by hand. Inside a framework,
 * use the engine's {@code Simulator} service instead.
 * <p>
 * Users import it up to the next major version (bnd computes the range); only the engine implements this package.
 */
@Export
@Version("1.0.0")
package io.ringlab.engine.standalone;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

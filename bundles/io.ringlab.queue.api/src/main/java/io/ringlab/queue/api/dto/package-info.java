/**
 * Snapshots of queue state. Public-field DTOs, not thread-safe.
 * <p>
 * Users import it up to the next major version (bnd computes the range from the version built against).
 */
@Export
@Version("1.1.0")
package io.ringlab.queue.api.dto;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

/**
 * Snapshots of buffer-pool state. Public-field DTOs, not thread-safe; a snapshot is a copy and never changes after it is made.
 * <p>
 * Users import it up to the next major version (bnd computes the range from the version built against).
 */
@Export
@Version("1.2.0")
package io.ringlab.buffer.api.dto;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

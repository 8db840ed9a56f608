/**
 * Snapshots of queue state. Public-field DTOs, not thread-safe.
 * <p>
 * Import range for users: {@code [1.0,2.0)}.
 */
@Export
@Version("1.0.0")
package io.ringlab.queue.api.dto;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

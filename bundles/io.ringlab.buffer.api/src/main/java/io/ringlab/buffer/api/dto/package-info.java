/**
 * Snapshots of buffer-pool state. Public-field DTOs, not thread-safe; a snapshot is a copy and never changes after it is made.
 * <p>
 * Import range for users: {@code [1.0,2.0)}.
 */
@Export
@Version("1.2.0")
package io.ringlab.buffer.api.dto;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;

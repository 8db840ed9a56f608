package io.ringlab.console;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import io.ringlab.sim.api.dto.RunSnapshotDTO;

/**
 * The latest snapshot of a separate-process run's child ({@link IsolatedRun}), read from the file it keeps
 * ({@code ringlab run --snapshots FILE}, rewritten atomically every 250 ms): {@link #poll} reads the file when it changed
 * (the runner thread calls it every {@value IsolatedRun#READ_MILLIS} ms), {@link #latest} gives what it held when last
 * read, from any thread. A file not written yet, or moved over while read, is read at the next poll.
 */
final class SnapshotPoller {
    /** The file's modification time when last read; the polling thread's only. */
    private long lastModified = -1;
    /** The child's latest snapshot as read, or {@code null} before the first; published to every thread. */
    private volatile RunSnapshotDTO latest;

    /**
     * Reads the file if it changed since the last read. One thread polls.
     *
     * @param file the snapshot file the child writes
     */
    void poll(Path file) {
        try {
            long m = Files.getLastModifiedTime(file).toMillis();
            if (m == lastModified) {
                return;
            }
            latest = ResultFiles.readSnapshot(Files.readString(file, StandardCharsets.UTF_8));
            lastModified = m;
        } catch (IOException | RuntimeException e) {
            // not written yet, or moved over while read: the next read gets it
        }
    }

    /** @return the child's snapshot when last read, or {@code null} before the first */
    RunSnapshotDTO latest() {
        return latest;
    }

    /** @return the child's simulated time when last read, 0 before the first snapshot */
    double simulatedSeconds() {
        RunSnapshotDTO s = latest;
        return s == null ? 0 : s.simulatedSeconds;
    }
}

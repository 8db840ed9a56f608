package io.ringlab.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link SnapshotPoller}: the child's snapshot file read when it changed, and kept through files not readable yet. */
class SnapshotPollerTest {
    @TempDir
    Path tmp;

    private static void write(Path file, String json, long modifiedMillis) throws IOException {
        Files.writeString(file, json);
        Files.setLastModifiedTime(file, FileTime.fromMillis(modifiedMillis));
    }

    @Test
    void shouldReadTheFileWhenItChangedAndKeepTheLastGoodSnapshotOtherwise() throws IOException {
        SnapshotPoller p = new SnapshotPoller();
        Path file = tmp.resolve("snapshot.json");

        p.poll(file);
        assertNull(p.latest(), "not written yet");
        assertEquals(0, p.simulatedSeconds());

        write(file, "{\"simulatedSeconds\":1.5,\"events\":10}", 1_000_000);
        p.poll(file);
        assertEquals(1.5, p.latest().simulatedSeconds);
        assertEquals(1.5, p.simulatedSeconds());

        write(file, "{\"simulatedSeconds\":9.0}", 1_000_000); // the same modification time: not read again
        p.poll(file);
        assertEquals(1.5, p.latest().simulatedSeconds);

        write(file, "{\"simulatedSeconds\":", 2_000_000); // half a file: the last good snapshot stays
        p.poll(file);
        assertEquals(1.5, p.latest().simulatedSeconds);

        write(file, "{\"simulatedSeconds\":2.0}", 2_000_000); // complete now, at the time of the bad read: read
        p.poll(file);
        assertEquals(2.0, p.latest().simulatedSeconds);
    }
}

package io.ringlab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringlab.experiment.api.ResultsException;
import io.ringlab.experiment.api.RunStore;

/**
 * DuckDB's lock on a file written by another process ({@link LockHolder}, a second JVM): {@code openForWriting} waits as
 * long as it is told, then names the process; once the process is gone the file opens.
 */
class LockTest {
    @TempDir
    Path dir;

    @Test
    void aFileHeldByAnotherProcessIsRefusedWithItsPidUntilItEnds() throws Exception {
        ResultsComponent results = new ResultsComponent();
        results.simulator = new FakeSimulator(Fixtures.TYPES);
        Path db = dir.resolve("held.duckdb");
        results.openForWriting(db, Duration.ZERO).close(); // a results database; DuckDB is loaded in this JVM now

        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process holder = new ProcessBuilder(List.of(java.toString(), "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), LockHolder.class.getName(), db.toString()))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
            assertEquals(LockHolder.LOCKED, out.readLine(), "the second process holds the lock");

            long start = System.nanoTime();
            ResultsException x = assertThrows(ResultsException.class,
                    () -> results.openForWriting(db, Duration.ofMillis(300)));
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(x.getMessage().startsWith(db + ": held by another process (PID " + holder.pid() + ", "),
                    x.getMessage());
            assertTrue(x.getMessage().endsWith("ringlab ab writes one database at a time): wait for it to end, or give"
                    + " another file with --db"), x.getMessage());
            assertTrue(millis >= 200 && millis < 2500, "waited " + millis + " ms for a wait of 300 ms");

            ResultsException r = assertThrows(ResultsException.class, () -> results.experiments(db));
            assertTrue(r.getMessage().startsWith(db + ": held by another process (PID " + holder.pid() + ", "),
                    r.getMessage());
        } finally {
            holder.destroy();
            holder.waitFor();
        }
        try (RunStore store = results.openForWriting(db, Duration.ofSeconds(10))) {
            assertNotNull(store);
        }
    }
}

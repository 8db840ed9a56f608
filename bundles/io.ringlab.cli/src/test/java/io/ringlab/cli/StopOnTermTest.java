package io.ringlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringlab.pipeline.format.OutputFile;

/** {@link StopOnTerm}'s shutdown hook: it stops the work, waits for the outputs, and says what it could not wait for. */
class StopOnTermTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream errBuf = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(errBuf, true, StandardCharsets.UTF_8);

    @Test
    void outputsWrittenInTimeEndTheWaitSilently() {
        StopOnTerm s = new StopOnTerm(err, TimeUnit.MINUTES.toMillis(10));
        s.pending("--json", "out.json");
        AtomicInteger stops = new AtomicInteger();

        s.written(); // the command wrote everything: a hook that runs now does not wait
        s.onSignal(stops::incrementAndGet);

        assertEquals(1, stops.get(), "the work was told to stop");
        assertEquals("", errBuf.toString(StandardCharsets.UTF_8));
    }

    @Test
    void anOutputNotWrittenWithinTheCapIsNamedAndItsTemporaryFileRemoved() throws Exception {
        Path json = dir.resolve("big.json");
        StopOnTerm s = new StopOnTerm(err, 200);
        s.pending("--json", json.toString());
        s.pending("--plot", null); // not asked for: not named
        CountDownLatch writing = new CountDownLatch(1), release = new CountDownLatch(1);
        CompletableFuture<Void> write = CompletableFuture.runAsync(() -> {
            try {
                OutputFile.write(json, out -> {
                    out.write("{\"rows\": [".getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    writing.countDown();
                    try {
                        release.await(); // a write that takes longer than the cap
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        assertTrue(writing.await(60, TimeUnit.SECONDS));
        assertEquals(1, partials().size(), "the write is under way");

        s.onSignal(() -> { });

        String said = errBuf.toString(StandardCharsets.UTF_8);
        assertTrue(said.startsWith("ringlab: stopped by a signal; the outputs were not all written within 0.2 s, and the"
                + " process ends without --json " + json), said);
        assertFalse(said.contains("--plot"), said);
        assertEquals(List.of(), partials(), "no .partial left");
        release.countDown();
        assertThrows(ExecutionException.class, () -> write.get(60, TimeUnit.SECONDS), "the abandoned write fails");
        assertFalse(Files.exists(json), "no half file");
    }

    @Test
    void anOutputDoneIsNotNamed() {
        StopOnTerm s = new StopOnTerm(err, 1);
        s.pending("--json", "a.json");
        s.pending("--plot", "a.png");
        s.done("--json");

        s.onSignal(() -> { });

        String said = errBuf.toString(StandardCharsets.UTF_8);
        assertTrue(said.contains("ends without --plot a.png"), said);
        assertFalse(said.contains("a.json"), said);
    }

    private List<Path> partials() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".partial")).toList();
        }
    }
}

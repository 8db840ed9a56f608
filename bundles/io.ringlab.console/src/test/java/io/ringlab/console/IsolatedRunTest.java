package io.ringlab.console;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * {@link IsolatedRun}: a run whose bundles cannot be given to a child fails before one starts. The child's command line
 * is {@link ChildCommandTest}'s, its jars {@link ChildBundlesTest}'s, its control channel {@link ChildControlTest}'s.
 */
class IsolatedRunTest {
    @TempDir
    Path tmp;

    private static IsolatedRun run(Path home, List<ThirdPartyBundle> bundles, String watchdogMillis) {
        PipelineDTO p = new PipelineDTO();
        p.name = "p";
        return new IsolatedRun(home, p, new RunOptionsDTO(), bundles, watchdogMillis);
    }

    private static ThirdPartyBundle bundle(String location) {
        return new ThirdPartyBundle("org.example.x", "1.0.0", location);
    }

    @Test
    void aRunWhoseBundleCannotBeGivenFailsBeforeAChildStarts() {
        RunResultDTO r = run(tmp.resolve("home"), List.of(bundle("https://example.org/x.jar")), null).run();

        assertEquals("FAILED", r.state);
        assertTrue(r.error.startsWith("bundle org.example.x 1.0.0 cannot be given to a separate process: its location"
                + " https://example.org/x.jar is not a file") && r.error.endsWith("Clear 'Separate process' to run the"
                + " pipeline in the console's own process."), r.error);
    }

    @Test
    void aRunStoppedBeforeItStartsEndsStoppedAndASwapThenSaysTheRunHasNotStarted() {
        IsolatedRun r = run(tmp.resolve("home"), List.of(), null);

        var swap = r.swap("q", "fq_codel", null).toCompletableFuture().join();
        r.stop();

        assertEquals("the run has not started in its process yet", swap.message);
        assertEquals("STOPPED", r.completion().toCompletableFuture().join().state);
        assertEquals("stopped before it started", r.run().error);
    }
}

package io.ringlab.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringlab.sim.api.dto.SwapDTO;

/**
 * {@link ChildControl}: commands to the child's standard input, swap replies read from its output and matched to their
 * ids, the rest of the output logged, and the swaps the child never answers.
 */
class ChildControlTest {
    @TempDir
    Path tmp;

    private static CompletableFuture<SwapDTO> future(java.util.concurrent.CompletionStage<SwapDTO> s) {
        return s.toCompletableFuture();
    }

    @Test
    void beforeTheChildStartsNothingIsSentAndASwapSaysSo() {
        ChildControl c = new ChildControl(() -> 2.5);

        assertFalse(c.send("pause"));
        SwapDTO d = future(c.swap("q", null, null)).join();

        assertEquals("q", d.element);
        assertEquals("the run has not started in its process yet", d.message);
        assertEquals(2.5, d.atSimulatedSeconds, "where the child was last seen");
        assertFalse(d.applied);
    }

    @Test
    void commandsGoToTheChildOnePerLineWithASwapsTypeVersionAndId() {
        ChildControl c = new ChildControl(() -> 0);
        ByteArrayOutputStream stdin = new ByteArrayOutputStream();
        c.attach(stdin);

        assertTrue(c.send("pause"));
        c.swap("q", "fq_codel", "0.2.0");
        c.swap("eth0", null, null);

        assertEquals("pause\nswap q fq_codel@0.2.0 #1\nswap eth0 #2\n", stdin.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aReplyCompletesTheSwapOfItsIdAndEveryOtherLineGoesToTheLog() throws Exception {
        ChildControl c = new ChildControl(() -> 0);
        c.attach(new ByteArrayOutputStream());
        CompletableFuture<SwapDTO> first = future(c.swap("q", "fq_codel", null));
        CompletableFuture<SwapDTO> second = future(c.swap("eth0", null, null));
        String output = "progress: started p\n"
                + "element output without a newline ringlab-control swap #2 {\"element\":\"eth0\",\"applied\":true,"
                + "\"atSimulatedSeconds\":1.25}\n"
                + "ringlab-control swap #7 {\"element\":\"x\"}\n"
                + "done\n";
        Path log = tmp.resolve("output.txt");

        c.readOutput(new ByteArrayInputStream(output.getBytes(StandardCharsets.UTF_8)), log).join(5000);

        SwapDTO d = second.getNow(null);
        assertEquals("eth0", d.element);
        assertTrue(d.applied);
        assertEquals(1.25, d.atSimulatedSeconds);
        assertFalse(first.isDone(), "#1 has no reply yet");
        assertEquals(List.of("progress: started p", "ringlab-control swap #7 {\"element\":\"x\"}", "done"),
                Files.readAllLines(log), "a reply to no swap asked for is output like any other");
    }

    @Test
    void aReplyCutShortAndASwapTheChildNeverAnswersEndAsNotApplied() throws IOException {
        ChildControl c = new ChildControl(() -> 3.0);
        c.attach(new ByteArrayOutputStream());
        CompletableFuture<SwapDTO> cut = future(c.swap("q", null, null));
        CompletableFuture<SwapDTO> waiting = future(c.swap("eth0", null, null));

        assertTrue(c.answer("#1 {\"element\":"));
        c.childEnded();

        assertTrue(cut.join().message.startsWith("the separate process's answer could not be read: "), cut.join().message);
        assertEquals("the run in the separate process ended first", waiting.join().message);
        assertEquals(3.0, waiting.join().atSimulatedSeconds);
        assertFalse(c.send("resume"), "an ended child takes no command");
        assertEquals("the run in the separate process has ended", future(c.swap("q", null, null)).join().message);
    }
}

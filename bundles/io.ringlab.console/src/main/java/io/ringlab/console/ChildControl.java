package io.ringlab.console;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleSupplier;

import io.ringlab.sim.api.RunControlProtocol;
import io.ringlab.sim.api.dto.SwapDTO;

/**
 * The control channel of a separate-process run's child ({@link IsolatedRun}, {@code ringlab run --control}): commands
 * (pause, resume, step, swap) go to its standard input one per line; its output is read on a thread of its own, a swap's
 * outcome line ({@link RunControlProtocol#SWAP_REPLY} {@code #ID {json}}) completing the swap of that id and every other
 * line going to the log. When the child ends, every swap still waiting is answered as not applied. Thread-safe.
 */
final class ChildControl {
    /** Swaps asked for and not yet answered, by the id the child echoes ({@code swap ... #ID}). */
    private final Map<String, PendingSwap> pendingSwaps = new ConcurrentHashMap<>();
    /** Where the answers that never come say they stand: the child's simulated time as last seen. */
    private final DoubleSupplier simulatedSeconds;
    private final Object lock = new Object();
    /** The child's standard input; guarded by {@link #lock}. */
    private Writer control;
    /** Numbers the swaps asked for; guarded by {@link #lock}. */
    private int swapIds;
    /** The child has ended: no command reaches it any more; guarded by {@link #lock}. */
    private boolean childEnded;

    /** A swap sent to the child: its element, for an answer that never comes, and the caller's future. */
    private record PendingSwap(String element, CompletableFuture<SwapDTO> future) {
    }

    /** @param simulatedSeconds the child's simulated time as last seen, for a swap that is not answered */
    ChildControl(DoubleSupplier simulatedSeconds) {
        this.simulatedSeconds = simulatedSeconds;
    }

    /**
     * The child has started: commands go to its standard input from now on.
     *
     * @param stdin the child's standard input
     */
    void attach(OutputStream stdin) {
        synchronized (lock) {
            control = new OutputStreamWriter(stdin, StandardCharsets.UTF_8);
        }
    }

    /**
     * Sends the child one control line; a child that is gone or not yet started ignores it.
     *
     * @param command a {@link RunControlProtocol} command line, without the newline
     * @return whether the child got it
     */
    boolean send(String command) {
        synchronized (lock) {
            if (control == null || childEnded) {
                return false;
            }
            try {
                control.write(command + "\n");
                control.flush();
                return true;
            } catch (IOException e) {
                return false; // the child has ended: its result says how
            }
        }
    }

    /**
     * Asks the child for a swap ({@code swap ELEMENT [TYPE[@VERSION]] #ID}).
     *
     * @param element the element to swap
     * @param type the type to swap to, or {@code null} for the element's own
     * @param version the version, or {@code null} for any
     * @return the swap's outcome as the child answers it, or a not applied one when it cannot be asked or never answers
     */
    CompletionStage<SwapDTO> swap(String element, String type, String version) {
        CompletableFuture<SwapDTO> f = new CompletableFuture<>();
        synchronized (lock) {
            String id = RunControlProtocol.ID_PREFIX + ++swapIds;
            pendingSwaps.put(id, new PendingSwap(element, f));
            if (!send(RunControlProtocol.SWAP + " " + element + (type == null ? "" : " " + type
                    + (version == null ? "" : RunControlProtocol.VERSION_SEPARATOR + version)) + " " + id)) {
                pendingSwaps.remove(id);
                f.complete(notAnswered(element, control == null ? "the run has not started in its process yet"
                        : "the run in the separate process has ended"));
            }
        }
        return f.minimalCompletionStage();
    }

    /**
     * Reads the child's output on a daemon thread of its own until it ends: every line goes to {@code log} (for a
     * failure's message), except a swap's outcome, which completes the swap of its id.
     *
     * @param output the child's standard output (and error)
     * @param log the file to write the rest to
     * @return the started thread
     */
    Thread readOutput(InputStream output, Path log) {
        Thread t = new Thread(() -> {
            try (var in = new BufferedReader(new InputStreamReader(output, StandardCharsets.UTF_8));
                    var out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
                for (String line; (line = in.readLine()) != null;) {
                    // anywhere in the line: an element's output without a newline may come before it
                    int reply = line.indexOf(RunControlProtocol.SWAP_REPLY);
                    if (reply < 0 || !answer(line.substring(reply + RunControlProtocol.SWAP_REPLY.length()))) {
                        log(out, line);
                    }
                }
            } catch (IOException e) {
                // the child is gone; what it printed so far is in the log
            }
        }, "ringlab-isolated-output");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /**
     * Completes the swap a reply is for ({@code #ID {json}}).
     *
     * @return whether the text was such a reply
     */
    boolean answer(String reply) {
        int space = reply.indexOf(' ');
        PendingSwap p = reply.startsWith(RunControlProtocol.ID_PREFIX) && space > 0
                ? pendingSwaps.remove(reply.substring(0, space)) : null;
        if (p == null) {
            return false;
        }
        try {
            p.future().complete(ResultFiles.readSwap(reply.substring(space + 1)));
        } catch (RuntimeException e) { // a reply cut short: the swap's outcome is unknown here, the result will say
            p.future().complete(notAnswered(p.element(), "the separate process's answer could not be read: " + e));
        }
        return true;
    }

    /** Writes a line of the child's output to the log; a log that cannot be written loses the line, not the child. */
    private static void log(Writer out, String line) {
        try {
            out.write(line);
            out.write('\n');
            out.flush();
        } catch (IOException e) {
            // the temporary folder is gone: the output is read on, so that the child never blocks on a full pipe
        }
    }

    /** The child has ended: no command reaches it, and every swap still waiting for it is answered as not applied. */
    void childEnded() {
        synchronized (lock) {
            childEnded = true;
        }
        for (String id : List.copyOf(pendingSwaps.keySet())) {
            PendingSwap p = pendingSwaps.remove(id);
            if (p != null) {
                p.future().complete(notAnswered(p.element(), "the run in the separate process ended first"));
            }
        }
    }

    private SwapDTO notAnswered(String element, String why) {
        SwapDTO d = new SwapDTO();
        d.element = element;
        d.message = why;
        d.atSimulatedSeconds = simulatedSeconds.getAsDouble();
        return d;
    }
}

package io.ringlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.junit.jupiter.api.Test;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import io.ringlab.sim.api.RunState;
import io.ringlab.sim.api.SimulationRun;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.RunSnapshotDTO;
import io.ringlab.sim.api.dto.SwapDTO;

/** {@code ringlab run --control}: each command line reaches the run; a swap's outcome comes back as a line of JSON. */
class RunControlTest {
    /** What the commands asked of the run, in order. */
    private final List<String> calls = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private final SimulationRun run = new SimulationRun() {
        @Override
        public RunState state() {
            return RunState.RUNNING;
        }

        @Override
        public void start() {
        }

        @Override
        public RunResultDTO run() {
            return null;
        }

        @Override
        public void pause() {
            calls.add("pause");
        }

        @Override
        public void resume() {
            calls.add("resume");
        }

        @Override
        public void step() {
            calls.add("step");
        }

        @Override
        public void stop() {
            calls.add("stop");
        }

        @Override
        public CompletionStage<RunResultDTO> completion() {
            return new CompletableFuture<>();
        }

        @Override
        public void close() {
        }

        @Override
        public RunResultDTO await(long timeout, java.util.concurrent.TimeUnit unit) {
            return null;
        }

        @Override
        public RunSnapshotDTO snapshot() {
            return new RunSnapshotDTO();
        }

        @Override
        public void abort(String reason) {
        }

        @Override
        public java.util.Map<String, java.util.Set<String>> metricNames() {
            return java.util.Map.of();
        }

        @Override
        public java.util.List<String> seriesNames() {
            return java.util.List.of();
        }

        @Override
        public CompletionStage<SwapDTO> swap(String element, String type, String version) {
            calls.add("swap " + element + " " + type + " " + version);
            SwapDTO d = new SwapDTO();
            d.element = element;
            d.applied = true;
            d.to = type + "@" + version;
            return CompletableFuture.completedFuture(d);
        }
    };

    /** Feeds the lines to a control of the run and waits until it has read them all (the end of its input). */
    private void commands(String text) throws Exception {
        RunControl c = (RunControl) RunControl.from(new java.io.ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8))
                .watch(run, null);
        c.join();
    }

    @Test
    void eachCommandReachesTheRunInOrder() throws Exception {
        commands("pause\nstep\n\nresume\nstop\n");

        assertEquals(List.of("pause", "step", "resume", "stop", "stop"), calls, "the end of the input stops the run too");
        assertEquals("ringlab: --control: standard input ended; the run stops", err.toString(StandardCharsets.UTF_8)
                .strip());
    }

    @Test
    void aSwapTakesAnElementAndOptionallyATypeAndVersionAndRepliesWithItsOutcome() throws Exception {
        commands("swap eth0\nswap eth0 stmmac@0.2.0 #7\n");

        assertEquals(List.of("swap eth0 null null", "swap eth0 stmmac 0.2.0", "stop"), calls);
        List<String> replies = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(2, replies.size(), replies.toString());
        assertTrue(replies.get(0).startsWith(io.ringlab.sim.api.RunControlProtocol.SWAP_REPLY + "{"), "no id asked, none given: " + replies.get(0));
        String withId = io.ringlab.sim.api.RunControlProtocol.SWAP_REPLY + "#7 ";
        assertTrue(replies.get(1).startsWith(withId), replies.get(1));
        JsonObject d = JsonParser.parseString(replies.get(1).substring(withId.length())).getAsJsonObject();
        assertEquals("eth0", d.get("element").getAsString());
        assertTrue(d.get("applied").getAsBoolean());
        assertEquals("stmmac@0.2.0", d.get("to").getAsString());
    }

    @Test
    void aControlClosedWithItsRunLeavesTheEndOfTheInputAlone() throws Exception {
        java.io.PipedOutputStream writer = new java.io.PipedOutputStream();
        RunControl c = (RunControl) RunControl.from(new java.io.PipedInputStream(writer),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8))
                .watch(run, null);
        c.close(); // the run ended: the command closes its control
        writer.close(); // then the input ends
        c.join();

        assertEquals(List.of(), calls, "nothing to stop any more");
    }

    @Test
    void anUnknownCommandIsAnsweredWithWhatIsAllowedAndTheRestGoesOn() throws Exception {
        commands("jump 3\nswap\npause\n");

        assertEquals(List.of("pause", "stop"), calls);
        String e = err.toString(StandardCharsets.UTF_8);
        assertTrue(e.contains("--control: 'jump 3' is not a command; allowed: pause, resume, step, stop, swap ELEMENT"
                + " [TYPE[@VERSION]] [#ID]"), e);
        assertTrue(e.contains("'swap' is not a command"), e);
    }
}

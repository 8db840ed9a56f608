package com.example.ixgbe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringlab.conformance.Prerequisites;

/**
 * Drop-in: this driver's jar copied into the plugins folder of a Ringlab that is already running, then removed. The
 * running Ringlab is the Gogo shell ({@code app/target/shell.jar}, what {@code ringlab shell} starts) or a headless
 * {@code ringlab.jar run}, each with a plugins folder of its own that Felix fileinstall watches every 100 ms. Nothing is
 * passed with {@code --plugins} here: the jar arrives the way a user copies it. Skipped when the Ringlab checkout has no
 * built jars.
 */
class IxgbeDropInTest {
    /** How long any one step may take: a JVM start, a poll of the folder, a run of the sample pipeline. */
    static final long BOUND_SECONDS = 120;

    @TempDir
    Path plugins;

    private final List<Process> processes = new ArrayList<>();
    private Path jar;

    @BeforeEach
    void driverJar() {
        jar = Path.of(System.getProperty("plugin.jar"));
    }

    @AfterEach
    void stop() {
        processes.forEach(Process::destroyForcibly);
    }

    /** Starts {@code java [options] -jar app/target/NAME ARGS} with {@link #plugins} watched, in this project's folder. */
    private Process ringlab(String name, String... args) throws IOException {
        Path app = Path.of(System.getProperty("ringlab.home", "../..")).resolve("app/target").resolve(name);
        Prerequisites.require(Files.isRegularFile(app), "no " + app + ": build Ringlab first (./mvnw install)");
        List<String> cmd = IxgbeRunTest.java(plugins, app, "-Dfelix.fileinstall.poll=100");
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        processes.add(p);
        return p;
    }

    @Test
    void aJarCopiedIntoThePluginsFolderOfARunningShellIsListedRunSwappedAndGoesAwayWithTheJar() throws Exception {
        Shell shell = new Shell(ringlab("shell.jar"));
        assertFalse(shell.command("ringlab:elements").contains("ixgbe"), "no ixgbe before the jar is there");

        Path dropped = Files.copy(jar, plugins.resolve(jar.getFileName()));
        String listed = shell.repeatUntil("ringlab:elements", o -> o.contains("[com.example.ixgbe 1.0.0]"));
        assertTrue(listed.contains("bulkFree"), listed);

        String run = shell.command("ringlab:run ixgbe.pipeline --swap 7ms:eth0");
        System.out.println(run);
        assertTrue(run.contains("pipeline ixgbe (ixgbe.pipeline), seed 1, profile generic-x86-4ghz: FINISHED"), run);
        assertTrue(run.contains("swap at 7ms: eth0 ixgbe@1.0.0 -> ixgbe@1.0.0: handover"), run);
        // both invariants hold, and the command's exit code (Gogo prints what a command returns) is 0
        assertTrue(run.matches("(?s).*\npackets: generated [^\n]*: ok\nbuffers: [^\n]*: ok\n0\n"), run);

        Files.delete(dropped);
        String after = shell.repeatUntil("ringlab:elements", o -> !o.contains("ixgbe"));
        assertFalse(after.contains("ixgbe"), after);
        assertTrue(shell.command("ringlab:run ixgbe.pipeline").contains("unknown element type 'ixgbe'"),
                "a pipeline of the removed type is refused");
    }

    @Test
    void removingTheJarDuringARunEndsTheRunWithItsResults() throws Exception {
        Files.copy(jar, plugins.resolve(jar.getFileName()));
        // a minute of simulated time: far longer than the test takes to remove the jar
        Process p = ringlab("ringlab.jar", "run", "ixgbe.pipeline", "--duration", "60s", "--progress");
        Lines out = new Lines(p);
        out.await(l -> l.startsWith("progress: started ixgbe"), "the run started");

        Files.delete(plugins.resolve(jar.getFileName()));

        assertTrue(p.waitFor(BOUND_SECONDS, TimeUnit.SECONDS), "the run ended after its driver's jar was removed");
        String all = out.rest();
        System.out.println(all);
        assertEquals(1, p.exitValue(), "a failed run: " + all);
        assertTrue(all.contains("profile generic-x86-4ghz: FAILED"), all);
        assertTrue(all.contains("error: bundle com.example.ixgbe 1.0.0 was ") && all.contains("while the run used its"
                + " element type ixgbe; the run ends"), all);
        assertTrue(all.contains("eth0 ") && all.contains("txPackets="), "the results so far: " + all);
        assertTrue(all.contains("packets: generated"), "the invariants were checked: " + all);
    }

    /** The lines a process prints, read on a thread of their own. */
    static final class Lines {
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private final StringBuilder seen = new StringBuilder();

        Lines(Process p) {
            Thread t = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    for (String l; (l = r.readLine()) != null;) {
                        lines.add(l);
                    }
                } catch (IOException e) {
                    lines.add("(reading the output failed: " + e + ")");
                }
            }, "output");
            t.setDaemon(true);
            t.start();
        }

        /** Reads lines until one matches; fails after {@link #BOUND_SECONDS}. */
        String await(java.util.function.Predicate<String> match, String what) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
            while (System.nanoTime() < deadline) {
                String l = lines.poll(100, TimeUnit.MILLISECONDS);
                if (l != null) {
                    seen.append(l).append('\n');
                    if (match.test(l)) {
                        return l;
                    }
                }
            }
            return fail(what + ": not seen in " + BOUND_SECONDS + " s; output:\n" + seen);
        }

        /** @return what came after the last line read, once the process has ended */
        String rest() throws InterruptedException {
            StringBuilder s = new StringBuilder();
            for (String l; (l = lines.poll(1, TimeUnit.SECONDS)) != null;) {
                s.append(l).append('\n');
            }
            return s.toString();
        }
    }

    /**
     * The Gogo shell on standard input and output: each command is followed by {@code echo @@N@@}, whose output ends
     * the command's.
     */
    static final class Shell {
        private final Writer in;
        private final Lines out;
        private int commands;

        Shell(Process p) {
            in = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8);
            out = new Lines(p);
        }

        /** @return what the command printed, without the shell's prompts */
        String command(String command) throws IOException, InterruptedException {
            String marker = "@@" + ++commands + "@@";
            in.write(command + "\necho " + marker + "\n");
            in.flush();
            StringBuilder text = new StringBuilder();
            out.await(l -> {
                boolean end = l.endsWith(marker);
                if (!end) {
                    text.append(l.startsWith("g! ") ? l.substring(3) : l).append('\n');
                }
                return end;
            }, "the end of '" + command + "'");
            return text.toString();
        }

        /**
         * Repeats a command until its output is {@code done}, as a user would after copying a jar: fileinstall installs
         * it on its next poll.
         */
        String repeatUntil(String command, java.util.function.Predicate<String> done)
                throws IOException, InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
            String now = command(command);
            while (!done.test(now)) {
                if (System.nanoTime() > deadline) {
                    fail("'" + command + "' did not change in " + BOUND_SECONDS + " s:\n" + now);
                }
                Thread.sleep(100);
                now = command(command);
            }
            return now;
        }
    }
}

package io.ringlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code ringlab} root command: {@link Commands}. */
class CommandsTest {
    @TempDir
    Path dir;

    @Test
    void noSubcommandPrintsUsageOnStderrAndExitsTwo() {
        Cli cli = new Cli(new FakeSimulator(), dir);

        assertEquals(Runner.INVALID, cli.execute());

        assertTrue(cli.err().contains("Usage: ringlab"), cli.err());
        for (String sub : new String[] {"run", "bench", "elements", "pools"}) {
            assertTrue(cli.err().contains(sub), sub + " missing in usage: " + cli.err());
        }
        assertEquals("", cli.out());
    }

    @Test
    void unknownSubcommandExitsTwoWithoutStackTrace() {
        FakeSimulator sim = new FakeSimulator();
        Cli cli = new Cli(sim, dir);

        assertEquals(Runner.INVALID, cli.execute("frobnicate"));

        assertTrue(cli.err().contains("frobnicate"), cli.err());
        assertFalse(Cli.hasStackTrace(cli.err()), cli.err());
        assertEquals(0, sim.prepareCalls());
    }

    @Test
    void unknownRootOptionExitsTwo() {
        Cli cli = new Cli(new FakeSimulator(), dir);

        assertEquals(Runner.INVALID, cli.execute("--frobnicate"));

        assertTrue(cli.err().contains("--frobnicate"), cli.err());
    }

    @Test
    void helpPrintsUsageOnStdoutAndExitsZero() {
        Cli cli = new Cli(new FakeSimulator(), dir);

        assertEquals(Runner.OK, cli.execute("--help"));

        assertTrue(cli.out().contains("Usage: ringlab"), cli.out());
        for (String command : new String[] {"run", "ab", "bench", "elements", "pools", "shell", "gui", "test"}) {
            assertTrue(java.util.regex.Pattern.compile("(?m)^  " + command + " +\\S").matcher(cli.out()).find(),
                    command + " is not listed with a line of its own: " + cli.out());
        }
        assertTrue(cli.out().contains("Examples:"), cli.out());
    }

    @Test
    void everyCommandsHelpHasAnExample() {
        for (String command : new String[] {"run", "ab", "bench", "elements", "pools", "shell", "gui", "test"}) {
            Cli cli = new Cli(new FakeSimulator(), dir);
            assertEquals(Runner.OK, cli.execute(command, "--help"), command);
            assertTrue(java.util.regex.Pattern.compile("(?m)^Examples?:\\R  \\./ringlab " + command).matcher(cli.out()).find(),
                    command + ": " + cli.out());
        }
    }

    @Test
    void theLauncherOnlyCommandsSayHowToStartThem() {
        Cli cli = new Cli(new FakeSimulator(), dir);

        assertEquals(Runner.INVALID, cli.execute("gui"));

        assertTrue(cli.err().contains("ringlab gui: the ./ringlab launcher starts it: ./ringlab gui (app/target/console.jar)"),
                cli.err());
    }

    @Test
    void runWithoutFileShowsTheRunUsageWithItsOptionsOnStderr() {
        Cli cli = new Cli(new FakeSimulator(), dir);

        assertEquals(Runner.INVALID, cli.execute("run"));

        assertTrue(cli.err().contains("Usage: ringlab run"), cli.err());
        for (String option : new String[] {"--duration", "--seed", "--set", "--json", "FILE"}) {
            assertTrue(cli.err().contains(option), option + " missing in: " + cli.err());
        }
        assertEquals("", cli.out());
    }

    @Test
    void versionPrintsRinglab() {
        Cli cli = new Cli(new FakeSimulator(), dir);

        assertEquals(Runner.OK, cli.execute("--version"));

        assertTrue(cli.out().startsWith("Ringlab"), cli.out()); // the bundles are listed inside a framework only
    }

    @Test
    void anUnexpectedExceptionFromTheSimulatorExitsOneWithAOneLineMessage() throws Exception {
        FakeSimulator sim = new FakeSimulator() {
            @Override
            public java.util.List<String> poolKinds() {
                throw new IllegalStateException("engine bundle stopped");
            }
        };
        Cli cli = new Cli(sim, dir);

        assertEquals(Runner.FAILED, cli.execute("pools"));

        assertEquals("ringlab: java.lang.IllegalStateException: engine bundle stopped", cli.err().strip());
    }
}

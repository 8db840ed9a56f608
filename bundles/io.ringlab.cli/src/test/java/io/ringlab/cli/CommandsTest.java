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

        assertEquals("Ringlab", cli.out().strip());
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

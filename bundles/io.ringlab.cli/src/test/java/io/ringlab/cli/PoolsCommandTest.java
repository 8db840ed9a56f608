package io.ringlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ringlab pools}: {@link Commands.Pools} with {@link Runner#printPools}. */
class PoolsCommandTest {
    @TempDir
    Path dir;

    @Test
    void poolsPrintsEachKindOnItsOwnLineInOrder() {
        FakeSimulator sim = new FakeSimulator();
        sim.poolKinds.addAll(List.of("fixed", "mbuf", "slab"));
        Cli cli = new Cli(sim, dir);

        assertEquals(Runner.OK, cli.execute("pools"));

        assertEquals(List.of("fixed", "mbuf", "slab"), cli.out().lines().toList());
        assertEquals("", cli.err());
    }

    @Test
    void poolsDescribesEachKindThatSaysWhatItModels() {
        FakeSimulator sim = new FakeSimulator();
        sim.poolKinds.addAll(List.of("fixed", "slab"));
        sim.poolDescriptions.put("slab", "A SLUB kmem_cache (mm/slub.c); docs/models/slab.md.");
        Cli cli = new Cli(sim, dir);

        assertEquals(Runner.OK, cli.execute("pools"));

        assertEquals(List.of("fixed", "slab       A SLUB kmem_cache (mm/slub.c); docs/models/slab.md."),
                cli.out().lines().toList());
    }

    @Test
    void poolsWithNothingInstalledPrintsNothing() {
        Cli cli = new Cli(new FakeSimulator(), dir);

        assertEquals(Runner.OK, cli.execute("pools"));

        assertEquals("", cli.out());
    }

    @Test
    void poolsRejectsArguments() {
        FakeSimulator sim = new FakeSimulator();
        sim.poolKinds.add("fixed");
        Cli cli = new Cli(sim, dir);

        assertEquals(Runner.INVALID, cli.execute("pools", "extra"));

        assertEquals("", cli.out());
    }
}

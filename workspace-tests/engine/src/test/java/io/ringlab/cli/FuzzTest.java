package io.ringlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fuzzer ({@link Fuzzer}) on a fixed sample of mutants of every shipped pipeline and experiment: none may end with a
 * stack trace, a hang, exit 0 with broken JSON, exit 2 without the file's position, or an exit code outside 0 to 3.
 * {@code -Dringlab.fuzz.count} and {@code -Dringlab.fuzz.seed} run another sample (docs/engine.md, "The fuzzer").
 */
class FuzzTest {
    /** The sample every build runs: a few hundred mutants, a couple of minutes on a shared 2-core machine. */
    static final int COUNT = Integer.getInteger("ringlab.fuzz.count", 300);
    static final long SEED = Long.getLong("ringlab.fuzz.seed", 1L);

    @TempDir
    Path work;

    static Path repo() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isDirectory(dir.resolve("pipelines"))) {
            dir = dir.getParent();
        }
        assertNotNull(dir, "no pipelines folder above " + Path.of("").toAbsolutePath());
        return dir;
    }

    @Test
    void mutantsOfEveryShippedFileEndWithAnAnswerAUserCanRead() throws Exception {
        Fuzzer fuzzer = new Fuzzer(repo(), work);
        List<Fuzzer.Mutant> mutants = fuzzer.mutants(SEED, COUNT);
        Fuzzer.Report r = fuzzer.run(mutants, System.out);
        System.out.println("fuzz seed " + SEED + ": " + r.summary() + " " + Fuzzer.byKind(r.findings()));
        assertEquals(COUNT, r.exitCodes().values().stream().mapToInt(Integer::intValue).sum()
                + (int) r.findings().stream().filter(f -> f.kind().equals("hang") && f.detail().startsWith("no answer")).count(),
                "every mutant answered or was counted as a hang");
        assertTrue(r.exitCodes().getOrDefault(2, 0) > 0 && r.exitCodes().getOrDefault(0, 0) > 0,
                "the sample holds both refused and running mutants: " + r.exitCodes());
        assertTrue(r.findings().isEmpty(), r.findings().size() + " findings:\n" + String.join("\n",
                r.findings().stream().map(Fuzzer.Finding::toString).toList()));
    }

    @Test
    void theSameSeedGivesTheSameMutantsAndEveryMutationIsDrawn() throws Exception {
        Fuzzer fuzzer = new Fuzzer(repo(), work);
        List<Fuzzer.Mutant> a = fuzzer.mutants(3, 200);
        List<Fuzzer.Mutant> b = fuzzer.mutants(3, 200);
        for (int i = 0; i < a.size(); i++) {
            assertEquals(a.get(i).mutation(), b.get(i).mutation());
            assertTrue(java.util.Arrays.equals(a.get(i).bytes(), b.get(i).bytes()), a.get(i).label());
        }
        assertEquals(Fuzzer.Mutation.values().length, a.stream().map(Fuzzer.Mutant::mutation).distinct().count());
        assertTrue(a.stream().anyMatch(Fuzzer.Mutant::experiment) && a.stream().anyMatch(m -> !m.experiment()));
    }

    @Test
    void theJudgeFindsWhatItLooksFor() throws Exception {
        // planted defects, one per kind the judge can see without a broken engine: its rules fail when they should
        assertTrue(Fuzzer.hasStackTrace("error\n\tat io.ringlab.X.y(X.java:3)\n"));
        assertTrue(Fuzzer.hasStackTrace("Exception in thread \"ringlab-run-x\" java.lang.StackOverflowError"));
        assertFalse(Fuzzer.hasStackTrace("x.pipeline:3:1: element at line 3 is not connected"));
        assertEquals("x.pipeline: something", Fuzzer.unpositioned("x.pipeline: something\n", "x.pipeline"));
        assertEquals(null, Fuzzer.unpositioned("x.pipeline:3:14: unknown type\n", "x.pipeline"));
        assertEquals(null, Fuzzer.unpositioned("nothing about the file\n", "x.pipeline"));
        assertEquals(null, Fuzzer.unpositioned("p.pipeline:12:12: headline ... (x.pipeline names no metrics)\n", "x.pipeline"));
        byte[] binary = Fuzzer.mutate(Fuzzer.Mutation.BINARY, "element a : sink\n", new Random(2), java.util.Map.of());
        assertFalse(new String(binary, StandardCharsets.UTF_8).equals("element a : sink\n"));
    }
}

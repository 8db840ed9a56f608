package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** The same pipeline and seed give bit-identical results in a fresh JVM (no dependence on hash codes or JIT state). */
class FreshJvmDeterminismTest {

    /** Entry point of the child JVM: prints the fingerprint of a run. */
    public static void main(String[] args) throws Exception {
        System.out.print(DeterminismTest.fingerprint(Pipelines.build(Pipelines.RANDOM, Long.parseLong(args[0])).run()));
    }

    @Test
    void aFreshJvmGivesTheSameResult() throws Exception {
        String here = DeterminismTest.fingerprint(Pipelines.build(Pipelines.RANDOM, 11).run());
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
                FreshJvmDeterminismTest.class.getName(), "11")).redirectErrorStream(false).start();
        byte[] out = p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("child JVM did not finish");
        }
        assertEquals(0, p.exitValue(), err);
        assertEquals(here, new String(out, StandardCharsets.UTF_8));
    }
}

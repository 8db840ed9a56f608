package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The real tshark as the judge of captures, for the tests: a missing tshark fails the test naming the package. */
public final class Tshark {
    private Tshark() {
    }

    /**
     * @param file the capture
     * @param scratch a folder for tshark's standard error
     * @param args tshark's options after {@code -n -r FILE}
     * @return what tshark printed; the test fails when it exits with an error or runs longer than two minutes
     */
    public static String read(Path file, Path scratch, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("tshark", "-n", "-r", file.toString()));
        cmd.addAll(List.of(args));
        Path err = Files.createTempFile(scratch, "tshark", ".err");
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
        } catch (IOException e) {
            throw new AssertionError("tshark is not installed: ./ringlab test installs it as root; otherwise run sudo"
                    + " apt-get install -y --no-install-recommends tshark (" + e.getMessage() + ")");
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), out);
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ":\n" + out + Files.readString(err));
        return out;
    }
}

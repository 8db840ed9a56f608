package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * A package's version is written once, in its {@code @Version}: the prose of a {@code package-info.java} names no
 * version range (bnd computes the import ranges from the version a bundle is built against), so it cannot go stale as
 * {@code [1.1,1.2)} did in sim.api at 1.3.0.
 */
class PackageInfoProseTest {
    private static final Pattern RANGE = Pattern.compile("[\\[(]\\d+\\.\\d+(\\.\\d+)?,\\s*\\d+(\\.\\d+)*[\\])]");

    @Test
    void noPackageInfoSpellsAVersionRange() throws IOException {
        Path bundles = DocsIndexTest.repository().resolve("bundles");
        List<Path> infos;
        try (Stream<Path> s = Files.walk(bundles)) {
            infos = s.filter(p -> p.endsWith("package-info.java") && p.toString().contains("/src/main/")).toList();
        }
        assertTrue(infos.size() > 10, "package-info files found: " + infos.size());
        List<String> stale = infos.stream().filter(p -> {
            try {
                return RANGE.matcher(Files.readString(p)).find();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }).map(p -> bundles.relativize(p).toString()).toList();
        assertEquals(List.of(), stale, "package-info prose naming a version range");
    }
}

package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.dto.ElementDescriptorDTO;

/**
 * docs/index.md lists every page under docs/ and links only pages that exist; every built-in element type names a
 * model page ({@link ElementDescriptorDTO#modelPage}) that exists, so {@code ringlab elements} and the console's
 * palette never point nowhere.
 */
class DocsIndexTest {
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)#]+\\.md)\\)");

    @Test
    void theIndexListsEveryPageUnderDocsAndNothingElse() throws IOException {
        Path docs = repository().resolve("docs");
        Set<String> pages = new TreeSet<>();
        try (var s = Files.walk(docs)) {
            s.filter(p -> p.toString().endsWith(".md")).forEach(p -> pages.add(docs.relativize(p).toString()));
        }
        pages.remove("index.md");
        Set<String> linked = new TreeSet<>();
        Matcher m = LINK.matcher(Files.readString(docs.resolve("index.md")));
        while (m.find()) {
            linked.add(m.group(1));
        }
        assertEquals(pages, linked, "docs/index.md links exactly the pages under docs/");
        assertTrue(pages.size() >= 15 + 4, "the 15 model pages and more: " + pages);
    }

    @Test
    void everyBuiltInTypeNamesAModelPageThatExists() throws IOException {
        Path root = repository();
        Map<String, String> missing = new TreeMap<>();
        for (ElementDescriptorDTO d : new TestRegistry().types()) {
            if (d.modelPage == null || !Files.isRegularFile(root.resolve(d.modelPage))) {
                missing.put(d.type, String.valueOf(d.modelPage));
            }
        }
        assertEquals(Map.of(), missing, "types whose model page is missing");
    }

    /** @return the repository's folder, found from the module's folder up (the tests that read the tree use it) */
    static Path repository() {
        Path dir = Path.of("").toAbsolutePath();
        while (!Files.isRegularFile(dir.resolve("docs/index.md"))) {
            dir = dir.getParent();
            assertTrue(dir != null, "no docs/index.md above " + Path.of("").toAbsolutePath());
        }
        return dir;
    }
}

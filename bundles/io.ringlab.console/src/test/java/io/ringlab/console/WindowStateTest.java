package io.ringlab.console;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The window's remembered layout: written and read back, defaults for a missing file, bad values left out by name. */
class WindowStateTest {
    @Test
    void aWrittenStateReadsBackAndAMissingFileIsTheDefaults(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("sub/console.properties");
        assertEquals(WindowState.NONE, WindowState.read(f).state());
        new WindowState(new int[] { 10, 20, 1100, 700 }, true, Map.of("main", new int[] { 20, 50, 30 })).write(f);
        WindowState.Read r = WindowState.read(f);
        assertEquals(List.of(), r.warnings());
        assertArrayEquals(new int[] { 10, 20, 1100, 700 }, r.state().bounds());
        assertTrue(r.state().maximized());
        assertArrayEquals(new int[] { 20, 50, 30 }, r.state().sashes().get("main"));
        try (var files = Files.list(f.getParent())) {
            assertEquals(List.of(f), files.toList(), "no temporary file left behind");
        }
    }

    @Test
    void badValuesAreLeftOutWithTheFileTheKeyAndWhatIsAllowed(@TempDir Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("console.properties"), """
                bounds=10,20,wide,700
                maximized=yes
                sashes.main=20,-5,30
                sashes.middle=2,3
                """);
        WindowState.Read r = WindowState.read(f);
        assertNull(r.state().bounds());
        assertEquals(Map.of("middle", List.of(2, 3)), Map.of("middle",
                java.util.Arrays.stream(r.state().sashes().get("middle")).boxed().toList()));
        assertEquals(1, r.state().sashes().size());
        assertEquals(List.of(f + ": bounds=10,20,wide,700 left out; allowed: x,y,width,height as whole numbers, width at"
                + " least 200 and height at least 150", f + ": maximized=yes left out; allowed: true, false",
                f + ": sashes.main=20,-5,30 left out; allowed: two or more weights, whole numbers of at least 0, not all 0"),
                r.warnings());
    }

    @Test
    void theDefaultFileFollowsXdgConfigHome() {
        assertEquals(Path.of("/x/ringlab/console.properties"), WindowState.defaultFile(Map.of("XDG_CONFIG_HOME", "/x"),
                Path.of("/home/u")));
        assertEquals(Path.of("/home/u/.config/ringlab/console.properties"), WindowState.defaultFile(Map.of(), Path.of("/home/u")));
    }
}

package io.ringlab.engine.kernel.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;

import org.junit.jupiter.api.Test;
import io.ringlab.engine.kernel.ClassPathRegistry;
import io.ringlab.engine.kernel.PipelineBuilder;

/** Profiles are data in which every constant carries its source; the loader refuses one without. */
class CostProfileTest {

    @Test
    void aProfileWithSourcesLoads() throws Exception {
        CostProfileImpl p = CostProfileImpl.read("p.profile", new StringReader("""
                # a comment
                name = test-soc | source: made up for this test
                frequencyHz = 1_600_000_000 | source: datasheet
                cores = 2 | source: datasheet
                rx.cycles = 420 | fitted: 600 Mbit/s TX of the seed board
                """));
        assertEquals("test-soc", p.name());
        assertEquals(1_600_000_000L, p.frequencyHz());
        assertEquals(2, p.cores());
        assertEquals(420.0, p.value("rx.cycles"));
        assertEquals("fitted: 600 Mbit/s TX of the seed board", p.source("rx.cycles"));
        assertEquals(7.0, p.value("absent", 7.0));
        String m = assertThrows(IllegalArgumentException.class, () -> p.value("absent")).getMessage();
        assertTrue(m.contains("absent") && m.contains("rx.cycles"), m);
    }

    @Test
    void aConstantWithoutASourceIsRefusedWithFileAndLine() {
        String m = assertThrows(IllegalArgumentException.class, () -> CostProfileImpl.read("p.profile", new StringReader("""
                name = x | source: y
                frequencyHz = 1000 | source: z
                cores = 1
                """))).getMessage();
        assertTrue(m.startsWith("p.profile:3: constant cores has no source"), m);
        String empty = assertThrows(IllegalArgumentException.class, () -> CostProfileImpl.read("p.profile",
                new StringReader("name = x | source:\n"))).getMessage();
        assertTrue(empty.contains("has no source"), empty);
    }

    @Test
    void aProfileFileIsReadThroughTheTextFamilysOneReaderWithItsLimitsAndErrors() throws Exception {
        // /dev/zero never ends: read as a file it filled the heap
        String device = assertThrows(IllegalArgumentException.class, () -> CostProfileImpl.readFile("/dev/zero"))
                .getMessage();
        assertEquals("/dev/zero: cannot read the cost profile: it is a character device, not a regular file; give a cost"
                + " profile file", device);
        String missing = assertThrows(IllegalArgumentException.class,
                () -> CostProfileImpl.readFile("/nonexistent/x.profile")).getMessage();
        assertEquals("/nonexistent/x.profile: cannot read the cost profile: no such file", missing);
        java.nio.file.Path latin1 = java.nio.file.Files.createTempFile("latin1", ".profile");
        try {
            java.nio.file.Files.write(latin1, new byte[] {'#', (byte) 0xE9, '\n'});
            String bad = assertThrows(IllegalArgumentException.class, () -> CostProfileImpl.readFile(latin1.toString()))
                    .getMessage();
            assertTrue(bad.startsWith(latin1 + ":1:2: cannot read the cost profile: the file is not UTF-8 text"), bad);
        } finally {
            java.nio.file.Files.delete(latin1);
        }
    }

    @Test
    void frequencyAndCoresAreRequired() {
        String m = assertThrows(IllegalArgumentException.class, () -> CostProfileImpl.read("p.profile",
                new StringReader("name = x | source: y\ncores = 1 | source: z\n"))).getMessage();
        assertEquals("p.profile: profile x has no 'frequencyHz'", m);
    }

    @Test
    void theShippedDefaultProfileLoads() {
        var p = new ClassPathRegistry(CostProfileTest.class.getClassLoader()).profile(PipelineBuilder.DEFAULT_PROFILE);
        assertEquals(4_000_000_000L, p.frequencyHz());
        for (String k : p.keys()) {
            assertTrue(p.source(k).startsWith("source:") || p.source(k).startsWith("fitted:"), k);
        }
    }
}

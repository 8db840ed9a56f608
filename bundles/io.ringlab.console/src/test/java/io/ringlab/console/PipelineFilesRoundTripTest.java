package io.ringlab.console;

import static io.ringlab.console.EditorFixtures.types;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.pipeline.format.PipelineWriter;
import io.ringlab.sim.api.dto.PipelineDTO;

/**
 * Loading every sample pipeline into the editor and saving it gives the same pipeline: the canonical text of the
 * semantics (header, elements with properties and value forms, connections with their ports) is identical, the file's
 * layout entries are kept exactly, and every element gets one. Comments are not in the DTO, so a save drops them.
 */
class PipelineFilesRoundTripTest {
    @Test
    void loadAndSaveOfEverySampleKeepsItsSemanticsAndLayout() throws Exception {
        Path dir = Path.of("../../pipelines");
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".pipeline")).sorted().toList();
        }
        assertTrue(files.size() >= 8, "samples found: " + files);
        for (Path f : files) {
            PipelineDTO read = PipelineReader.read(f);
            String saved = PipelineWriter.write(new EditablePipeline(read, types()).pipeline());
            PipelineDTO back = PipelineReader.read(f.toString(), saved);
            for (var e : read.layout.entrySet()) {
                assertArrayEquals(e.getValue(), back.layout.get(e.getKey()), f + ": layout of " + e.getKey());
            }
            assertEquals(read.elements.size(), back.layout.size(), f + ": every element has a position");
            read.layout.clear();
            back.layout.clear();
            assertEquals(PipelineWriter.write(read), PipelineWriter.write(back), f.toString());
        }
    }
}

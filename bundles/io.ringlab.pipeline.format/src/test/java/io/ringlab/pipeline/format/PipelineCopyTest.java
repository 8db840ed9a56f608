package io.ringlab.pipeline.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.ValueDTO;

/** The one deep copy of a pipeline: equal when written, and nothing changed in the copy reaches the original. */
class PipelineCopyTest {
    private static final String TEXT = """
            name = "copy"
            duration = 10ms
            seed = 7
            headline = sink.rxMpps
            plot = [q.backlog, sink.rxMpps]

            element src : source {
                rate = 1Gbit
                size = 64B
            }
            element q : pfifo
            element sink : sink

            src -> q
            q.out -> sink

            layout {
                src = 40, 80
            }
            """;

    @Test
    void aCopyWritesTheSameTextAndKeepsEveryPosition() throws Exception {
        PipelineDTO p = PipelineReader.read("copy.pipeline", TEXT);
        PipelineDTO c = PipelineCopy.of(p);
        assertEquals(PipelineWriter.write(p), PipelineWriter.write(c));
        assertEquals(p.elements.get(0).properties.get("rate").line, c.elements.get(0).properties.get("rate").line);
        assertEquals(p.connections.get(1).column, c.connections.get(1).column);
        assertEquals(p.file, c.file);
    }

    @Test
    void changingTheCopyLeavesTheOriginalAsItWas() throws Exception {
        PipelineDTO p = PipelineReader.read("copy.pipeline", TEXT);
        String before = PipelineWriter.write(p);
        PipelineDTO c = PipelineCopy.of(p);
        assertNotSame(p.elements.get(0).properties.get("rate"), c.elements.get(0).properties.get("rate"));
        c.elements.get(0).properties.get("rate").text = "10Gbit";
        c.elements.get(1).properties.put("limit", new ValueDTO("5", 0, 0));
        c.plot.get(0).text = "q.drops";
        c.plot.add(new ValueDTO("src.generated", 0, 0));
        c.duration.text = "1s";
        c.layout.get("src")[0] = 999;
        c.connections.get(0).to = "sink";
        c.elements.remove(2);
        assertEquals(before, PipelineWriter.write(p));
    }
}

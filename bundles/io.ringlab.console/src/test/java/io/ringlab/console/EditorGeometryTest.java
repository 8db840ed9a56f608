package io.ringlab.console;

import static io.ringlab.console.EditorFixtures.types;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Set;

import org.junit.jupiter.api.Test;

import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Direction;

class EditorGeometryTest {
    private static EditablePipeline model() throws Exception {
        return new EditablePipeline(PipelineReader.read("g.pipeline", """
                element src : source
                element q : pfifo
                src -> q
                layout { src = 0, 0; q = 200, 0 }
                """), types());
    }

    @Test
    void portsSitOnTheBoxEdgesAndAreHitNearTheirCentre() throws Exception {
        EditorGeometry g = new EditorGeometry(model());
        assertArrayEquals(new double[] { 120, 22 }, g.port("src", Direction.OUT, "out"));
        assertArrayEquals(new double[] { 200, 22 }, g.port("q", Direction.IN, "in"));
        assertEquals(new PortRef("src", "out", Direction.OUT), g.portAt(118, 25));
        assertEquals(new PortRef("q", "out", Direction.OUT), g.portAt(321, 22));
        assertNull(g.portAt(60, 22), "the middle of a box is no port");
    }

    @Test
    void boxesConnectionsAndRubberBandsAreHit() throws Exception {
        EditablePipeline m = model();
        EditorGeometry g = new EditorGeometry(m);
        assertEquals("src", g.elementAt(60, 20));
        assertNull(g.elementAt(160, 60));
        assertSame(m.connections().get(0), g.connectionAt(160, 24));
        assertNull(g.connectionAt(160, 40));
        assertEquals(Set.of("src", "q"), g.elementsIn(-10, -10, 400, 10));
        assertEquals(Set.of("q"), g.elementsIn(190, 30, 250, 60));
    }

    @Test
    void aFreeSpotOverlapsNoBox() throws Exception {
        EditablePipeline m = model();
        EditorGeometry g = new EditorGeometry(m);
        double[] xy = g.freeSpot();
        m.add("sink", xy[0], xy[1]);
        double[] next = g.freeSpot();
        assertEquals(Set.of(), g.elementsIn(next[0], next[1], next[0] + 120, next[1] + 44));
    }
}

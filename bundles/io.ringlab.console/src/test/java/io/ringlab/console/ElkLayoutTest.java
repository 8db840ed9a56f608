package io.ringlab.console;

import static io.ringlab.console.EditorFixtures.types;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;

class ElkLayoutTest {
    @Test
    void aChainGoesLeftToRightWithoutOverlapsAndIsOneUndoableCommand() throws Exception {
        EditablePipeline m = new EditablePipeline(PipelineReader.read("chain.pipeline", """
                element src : source
                element q : pfifo
                element eth0 : netdev
                element wire : link
                element sink : sink
                src -> q -> eth0 -> wire -> sink
                layout { src = 500, 500; q = 0, 0; eth0 = 0, 0; wire = 0, 0; sink = 0, 0 }
                """), types());
        Map<String, double[]> at = ElkLayout.of(m);
        assertEquals(5, at.size());
        String[] chain = { "src", "q", "eth0", "wire", "sink" };
        for (int i = 1; i < chain.length; i++) {
            assertTrue(at.get(chain[i])[0] >= at.get(chain[i - 1])[0] + EditorGeometry.BOX_W,
                    chain[i] + " is right of " + chain[i - 1] + ": " + at.get(chain[i])[0] + " vs " + at.get(chain[i - 1])[0]);
        }
        assertTrue(at.get("src")[0] >= PipelineLayout.MARGIN && at.get("src")[1] >= PipelineLayout.MARGIN);
        String before = PipelineWriterText.of(m);
        m.arrange(at);
        assertEquals(at.get("sink")[0], m.position("sink")[0]);
        m.undo();
        assertEquals(before, PipelineWriterText.of(m));
    }

    @Test
    void everySampleIsLaidOutWithoutOverlappingBoxes() throws Exception {
        for (String f : new String[] { "stmmac-bql-100m", "mvneta-bm-haproxy", "mlx4-bulk-free-fwd" }) {
            var p = PipelineReader.read(Path.of("../../pipelines", f + ".pipeline"));
            // every type the sample uses, with no ports: the layout must still place each element apart
            var all = new java.util.ArrayList<>(types());
            p.elements.stream().map(e -> e.type).distinct().filter(t -> all.stream().noneMatch(d -> d.type.equals(t)))
                    .forEach(t -> all.add(EditorFixtures.type(t, ElementDescriptorDTO.HOST)));
            EditablePipeline m = new EditablePipeline(p, all);
            Map<String, double[]> at = ElkLayout.of(m);
            EditorGeometry g = new EditorGeometry(m);
            m.arrange(at);
            for (var e : p.elements) {
                double[] xy = m.position(e.name);
                assertEquals(java.util.Set.of(e.name), g.elementsIn(xy[0] + 1, xy[1] + 1, xy[0] + EditorGeometry.BOX_W - 1,
                        xy[1] + g.height(e.name) - 1), f + ": " + e.name + " overlaps");
            }
        }
    }

    /** The canonical text of the model's pipeline. */
    static final class PipelineWriterText {
        static String of(EditablePipeline m) {
            return io.ringlab.pipeline.format.PipelineWriter.write(m.pipeline());
        }
    }
}

package io.ringlab.console;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.dto.PipelineDTO;

class PipelineLayoutTest {
    @Test
    void aChainGoesLeftToRightOneLayerPerHop() throws Exception {
        PipelineDTO p = PipelineReader.read("chain.pipeline", """
                element src : source
                element q : pfifo
                element sink : sink
                src -> q -> sink
                """);
        Map<String, int[]> at = PipelineLayout.of(p);
        assertArrayEquals(new int[] { 20, 20 }, at.get("src"));
        assertArrayEquals(new int[] { 20 + 160, 20 }, at.get("q"));
        assertArrayEquals(new int[] { 20 + 320, 20 }, at.get("sink"));
    }

    @Test
    void theFilesLayoutBlockWinsAndElementsOfOneLayerStack() throws Exception {
        PipelineDTO p = PipelineReader.read("fan.pipeline", """
                element a : source
                element b : source
                element sink : sink
                a -> sink
                b -> sink
                layout {
                    sink = 400, 300
                }
                """);
        Map<String, int[]> at = PipelineLayout.of(p);
        assertArrayEquals(new int[] { 20, 20 }, at.get("a"));
        assertArrayEquals(new int[] { 20, 20 + PipelineLayout.ROW }, at.get("b"));
        assertArrayEquals(new int[] { 400, 300 }, at.get("sink"));
    }

    @Test
    void aCycleEndsWithEveryElementPlacedWithinTheElementCount() throws Exception {
        PipelineDTO p = PipelineReader.read("loop.pipeline", """
                element tcp : tcp
                element q : pfifo
                element host : host
                tcp -> q -> host
                host.out -> tcp.in
                """);
        Map<String, int[]> at = PipelineLayout.of(p);
        assertEquals(3, at.size());
        for (int[] xy : at.values()) {
            assertTrue(xy[0] <= 20 + 2 * 160, "x " + xy[0]);
        }
    }
}

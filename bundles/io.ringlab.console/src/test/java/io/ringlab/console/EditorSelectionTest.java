package io.ringlab.console;

import static io.ringlab.console.EditorFixtures.types;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.dto.ConnectionDTO;

/**
 * {@link EditorSelection}: elements in selection order, connections by identity, what a changed pipeline no longer has
 * forgotten, and the single selection told only when it changes.
 */
class EditorSelectionTest {
    private static EditablePipeline chain() throws Exception {
        return new EditablePipeline(PipelineReader.read("chain.pipeline", """
                element src : source
                element q : pfifo
                element eth0 : netdev
                src -> q -> eth0
                """), types());
    }

    @Test
    void shouldKeepElementsInSelectionOrderAndToggleThem() {
        EditorSelection s = new EditorSelection(n -> {
        });
        s.only("q");
        s.toggle("src");
        s.toggle("eth0");
        s.toggle("q");
        assertEquals(List.of("src", "eth0"), s.elementsNow());
        assertNull(s.single(), "two selected");
        s.only("eth0");
        assertEquals("eth0", s.single());
    }

    @Test
    void shouldSelectConnectionsByIdentityAndKeepThemWhenOnlyTheElementChanges() throws Exception {
        EditablePipeline m = chain();
        ConnectionDTO first = m.connections().get(0);
        ConnectionDTO equalButOther = new ConnectionDTO();
        equalButOther.from = first.from;
        equalButOther.fromPort = first.fromPort;
        equalButOther.to = first.to;
        equalButOther.toPort = first.toPort;
        EditorSelection s = new EditorSelection(n -> {
        });
        s.toggle(first);
        assertTrue(s.has(first));
        assertFalse(s.has(equalButOther), "by identity, not by equality");
        s.onlyElement("q");
        assertEquals(1, s.linkCount(), "a rename keeps the selected connections");
        s.only("q");
        assertEquals(0, s.linkCount(), "selecting one element alone drops them");
    }

    @Test
    void shouldForgetWhatThePipelineNoLongerHas() throws Exception {
        EditablePipeline m = chain();
        EditorSelection s = new EditorSelection(n -> {
        });
        s.addAll(List.of("src", "q", "eth0"));
        s.addLinks(m.connections());
        ConnectionDTO kept = m.connections().get(0);
        m.delete(List.of("eth0"), List.of());
        s.keepOnly(m);
        assertEquals(List.of("src", "q"), s.elementsNow());
        assertEquals(List.of(kept), s.linksNow(), "the connection to eth0 went with it");
    }

    @Test
    void shouldPublishEveryTimeAndTellTheListenerOnlyWhenTheSingleSelectionChanges() {
        List<String> published = new ArrayList<>();
        List<String> told = new ArrayList<>();
        EditorSelection s = new EditorSelection(published::add);
        s.onChange(told::add);
        s.only("q");
        s.changed();
        s.changed();
        s.toggle("src");
        s.changed();
        s.clear();
        s.changed();
        assertEquals(java.util.Arrays.asList("q", "q", null, null), published);
        assertEquals(java.util.Arrays.asList("q", null), told,
                "q, then no single element (two selected); none selected is still no single element: not told again");
    }
}

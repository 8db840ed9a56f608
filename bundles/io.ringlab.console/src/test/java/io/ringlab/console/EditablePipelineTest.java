package io.ringlab.console;

import static io.ringlab.console.EditorFixtures.in;
import static io.ringlab.console.EditorFixtures.out;
import static io.ringlab.console.EditorFixtures.types;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.pipeline.format.PipelineWriter;
import io.ringlab.sim.api.dto.PipelineDTO;

class EditablePipelineTest {
    private static final String CHAIN = """
            name = "chain"
            headline = q.drops; plot = [q.backlog, sink.latencyP50Micros]
            element src : source { rate = 1Gbit }
            element q : pfifo { limit = 10 }
            element eth0 : netdev
            element sink : sink
            src -> q -> eth0
            layout {
                src = 40.5, 80
            }
            """;

    private static EditablePipeline chain() throws Exception {
        return new EditablePipeline(PipelineReader.read("chain.pipeline", CHAIN), types());
    }

    private static String text(EditablePipeline m) {
        return PipelineWriter.write(m.pipeline());
    }

    @Test
    void aLoadedPipelineIsCleanKeepsItsSemanticsAndPlacesEveryElement() throws Exception {
        EditablePipeline m = chain();
        assertFalse(m.dirty());
        PipelineDTO p = m.pipeline();
        assertEquals(List.of("src", "q", "eth0", "sink"), List.copyOf(p.layout.keySet()));
        assertArrayEquals(new double[] { 40.5, 80 }, p.layout.get("src"), "the file's position is kept exactly");
        PipelineDTO original = PipelineReader.read("chain.pipeline", CHAIN);
        original.layout.clear();
        p.layout.clear();
        assertEquals(PipelineWriter.write(original), PipelineWriter.write(p));
    }

    @Test
    void addGivesUniqueNamesAndUndoRedoRestoreTheExactText() throws Exception {
        EditablePipeline m = chain();
        String before = text(m);
        assertEquals("pfifo1", m.add("pfifo", 10, 20));
        assertEquals("pfifo2", m.add("pfifo", 10, 120));
        assertEquals("pfifo3", m.add("pfifo", 10, 220));
        assertTrue(m.dirty());
        String after = text(m);
        assertTrue(m.undo() && m.undo() && m.undo());
        assertEquals(before, text(m));
        assertFalse(m.dirty(), "undo back to the loaded state is clean");
        assertFalse(m.undo(), "nothing left to undo");
        assertTrue(m.redo() && m.redo() && m.redo());
        assertEquals(after, text(m));
        assertFalse(m.redo());
    }

    @Test
    void aPropertySetOrResetIsOneUndoableCommandReadLiveByTheForms() throws Exception {
        EditablePipeline m = chain();
        String before = text(m);
        m.setProperty("q", "limit", new io.ringlab.sim.api.dto.ValueDTO("50", 0, 0));
        assertTrue(m.dirty());
        assertEquals("50", m.live().elements.get(1).properties.get("limit").text, "the forms read the live pipeline");
        assertEquals("50", m.pipeline().elements.get(1).properties.get("limit").text);
        m.setProperty("q", "limit", new io.ringlab.sim.api.dto.ValueDTO("50", 0, 0));
        assertEquals("Set q.limit", m.undoLabel().replace("Undo ", ""), "the same value again is no command");
        m.setProperty("src", "rate", null); // back to the default
        assertFalse(m.pipeline().elements.get(0).properties.containsKey("rate"));
        m.undo();
        m.undo();
        assertEquals(before, text(m));
        assertFalse(m.dirty());
        m.redo();
        assertEquals("50", m.pipeline().elements.get(1).properties.get("limit").text);
    }

    @Test
    void moveIsOneCommandForTheWholeSelection() throws Exception {
        EditablePipeline m = chain();
        double[] q = m.position("q").clone();
        m.move(List.of("src", "q"), 15, -5);
        assertArrayEquals(new double[] { 55.5, 75 }, m.position("src"));
        assertArrayEquals(new double[] { q[0] + 15, q[1] - 5 }, m.position("q"));
        assertEquals("Move 2 elements", m.undoLabel());
        m.undo();
        assertArrayEquals(new double[] { 40.5, 80 }, m.position("src"));
        assertArrayEquals(q, m.position("q"));
    }

    @Test
    void connectWritesDefaultPortsShortAndOtherPortsByName() throws Exception {
        EditablePipeline m = chain();
        String link = m.add("link", 0, 0);
        assertNull(m.connect(out("eth0", "wire"), in(link, "in")));
        assertNull(m.connect(out(link, "out"), in("sink", "in")));
        String t = text(m);
        assertTrue(t.contains("eth0 -> link1\nlink1 -> sink\n"), t); // "wire" is netdev's first output: the default
        m.undo();
        assertFalse(text(m).contains("link1 -> sink"));
    }

    @Test
    void aRefusedConnectionLeavesTheModelUnchangedAndSaysWhy() throws Exception {
        EditablePipeline m = chain();
        String before = text(m);
        String src2 = m.add("source", 0, 300);
        String afterAdd = text(m);
        String why = m.connect(out(src2, "out"), in("eth0", "in"));
        assertEquals("cannot connect source1.out (push output) to eth0.in (pull input): a connection joins ports of the same mode", why);
        why = m.connect(out(src2, "out"), out("q", "out"));
        assertTrue(why.startsWith("cannot connect two outputs (source1.out and q.out)"), why);
        why = m.connect(out("src", "out"), in("sink", "in"));
        assertTrue(why.startsWith("output src.out is already connected"), why);
        why = m.connect(out("q", "out"), in("eth0", "in"));
        assertTrue(why.startsWith("output q.out is already connected"), why);
        assertEquals(afterAdd, text(m));
        assertEquals("Add source1", m.undoLabel(), "a refused connection is not on the undo stack");
        m.undo();
        assertEquals(before, text(m));
    }

    @Test
    void deleteRemovesTheElementsConnectionsAndUndoPutsThemBackInPlace() throws Exception {
        EditablePipeline m = chain();
        String before = text(m);
        assertTrue(m.delete(List.of("q"), List.of()));
        PipelineDTO p = m.pipeline();
        assertEquals(List.of("src", "eth0", "sink"), p.elements.stream().map(e -> e.name).toList());
        assertTrue(p.connections.isEmpty(), "both connections of q are gone");
        m.undo();
        assertEquals(before, text(m));
        assertTrue(m.delete(List.of(), List.of(m.connections().get(1))));
        assertEquals(1, m.connections().size());
        m.undo();
        assertEquals(before, text(m));
        assertFalse(m.delete(List.of("ghost"), List.of()), "nothing to delete is not a command");
    }

    @Test
    void renameFollowsConnectionsLayoutHeadlineAndPlotAndRefusesBadNames() throws Exception {
        EditablePipeline m = chain();
        String before = text(m);
        assertTrue(before.contains("plot = [q.backlog, sink.latencyP50Micros]\n"), "the model keeps the plot: " + before);
        assertNull(m.rename("q", "qdisc"));
        String t = text(m);
        assertTrue(t.contains("headline = qdisc.drops") && t.contains("src -> qdisc\nqdisc -> eth0") && t.contains("    qdisc = "), t);
        assertTrue(t.contains("plot = [qdisc.backlog, sink.latencyP50Micros]\n"), t);
        assertEquals("an element named src already exists", m.rename("qdisc", "src"));
        assertTrue(m.rename("qdisc", "2q").contains("is not an element name"));
        m.undo();
        assertEquals(before, text(m));
    }

    @Test
    void savingMovesTheSavePointAndANewEditAfterUndoCannotReachIt() throws Exception {
        EditablePipeline m = chain();
        m.add("sink", 0, 0);
        PipelineDTO saved = m.pipeline();
        saved.file = "other.pipeline";
        m.saved(saved);
        assertFalse(m.dirty());
        assertEquals("other.pipeline", m.file());
        m.undo();
        assertTrue(m.dirty());
        m.redo();
        assertFalse(m.dirty());
        m.undo();
        m.add("pfifo", 0, 0); // the saved state is gone from the redo stack
        m.undo();
        assertTrue(m.dirty());
    }

    @Test
    void arrangeIsOneUndoableCommand() throws Exception {
        EditablePipeline m = chain();
        m.arrange(Map.of("src", new double[] { 1, 2 }, "sink", new double[] { 3, 4 }));
        assertArrayEquals(new double[] { 1, 2 }, m.position("src"));
        m.undo();
        assertArrayEquals(new double[] { 40.5, 80 }, m.position("src"));
    }
}

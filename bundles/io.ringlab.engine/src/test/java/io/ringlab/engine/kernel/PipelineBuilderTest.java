package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.PipelineException;

/** Invalid pipelines are reported with file:line:column and what is allowed; nothing is created. */
class PipelineBuilderTest {

    private static String error(String text, String... sets) {
        PipelineException e = assertThrows(PipelineException.class, () -> Pipelines.build(text, 1, sets));
        return e.getMessage();
    }

    @Test
    void anUnknownTypeListsTheInstalledTypes() {
        String m = error("element x : nosuch\n");
        assertTrue(m.startsWith("test.pipeline:1:1: unknown element type 'nosuch'"), m);
        assertTrue(m.contains("link") && m.contains("source"), m);
    }

    @Test
    void anUnknownPropertyListsTheProperties() {
        String m = error("element src : source {\n    rat = 1Gbit\n}\nelement s : sink\nsrc -> s\n");
        assertTrue(m.startsWith("test.pipeline:2:11: unknown property 'rat' (did you mean 'rate'?) of element src (type"
                + " source); properties: rate"), m);
    }

    @Test
    void aMisspeltElementInAConnectionGetsADidYouMean() {
        String m = error("element src : source\nelement sink : sink\nsrc -> snk\n");
        assertTrue(m.contains("undeclared element 'snk' (did you mean 'sink'?) in a connection; declared elements: src, sink"), m);
    }

    @Test
    void aBadValueNamesThePropertyItsUnitAndRange() {
        String m = error("element src : source { rate = 100Mbt }\nelement s : sink\nsrc -> s\n");
        assertTrue(m.startsWith("test.pipeline:1:31:"), m);
        assertTrue(m.contains("rate") && m.contains("Mbit"), m);
        String range = error("element src : source { rate = 5000Gbit }\nelement s : sink\nsrc -> s\n");
        assertTrue(range.contains("rate") && range.contains("1600Gbit"), range);
    }

    @Test
    void connectionsAreTypeChecked() {
        String modes = error("element src : source\nelement w : link\nelement s : sink\nsrc -> w\nw -> s\n");
        assertTrue(modes.contains("test.pipeline:4:1: cannot connect src.out (push output) to w.in (pull input)"), modes);
        String required = error("element src : source\nelement s : sink\n");
        assertTrue(required.contains("required output 'out' is not connected"), required);
        assertTrue(required.contains("required input 'in' is not connected"), required);
        String port = error("element src : source\nelement s : sink\nsrc.nope -> s\n");
        assertTrue(port.contains("src (type source) has no output 'nope'; outputs: out"), port);
    }

    @Test
    void overridesAreCheckedLikeFileValues() {
        String pipeline = "element src : source\nelement s : sink\nsrc -> s\n";
        String unknownElement = assertThrows(PipelineException.class, () -> Pipelines.build(pipeline, 1, "nosuch.rate=1Gbit"))
                .getMessage();
        assertTrue(unknownElement.contains("nosuch") && unknownElement.contains("src"), unknownElement);
        String unknownProperty = error(pipeline, "src.speed=1Gbit");
        assertTrue(unknownProperty.contains("unknown property 'speed'") && unknownProperty.contains("rate"), unknownProperty);
    }

    @Test
    void everyProblemIsReportedAtOnce() {
        PipelineException e = assertThrows(PipelineException.class, () -> Pipelines.build(
                "element a : nosuch\nelement src : source { rate = x }\nelement s : sink\nsrc -> s\n", 1));
        assertEquals(2, e.problems().size(), e.getMessage());
    }

    @Test
    void anOverrideChangesTheRun() throws Exception {
        String p = "duration = 1ms\nelement src : source { rate = 1Gbit; size = 1518B }\nelement s : sink\nsrc -> s\n";
        double base = Pipelines.build(p, 1).run().elements.get("s").get("rxPackets");
        double doubled = Pipelines.build(p, 1, "src.rate=2Gbit").run().elements.get("s").get("rxPackets");
        assertEquals(2 * base, doubled, 1.0);
    }
}

package io.ringlab.pipeline.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.ringlab.sim.api.dto.ConnectionDTO;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.ValueDTO;

/**
 * Field-by-field comparison of pipelines, since the DTOs have no {@code equals}. Source positions (line, column) are
 * ignored: they describe where something was written, not what the pipeline means.
 */
final class PipelineAssertions {

    private PipelineAssertions() {
    }

    /** Asserts that two pipelines are equal in every semantic field and in their layout. */
    static void assertSamePipeline(PipelineDTO expected, PipelineDTO actual) {
        assertNotNull(actual, "pipeline");
        assertEquals(expected.file, actual.file, "file");
        assertEquals(expected.name, actual.name, "name");
        assertEquals(expected.description, actual.description, "description");
        assertSameValue(expected.duration, actual.duration, "duration");
        assertSameValue(expected.seed, actual.seed, "seed");
        assertSameValue(expected.profile, actual.profile, "profile");
        assertSameValue(expected.headline, actual.headline, "headline");
        assertEquals(expected.plot.size(), actual.plot.size(), "number of plot series");
        for (int i = 0; i < expected.plot.size(); i++) {
            assertSameValue(expected.plot.get(i), actual.plot.get(i), "plot series #" + i);
        }

        assertEquals(expected.elements.size(), actual.elements.size(), "number of elements");
        for (int i = 0; i < expected.elements.size(); i++) {
            ElementSpecDTO e = expected.elements.get(i);
            ElementSpecDTO a = actual.elements.get(i);
            String where = "element #" + i + " (" + e.name + ")";
            assertEquals(e.name, a.name, where + " name");
            assertEquals(e.type, a.type, where + " type");
            assertEquals(new ArrayList<>(e.properties.keySet()), new ArrayList<>(a.properties.keySet()),
                    where + " property names in order");
            for (Map.Entry<String, ValueDTO> p : e.properties.entrySet()) {
                assertSameValue(p.getValue(), a.properties.get(p.getKey()), where + " property " + p.getKey());
            }
        }

        assertEquals(expected.connections.size(), actual.connections.size(), "number of connections");
        for (int i = 0; i < expected.connections.size(); i++) {
            ConnectionDTO e = expected.connections.get(i);
            ConnectionDTO a = actual.connections.get(i);
            String where = "connection #" + i;
            assertEquals(e.from, a.from, where + " from");
            assertEquals(e.fromPort, a.fromPort, where + " fromPort");
            assertEquals(e.to, a.to, where + " to");
            assertEquals(e.toPort, a.toPort, where + " toPort");
        }

        assertEquals(new ArrayList<>(expected.layout.keySet()), new ArrayList<>(actual.layout.keySet()),
                "layout names in order");
        for (Map.Entry<String, double[]> l : expected.layout.entrySet()) {
            assertArrayEquals(l.getValue(), actual.layout.get(l.getKey()), "layout of " + l.getKey());
        }
    }

    static void assertSameValue(ValueDTO expected, ValueDTO actual, String what) {
        if (expected == null) {
            assertNull(actual, what);
            return;
        }
        assertNotNull(actual, what);
        assertEquals(expected.text, actual.text, what + " text");
        assertEquals(expected.quoted, actual.quoted, what + " quoted");
    }

    /** @return a value as the reader would make it, without a position */
    static ValueDTO value(String text, boolean quoted) {
        ValueDTO v = new ValueDTO(text, 0, 0);
        v.quoted = quoted;
        return v;
    }

    /** @return a bare value without a position */
    static ValueDTO bare(String text) {
        return value(text, false);
    }

    /** @return a new element spec with the given properties, as name/value pairs of bare values */
    static ElementSpecDTO element(String name, String type, String... props) {
        ElementSpecDTO e = new ElementSpecDTO();
        e.name = name;
        e.type = type;
        for (int i = 0; i < props.length; i += 2) {
            e.properties.put(props[i], bare(props[i + 1]));
        }
        return e;
    }

    /** @return a new connection; ports may be {@code null} */
    static ConnectionDTO connection(String from, String fromPort, String to, String toPort) {
        ConnectionDTO c = new ConnectionDTO();
        c.from = from;
        c.fromPort = fromPort;
        c.to = to;
        c.toPort = toPort;
        return c;
    }

    /** @return the problems of a PipelineException as {@code line:column: message} */
    static List<String> positions(io.ringlab.sim.api.PipelineException e) {
        List<String> out = new ArrayList<>();
        e.problems().forEach(p -> out.add(p.line + ":" + p.column + ": " + p.message));
        return out;
    }
}

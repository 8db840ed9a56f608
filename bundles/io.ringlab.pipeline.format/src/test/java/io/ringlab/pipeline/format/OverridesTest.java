package io.ringlab.pipeline.format;

import static io.ringlab.pipeline.format.PipelineAssertions.element;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.ProblemDTO;
import io.ringlab.sim.api.dto.ValueDTO;

class OverridesTest {

    @Test
    void parsesElementPropertyAndBareValue() {
        PropertyOverride o = Overrides.parse("eth0.bql=false");
        assertEquals("eth0", o.element());
        assertEquals("bql", o.property());
        assertEquals("false", o.value().text);
        assertFalse(o.value().quoted);
        assertEquals(0, o.value().line);
        assertEquals(10, o.value().column, "column is the value's offset in the argument + 1");
    }

    @Test
    void theElementEndsAtTheFirstDot() {
        PropertyOverride o = Overrides.parse("q.limit=1.5k");
        assertEquals("q", o.element());
        assertEquals("limit", o.property());
        assertEquals("1.5k", o.value().text);
        assertMessage("--set 'eth0.bql.limit=1': 'bql.limit' is not a property name: property names start with a "
                + "lower-case letter and contain only letters and digits; expected ELEMENT.PROPERTY=VALUE",
                "eth0.bql.limit=1");
    }

    @Test
    void theValueIsEverythingAfterTheFirstEquals() {
        PropertyOverride o = Overrides.parse("src.note=a=b.c->d");
        assertEquals("a=b.c->d", o.value().text);
        assertEquals(10, o.value().column);
    }

    @Test
    void namesMayUseDashesAndUnderscores() {
        PropertyOverride o = Overrides.parse("eth-0_rx.rate=100Gbit");
        assertEquals("eth-0_rx", o.element());
        assertEquals("rate", o.property());
        assertEquals("100Gbit", o.value().text);
    }

    @Test
    void quotedValuesFollowTheFileGrammar() {
        PropertyOverride o = Overrides.parse("src.label=\"eth0 \\\"rx\\\", \\\\ #1\"");
        assertEquals("eth0 \"rx\", \\ #1", o.value().text);
        assertTrue(o.value().quoted);
        assertEquals(11, o.value().column, "the column of the opening quote");
        assertEquals("", Overrides.parse("a.b=\"\"").value().text);
    }

    @Test
    void rejectsArgumentsWithoutElementDotProperty() {
        assertMessage("--set 'eth0bql=true': expected ELEMENT.PROPERTY=VALUE", "eth0bql=true");
        assertMessage("--set 'eth0.bql': expected ELEMENT.PROPERTY=VALUE", "eth0.bql");
        assertMessage("--set 'q=a.b': expected ELEMENT.PROPERTY=VALUE", "q=a.b");
        assertMessage("--set '': expected ELEMENT.PROPERTY=VALUE", "");
        assertMessage("--set '.limit=1': expected ELEMENT.PROPERTY=VALUE (the element name is missing)", ".limit=1");
        assertMessage("--set 'q.=1': expected ELEMENT.PROPERTY=VALUE (the property name is missing)", "q.=1");
    }

    @Test
    void rejectsBadNames() {
        assertMessage("--set '9q.limit=1': '9q' is not an element name: names start with a letter and contain only "
                + "letters, digits, '_' and '-'; expected ELEMENT.PROPERTY=VALUE", "9q.limit=1");
        assertMessage("--set 'q.Limit=1': 'Limit' is not a property name: property names start with a lower-case "
                + "letter and contain only letters and digits; expected ELEMENT.PROPERTY=VALUE", "q.Limit=1");
        assertMessage("--set 'q.limit =1': 'limit ' is not a property name: property names start with a lower-case "
                + "letter and contain only letters and digits; expected ELEMENT.PROPERTY=VALUE", "q.limit =1");
    }

    @Test
    void rejectsEmptyAndUnquotableValues() {
        assertMessage("--set 'q.limit=': expected a value after '='; expected ELEMENT.PROPERTY=VALUE", "q.limit=");
        assertMessage("--set 'src.label=eth0 rx': the value 'eth0 rx' contains blank space, which ends a bare value: "
                + "quote it, as in src.label=\"eth0 rx\"", "src.label=eth0 rx");
        assertMessage("--set 'q.x=a,b': the value 'a,b' contains ',', which ends a bare value: quote it, as in "
                + "q.x=\"a,b\"", "q.x=a,b");
        assertMessage("--set 'q.x=\"open': unterminated string: expected '\"' at the end", "q.x=\"open");
        assertMessage("--set 'q.x=\"a\"b': unexpected 'b' after the closing '\"'", "q.x=\"a\"b");
        assertMessage("--set 'q.x=\"a\\qb\"': unknown escape '\\q' in a string: use \\\", \\\\, \\n, \\r and \\t",
                "q.x=\"a\\qb\"");
    }

    @Test
    void appliesOverridesInOrderReplacingOrAdding() throws PipelineException {
        PipelineDTO p = pipeline();
        Overrides.apply(p, List.of("q.limit=10", "src.flows=8", "q.limit=20", "src.label=\"a b\""));
        assertEquals(List.of("limit", "burst"), List.copyOf(p.elements.get(1).properties.keySet()),
                "a replaced property keeps its place");
        ValueDTO limit = p.elements.get(1).properties.get("limit");
        assertEquals("20", limit.text, "the later override wins");
        assertEquals(0, limit.line);
        assertEquals(9, limit.column);
        assertEquals(List.of("rate", "flows", "label"), List.copyOf(p.elements.get(0).properties.keySet()));
        assertEquals("8", p.elements.get(0).properties.get("flows").text);
        assertTrue(p.elements.get(0).properties.get("label").quoted);
    }

    @Test
    void applyingNothingChangesNothing() throws PipelineException {
        PipelineDTO p = pipeline();
        Overrides.apply(p, List.of());
        assertEquals("1000", p.elements.get(1).properties.get("limit").text);
    }

    @Test
    void anUnknownElementListsTheElementsAndNothingIsApplied() {
        PipelineDTO p = pipeline();
        PipelineException e = assertThrows(PipelineException.class,
                () -> Overrides.apply(p, List.of("q.limit=5", "qq.limit=5", "eth0bql=1")));
        assertEquals(2, e.problems().size());
        ProblemDTO unknown = e.problems().get(0);
        assertEquals("p.ring", unknown.file);
        assertEquals(0, unknown.line);
        assertEquals("--set 'qq.limit=5': no element 'qq' in the pipeline (did you mean 'q'?); elements: src, q", unknown.message);
        assertEquals("--set 'eth0bql=1': expected ELEMENT.PROPERTY=VALUE", e.problems().get(1).message);
        assertEquals("p.ring: --set 'qq.limit=5': no element 'qq' in the pipeline (did you mean 'q'?); elements: src, q\n"
                + "p.ring: --set 'eth0bql=1': expected ELEMENT.PROPERTY=VALUE", e.getMessage());
        assertEquals("1000", p.elements.get(1).properties.get("limit").text, "the valid override was not applied");
    }

    @Test
    void thePropertyNameIsNotCheckedAgainstTheType() throws PipelineException {
        PipelineDTO p = pipeline();
        Overrides.apply(p, List.of("q.noSuchProperty=1"));
        assertEquals("1", p.elements.get(1).properties.get("noSuchProperty").text);
    }

    private static PipelineDTO pipeline() {
        PipelineDTO p = new PipelineDTO();
        p.file = "p.ring";
        p.elements.add(element("src", "source", "rate", "1Gbit", "flows", "4"));
        p.elements.add(element("q", "pfifo", "limit", "1000", "burst", "10"));
        return p;
    }

    private static void assertMessage(String expected, String arg) {
        OverrideException e = assertThrows(OverrideException.class, () -> Overrides.parse(arg));
        assertEquals(expected, e.getMessage());
    }
}

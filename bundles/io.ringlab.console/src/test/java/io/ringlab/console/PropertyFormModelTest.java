package io.ringlab.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringlab.console.PropertyFormModel.Control;
import io.ringlab.console.PropertyFormModel.Field;
import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.pipeline.format.PipelineWriter;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO.Kind;

class PropertyFormModelTest {
    private static final String FILE = """
            name = "t"
            element q : pfifo { limit = 1000 }
            element eth0 : netdev {
                bql = false
            }
            element x : mystery
            q -> eth0 -> x
            """;

    private static List<ElementDescriptorDTO> types() {
        ElementDescriptorDTO pfifo = new ElementDescriptorDTO();
        pfifo.type = "pfifo";
        pfifo.properties.add(PropertyDescriptorDTO.of("limit", Kind.INTEGER, "1000", "1", "1000000", "packets"));
        ElementDescriptorDTO netdev = new ElementDescriptorDTO();
        netdev.type = "netdev";
        netdev.properties.add(PropertyDescriptorDTO.of("bql", Kind.BOOLEAN, "false", null, null, "Byte Queue Limits"));
        netdev.properties.add(PropertyDescriptorDTO.of("bqlHoldTime", Kind.DURATION, "1s", "0s", "60s", "hold time"));
        netdev.properties.add(PropertyDescriptorDTO.of("rate", Kind.RATE, "1Gbit", "1bit", null, "line rate"));
        netdev.properties.add(PropertyDescriptorDTO.of("mtu", Kind.SIZE, "1500B", null, "9000B", "MTU"));
        netdev.properties.add(PropertyDescriptorDTO.of("weight", Kind.DECIMAL, "0.5", "0", "1", "a share"));
        netdev.properties.add(PropertyDescriptorDTO.of("label", Kind.STRING, "eth", null, null, "a label"));
        netdev.properties.add(PropertyDescriptorDTO.choice("kernel", "v4.6", List.of("v4.6", "current"), "kernel"));
        return List.of(pfifo, netdev);
    }

    private static PropertyFormModel model() throws Exception {
        return new PropertyFormModel(PipelineReader.read("t.pipeline", FILE), types());
    }

    @Test
    void eachKindGetsItsControlUnitDefaultAndRange() throws Exception {
        List<Field> f = model().fields("eth0");
        assertEquals(List.of("bql", "bqlHoldTime", "rate", "mtu", "weight", "label", "kernel"), f.stream().map(Field::name).toList());
        assertEquals(Control.CHECKBOX, f.get(0).control());
        assertEquals("default false", f.get(0).hint());
        assertEquals(Control.TEXT, f.get(1).control());
        assertEquals("ps ns us ms s; default 1s; 0s to 60s", f.get(1).hint());
        assertEquals("bit kbit Mbit Gbit Tbit, or bps kbps Mbps Gbps; default 1Gbit; 1bit or more", f.get(2).hint());
        assertEquals("B KB MB GB, or KiB MiB GiB; default 1500B; at most 9000B", f.get(3).hint());
        assertEquals(Control.CHOICE, f.get(6).control());
        assertEquals(List.of("v4.6", "current"), f.get(6).options());
        assertEquals("default v4.6", f.get(6).hint());
    }

    @Test
    void aRateShowsItsParsedValueInBitsPerSecond() throws Exception {
        PropertyFormModel m = model();
        assertEquals("= 1 Gbit/s", m.parsed("eth0", "rate"), "the default");
        assertNull(m.edit("eth0", "rate", "100Mbps"));
        assertEquals("= 800 Mbit/s", m.parsed("eth0", "rate"), "tc's bytes per second, times 8");
        assertNull(m.edit("eth0", "rate", "1.5Mbit"));
        assertEquals("= 1.5 Mbit/s", m.parsed("eth0", "rate"));
        m.edit("eth0", "rate", "100Mbt");
        assertEquals("", m.parsed("eth0", "rate"), "invalid text shows its error instead");
        assertEquals("", m.parsed("eth0", "mtu"), "not a rate");
    }

    @Test
    void anElementOfAnUnknownTypeHasNoFields() throws Exception {
        PropertyFormModel m = model();
        assertTrue(m.fields("x").isEmpty());
        assertNull(m.descriptor("x"));
        assertTrue(m.fields("nosuch").isEmpty());
    }

    @Test
    void fieldsShowTheWrittenValueOrEmptyForTheDefault() throws Exception {
        PropertyFormModel m = model();
        assertEquals("false", m.text("eth0", "bql"));
        assertEquals("", m.text("eth0", "bqlHoldTime"));
        assertEquals("1s", m.effective("eth0", "bqlHoldTime"));
        assertFalse(m.edited());
    }

    @Test
    void aValidValueIsWrittenIntoThePipelineInTheFileGrammar() throws Exception {
        PropertyFormModel m = model();
        assertNull(m.edit("eth0", "bql", "true"));
        assertNull(m.edit("eth0", "bqlHoldTime", " 150ms "));
        assertNull(m.edit("q", "limit", "2k"));
        PipelineDTO p = m.pipeline();
        assertEquals("true", p.elements.get(1).properties.get("bql").text);
        assertEquals("150ms", p.elements.get(1).properties.get("bqlHoldTime").text);
        assertEquals("2k", p.elements.get(0).properties.get("limit").text);
        assertEquals(4, p.elements.get(1).properties.get("bql").line, "an edited value keeps its position in the file");
        assertTrue(m.edited());
        assertEquals(List.of("eth0.bql=true", "eth0.bqlHoldTime=150ms", "q.limit=2k"), m.changes());
        String written = PipelineWriter.write(p);
        assertTrue(written.contains("bql = true") && written.contains("bqlHoldTime = 150ms") && written.contains("limit = 2k"), written);
    }

    @Test
    void invalidTextIsKeptWithAMessageNamingThePropertyAndWhatIsAllowed() throws Exception {
        PropertyFormModel m = model();
        assertEquals("q.limit=0 is out of range: allowed 1 to 1000000", m.edit("q", "limit", "0"));
        assertEquals("0", m.text("q", "limit"), "the field keeps what the user typed");
        assertEquals("1000", m.pipeline().elements.get(0).properties.get("limit").text, "the pipeline keeps its last valid value");
        String unit = m.edit("eth0", "bqlHoldTime", "150");
        assertTrue(unit.startsWith("eth0.bqlHoldTime: '150' is not a duration: the unit is missing; write a number followed by ps, ns"), unit);
        String bool = m.edit("eth0", "weight", "2");
        assertEquals("eth0.weight=2 is out of range: allowed 0 to 1", bool);
        String rate = m.edit("eth0", "rate", "fast");
        assertTrue(rate.startsWith("eth0.rate: 'fast' is not a rate: write a number followed by bit, kbit"), rate);
        assertEquals(List.of(m.error("q", "limit"), unit, bool, rate), m.errors());

        assertNull(m.edit("q", "limit", "500"), "correcting the text clears the error");
        assertNull(m.error("q", "limit"));
        assertEquals(3, m.errors().size());
        m.reset("eth0", "bqlHoldTime");
        m.reset("eth0", "weight");
        m.reset("eth0", "rate");
        assertTrue(m.errors().isEmpty());
    }

    @Test
    void choicesAndBooleansOnlyTakeTheirValues() throws Exception {
        PropertyFormModel m = model();
        assertEquals("eth0.kernel: 'v5' is not one of the allowed values: v4.6, current", m.edit("eth0", "kernel", "v5"));
        assertNull(m.edit("eth0", "kernel", "current"));
        assertEquals("eth0.bql: 'yes' is not a boolean: write true or false", m.edit("eth0", "bql", "yes"));
        assertNull(m.edit("eth0", "label", "rx queue 0"));
        assertTrue(m.pipeline().elements.get(1).properties.get("label").quoted, "strings are written quoted");
    }

    @Test
    void anEmptyFieldOrResetRemovesThePropertySoTheDefaultApplies() throws Exception {
        PropertyFormModel m = model();
        assertNull(m.edit("q", "limit", ""));
        assertFalse(m.pipeline().elements.get(0).properties.containsKey("limit"));
        assertEquals("1000", m.effective("q", "limit"));
        assertEquals(List.of("q.limit=default"), m.changes());
        m.reset("eth0", "bql");
        assertFalse(m.pipeline().elements.get(1).properties.containsKey("bql"));
        assertNull(m.edit("eth0", "bql", "false"), "a value equal to the default is kept as written");
        assertEquals("false", m.pipeline().elements.get(1).properties.get("bql").text);
    }

    @Test
    void editsOfUnknownElementsOrPropertiesAreRefused() throws Exception {
        PropertyFormModel m = model();
        assertThrows(IllegalArgumentException.class, () -> m.edit("nosuch", "limit", "1"));
        assertThrows(IllegalArgumentException.class, () -> m.edit("q", "nosuch", "1"));
        assertThrows(IllegalArgumentException.class, () -> m.edit("x", "limit", "1"));
    }
}

package io.ringlab.pipeline.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.ProblemDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO.Kind;

/** A rate in tc's bytes per second is named in bit/s with its spelling in bits; other values get no warning. */
class ByteRatesTest {
    @Test
    void byteRatesAreNamedInBitsPerSecond() {
        assertEquals("100Mbps is 800 Mbit/s (tc's bytes per second); write 100Mbit for megabits",
                ByteRates.note("100Mbps"));
        assertEquals("125kbps is 1 Mbit/s (tc's bytes per second); write 125kbit for kilobits", ByteRates.note("125kbps"));
        assertEquals("1.5gbps is 12 Gbit/s (tc's bytes per second); write 1.5Gbit for gigabits", ByteRates.note("1.5gbps"));
        assertEquals("3bps is 24 bit/s (tc's bytes per second); write 3bit for bits", ByteRates.note("3bps"));
    }

    @Test
    void bitRatesAndOtherTextsHaveNone() {
        assertNull(ByteRates.note("100Mbit"));
        assertNull(ByteRates.note("100Mbit/s"));
        assertNull(ByteRates.note("Mbps"));
        assertNull(ByteRates.note("64B"));
    }

    @Test
    void aFileNamesTheValuesPositionAndOnlyRateProperties() throws Exception {
        PipelineDTO p = PipelineReader.read("x.pipeline", """
                element src : source {
                    rate = 100Mbps
                    name = 1Mbps
                }
                element sink : sink
                src -> sink
                """);
        Map<String, ElementDescriptorDTO> types = Map.of("source", type("rate", Kind.RATE, "name", Kind.STRING));
        List<ProblemDTO> notes = ByteRates.in(p, types::get);
        assertEquals(1, notes.size(), notes.toString());
        assertEquals("x.pipeline:2:12: element src: rate = 100Mbps is 800 Mbit/s (tc's bytes per second); write 100Mbit"
                + " for megabits", notes.get(0).toString());
        assertEquals("2Gbps is 16 Gbit/s (tc's bytes per second); write 2Gbit for gigabits",
                ByteRates.inOverride(p, "src.rate=2Gbps", types::get));
        assertNull(ByteRates.inOverride(p, "src.rate=2Gbit", types::get));
        assertNull(ByteRates.inOverride(p, "src.name=2Gbps", types::get), "not a rate property");
        assertNull(ByteRates.inOverride(p, "sink.rate=2Gbps", types::get), "a type not known");
    }

    private static ElementDescriptorDTO type(Object... nameKind) {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        for (int i = 0; i < nameKind.length; i += 2) {
            PropertyDescriptorDTO p = new PropertyDescriptorDTO();
            p.name = (String) nameKind[i];
            p.kind = (Kind) nameKind[i + 1];
            d.properties.add(p);
        }
        return d;
    }
}

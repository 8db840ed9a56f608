package io.ringlab.pipeline.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A metric's unit comes from its name's suffix, or from the whole name when the name is the suffix alone. */
class MetricUnitsTest {
    @Test
    void unitsFromSuffixes() {
        assertEquals("ms", MetricUnits.unitOf("rttP50Millis"));
        assertEquals("Mpps", MetricUnits.unitOf("rxMpps"));
        assertEquals("conn/s", MetricUnits.unitOf("connPerSecond"), "the suffix alone, in lower case");
        assertEquals("conn/s", MetricUnits.unitOf("acceptedConnPerSecond"));
        assertEquals("packets", MetricUnits.unitOf("packets"));
        assertEquals("", MetricUnits.unitOf("connections"));
        assertEquals("", MetricUnits.unitOf("perSecond"), "not a suffix of the list");
    }
}

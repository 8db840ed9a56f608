package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A metric's unit comes from its name's suffix, or from the whole name when the name is the suffix alone. */
class HeadlinesTest {
    @Test
    void unitsFromSuffixes() {
        assertEquals("ms", Headlines.unitOf("rttP50Millis"));
        assertEquals("Mpps", Headlines.unitOf("rxMpps"));
        assertEquals("conn/s", Headlines.unitOf("connPerSecond"), "the suffix alone, in lower case");
        assertEquals("conn/s", Headlines.unitOf("acceptedConnPerSecond"));
        assertEquals("packets", Headlines.unitOf("packets"));
        assertEquals("", Headlines.unitOf("connections"));
        assertEquals("", Headlines.unitOf("perSecond"), "not a suffix of the list");
    }
}

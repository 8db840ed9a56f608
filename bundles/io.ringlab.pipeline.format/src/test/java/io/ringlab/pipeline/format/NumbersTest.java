package io.ringlab.pipeline.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** {@link Numbers}: numbers as people read them, and exact ones for scripts without float noise. */
class NumbersTest {
    @Test
    void countsAndLargeValuesAreIntegersWithSeparators() {
        assertEquals("50,001,838", Numbers.human(50_001_838));
        assertEquals("50,000,000", Numbers.human(5.00000004e7), "never 5.000e+07");
        assertEquals("15,390", Numbers.human(15_390.4), "never 1.539e+04");
        assertEquals("17,500", Numbers.human(17_499.6), "never 1.750e+04");
        assertEquals("0", Numbers.human(0));
        assertEquals("-1,200", Numbers.human(-1_200));
    }

    @Test
    void smallValuesGetFourSignificantDigitsWithoutTrailingZeros() {
        assertEquals("984.3", Numbers.human(984.28168));
        assertEquals("22.3", Numbers.human(22.300000000000001));
        assertEquals("0.08126", Numbers.human(0.0812576));
        assertEquals("0.0000012", Numbers.human(1.2e-6), "plain, never scientific");
        assertEquals("n/a", Numbers.human(Double.NaN));
    }

    @Test
    void exactValuesDropFloatNoiseAndPrintWholeValuesAsIntegers() {
        assertEquals("787.21944", Numbers.exact(787.2194399999998));
        assertEquals("19680486", Numbers.exact(1.9680486E7));
        assertEquals("0.1", Numbers.exact(0.1 + 0.2 - 0.2));
        assertEquals("2.56789012345678", Numbers.exact(2.56789012345678));
        assertEquals("NaN", Numbers.exact(Double.NaN));
    }
}

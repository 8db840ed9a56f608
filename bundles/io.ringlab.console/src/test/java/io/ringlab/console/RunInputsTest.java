package io.ringlab.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.dto.RunOptionsDTO;

class RunInputsTest {
    @Test
    void emptyFieldsTakeThePipelinesOwnValues() {
        RunOptionsDTO o = RunInputs.options(" ", "", 0);
        assertEquals(0, o.durationPicos);
        assertNull(o.seed);
        assertEquals(0.0, o.realTimeFactor);
        assertEquals(100, o.snapshotIntervalMillis);
    }

    @Test
    void fieldsUseThePipelineGrammar() {
        RunOptionsDTO o = RunInputs.options("20ms", " 42 ", 3);
        assertEquals(20_000_000_000L, o.durationPicos);
        assertEquals(42L, o.seed);
        assertEquals(0.01, o.realTimeFactor);
    }

    @Test
    void theSeedTakesTheIntegerGrammarOfPipelineFiles() {
        assertEquals(16L, RunInputs.options("", "0x10", 0).seed);
        assertEquals(10_000L, RunInputs.options("", " 10k ", 0).seed);
        assertEquals(1_000L, RunInputs.options("", "1_000", 0).seed);
    }

    @Test
    void badFieldsAreNamedInTheMessage() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RunInputs.options("20 parsecs", "", 0)).getMessage().startsWith("Duration: "));
        assertEquals("Duration: must be more than 0s", assertThrows(IllegalArgumentException.class, () -> RunInputs.options("0s", "", 0)).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RunInputs.options("", "x1", 0)).getMessage()
                .startsWith("Seed: 'x1' is not an integer: write decimal digits"));
        assertThrows(IllegalArgumentException.class, () -> RunInputs.options("", "", RunInputs.SPEEDS.size()));
    }
}

package io.ringlab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO.Kind;

/** {@link SweepRange}: ranges expanded exactly in each kind's base unit and written back in its grammar. */
class SweepRangeTest {
    private static List<String> expand(Kind kind, String min, String max, String range) {
        return SweepRange.expand(PropertyDescriptorDTO.of("p", kind, null, min, max, "test"), range, 1000);
    }

    @Test
    void integersCountByOneWithoutAStepAndMultiplyOrAdd() {
        assertEquals(List.of("3", "4", "5"), expand(Kind.INTEGER, null, null, "3..5"));
        assertEquals(List.of("64", "128", "256", "512", "1024"), expand(Kind.INTEGER, "1", "4096", "64..1024 *2"));
        assertEquals(List.of("64", "128", "256"), expand(Kind.INTEGER, "1", "4096", "64..511*2"), "ends below HIGH");
        assertEquals(List.of("10", "35", "60"), expand(Kind.INTEGER, null, null, "10..60 +25"));
        assertEquals(List.of("2", "3", "5", "8", "12"), expand(Kind.INTEGER, null, null, "2..12 *1.5"),
                "each product rounded half-up");
    }

    @Test
    void durationsRatesAndSizesAreExactInTheirBaseUnit() {
        assertEquals(List.of("1ms", "1.5ms", "2ms"), expand(Kind.DURATION, null, null, "1ms..2ms +500us"));
        assertEquals(List.of("100Mbit", "200Mbit", "300Mbit"), expand(Kind.RATE, null, null, "100Mbit..300Mbit +100Mbit"));
        assertEquals(List.of("1Gbit", "10Gbit", "100Gbit"), expand(Kind.RATE, null, null, "1Gbit..100Gbit *10"));
        assertEquals(List.of("64B", "128B", "256B"), expand(Kind.SIZE, null, null, "64B..256B *2"));
    }

    @Test
    void decimalsAccumulateNoRoundingError() {
        assertEquals(List.of("0.1", "0.2", "0.3", "0.4", "0.5"), expand(Kind.DECIMAL, null, null, "0.1..0.5 +0.1"));
    }

    @Test
    void tooManyValuesAndStepsThatDoNotAdvanceAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> expand(Kind.INTEGER, null, null, "1..5000"));
        assertEquals("the range 1..5000 has more than 1,000 values: take a larger step", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> expand(Kind.RATE, null, null, "1Gbit..2Gbit +0bit"));
        assertEquals("the step +0bit does not advance: give a step more than 0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> expand(Kind.INTEGER, null, null, "0..8 *2"));
        assertEquals("a geometric range starts above 0, not at 0", e.getMessage());
    }
}

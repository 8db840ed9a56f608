package io.ringlab.pipeline.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

/** {@link Syntax#didYouMean}: the names closest to a misspelt one, or nothing when none is close. */
class DidYouMeanTest {
    private static final List<String> TYPES = List.of("pfifo", "pfifo_fast", "fq_codel", "netdev", "stmmac", "mlx5", "mlx4",
            "mvneta", "source", "sink", "ping", "host", "tcp", "link");

    @Test
    void aTypoGetsTheClosestName() {
        assertEquals(" (did you mean 'pfifo'?)", Syntax.didYouMean("pfifoo", TYPES));
        assertEquals(" (did you mean 'stmmac'?)", Syntax.didYouMean("stmamc", TYPES), "a swap of neighbours is one edit");
        assertEquals(" (did you mean 'netdev'?)", Syntax.didYouMean("NetDev2", TYPES), "case is ignored");
    }

    @Test
    void tiesAreAllNamedAndFarNamesNone() {
        assertEquals(" (did you mean 'mlx5' or 'mlx4'?)", Syntax.didYouMean("mlx6", TYPES));
        assertEquals("", Syntax.didYouMean("ixgbe", TYPES));
        assertEquals("", Syntax.didYouMean("pfifo", TYPES), "an exact name is not misspelt");
        assertEquals("", Syntax.didYouMean("c", List.of("a", "b")), "a one-letter name shares nothing with another");
        assertEquals(" (did you mean 'q'?)", Syntax.didYouMean("qq", List.of("src", "q")));
    }

    @Test
    void aPartOfANameFindsItWhenNothingIsClose() {
        assertEquals(" (did you mean 'fq_codel'?)", Syntax.didYouMean("codel", TYPES));
    }

    @Test
    void distanceCountsEdits() {
        assertEquals(0, Syntax.distance("eth0", "eth0"));
        assertEquals(1, Syntax.distance("eth0", "eht0"));
        assertEquals(1, Syntax.distance("eth0", "eth"));
        assertEquals(2, Syntax.distance("eth0", "wth1"));
    }
}

package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.PipelineException;

/** With every model installed: a misspelt type, property or element gets a "did you mean", and one error, not many. */
class DidYouMeanTest {
    private static final String BQL = """
            element src : source { rate = 1.2Gbit; size = 1518B }
            element q : pfifo { limit = 1000 }
            element eth0 : netdev { ring = 256; bql = false }
            element wire : link { rate = 1Gbit; delay = 10us }
            element sink : sink
            src -> q -> eth0 -> wire -> sink
            """;

    private static String error(String text, String... sets) {
        return assertThrows(PipelineException.class, () -> Pipelines.build(text, 1, sets)).getMessage();
    }

    @Test
    void aMisspeltTypeIsOneErrorWithTheClosestType() {
        String m = error(BQL.replace(": pfifo {", ": pfifoo {"));

        assertTrue(m.startsWith("test.pipeline:2:1: unknown element type 'pfifoo' (did you mean 'pfifo'?) for element q;"), m);
        assertEquals(1, m.lines().count(), "no knock-on errors of the ports next to it: " + m);
    }

    @Test
    void aMisspeltPropertyOrSetGetsTheClosestName() {
        assertTrue(error(BQL.replace("bql = false", "bq1 = false")).contains("unknown property 'bq1' (did you mean 'bql'?)"));
        assertTrue(error(BQL, "eht0.bql=true").contains("no element 'eht0' in the pipeline (did you mean 'eth0'?)"));
    }

    @Test
    void aHeadlineNamingNoMetricIsAnErrorWithTheClosestMetric() {
        String m = error("headline = eth0.ringUsd\n" + BQL);

        assertTrue(m.startsWith("test.pipeline:1:12: headline eth0.ringUsd: eth0 reports no metric 'ringUsd' (did you mean"
                + " 'ringUsed'?); its metrics: "), m);
    }

    @Test
    void aHeadlineMayNameMetricsThatExistOnlyOnceThePipelineIsBuiltOrHasSamples() throws Exception {
        for (String h : new String[] {"sink.latencyP99Micros", "pool:src.pool.allocs", "eth0.cpuCycles", "eth0.limit"}) {
            Pipelines.build("headline = " + h + "\n" + BQL, 1); // no exception
        }
        String m = error("headline = pool:src.pol.allocs\n" + BQL);
        assertTrue(m.contains("nothing named pool:src.pol reports metrics (did you mean 'pool:src.pool'?)"), m);
    }
}

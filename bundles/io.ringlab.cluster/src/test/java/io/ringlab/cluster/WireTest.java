package io.ringlab.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ringlab.experiment.api.dto.RunTaskDTO;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.SeriesDTO;
import io.ringlab.sim.api.dto.ValueDTO;

/** What crosses the network reads back bit for bit: the cluster's results equal a local run's. */
class WireTest {

    static RunResultDTO result() {
        RunResultDTO r = new RunResultDTO();
        r.ringlabVersion = "0.2.0";
        r.seed = Long.MAX_VALUE;
        r.state = "FINISHED";
        r.simulatedSeconds = 0.1 + 0.2; // 0.30000000000000004: the shortest text that reads back to its bits
        Map<String, Double> q = new LinkedHashMap<>();
        q.put("nan", Double.NaN);
        q.put("inf", Double.POSITIVE_INFINITY);
        q.put("minusInf", Double.NEGATIVE_INFINITY);
        q.put("minusZero", -0.0);
        q.put("tiny", Double.MIN_VALUE);
        q.put("none", null);
        r.elements.put("q", q);
        r.warnings.put("w", Long.MIN_VALUE);
        r.series = new SeriesDTO();
        r.series.intervalSeconds = 1e-3;
        r.series.columns.add("q.backlog");
        r.series.rows.add(new double[] {0.001, Math.PI});
        return r;
    }

    @Test
    void aResultReadsBackBitForBit() {
        RunResultDTO r = result();
        RunResultDTO back = Wire.answer(Wire.answer("10.0.0.1:5701", r, null)).result();
        assertEquals(Double.doubleToRawLongBits(r.simulatedSeconds), Double.doubleToRawLongBits(back.simulatedSeconds));
        Map<String, Double> q = back.elements.get("q");
        assertEquals(Double.NaN, q.get("nan"));
        assertEquals(Double.POSITIVE_INFINITY, q.get("inf"));
        assertEquals(Double.NEGATIVE_INFINITY, q.get("minusInf"));
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(q.get("minusZero")));
        assertEquals(Double.MIN_VALUE, q.get("tiny"));
        assertNull(q.get("none"));
        assertEquals(true, q.containsKey("none"), "a metric without a value stays named");
        assertEquals(Long.MAX_VALUE, back.seed);
        assertEquals(Long.MIN_VALUE, back.warnings.get("w"));
        assertArrayEquals(r.series.rows.get(0), back.series.rows.get(0));
        assertEquals(Wire.answer("w", r, null), Wire.answer("w", back, null), "the same text again");
    }

    @Test
    void anErrorTravelsWithoutAResult() {
        Wire.Answer a = Wire.answer(Wire.answer("10.0.0.1:5701", null, "refused: bundle x differs"));
        assertEquals(false, a.unfit());
        assertEquals(true, Wire.answer(Wire.answer("w", null, "cannot use plug-in x", true)).unfit());
        assertNull(a.result());
        assertEquals("refused: bundle x differs", a.error());
        assertEquals("10.0.0.1:5701", a.worker());
    }

    @Test
    void aTaskReadsBackWhole() {
        RunTaskDTO t = new RunTaskDTO();
        t.key = "ab".repeat(32);
        t.experiment = "e";
        t.variant = "on";
        t.seed = 7;
        t.pipeline = new PipelineDTO();
        ElementSpecDTO e = new ElementSpecDTO();
        e.name = "q";
        e.type = "pfifo";
        e.properties.put("limit", new ValueDTO("1000", 3, 5));
        e.properties.put("name", quoted("x\"y"));
        t.pipeline.elements.add(e);
        t.pipeline.layout.put("q", new double[] {1.5, -2});
        t.options = new RunOptionsDTO();
        t.options.seed = 7L;
        t.options.durationPicos = 30_000_000_000L;
        t.options.overrides.add("q.limit=10");
        t.bundles.put("io.ringlab.engine", "0.2.0#abc");
        Wire.Task sent = Wire.task(Wire.task(t, java.util.List.of("com.acme.x@1.0.0#00ff")));
        RunTaskDTO back = sent.run();
        assertEquals(java.util.List.of("com.acme.x@1.0.0#00ff"), sent.plugins());
        assertEquals(Wire.task(t, java.util.List.of()), Wire.task(back, java.util.List.of()));
        assertEquals("x\"y", back.pipeline.elements.get(0).properties.get("name").text);
        assertEquals(true, back.pipeline.elements.get(0).properties.get("name").quoted);
        assertEquals(7L, back.options.seed);
    }

    @Test
    void garbageIsNotAnAnswer() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Wire.answer("[1, 2"));
        assertEquals(true, e.getMessage().startsWith("a worker's answer is not readable"), e.getMessage());
    }

    private static ValueDTO quoted(String text) {
        ValueDTO v = new ValueDTO(text, 1, 1);
        v.quoted = true;
        return v;
    }
}

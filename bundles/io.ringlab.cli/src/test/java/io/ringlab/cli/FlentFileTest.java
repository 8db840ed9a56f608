package io.ringlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.PointsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.SeriesDTO;
import io.ringlab.sim.api.dto.ValueDTO;

/** Which flent test a pipeline is, and the file's shape; FlentTest (workspace-tests/osgi) has flent itself read it. */
class FlentFileTest {

    private static PipelineDTO pipeline(String... typesAndStreams) {
        PipelineDTO p = new PipelineDTO();
        p.file = "x.pipeline";
        for (String t : typesAndStreams) {
            ElementSpecDTO e = new ElementSpecDTO();
            String[] parts = t.split("=");
            e.type = parts[0];
            e.name = parts[0] + p.elements.size();
            if (parts.length > 1) {
                e.properties.put("streams", new ValueDTO(parts[1], 1, 1));
            }
            p.elements.add(e);
        }
        return p;
    }

    @Test
    void thePipelinesElementsChooseFlentsTest() {
        assertEquals("ping", FlentFile.plan(pipeline("ping")).test());
        FlentFile.Plan one = FlentFile.plan(pipeline("tcp", "ping"));
        assertEquals("tcp_1up", one.test());
        assertEquals("TCP upload", one.streamSeries(0));
        FlentFile.Plan four = FlentFile.plan(pipeline("tcp=4", "ping"));
        assertEquals("tcp_4up", four.test());
        assertEquals(List.of("tcp0.stream0AckedBytes", "tcp0.stream1AckedBytes", "tcp0.stream2AckedBytes",
                "tcp0.stream3AckedBytes"), four.streams());
        assertEquals("TCP upload::4", four.streamSeries(3));
        FlentFile.Plan three = FlentFile.plan(pipeline("tcp=2", "tcp", "ping"));
        assertEquals("tcp_nup", three.test());
        assertEquals(Map.of("upload_streams", "3"), three.parameters());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FlentFile.plan(pipeline("tcp")));
        assertEquals("--flent: x.pipeline has no ping element: flent's ping and tcp_*up tests all have a ping series (Ping"
                + " (ms) ICMP); add a ping element", e.getMessage());
    }

    @Test
    void tcpBothWaysWithFourClassesAndFourPingsIsRrul() throws Exception {
        java.nio.file.Path dir = java.nio.file.Path.of("").toAbsolutePath();
        while (!java.nio.file.Files.isDirectory(dir.resolve("pipelines"))) {
            dir = dir.getParent(); // the repository, above this module
        }
        String text = java.nio.file.Files.readString(dir.resolve("pipelines/stmmac-rrul-100m.pipeline"));
        FlentFile.Plan rrul = FlentFile.plan(io.ringlab.pipeline.format.PipelineReader.read("rrul.pipeline", text));
        assertEquals("rrul", rrul.test());
        assertEquals(List.of("TCP upload BE", "TCP upload BK", "TCP upload CS5", "TCP upload EF", "TCP download BE",
                "TCP download BK", "TCP download CS5", "TCP download EF"), rrul.tcp().stream().map(FlentFile.Series::name)
                        .toList());
        assertEquals(List.of("up_be.stream0AckedBytes", "up_bk.stream0AckedBytes", "up_cs5.stream0AckedBytes",
                "up_ef.stream0AckedBytes", "dn_be.stream0AckedBytes", "dn_bk.stream0AckedBytes", "dn_cs5.stream0AckedBytes",
                "dn_ef.stream0AckedBytes"), rrul.streams());
        assertEquals(List.of("Ping (ms) ICMP=ping", "Ping (ms) UDP EF=ping_ef", "Ping (ms) UDP BK=ping_bk",
                "Ping (ms) UDP BE=ping_be"), rrul.pings().stream().map(p -> p.name() + "=" + p.source()).toList());
        // a download missing its class: refused, saying what rrul needs and what is missing
        String noEf = text.replace("element dn_ef : tcp { kernel = v3.19; congestion = cubic; tos = 0xb8 }",
                "element dn_ef : tcp { kernel = v3.19; congestion = cubic; tos = 0x10 }");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FlentFile.plan(
                io.ringlab.pipeline.format.PipelineReader.read("rrul.pipeline", noEf)));
        assertTrue(e.getMessage().startsWith("--flent: rrul.pipeline sends TCP both ways (downloads: [dn_be, dn_bk, dn_cs5,"
                + " dn_ef]), which is flent's rrul"), e.getMessage());
        assertTrue(e.getMessage().contains("found 0 download element(s) of class EF (TOS 0xb8)"), e.getMessage());
    }

    @Test
    void timesAreFlentsAndVirtual() {
        assertEquals("1970-01-01T00:00:00.000000Z", FlentFile.iso(0));
        assertEquals("1970-01-01T00:00:01.500000Z", FlentFile.iso(1.5));
    }

    @Test
    void theWindowAfterTheWarmupIsCutIntoSteps() {
        RunResultDTO r = new RunResultDTO();
        r.pipeline = "p";
        r.ringlabVersion = "0.2.0";
        r.simulatedSeconds = 1.4;
        r.measuredSeconds = 1.0; // warm-up 0.4 s
        r.elements.put("tcp0", Map.of("stream0AckedBytes", 140_000.0));
        r.series = new SeriesDTO();
        r.series.intervalSeconds = 0.2;
        r.series.columns.addAll(List.of("timeSeconds", "tcp0.stream0AckedBytes"));
        for (int k = 0; k < 7; k++) { // 0 .. 1.2 s, 100,000 bytes a second
            r.series.rows.add(new double[] {k * 0.2, k * 0.2 * 100_000});
        }
        PointsDTO pings = new PointsDTO();
        pings.timeSeconds = new double[] {0.1, 0.6, 1.1};
        pings.values = new double[] {9, 2, 4};
        r.series.points.put("ping1.rttMillis", pings);
        FlentFile.Plan plan = FlentFile.plan(pipeline("tcp", "ping"));
        Map<String, Object> f = FlentFile.file(r, plan, "x.pipeline");
        assertEquals(4, f.get("version"));
        assertEquals(List.of(0.0, 0.2, 0.4, 0.6, 0.8), f.get("x_values"));
        @SuppressWarnings("unchecked")
        Map<String, List<Double>> results = (Map<String, List<Double>>) f.get("results");
        assertEquals(5, results.get("TCP upload").size());
        assertEquals(0.8, results.get("TCP upload").get(0), 1e-9, "20,000 bytes in 0.2 s: 0.8 Mbit/s");
        assertNull(results.get("Ping (ms) ICMP").get(0), "no ping before the first in the window, at 0.2 s after it");
        assertEquals(2.8, results.get("Ping (ms) ICMP").get(2), 1e-9, "at 0.4 s, between 2 ms at 0.2 s and 4 ms at 0.7 s");
        assertEquals(0.8, results.get("TCP upload").get(4), 1e-9, "the last step ends at the run's end value");
        @SuppressWarnings("unchecked")
        Map<String, Object> meta = (Map<String, Object>) f.get("metadata");
        assertEquals("tcp_1up", meta.get("NAME"));
        assertEquals("1970-01-01T00:00:00.400000Z", meta.get("T0"));
        assertEquals(1.0, meta.get("LENGTH"));
        @SuppressWarnings("unchecked")
        Map<String, List<Map<String, Object>>> raw = (Map<String, List<Map<String, Object>>>) f.get("raw_values");
        assertEquals(2, raw.get("Ping (ms) ICMP").size(), "the warm-up's ping is left out");
        assertEquals(0.6, raw.get("Ping (ms) ICMP").get(0).get("t"), "raw times are absolute: T0 plus x");
        assertTrue(((String) meta.get("NOTE")).contains("seed 0"));
    }

    @Test
    void aWarmupOffTheSeriesGridStartsAtTheNextSampleAndTheStepIsTheSeriesInterval() {
        RunResultDTO r = new RunResultDTO();
        r.pipeline = "p";
        r.simulatedSeconds = 3.0;
        r.measuredSeconds = 2.5; // warm-up 0.5 s, between the samples at 0.3 and 0.6
        r.elements.put("tcp0", Map.of("stream0AckedBytes", 300_000.0));
        r.series = new SeriesDTO();
        r.series.intervalSeconds = 0.3;
        r.series.columns.addAll(List.of("timeSeconds", "tcp0.stream0AckedBytes"));
        for (int k = 0; k < 10; k++) {
            r.series.rows.add(new double[] {k * 0.3, k * 0.3 * 100_000});
        }
        PointsDTO pings = new PointsDTO();
        pings.timeSeconds = new double[] {1.0};
        pings.values = new double[] {3};
        r.series.points.put("ping1.rttMillis", pings);
        Map<String, Object> f = FlentFile.file(r, FlentFile.plan(r), "x.pipeline");
        assertEquals(List.of(0.0, 0.3, 0.6, 0.9, 1.2, 1.5, 1.8, 2.1), f.get("x_values"), "from 0.6 to 3.0 in steps of 0.3");
        @SuppressWarnings("unchecked")
        Map<String, Object> meta = (Map<String, Object>) f.get("metadata");
        assertEquals(0.3, meta.get("STEP_SIZE"));
        assertEquals("1970-01-01T00:00:00.600000Z", meta.get("T0"));
        assertEquals(0.5, meta.get("RINGLAB_WARMUP_SECONDS"));
        assertEquals("tcp_1up", FlentFile.plan(r).test(), "the plan read from the result: one stream and a ping");
    }
}

package io.ringlab.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import io.ringlab.sim.api.dto.HeadlineDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.SeriesDTO;

class ResultFilesTest {
    @TempDir
    Path dir;

    /** @return the JSON file {@link ResultFiles#json} writes, as text */
    private static String json(Object r) throws java.io.IOException {
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        ResultFiles.json(r).write(b);
        return b.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void csvHasTheColumnsAsHeaderAndARowPerSample() throws Exception {
        StringWriter w = new StringWriter();
        ResultFiles.csv(ChartDataTest.series(), w);
        assertEquals("""
                timeSeconds,src.txPackets,eth0.ringUsed,pool:src.pool.inUse,sink.rxPackets
                0.0,0.0,0.0,0.0,0.0
                0.001,100.0,5.0,3.0,80.0
                0.002,300.0,7.0,4.0,230.0
                """, w.toString());
        SeriesDTO nan = new SeriesDTO();
        nan.columns = List.of("timeSeconds", "a.b");
        nan.rows = List.of(new double[] { 0.5, Double.NaN });
        w = new StringWriter();
        ResultFiles.csv(nan, w);
        assertEquals("timeSeconds,a.b\n0.5,\n", w.toString());
    }

    @Test
    void jsonIsTheResultWithTheCommandLinesSettings() throws java.io.IOException {
        RunResultDTO r = new RunResultDTO();
        r.pipeline = "p<1>";
        r.headline = new HeadlineDTO();
        r.headline.metric = "eth0.rxMpps";
        r.headline.value = Double.NaN;
        r.headline.unit = "Mpps";
        String json = json(r);
        assertTrue(json.contains("\n  \"schemaVersion\": 1"), "pretty-printed: " + json);
        assertTrue(json.contains("\"pipeline\": \"p<1>\""), "no HTML escaping");
        assertTrue(json.contains("\"error\": null"), "nulls written");
        JsonObject o = JsonParser.parseString(json).getAsJsonObject();
        assertTrue(o.getAsJsonObject("headline").get("value").isJsonNull(), "NaN written as null");
    }

    @Test
    void aResultOrSnapshotWithNanWrittenAsNullIsReadBackWithNan() throws java.io.IOException {
        RunResultDTO r = new RunResultDTO();
        r.state = "FINISHED";
        r.series = new SeriesDTO();
        r.series.columns.addAll(List.of("timeSeconds", "ping.rttP50Millis"));
        r.series.rows.add(new double[] {0.0, Double.NaN}); // nothing sampled yet
        r.series.rows.add(new double[] {0.5, 2.5});
        r.elements.put("ping", new java.util.TreeMap<>(java.util.Map.of("rttP50Millis", Double.NaN)));

        RunResultDTO back = ResultFiles.readJson(new java.io.StringReader(json(r)));

        assertTrue(Double.isNaN(back.series.rows.get(0)[1]), "a null in a row is NaN");
        assertEquals(2.5, back.series.rows.get(1)[1]);
        assertTrue(Double.isNaN(back.elements.get("ping").get("rttP50Millis")), "a null metric is NaN");

        io.ringlab.sim.api.dto.RunSnapshotDTO s = ResultFiles.readSnapshot("""
                {"state":"RUNNING","simulatedSeconds":1.5,"durationSeconds":10.0,"events":1234,
                 "elements":{"eth0":{"limit":3028.0,"rttP50Millis":null}},
                 "series":{"intervalSeconds":0.05,"columns":["timeSeconds","eth0.limit"],"rows":[[0.0,null],[0.05,1514.0]]},
                 "swaps":[]}""");
        assertEquals(1234, s.events);
        assertEquals(3028.0, s.elements.get("eth0").get("limit"));
        assertTrue(Double.isNaN(s.elements.get("eth0").get("rttP50Millis")));
        assertTrue(Double.isNaN(s.series.rows.get(0)[1]));
        assertEquals(1514.0, s.series.rows.get(1)[1]);
    }

    @Test
    void theStreamWritesTheRowsAsTheyComeAndEqualsTheExportedCsv() throws Exception {
        SeriesDTO s = new SeriesDTO();
        s.columns = List.of("timeSeconds", "sink.rxPackets", "pool:p.inUse");
        s.rows = new ArrayList<>();
        Path f = SeriesStream.fileFor(dir.resolve("results"), "netdev bql/1", "20250101-120000");
        assertEquals(dir.resolve("results").resolve("netdev_bql_1-20250101-120000.csv"), f);
        SeriesStream stream = new SeriesStream(f);
        assertEquals(0, stream.offer(s), "nothing sampled yet");
        for (int i = 0; i < 2500; i++) {
            SeriesDTO snap = new SeriesDTO();
            snap.columns = s.columns;
            s.rows.add(new double[] { i * 1e-4, i * 3.0, i % 11 });
            snap.rows = List.copyOf(s.rows);
            if (i % 100 == 99) {
                assertEquals(100, stream.offer(snap));
            }
        }
        Path done = stream.finish(s).get(10, TimeUnit.SECONDS); // the result's series: all 2,500 rows
        assertEquals(f, done);
        assertEquals(2500, stream.rowsWritten());
        StringWriter w = new StringWriter();
        ResultFiles.csv(s, w);
        assertEquals(w.toString(), Files.readString(f));
        assertEquals(0, stream.offer(s), "a finished stream takes nothing more");
    }

    @Test
    void aStreamThatCannotWriteFailsWithTheError() throws Exception {
        Files.writeString(dir.resolve("results"), "a file where the folder should be");
        SeriesStream stream = new SeriesStream(SeriesStream.fileFor(dir.resolve("results"), "p", "t"));
        stream.offer(ChartDataTest.series());
        ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> stream.finish(null).get(10, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof java.io.IOException, e.getCause().toString());
    }

    @Test
    void anExperimentsRunsAreWrittenAsTheCommandLinesCsvAndItsResultAsItsJson() throws Exception {
        io.ringlab.experiment.api.dto.ExperimentResultDTO r = AbFixtures.result();
        StringWriter w = new StringWriter();
        ResultFiles.csv(r, w);
        assertEquals("""
                variant,seed,metric,value,state,invariants,counted
                off,1,eth0.ringUsed,230.0,FINISHED,ok,true
                off,1,sink.rxPackets,1600.0,FINISHED,ok,true
                off,2,eth0.ringUsed,250.0,FINISHED,ok,true
                off,2,sink.rxPackets,1600.0,FINISHED,ok,true
                on,1,eth0.ringUsed,12.0,FINISHED,ok,true
                on,1,sink.rxPackets,1600.0,FINISHED,ok,true
                on,2,eth0.ringUsed,,FAILED,broken,false
                on,2,sink.rxPackets,,FAILED,broken,false
                """, w.toString());
        JsonObject o = JsonParser.parseString(json(r)).getAsJsonObject();
        assertEquals(-227.5, o.getAsJsonArray("comparisons").get(0).getAsJsonObject().get("difference").getAsDouble());
        assertTrue(o.getAsJsonArray("comparisons").get(1).getAsJsonObject().get("ci95Low").isJsonNull(), "nulls written");
        assertEquals(150.0, o.getAsJsonObject("variants").getAsJsonObject("off").getAsJsonObject("eth0.ringUsed").get("ci95Low")
                .getAsDouble());
    }
}

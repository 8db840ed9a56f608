package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.PointsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.SeriesDTO;

import io.ringlab.conformance.ModelTests;

/**
 * Latency as time series: each ping echo's round-trip time as a point at its time, a histogram's percentiles per
 * sampling interval, and the pipeline's {@code plot} checked against the series a built run has.
 */
class SeriesTest {
    private static int column(SeriesDTO s, String name) {
        int i = s.columns.indexOf(name);
        assertTrue(i > 0, name + " is no column: " + s.columns);
        return i;
    }

    @Test
    void everyEchoIsAPointAtItsArrivalHoldingTheRoundTripTimeRecorded() throws Exception {
        // 120 Mbit/s of bulk frames into the 100 Mbit/s path: the fifo fills and each echo waits longer than the last
        RunResultDTO r = ModelTests.runConserved(PingTest.loaded(""), 1);
        PointsDTO p = r.series.points.get("ping.rttMillis");
        assertTrue(p != null, "no ping.rttMillis in " + r.series.points.keySet());
        double received = ModelTests.metric(r, "ping", "received");
        assertEquals(received, p.values.length, "one point per echo");
        assertEquals(p.values.length, p.timeSeconds.length);
        assertTrue(p.values.length >= 5, "echoes: " + p.values.length);
        assertEquals(0, p.dropped, "room for one echo per interval");
        long previous = -1;
        for (int i = 0; i < p.values.length; i++) {
            // a request leaves at a whole second (the fifo drops some, the echoes of the rest come in order): the
            // point's time is the echo's arrival, its value that minus its request's send time, in ms
            double sent = p.timeSeconds[i] * 1e3 - p.values[i];
            long request = Math.round(sent / 1e3);
            assertEquals(request * 1e3, sent, 1e-6, "point " + i + " at " + p.timeSeconds[i] + " s: " + p.values[i] + " ms");
            assertTrue(request > previous, "point " + i + " answers request " + request + " after " + previous);
            previous = request;
        }
        assertTrue(p.values[p.values.length - 1] > p.values[0] + 50, "the queue builds: first " + p.values[0] + " ms, last "
                + p.values[p.values.length - 1] + " ms");
        // the whole run's histogram holds the same values (to its 3 significant digits)
        double max = 0;
        for (double v : p.values) {
            max = Math.max(max, v);
        }
        assertEquals(max, ModelTests.metric(r, "ping", "rttMaxMillis"), max * 1e-3);
    }

    @Test
    void theSinksPercentilesPerIntervalFollowTheQueueAndAreNaNWithoutPackets() throws Exception {
        // netdev-bql: 1.2 Gbit/s into 1 Gbit/s, the queues fill and latency grows all run; the source and the ping (whose
        // echo requests the sink, a host, also records) start at 50 ms
        RunResultDTO r = ModelTests.runConserved(ModelTests.sample("netdev-bql.pipeline", "200ms"), 1, "src.start=50ms",
                "ping.start=50ms");
        SeriesDTO s = r.series;
        int p50 = column(s, "sink.latencyP50Micros");
        int p99 = column(s, "sink.latencyP99Micros");
        double wholeP50 = ModelTests.metric(r, "sink", "latencyP50Micros");
        int empty = 0;
        double first = Double.NaN;
        double last = Double.NaN;
        for (double[] row : s.rows) {
            if (row[0] <= 0.050) { // intervals that end by the source's start: no packet arrived
                assertTrue(Double.isNaN(row[p50]) && Double.isNaN(row[p99]), "at " + row[0] + " s: " + row[p50]);
                empty++;
            } else if (!Double.isNaN(row[p50])) {
                assertTrue(row[p99] >= row[p50], "at " + row[0] + " s: p99 " + row[p99] + " < p50 " + row[p50]);
                first = Double.isNaN(first) ? row[p50] : first;
                last = row[p50];
            }
        }
        assertTrue(empty >= 40, "empty intervals: " + empty);
        assertTrue(first < wholeP50 / 2, "first interval's p50 " + first + " us, whole run's " + wholeP50 + " us");
        assertTrue(last > wholeP50 * 1.2, "last interval's p50 " + last + " us, whole run's " + wholeP50 + " us");
        // the run's elements keep the whole run's figures, which no single interval equals here
        assertFalse(wholeP50 == last || wholeP50 == first);
    }

    @Test
    void theSameSeedGivesTheSamePointsAndIntervalPercentiles() throws Exception {
        String loaded = PingTest.loaded("; arrivals = poisson").replace("duration = 10s", "duration = 3s");
        RunResultDTO a = ModelTests.runConserved(loaded, 7);
        RunResultDTO b = ModelTests.runConserved(loaded, 7);
        assertEquals(DeterminismTest.fingerprint(a), DeterminismTest.fingerprint(b));
        assertTrue(DeterminismTest.fingerprint(a).contains("ping.rttMillis"), "the fingerprint covers the points");
    }

    @Test
    void thePlotMayNameSeriesThatExistOnlyOnceThePipelineIsBuilt() throws Exception {
        String plot = "plot = [ping.rttMillis, ping.rttP99Millis, far.latencyP50Micros, pool:ping.pool.inUse, q.backlog]\n";
        RunResultDTO r = ModelTests.runConserved(plot + PingTest.IDLE, 1);
        assertTrue(r.series.points.containsKey("ping.rttMillis"));
        assertTrue(r.series.columns.contains("pool:ping.pool.inUse"), r.series.columns.toString());
    }

    @Test
    void aPlotSeriesTheRunDoesNotHaveIsAnErrorAtItsPositionListingTheSeries() {
        PipelineException e = assertThrows(PipelineException.class,
                () -> Pipelines.build("plot = [q.backlog, ping.rtt]\n" + PingTest.IDLE, 1));
        assertEquals(1, e.problems().size(), e.getMessage());
        String m = e.getMessage();
        assertTrue(m.startsWith("test.pipeline:1:20: plot names no series 'ping.rtt' (did you mean 'ping.rttP50Millis' or"
                + " 'ping.rttP99Millis' or 'ping.rttMillis'?) of this run; ping has ping.rttP50Millis, ping.rttP99Millis,"
                + " ping.rttMillis; the run's series: "), m);
        assertTrue(m.contains("q.backlog") && m.contains("pool:ping.pool.inUse"), m);
    }

    @Test
    void aPlotSeriesThatAnOverrideRemovesIsAWarningOfThatRunNotAnError() throws Exception {
        // two TCP streams on ping's idle path: stream 1's window is a series of the file's run, not of one with a stream
        String tcp = "plot = [tcp.stream1Cwnd, q.backlog]\n" + PingTest.IDLE
                .replace("element ping : ping { interval = 1s }", "element tcp : tcp { streams = 2 }")
                .replace("ping -> q", "tcp -> q").replace("ping.in", "tcp.in").replace("duration = 10s", "duration = 50ms");
        RunResultDTO asWritten = ModelTests.runConserved(tcp, 1);
        assertTrue(asWritten.series.columns.contains("tcp.stream1Cwnd"));
        assertEquals(java.util.Map.of(), asWritten.warnings);
        RunResultDTO without = ModelTests.runConserved(tcp, 1, "tcp.streams=1");
        assertFalse(without.series.columns.contains("tcp.stream1Cwnd"));
        assertEquals(java.util.Map.of("plot: tcp.stream1Cwnd is no series of this run with its overrides "
                + "(tcp.streams=1); plots leave it out", 1L), without.warnings);
    }
}

package io.ringlab.engine.kernel;

import io.ringlab.engine.kernel.series.SeriesRecorder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.pipeline.format.ResultJson;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * The series' budget: the first rows in the heap, the rest spilled to a nameless temporary file, all of them read back
 * as sampled; a run says where its series stop when they outgrow the rows, the disk or the folder.
 */
class SeriesRecorderTest {
    private static final long MS = 1_000_000_000L;

    @TempDir
    Path folder;

    private SeriesRecorder.Limits limits(long memoryValues, int maxRows, int bufferBytes) {
        return new SeriesRecorder.Limits(memoryValues, maxRows, bufferBytes, folder, 0);
    }

    /** Samples {@code n} rows whose values say where they are: row i, column c holds {@code i * 1000 + c}. */
    private static void sample(SeriesRecorder r, int n) {
        for (int k = 0; k < n; k++) {
            double[] row = r.next();
            int i = r.rows().size();
            for (int c = 0; c < row.length; c++) {
                row[c] = i * 1000.0 + c;
            }
            assertEquals(null, r.commit());
        }
    }

    private static void assertRows(List<double[]> rows, int n, int width) {
        assertEquals(n, rows.size());
        for (int i = 0; i < n; i++) {
            double[] want = new double[width];
            for (int c = 0; c < width; c++) {
                want[c] = i * 1000.0 + c;
            }
            assertArrayEquals(want, rows.get(i), "row " + i);
        }
    }

    @Test
    void rowsPastTheHeapsAreSpilledAndReadBackAsSampledWhileTheRunGoesOn() throws Exception {
        List<String> warnings = new ArrayList<>();
        // 7 values a row: 4 rows fit 30 values of heap; the buffer holds 3 rows (its size is rounded down to whole rows)
        SeriesRecorder r = new SeriesRecorder(100 * MS, MS, 7, limits(30, 1000, 3 * 56 + 10), warnings::add);
        assertEquals(102, r.capacity(), "one per interval, the sample at 0 and one spare: heap and file together");
        assertEquals(List.of(), warnings);
        sample(r, 3);
        List<double[]> early = r.rows();
        assertSame(early.get(1), r.rows().get(1), "heap rows are shared, not copied");
        sample(r, 50); // 4 in the heap, then rows through 16 flushes of the buffer, the last one partly filled
        List<double[]> mid = r.rows();
        sample(r, 49);
        assertRows(early, 3, 7); // a view keeps its size
        assertRows(mid, 53, 7);
        assertRows(r.rows(), 102, 7);
        assertEquals(null, r.next(), "the rows are used up");
        // read out of order: blocks come back from the file, and from the buffer not yet written out
        List<double[]> all = r.rows();
        assertArrayEquals(all.get(101), r.rows().get(101));
        assertEquals(50 * 1000.0 + 6, all.get(50)[6]);
        assertEquals(4 * 1000.0, all.get(4)[0]);
        assertEquals(100 * 1000.0 + 3, all.get(100)[3]);
    }

    @Test
    void theSpillFileHasNoNameSoNothingIsLeftBehind() throws Exception {
        SeriesRecorder r = new SeriesRecorder(100 * MS, MS, 3, limits(6, 1000, 48), w -> { });
        sample(r, 40);
        try (Stream<Path> s = Files.list(folder)) {
            assertEquals(List.of(), s.toList(), "the file is unlinked once open");
        }
        assertRows(r.rows(), 40, 3);
    }

    @Test
    void seriesThatOutgrowTheRowsStopWhereTheWarningSays() {
        List<String> warnings = new ArrayList<>();
        SeriesRecorder.Limits l = limits(30, 50, 100);
        SeriesRecorder r = new SeriesRecorder(100 * MS, MS, 7, l, warnings::add);
        assertEquals(50, r.capacity());
        String w = SeriesRecorder.budgetWarning(100 * MS, MS, 7, 50, 4, l, null);
        assertEquals(List.of(w), warnings);
        assertTrue(w.startsWith("the series stop at 49ms of 100ms: 50 rows of 7 values are all the series hold (4 in the heap,"), w);
        assertTrue(w.endsWith("at most 50 rows); a series interval of at least 2ms covers the run"), w);
        sample(r, 50);
        assertEquals(null, r.next());
    }

    @Test
    void aFolderThatCannotHoldTheSpillFileStopsTheSeriesAtTheHeapsRowsAndSaysWhy() throws Exception {
        Path notAFolder = Files.writeString(folder.resolve("plain"), "x");
        List<String> warnings = new ArrayList<>();
        SeriesRecorder r = new SeriesRecorder(100 * MS, MS, 7,
                new SeriesRecorder.Limits(30, 1000, 100, notAFolder, 0), warnings::add);
        assertEquals(4, r.capacity());
        assertEquals(1, warnings.size());
        assertTrue(warnings.get(0).contains("the rows past the heap's could not go to a temporary file in " + notAFolder + ": "),
                warnings.get(0));
        assertTrue(!warnings.get(0).contains("Exception"), warnings.get(0));
    }

    @Test
    void aSpillFileLeavesTheDisksReserveFree() {
        List<String> warnings = new ArrayList<>();
        SeriesRecorder r = new SeriesRecorder(100 * MS, MS, 7,
                new SeriesRecorder.Limits(30, 1000, 100, folder, Long.MAX_VALUE / 2), warnings::add);
        assertEquals(4, r.capacity(), "no room: the heap's rows only");
        assertTrue(warnings.get(0).contains("the temporary folder " + folder + " has room for 0 more rows, leaving "), warnings.get(0));
    }

    private static final String PIPELINE = """
            name = "spill"
            duration = 50ms
            element src : source { rate = 100Mbit; size = 1500B; arrivals = poisson }
            element sink : sink
            element ping : ping { interval = 1ms }
            element far : host
            src -> sink
            ping -> far
            far.out -> ping.in
            """;

    private RunResultDTO run(SeriesRecorder.Limits limits) throws Exception {
        RunOptionsDTO o = new RunOptionsDTO();
        o.seed = 7L;
        o.snapshotIntervalMillis = 0;
        o.seriesIntervalPicos = 10_000_000L; // 10 us: 5,000 rows
        RunImpl run = new PipelineBuilder(new TestRegistry()).build(PipelineReader.read("spill.pipeline", PIPELINE), o);
        if (limits != null) {
            run.simulation().seriesLimits = limits;
        }
        return run.run();
    }

    @Test
    void aSpilledRunHasTheSameSeriesAndTheSameJsonAsOneHeldInTheHeap() throws Exception {
        RunResultDTO heap = run(null);
        RunResultDTO spilled = run(limits(1000, 1_000_000, 4096));
        assertEquals(5000, heap.series.rows.size(), "a row every 10 us of [0, 50 ms)");
        int width = heap.series.columns.size();
        assertTrue(1000 / width < 100, "most rows spill: " + width + " columns");
        assertEquals(heap.series.rows.size(), spilled.series.rows.size());
        for (int i = 0; i < heap.series.rows.size(); i++) {
            assertArrayEquals(heap.series.rows.get(i), spilled.series.rows.get(i), "row " + i);
        }
        assertEquals(heap.warnings, spilled.warnings);
        StringWriter a = new StringWriter(), b = new StringWriter();
        ResultJson.write(heap.series, a);
        ResultJson.write(spilled.series, b);
        assertEquals(a.toString(), b.toString(), "the JSON streams the spilled rows as it does the heap's");
        assertTrue(a.toString().length() > 5000 * width, "the JSON holds the rows");
    }
}

package io.ringlab.pipeline.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.SeriesDTO;

/** {@link ResultJson}: the results' JSON streamed, never built whole, NaN as null and back. */
class ResultJsonTest {
    /** Counts what it is given and keeps the largest single piece. */
    static final class CountingWriter extends Writer {
        long chars;
        long writes;
        int largest;

        @Override
        public void write(char[] buf, int off, int len) {
            chars += len;
            writes++;
            largest = Math.max(largest, len);
        }

        @Override
        public void write(String s, int off, int len) {
            write(new char[0], 0, len);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }

    static RunResultDTO withSeries(int rows, int columns) {
        RunResultDTO r = new RunResultDTO();
        r.pipeline = "big";
        r.series = new SeriesDTO();
        r.series.intervalSeconds = 1e-3;
        for (int c = 0; c < columns; c++) {
            r.series.columns.add(c == 0 ? "timeSeconds" : "e" + c + ".m");
        }
        List<double[]> list = new ArrayList<>(rows);
        for (int i = 0; i < rows; i++) {
            double[] row = new double[columns];
            row[0] = i * 1e-3;
            for (int c = 1; c < columns; c++) {
                row[c] = i * 31.0 + c / 7.0;
            }
            list.add(row);
        }
        r.series.rows = list;
        return r;
    }

    @Test
    void writingHandsTheWriterSmallPiecesNeverTheWholeText() throws IOException {
        RunResultDTO r = withSeries(50_000, 10);
        CountingWriter w = new CountingWriter();

        ResultJson.write(r, w);

        assertTrue(w.chars > 10_000_000, "a large result: " + w.chars + " characters");
        assertTrue(w.largest < 1024, "the largest piece written at once: " + w.largest + " characters");
        assertTrue(w.writes > 500_000, "written as it goes: " + w.writes + " pieces");
    }

    @Test
    void numbersAreWrittenWithoutAnObjectEach() throws IOException {
        RunResultDTO r = withSeries(100_000, 20); // two million numbers
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory
                .getThreadMXBean();
        ResultJson.write(withSeries(1_000, 20), new CountingWriter()); // the adapters made and the code compiled once
        long before = mx.getCurrentThreadAllocatedBytes();

        ResultJson.write(r, new CountingWriter());

        long bytes = mx.getCurrentThreadAllocatedBytes() - before;
        // Gson's own writer makes a string of every number, about 100 bytes each: 200 MB here
        assertTrue(bytes < 20_000_000, "allocated while writing 2 million numbers: " + bytes + " bytes");
    }

    @Test
    void nanAndInfinitiesAreWrittenAsNullAndReadBackAsNan() throws IOException {
        RunResultDTO r = withSeries(2, 3);
        r.series.rows.get(1)[2] = Double.NaN;
        r.series.rows.get(1)[1] = Double.POSITIVE_INFINITY;
        r.elements.put("sink", new java.util.TreeMap<>(java.util.Map.of("rxMpps", Double.NaN, "rxPackets", 5.0)));

        String text = ResultJson.text(r);

        assertTrue(text.contains("\"rxMpps\": null"), text);
        assertTrue(text.contains("\"error\": null"), "nulls written");
        RunResultDTO back = ResultJson.read(new java.io.StringReader(text), RunResultDTO.class);
        assertTrue(Double.isNaN(back.series.rows.get(1)[2]));
        assertTrue(Double.isNaN(back.series.rows.get(1)[1]), "an infinity comes back as NaN: JSON has neither");
        assertTrue(Double.isNaN(back.elements.get("sink").get("rxMpps")));
        assertEquals(5.0, back.elements.get("sink").get("rxPackets"));
        assertEquals(text, ResultJson.text(back));
    }

    /** Writes a result of {@code args[0]} rows of {@code args[1]} columns to a counting writer (the forked JVM's work). */
    public static void main(String[] args) throws IOException {
        RunResultDTO r = withSeries(Integer.parseInt(args[0]), Integer.parseInt(args[1]));
        CountingWriter w = new CountingWriter();
        ResultJson.write(r, w);
        System.out.println("written " + w.chars);
    }

    @Test
    void aSeriesLargerThanTheHeapLeftAfterItIsWrittenInAJvmOf160Megabytes(@TempDir Path dir) throws Exception {
        // 400,000 rows of 20 columns: 70 MB of rows, about 120 million characters of JSON. As one string (Gson's
        // toJson, then written) or as a tree of JSON elements (the NaN replacement's input) it needs several times the
        // heap that is left; streamed it needs a buffer.
        String java = ProcessHandle.current().info().command().orElseThrow();
        Path log = dir.resolve("child.log");
        Process p = new ProcessBuilder(java, "-Xmx160m", "-cp", System.getProperty("java.class.path"),
                ResultJsonTest.class.getName(), "400000", "20").redirectErrorStream(true).redirectOutput(log.toFile())
                .start();
        int code = p.waitFor();
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertEquals(0, code, out);
        long chars = Long.parseLong(out.strip().replaceFirst("(?s).*written ", ""));
        assertTrue(chars > 100_000_000, "characters written: " + chars);
    }
}

package io.ringlab.console;

import java.io.IOException;
import java.io.Writer;
import java.util.List;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;

import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.RunSnapshotDTO;
import io.ringlab.sim.api.dto.SeriesDTO;

/**
 * The console's result files, without widgets: the series as CSV and the result as JSON; an A/B experiment's result as
 * JSON and its runs as CSV.
 * <p>
 * <b>CSV</b>: a header line with the series' columns ({@code timeSeconds}, then {@code element.metric}), then one line
 * per sampled row, values as Java's shortest round-trip decimal ({@link Double#toString(double)}; whole numbers as
 * {@code 12.0}), NaN and infinities as an empty field, lines ending in {@code \n}. The streamed file of a run and the
 * exported CSV are written by the same methods, so they are equal for the same rows.
 * <p>
 * <b>JSON</b>: the {@link RunResultDTO} with Gson and the settings of the command line's {@code --json} writer
 * (pretty-printed, field names as in the DTO, nulls written, no HTML escaping, NaN and infinities as {@code null}). That
 * writer ({@code io.ringlab.cli.Json}) sits in the CLI bundle's private package, so it is not reachable from here; this
 * is the same library and the same settings, and the console tests parse the file and compare it with the run.
 */
final class ResultFiles {
    private static final Gson GSON = new GsonBuilder().setPrettyPrinting().serializeSpecialFloatingPointValues().serializeNulls()
            .disableHtmlEscaping().create();

    /**
     * Reads what the writer wrote: a {@code null} where a number belongs (NaN or an infinity written out, a series row of
     * a metric not sampled yet) is read back as NaN.
     */
    private static final Gson READER = new GsonBuilder().registerTypeAdapter(double.class, new NanForNull())
            .registerTypeAdapter(Double.class, new NanForNull()).create();

    /** Reads {@code null} as NaN and writes NaN as Gson would (never used to write here). */
    private static final class NanForNull extends com.google.gson.TypeAdapter<Double> {
        @Override
        public void write(com.google.gson.stream.JsonWriter out, Double value) throws IOException {
            out.value(value);
        }

        @Override
        public Double read(com.google.gson.stream.JsonReader in) throws IOException {
            if (in.peek() == com.google.gson.stream.JsonToken.NULL) {
                in.nextNull();
                return Double.NaN;
            }
            return in.nextDouble();
        }
    }

    private ResultFiles() {
    }

    /** Writes the CSV header line of {@code columns}. */
    static void csvHeader(List<String> columns, Writer out) throws IOException {
        for (int c = 0; c < columns.size(); c++) {
            if (c > 0) {
                out.write(',');
            }
            out.write(csvField(columns.get(c)));
        }
        out.write('\n');
    }

    /** Writes rows {@code from} (inclusive) to {@code to} (exclusive) of {@code rows}, one CSV line each. */
    static void csvRows(List<double[]> rows, int from, int to, Writer out) throws IOException {
        StringBuilder b = new StringBuilder(256);
        for (int i = from; i < to; i++) {
            double[] r = rows.get(i);
            b.setLength(0);
            for (int c = 0; c < r.length; c++) {
                if (c > 0) {
                    b.append(',');
                }
                if (Double.isFinite(r[c])) {
                    b.append(r[c]);
                }
            }
            b.append('\n');
            out.append(b);
        }
    }

    /** Writes the whole series as CSV; a {@code null} or column-less series writes nothing. */
    static void csv(SeriesDTO s, Writer out) throws IOException {
        if (s == null || s.columns.isEmpty()) {
            return;
        }
        csvHeader(s.columns, out);
        csvRows(s.rows, 0, s.rows.size(), out);
    }

    private static String csvField(String f) {
        return f.contains(",") || f.contains("\"") ? '"' + f.replace("\"", "\"\"") + '"' : f;
    }

    /** @return a result read back from the command line's {@code --json} text (a run in a separate process) */
    static RunResultDTO readJson(String json) {
        return READER.fromJson(json, RunResultDTO.class);
    }

    /** @return a swap's outcome as the command line's {@code --control} prints it (a run in a separate process) */
    static io.ringlab.sim.api.dto.SwapDTO readSwap(String json) {
        return READER.fromJson(json, io.ringlab.sim.api.dto.SwapDTO.class);
    }

    /** @return a snapshot read back from the command line's {@code --snapshots} file (a run in a separate process) */
    static RunSnapshotDTO readSnapshot(String json) {
        return READER.fromJson(json, RunSnapshotDTO.class);
    }

    /**
     * @param result a {@link RunResultDTO} or an {@link ExperimentResultDTO}
     * @return the result as the command line's {@code --json} writes it ({@code ringlab run}, {@code ringlab ab})
     */
    static String json(Object result) {
        return GSON.toJson(finite(GSON.toJsonTree(result)));
    }

    /**
     * Writes an experiment's runs as {@code ringlab ab --csv} does: the header
     * {@code variant,seed,metric,value,state,invariants,counted}, then one line per run and metric in the result's order
     * (by variant, then seed); {@code value} is empty when the run did not report the metric or reported NaN,
     * {@code invariants} is {@code ok} or {@code broken}, {@code counted} whether the run counts in the statistics.
     */
    static void csv(ExperimentResultDTO r, Writer out) throws IOException {
        out.write("variant,seed,metric,value,state,invariants,counted\n");
        for (RunSummaryDTO run : r.runs) {
            String tail = "," + run.state + "," + (run.packetConservation && run.bufferConservation ? "ok" : "broken") + ","
                    + AbTable.counts(run) + "\n";
            for (String metric : r.metrics) {
                Double v = run.metrics.get(metric);
                out.write(csvField(run.variant) + "," + run.seed + "," + csvField(metric) + "," + (v == null ? "" : v.toString()) + tail);
            }
        }
    }

    /** Replaces NaN and infinities, which JSON cannot hold, with null (as the command line does). */
    private static JsonElement finite(JsonElement e) {
        if (e.isJsonPrimitive() && e.getAsJsonPrimitive().isNumber()) {
            double d = e.getAsDouble();
            return Double.isFinite(d) ? e : JsonNull.INSTANCE;
        }
        if (e.isJsonObject()) {
            JsonObject o = e.getAsJsonObject();
            for (String k : o.keySet()) {
                o.add(k, finite(o.get(k)));
            }
        } else if (e.isJsonArray()) {
            JsonArray a = e.getAsJsonArray();
            for (int i = 0; i < a.size(); i++) {
                a.set(i, finite(a.get(i)));
            }
        }
        return e;
    }
}

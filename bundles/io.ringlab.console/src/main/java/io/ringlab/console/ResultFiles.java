package io.ringlab.console;

import java.io.IOException;
import java.io.Writer;
import java.util.List;

import io.ringlab.experiment.api.dto.ExperimentResultDTO;
import io.ringlab.experiment.api.dto.RunSummaryDTO;
import io.ringlab.pipeline.format.OutputFile;
import io.ringlab.pipeline.format.ResultJson;
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
 * <b>JSON</b>: {@link ResultJson}, the command line's own writer and reader, streamed both ways.
 */
final class ResultFiles {
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

    /** @return a result read back from the command line's {@code --json} file (a run in a separate process), streamed */
    static RunResultDTO readJson(java.io.Reader json) throws IOException {
        return ResultJson.read(json, RunResultDTO.class);
    }

    /** @return a swap's outcome as the command line's {@code --control} prints it (a run in a separate process) */
    static io.ringlab.sim.api.dto.SwapDTO readSwap(String json) {
        return ResultJson.read(json, io.ringlab.sim.api.dto.SwapDTO.class);
    }

    /** @return a snapshot read back from the command line's {@code --snapshots} file (a run in a separate process) */
    static RunSnapshotDTO readSnapshot(String json) {
        return ResultJson.read(json, RunSnapshotDTO.class);
    }

    /**
     * @param result a {@link RunResultDTO} or an {@link ExperimentResultDTO}
     * @return the content of the file the command line's {@code --json} writes ({@code ringlab run}, {@code ringlab
     *         ab}), streamed
     */
    static OutputFile.Content json(Object result) {
        return ResultJson.file(result);
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
}

package io.ringlab.console;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.ringlab.sim.api.dto.SeriesDTO;

/**
 * Streams a run's series to a CSV file as the snapshots arrive, so the rows of a long run go to disk and the UI keeps
 * only what the charts plot ({@link ChartData#MAX_POINTS} rows).
 * <p>
 * Every snapshot carries all rows sampled so far (the engine shares them; a sampled row is never written again), so each
 * {@link #offer} hands the rows not yet streamed to a single writer thread ("ringlab console stream", a daemon) and
 * returns at once: the UI thread never waits for the disk. The rows are written in the format of
 * {@link ResultFiles#csv}; {@link #finish} writes what the final series adds and closes the file. A write error is kept,
 * further rows are dropped, and {@link #finish} completes exceptionally with it.
 * <p>
 * {@link #offer} and {@link #finish} must be called from one thread (the UI thread); the file is touched only by the
 * writer thread.
 */
final class SeriesStream {
    private final Path file;
    private final ExecutorService writer;
    private final CompletableFuture<Path> done = new CompletableFuture<>();
    /** UI thread: rows handed to the writer so far, and whether the header was. */
    private int offered;
    private boolean headerOffered;
    private boolean finished;
    /** Writer thread only. */
    private BufferedWriter out;
    private IOException failure;
    private long written;

    /**
     * @param file the CSV to write (its folder is created); never {@code null}
     */
    SeriesStream(Path file) {
        this.file = file;
        this.writer = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "ringlab console stream");
            t.setDaemon(true);
            return t;
        });
    }

    /** @return the file being written. */
    Path file() {
        return file;
    }

    /**
     * Hands the rows of {@code s} not streamed yet to the writer thread; returns at once.
     *
     * @param s a snapshot's series; {@code null} or without columns is ignored
     * @return how many rows this call handed over
     */
    int offer(SeriesDTO s) {
        if (finished || s == null || s.columns.isEmpty()) {
            return 0;
        }
        if (!headerOffered) {
            headerOffered = true;
            List<String> columns = List.copyOf(s.columns);
            writer.execute(() -> write(() -> {
                Files.createDirectories(file.toAbsolutePath().getParent());
                out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
                ResultFiles.csvHeader(columns, out);
            }));
        }
        int n = s.rows.size();
        if (n <= offered) {
            return 0;
        }
        List<double[]> rows = s.rows.subList(offered, n); // rows the engine never writes again
        int count = n - offered;
        offered = n;
        writer.execute(() -> write(() -> {
            ResultFiles.csvRows(rows, 0, rows.size(), out);
            written += rows.size();
        }));
        return count;
    }

    /**
     * Streams what {@code last} adds (the result's series, or {@code null}), closes the file and stops the writer thread.
     *
     * @return completes with the file once it is closed, or exceptionally with the first write error
     */
    CompletableFuture<Path> finish(SeriesDTO last) {
        if (!finished) {
            offer(last);
            finished = true;
            writer.execute(() -> {
                try {
                    if (out != null) {
                        out.close();
                    }
                } catch (IOException e) {
                    failure = failure == null ? e : failure;
                }
                if (failure != null) {
                    done.completeExceptionally(failure);
                } else {
                    done.complete(file);
                }
            });
            writer.shutdown();
        }
        return done;
    }

    /** @return rows written to the file so far (the writer thread's count; read after {@link #finish} completed). */
    long rowsWritten() {
        return written;
    }

    private interface IoAction {
        void run() throws IOException;
    }

    private void write(IoAction a) {
        if (failure != null) {
            return;
        }
        try {
            a.run();
        } catch (IOException e) {
            failure = e;
        } catch (RuntimeException e) {
            failure = new IOException(e.toString(), e);
        }
    }

    /**
     * @param pipeline the pipeline's name; characters other than letters, digits, {@code -}, {@code _} and {@code .} become
     *        {@code _}
     * @param folder where the console streams series ({@code results/} of ringlab.home, or the framework property
     *        {@value #FOLDER_PROPERTY})
     * @param time the run's start, formatted by the caller ({@code 20250101-120000})
     * @return {@code <pipeline>-<time>.csv} in {@code folder}
     */
    static Path fileFor(Path folder, String pipeline, String time) {
        String name = (pipeline == null || pipeline.isBlank() ? "pipeline" : pipeline).replaceAll("[^A-Za-z0-9._-]", "_");
        return folder.resolve(name + "-" + time + ".csv");
    }

    /**
     * The framework property naming the folder the console streams series to, instead of {@code results/} of
     * ringlab.home (the GUI tests point it at their {@code target/}, so that a test run leaves the user's results alone).
     */
    static final String FOLDER_PROPERTY = "ringlab.console.results";
}

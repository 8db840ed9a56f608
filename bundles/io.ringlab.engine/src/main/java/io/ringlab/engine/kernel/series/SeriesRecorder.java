package io.ringlab.engine.kernel.series;

import java.io.IOException;
import java.lang.ref.Cleaner;
import java.io.RandomAccessFile;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

import io.ringlab.pipeline.format.OutputFile;
import io.ringlab.pipeline.format.Units;
import io.ringlab.engine.kernel.HeapBudget;

/**
 * The rows of a run's sampled series (docs/engine.md, "Series"): the first ones in the heap, preallocated, the rest
 * spilled to a temporary file, so that a long series costs disk, not heap.
 * <p>
 * <b>The budget.</b> At most {@link Limits#memoryValues} values (rows times their width) are kept in the heap:
 * {@value #MEMORY_VALUES} by default, 64 MB of doubles. The rows after those go to a spill file in the process's
 * temporary folder ({@code java.io.tmpdir}, which the launcher points at {@code ${TMPDIR:-/tmp}/ringlab-USER/PID}),
 * through a buffer of {@link Limits#spillBufferBytes} that is written out when full. The file is unlinked as soon
 * as it is open: it has no name, so nothing is ever left behind (a killed process's space is freed by the kernel), and
 * its space is freed when the last result holding its rows is collected ({@link Cleaner}). All rows together are at
 * most {@link Limits#maxRows} ({@value #MAX_ROWS} by default) and the spilled ones leave {@link Limits#diskReserveBytes}
 * free on the folder's file system, as it was when the run started; a run whose series need more stops sampling where
 * they end and says so in its warnings, as it does when the spill file cannot be made or written (the disk filled up).
 * <p>
 * <b>Threads.</b> The engine thread samples ({@link #next}, {@link #commit}); {@link #rows} is a view of the rows
 * sampled so far that any thread may read, while the run goes on: a sampled row is never written again. Sampling
 * allocates nothing: a heap row is filled in place, a spilled one is filled in a scratch row and copied into the buffer.
 */
public final class SeriesRecorder {
    /** The most values held in the heap by default: 64 MB of doubles. */
    public static final long MEMORY_VALUES = 8_000_000;
    /** The most rows a run's series hold by default, heap and spill file together. */
    public static final int MAX_ROWS = 100_000_000;
    /** The spill buffer's size by default. */
    public static final int SPILL_BUFFER_BYTES = 1 << 20;
    /** The space a spill file leaves free on its file system by default: 1 GiB, for the result files that follow. */
    public static final long DISK_RESERVE_BYTES = 1L << 30;
    /** Closes spill files whose rows nobody holds any more. */
    private static final Cleaner CLEANER = Cleaner.create();

    /**
     * Where the rows may go.
     *
     * @param memoryValues the most values held in the heap
     * @param maxRows the most rows in all
     * @param spillBufferBytes the spill buffer's size
     * @param folder where the spill file is made
     * @param diskReserveBytes the space a spill file leaves free on its file system
     */
    public record Limits(long memoryValues, int maxRows, int spillBufferBytes, Path folder, long diskReserveBytes) {
        /** @return the defaults, with the spill file in {@code java.io.tmpdir} */
        public static Limits defaults() {
            return new Limits(MEMORY_VALUES, MAX_ROWS, SPILL_BUFFER_BYTES, Path.of(System.getProperty("java.io.tmpdir")),
                    DISK_RESERVE_BYTES);
        }
    }

    private final int width;
    private final double[][] heap;
    private final double[] scratch;
    /** The rows beyond the heap's, {@code null} when none will be sampled or the file could not be made. */
    private final Spill spill;
    /** The most rows this run will sample. */
    private final int capacity;
    /** Rows sampled; written by the engine thread only, after the row. */
    private volatile int count;
    /** Why sampling stopped early, once: {@code null} while it goes on. */
    private String stopped;

    /**
     * @param durationPicos the run's duration
     * @param intervalPicos the sampling interval
     * @param width values a row: the time and one per column
     * @param limits where the rows may go
     * @param warnings takes the warning that the series stop before the run's end, if they will
     */
    public SeriesRecorder(long durationPicos, long intervalPicos, int width, Limits limits,
            java.util.function.Consumer<String> warnings) {
        this.width = width;
        long wanted = Math.max(2, Math.min(durationPicos / intervalPicos + 2, limits.maxRows())); // the sample at 0, a spare
        int inHeap = (int) Math.max(2, Math.min(wanted, limits.memoryValues() / width));
        heap = new double[inHeap][];
        for (int i = 0; i < inHeap; i++) {
            heap[i] = new double[width];
        }
        scratch = new double[width];
        long needed = (durationPicos + intervalPicos - 1) / intervalPicos; // a sample at every interval of [0, D)
        Spill s = null;
        long rows = inHeap;
        String limit = null;
        if (wanted > inHeap) {
            long rowBytes = 8L * width;
            try {
                Files.createDirectories(limits.folder());
                long free = Files.getFileStore(limits.folder()).getUsableSpace() - limits.diskReserveBytes();
                long onDisk = Math.min(wanted - inHeap, Math.max(0, free) / rowBytes);
                if (onDisk < wanted - inHeap) {
                    limit = "the temporary folder " + limits.folder() + " has room for " + onDisk + " more rows, leaving "
                            + HeapBudget.mib(limits.diskReserveBytes()) + " free";
                }
                if (onDisk > 0) {
                    s = new Spill(limits.folder(), width, limits.spillBufferBytes());
                    rows += onDisk;
                }
            } catch (IOException e) {
                limit = "the rows past the heap's could not go to a temporary file in " + limits.folder() + ": "
                        + OutputFile.reason(e);
            }
        }
        spill = s;
        capacity = (int) rows;
        if (capacity < needed) {
            warnings.accept(budgetWarning(durationPicos, intervalPicos, width, capacity, inHeap, limits, limit));
        }
    }

    /** @return the run's warning that its series stop before its end: where, why, and the interval that covers it all */
    public static String budgetWarning(long durationPicos, long intervalPicos, int width, int rows, int inHeap, Limits limits,
            String reason) {
        long covered = (rows - 1) * intervalPicos;
        long enough = (durationPicos + rows - 1) / rows;
        return "the series stop at " + Units.formatPicos(covered) + " of " + Units.formatPicos(durationPicos) + ": "
                + rows + " rows of " + width + " values are all the series hold (" + inHeap + " in the heap, at most "
                + limits.memoryValues() + " values, the rest in a temporary file; at most " + limits.maxRows() + " rows"
                + (reason == null ? "" : "; " + reason) + "); a series interval of at least " + Units.formatPicos(enough)
                + " covers the run";
    }

    /** @return how many rows this run can sample */
    public int capacity() {
        return capacity;
    }

    /**
     * @return the row to fill with the next sample, which {@link #commit} then publishes; {@code null} when the rows
     *         are used up (sampling stops)
     */
    public double[] next() {
        int n = count;
        if (n >= capacity || stopped != null) {
            return null;
        }
        return n < heap.length ? heap[n] : scratch;
    }

    /**
     * Publishes the row {@link #next} gave.
     *
     * @return {@code null}, or the warning that sampling stopped here because the spill file could not be written
     */
    public String commit() {
        int n = count;
        if (n >= heap.length) {
            try {
                spill.append(scratch);
            } catch (IOException e) {
                stopped = "the series stop at row " + n + ": the temporary file holding the rows past the heap's could not"
                        + " be written: " + OutputFile.reason(e);
                return stopped;
            }
        }
        count = n + 1;
        return null;
    }

    /** @return the rows sampled so far, a view whose size is fixed; rows in the heap are shared, not copied */
    public List<double[]> rows() {
        int n = count;
        if (n <= heap.length) {
            return new HeapRows(heap, n);
        }
        return new Rows(heap, spill, n);
    }

    /** The rows sampled so far, all in the heap. */
    private static final class HeapRows extends AbstractList<double[]> implements RandomAccess {
        private final double[][] heap;
        private final int size;

        HeapRows(double[][] heap, int size) {
            this.heap = heap;
            this.size = size;
        }

        @Override
        public double[] get(int index) {
            java.util.Objects.checkIndex(index, size);
            return heap[index];
        }

        @Override
        public int size() {
            return size;
        }
    }

    /**
     * The rows sampled so far, some spilled: read in order, those come a block at a time (one read of the file per
     * block); read elsewhere, a row at a time. A row read twice in the same block is the same array.
     */
    private static final class Rows extends AbstractList<double[]> implements RandomAccess {
        /** Bytes read from the spill file at a time. */
        private static final int BLOCK_BYTES = 1 << 16;
        private final double[][] heap;
        private final Spill spill;
        private final int size;
        private double[][] block = new double[0][];
        /** The spilled row (counted from the first spilled) that {@link #block} starts at. */
        private int blockStart;

        Rows(double[][] heap, Spill spill, int size) {
            this.heap = heap;
            this.spill = spill;
            this.size = size;
        }

        @Override
        public synchronized double[] get(int index) {
            java.util.Objects.checkIndex(index, size);
            if (index < heap.length) {
                return heap[index];
            }
            int r = index - heap.length;
            if (r < blockStart || r >= blockStart + block.length) {
                // reading on from the block: the next block; elsewhere (a chart's every n-th row): that row alone
                int n = r != blockStart + block.length ? 1
                        : Math.min(Math.max(1, BLOCK_BYTES / (8 * spill.width)), size - heap.length - r);
                block = spill.read(r, n);
                blockStart = r;
            }
            return block[r - blockStart];
        }

        @Override
        public int size() {
            return size;
        }
    }

    /**
     * The spilled rows: an unlinked file and the buffer that is written to it when full. The file is a
     * {@link RandomAccessFile}, not a {@code FileChannel}: an interrupt of the thread reading or writing a channel closes
     * it, and the rows with it.
     */
    private static final class Spill {
        private static final VarHandle DOUBLES = MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.BIG_ENDIAN);
        final int width;
        private final int rowBytes;
        private final RandomAccessFile file;
        /** The rows not written out yet, from {@link #flushedRows}. */
        private final byte[] buffer;
        /** Rows in the file; changed under this object's lock. */
        private int flushedRows;
        /** Rows in the buffer (engine thread). */
        private int buffered;

        Spill(Path folder, int width, int bufferBytes) throws IOException {
            this.width = width;
            this.rowBytes = 8 * width;
            Path path = Files.createTempFile(folder, "ringlab-series-", ".rows");
            file = new RandomAccessFile(path.toFile(), "rw");
            Files.delete(path); // nameless from now on: its space goes with the file's descriptor
            RandomAccessFile f = file;
            CLEANER.register(this, () -> {
                try {
                    f.close();
                } catch (IOException e) {
                    // nothing to keep: the file has no name
                }
            });
            buffer = new byte[Math.max(rowBytes, bufferBytes / rowBytes * rowBytes)];
        }

        /** Appends the next spilled row (engine thread). */
        void append(double[] row) throws IOException {
            if ((buffered + 1) * rowBytes > buffer.length) {
                flush();
            }
            int at = buffered * rowBytes;
            for (int i = 0; i < width; i++) {
                DOUBLES.set(buffer, at + 8 * i, row[i]);
            }
            buffered++;
        }

        private synchronized void flush() throws IOException {
            file.seek((long) flushedRows * rowBytes);
            file.write(buffer, 0, buffered * rowBytes);
            flushedRows += buffered;
            buffered = 0;
        }

        /** @return spilled rows {@code from} to {@code from + n}, each a new array (any thread; all sampled) */
        synchronized double[][] read(int from, int n) {
            double[][] rows = new double[n][width];
            int inFile = Math.max(0, Math.min(n, flushedRows - from));
            if (inFile > 0) {
                byte[] b = new byte[inFile * rowBytes];
                try {
                    file.seek((long) from * rowBytes);
                    file.readFully(b);
                } catch (IOException e) {
                    throw new IllegalStateException("the series' temporary file cannot be read: " + OutputFile.reason(e), e);
                }
                for (int k = 0; k < inFile; k++) {
                    for (int i = 0; i < width; i++) {
                        rows[k][i] = (double) DOUBLES.get(b, k * rowBytes + 8 * i);
                    }
                }
            }
            for (int k = inFile; k < n; k++) {
                int at = (from + k - flushedRows) * rowBytes;
                for (int i = 0; i < width; i++) {
                    rows[k][i] = (double) DOUBLES.get(buffer, at + 8 * i);
                }
            }
            return rows;
        }
    }
}

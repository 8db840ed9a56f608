package io.ringlab.engine.kernel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A run's heap budget: what its buffer records and histograms will hold for the whole run, counted before each is
 * made, and refused past {@value #HEAP_SHARE} of the JVM's maximum heap with a message naming the largest holders
 * (docs/engine.md, "Heap held for the whole run"). Engine thread only (the run is prepared there or before it starts).
 */
public final class HeapBudget {
    /**
     * Heap one buffer record takes, estimated: a {@link PacketBuffer} (with its {@link PacketBufferHead}) is a 12-byte
     * header, 21 ints, 17 longs, 2 references and 2 booleans, 248 bytes with compressed references (measured:
     * {@code jcmd PID GC.class_histogram} during a line-rate run, 1,454,520 bytes for 5,865 records); 16 more for its
     * slots in its pool's arrays and in the run's list of buffers. Every pool kind creates one record per buffer of its
     * capacity before the run.
     */
    public static final long BUFFER_BYTES = 264;
    /** The share of the JVM's maximum heap that one run's buffer records and histograms may take. */
    public static final double HEAP_SHARE = 0.75;
    /** What the run holds, by what holds it, as {@link #reserve} counted it. */
    private final Map<String, Long> reserved = new LinkedHashMap<>();
    private long reservedBytes;
    /** Whether {@link #reserve} has refused something: what follows is refused in a line. */
    private boolean heapRefused;

    /**
     * Counts heap the run will hold for the whole run (a pool's records, a histogram's counts), before it is allocated,
     * and refuses what would take the run past {@link #HEAP_SHARE} of the JVM's maximum heap: four sources with
     * {@code buffers = 16777216} died with OutOfMemoryError while they were created (issue 15).
     *
     * @param what what holds it, for the message ({@code pool src.pool}, {@code histogram sink.latency})
     * @param bytes its estimated size
     * @throws IllegalArgumentException naming it, the run's total and its largest holders, and what to do
     */
    public void reserve(String what, long bytes) {
        reservedBytes += bytes;
        reserved.merge(what, bytes, Long::sum);
        long max = Runtime.getRuntime().maxMemory();
        long budget = (long) (max * HEAP_SHARE);
        if (reservedBytes <= budget) {
            return;
        }
        String message;
        if (heapRefused) {
            message = what + " needs about " + mib(bytes) + " more of heap, which the run has not got either (see the first"
                    + " such problem)";
        } else {
            List<Map.Entry<String, Long>> largest = new ArrayList<>(reserved.entrySet());
            largest.sort(Map.Entry.<String, Long>comparingByValue().reversed());
            StringBuilder top = new StringBuilder();
            for (int i = 0; i < Math.min(3, largest.size()); i++) {
                top.append(i == 0 ? "" : ", ").append(largest.get(i).getKey()).append(' ')
                        .append(mib(largest.get(i).getValue()));
            }
            message = what + " needs about " + mib(bytes) + " of heap, which would bring the run to " + mib(reservedBytes)
                    + " before it starts (" + reserved.size() + " pools and histograms), more than "
                    + Math.round(HEAP_SHARE * 100) + " % of the JVM's " + mib(max) + " heap; the largest: " + top
                    + ". Make the pools smaller (a source's or tcp's 'buffers', a driver's rings) or the elements fewer, or"
                    + " give Java more heap (JAVA_TOOL_OPTIONS=-Xmx32g)";
        }
        heapRefused = true;
        reservedBytes -= bytes; // refused: it is not created
        reserved.computeIfPresent(what, (k, v) -> v == bytes ? null : v - bytes);
        throw new IllegalArgumentException(message);
    }

    /** @return {@code bytes} in MiB, rounded, for people */
    public static String mib(long bytes) {
        return String.format("%,d MiB", (bytes + (1 << 19)) >> 20);
    }
}

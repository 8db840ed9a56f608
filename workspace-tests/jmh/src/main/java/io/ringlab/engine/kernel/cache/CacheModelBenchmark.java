package io.ringlab.engine.kernel.cache;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import io.ringlab.engine.kernel.ClassPathRegistry;
import io.ringlab.engine.kernel.PipelineBuilder;
import io.ringlab.sim.api.CostProfile;

/**
 * The cache model's demand access: {@link CacheModel#touch} of one 64-byte line of data on core 0, as
 * {@code Core.touch} and {@code PoolContext.touch} reach it, and {@link CacheLevel#access}, the set lookup every touch
 * makes at least once. Issue 21 profiled mlx5-bulk-drop (64-byte frames at line rate into mlx5) at 55 % of the CPU in
 * the cache model, 37 % of it self time in {@code CacheLevel.access}.
 * <p>
 * The caches are those of the profile that pipeline runs with, {@code generic-x86-4ghz} (the i7-4790K's: 32 KB 8-way
 * L1d, 256 KB 8-way L2, 8 MB 16-way L3, 10 L1D fill buffers, so data touches take the overlapped-miss path), built by
 * {@link CacheModel#of} as a run builds them for its 2 cores. The {@link #pattern} chooses which lines are touched:
 * <ul>
 * <li>{@code hit}: 8 lines in turn (a few hot headers): every touch hits level 1 after the first round;</li>
 * <li>{@code ring}: 1,024 lines in turn, twice the L1d (buffers recycled through a FIFO ring): level 1 misses, level 2
 * hits;</li>
 * <li>{@code stream}: a new line every touch (fresh packet data): every level misses and the line comes from memory,
 * evicting the least recently used line of each set on the way.</li>
 * </ul>
 * The line is the touch counter masked (8 or 1,024 lines, or all bits), so the address costs the same in every pattern
 * and nothing random is drawn. The core's clock moves on by 50 cycles per touch, as work between touches would.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Thread)
public class CacheModelBenchmark {
    @Param({"hit", "ring", "stream"})
    public String pattern;

    /** Where the touched lines start: any line-aligned address (the run's memory map starts its data at another). */
    private static final long BASE = 1L << 32;

    private CacheModel caches;
    /** A level with the L1d's geometry (512 lines in sets of 8 ways), for {@link #levelAccess}. */
    private CacheLevel l1d;
    private int lineBytes;
    private long mask;
    private long touches;
    private long clock;

    @Setup(Level.Trial)
    public void setUp() {
        CostProfile p = new ClassPathRegistry(CacheModelBenchmark.class.getClassLoader())
                .profile(PipelineBuilder.DEFAULT_PROFILE);
        caches = CacheModel.of(p, p.cores());
        if (caches == null) {
            throw new IllegalStateException("profile " + p.name() + " describes no caches");
        }
        lineBytes = caches.lineBytes;
        l1d = new CacheLevel("L1d", (int) (p.value("cache.l1d.bytes") / lineBytes), (int) p.value("cache.l1d.ways"));
        mask = switch (pattern) {
            case "hit" -> 8 - 1;
            case "ring" -> 2 * (long) p.value("cache.l1d.bytes") / lineBytes - 1;
            case "stream" -> -1L;
            default -> throw new IllegalArgumentException("pattern " + pattern + ": hit, ring or stream");
        };
    }

    /** @return the stall cycles of the touch */
    @Benchmark
    public long touch() {
        long line = touches++ & mask;
        clock += 50;
        return caches.touch(0, BASE + line * lineBytes, lineBytes, false, clock);
    }

    /**
     * An instruction fetch of mlx5e_poll_rx_cq's 2,336 bytes (37 lines), as a driver fetches its RX loop per packet: after
     * the first, the whole range is in the L1i and nothing in that L1i changes, so it takes the remembered range's path
     * ({@code CacheLevel.rehit}; the pattern does not apply).
     *
     * @return the stall cycles (0)
     */
    @Benchmark
    public long fetch() {
        clock += 50;
        return caches.touch(0, BASE + (1L << 30), 2336, true, clock);
    }

    /** @return whether the line was there */
    @Benchmark
    public boolean levelAccess() {
        return l1d.access((BASE / lineBytes) + (touches++ & mask));
    }
}

package io.ringlab.engine.kernel;

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
import org.openjdk.jmh.infra.Blackhole;

import io.ringlab.buffer.api.Buffer;

/**
 * Buffer bookkeeping: {@link FixedPool} (pool kind {@code fixed}, a LIFO free stack, what sources use) allocating and
 * freeing through the run's {@link Simulation} as its {@code PoolContext}, which resets a buffer's metadata and marks
 * its owner on {@code onAlloc} and checks for a double free on {@code onFree}. Issue 21 put port adapters and buffer
 * bookkeeping at 39 % of the line-rate path's CPU; this is the bookkeeping half, with no cost model in the pool itself
 * (the allocator models, slab and hwbm, add theirs on top).
 * <ul>
 * <li>{@link #allocFree}: one buffer allocated and freed again (the same buffer each time: the stack is LIFO);</li>
 * <li>{@link #allocFreeBulk}: {@link #batch} buffers by {@code allocBulk} and {@code freeBulk} (FixedPool has the
 * interface's defaults, a loop of single calls); the time is per batch.</li>
 * </ul>
 * The pool holds 1,024 buffers of 2,048 bytes, and the simulation has the {@code generic-x86-4ghz} profile, as a run
 * of the mlx5 pipelines does.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Thread)
public class FixedPoolBenchmark {
    private FixedPool pool;

    @Setup(Level.Trial)
    public void setUp() {
        Simulation sim = new Simulation(new ClassPathRegistry(null), EventQueueBenchmark.profile(), 1);
        pool = new FixedPool(sim, "bench.pool", 1024, 2048);
    }

    /** The batch of {@link #allocFreeBulk}, a state of its own so that {@link #allocFree} is not run once per size. */
    @State(Scope.Thread)
    public static class Batch {
        /** mlx5-bulk-drop's {@code allocBulk}, and NAPI's budget (NAPI_POLL_WEIGHT). */
        @Param({"8", "64"})
        public int batch;
        Buffer[] buffers;

        @Setup(Level.Trial)
        public void setUp() {
            buffers = new Buffer[batch];
        }
    }

    @Benchmark
    public void allocFree(Blackhole bh) {
        Buffer b = pool.alloc(0, 0);
        bh.consume(b);
        pool.free(0, b);
    }

    @Benchmark
    public void allocFreeBulk(Batch s, Blackhole bh) {
        int n = pool.allocBulk(0, 0, s.buffers, 0, s.batch);
        bh.consume(s.buffers[n - 1]);
        pool.freeBulk(0, s.buffers, 0, n);
    }
}

package io.ringlab.engine.kernel;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import io.ringlab.sim.api.CostProfile;

/**
 * The pending-event set ({@link EventQueue}, an indexed binary heap of {@link TimerImpl}s) in steady state, with
 * {@link #pending} timers armed at once. Issue 21 measured the engine's cost per event growing with the pending timers,
 * 64 ns with one chain of events to 142 ns with 64 chains; this separates the heap's share of that from the rest of the
 * event loop. Each operation is one event:
 * <ul>
 * <li>{@link #pollAndRearm}: the earliest timer is taken off the heap and armed again later (the hold model: a chain of
 * events, each arming the next, as a source's or a link's timer does);</li>
 * <li>{@link #pollRearmAndPushBack}: the same, and then another timer that is already queued is armed later in place (a
 * deadline pushed back, as a TX-completion or watchdog timer re-armed by each packet is);</li>
 * <li>{@link #advance}: the engine's loop itself, {@link Simulation#advance}, over timers whose callbacks re-arm
 * themselves with {@link TimerImpl#after}: the heap plus the loop's bookkeeping and the callback, without any
 * model.</li>
 * </ul>
 * The delays come from a precomputed table (1 to 100 ns of virtual time, uniform, fixed seed) and so do the timers
 * pushed back: no random numbers are drawn in the measured code, and every fork sees the same sequence.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Thread)
public class EventQueueBenchmark {
    /** Timers armed at once: one chain, the 64 of issue 21's measurement, and a large pipeline's. */
    @Param({"1", "64", "1024"})
    public int pending;

    /** The table sizes: powers of two, so that an index wraps with a mask. */
    private static final int TABLE = 4096, MASK = TABLE - 1;
    /** Events per {@link #advance} call: the loop's entry and exit weigh little per event, as in a run's long calls. */
    private static final int EVENTS_PER_CALL = 64;

    private final long[] delays = new long[TABLE];
    private final int[] pushedBack = new int[TABLE];
    private int cursor;

    private EventQueue queue;
    private TimerImpl[] timers;
    private Simulation sim;

    @Setup(Level.Trial)
    public void setUp() {
        SplittableRandom r = new SplittableRandom(21);
        for (int i = 0; i < TABLE; i++) {
            delays[i] = 1_000 + r.nextLong(99_000); // picoseconds
            pushedBack[i] = r.nextInt(pending);
        }
        // the heap alone: the timers need no simulation and no callback, since nothing fires them
        queue = new EventQueue();
        timers = new TimerImpl[pending];
        for (int i = 0; i < pending; i++) {
            timers[i] = new TimerImpl(null, null, -1);
            queue.schedule(timers[i], delays[i & MASK]);
        }
        // the engine's loop: a simulation as a run builds one, with timers as elements make them (ElementContext.timer)
        sim = new Simulation(new ClassPathRegistry(null), profile(), 1);
        for (int i = 0; i < pending; i++) {
            TimerImpl[] self = new TimerImpl[1];
            self[0] = new TimerImpl(sim, now -> self[0].after(delays[cursor++ & MASK]), -1);
            self[0].at(delays[i & MASK]);
        }
    }

    /** The profile the engine ships and the mlx5 pipelines use ({@code generic-x86-4ghz}), read as a run reads it. */
    static CostProfile profile() {
        return new ClassPathRegistry(EventQueueBenchmark.class.getClassLoader())
                .profile(PipelineBuilder.DEFAULT_PROFILE);
    }

    /** @return the timer's next time (the harness consumes it) */
    @Benchmark
    public long pollAndRearm() {
        TimerImpl t = queue.poll();
        queue.schedule(t, t.when + delays[cursor++ & MASK]);
        return t.when;
    }

    /** @return the pushed-back timer's new time (the harness consumes it) */
    @Benchmark
    public long pollRearmAndPushBack() {
        TimerImpl t = queue.poll();
        queue.schedule(t, t.when + delays[cursor++ & MASK]);
        TimerImpl queued = timers[pushedBack[cursor & MASK]];
        queue.schedule(queued, queued.when + delays[(cursor + 1) & MASK]);
        return queued.when;
    }

    @Benchmark
    @OperationsPerInvocation(EVENTS_PER_CALL)
    public void advance(Blackhole bh) {
        bh.consume(sim.advance(Long.MAX_VALUE, EVENTS_PER_CALL));
    }
}

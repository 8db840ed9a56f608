package io.ringlab.engine.kernel;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.InputPort;
import io.ringlab.sim.api.OutputPort;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Direction;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Mode;
import io.ringlab.sim.api.dto.RunOptionsDTO;

/**
 * The port adapters ({@link Ports.Out}, {@link Ports.In}) between two elements: what a packet costs to cross one
 * connection, apart from what either element does with it. Issue 21 put port adapters and buffer bookkeeping at 39 % of
 * the line-rate path's CPU; this is the adapter half ({@link FixedPoolBenchmark} is the other).
 * <p>
 * The ports are the engine's own, created and bound by {@link PipelineBuilder} from the pipeline
 * {@code src.out -> dst.in; src.pout -> dst.pin} (a push and a pull connection), as any run's are. The two elements are
 * registered by hand and do nothing: the receiver keeps the last buffer it was given (the harness consumes it), the
 * pull source hands out the same buffer every time. The buffers come from a {@link FixedPool} of the run, so they are
 * the engine's {@code PacketBuffer}s, whose owner each crossing sets.
 * <ul>
 * <li>{@link #push}: {@code OutputPort.push} of one buffer (owner store, the nesting count, the call);</li>
 * <li>{@link #pushBatch}: {@code OutputPort.pushBatch} of {@value #BATCH} buffers (a NAPI poll's worth); the time is
 * per batch;</li>
 * <li>{@link #pull}: {@code InputPort.pull} of one buffer (the call upstream, owner store).</li>
 * </ul>
 * With {@link #receivers} = 1 the adapters' calls into the elements see one element class, which the JIT inlines: a
 * lower bound. In a real pipeline every port call site sees several element types; with 4, the set-up first sends
 * packets through four pipelines of four distinct element classes, so that the call sites' profiles are those of a
 * pipeline with four types (calls dispatched through the interface, not inlined), and then measures the first.
 */
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Thread)
public class PortsBenchmark {
    /** Element classes the adapters' call sites have seen before the measurement. */
    @Param({"1", "4"})
    public int receivers;

    /** Buffers per {@link #pushBatch}: NAPI_POLL_WEIGHT. */
    static final int BATCH = 64;
    /** Crossings per pipeline in the set-up with several element classes: enough for the JIT to compile the ports. */
    private static final int PRIMING = 50_000;

    private OutputPort out;
    private InputPort in;
    private Receiver receiver;
    private Buffer buffer;
    private final Buffer[] batch = new Buffer[BATCH];

    @Setup(Level.Trial)
    public void setUp() throws PipelineException {
        Pair[] pairs = new Pair[receivers];
        for (int k = 0; k < receivers; k++) {
            pairs[k] = build(k);
        }
        out = pairs[0].sender.out;
        in = pairs[0].receiver.pin;
        receiver = pairs[0].receiver;
        buffer = pairs[0].buffers[0];
        System.arraycopy(pairs[0].buffers, 0, batch, 0, BATCH);
        if (receivers > 1) {
            for (int i = 0; i < PRIMING; i++) {
                for (Pair p : pairs) {
                    p.sender.out.push(p.buffers[0]);
                    p.sender.out.pushBatch(p.buffers, 0, BATCH);
                    p.receiver.pin.pull();
                }
            }
        }
    }

    @Benchmark
    public void push(Blackhole bh) {
        out.push(buffer);
        bh.consume(receiver.last);
    }

    @Benchmark
    public void pushBatch(Blackhole bh) {
        out.pushBatch(batch, 0, BATCH);
        bh.consume(receiver.last);
    }

    @Benchmark
    public Buffer pull() {
        return in.pull();
    }

    // ---------------------------------------------------------------- the pipeline

    /** One built pipeline: its two elements and the buffers of its pool, allocated to the sender. */
    private record Pair(Sender sender, Receiver receiver, Buffer[] buffers) {
    }

    /** Builds {@code src -> dst} of the k-th pair of element classes, as a run is built, and fills a pool's buffers. */
    private static Pair build(int k) throws PipelineException {
        Sender[] sender = new Sender[1];
        Receiver[] receiver = new Receiver[1];
        ClassPathRegistry registry = new ClassPathRegistry(PortsBenchmark.class.getClassLoader());
        registry.element(factory("bench-src" + k, ElementDescriptorDTO.SOURCE, ctx -> sender[0] = Sender.of(k, ctx),
                PortDescriptorDTO.of("out", Direction.OUT, Mode.PUSH, true, "packets pushed downstream"),
                PortDescriptorDTO.of("pout", Direction.OUT, Mode.PULL, true, "packets pulled from here")));
        registry.element(factory("bench-dst" + k, ElementDescriptorDTO.SINK, ctx -> receiver[0] = Receiver.of(k, ctx),
                PortDescriptorDTO.of("in", Direction.IN, Mode.PUSH, true, "packets pushed here"),
                PortDescriptorDTO.of("pin", Direction.IN, Mode.PULL, true, "packets pulled from upstream")));
        RunOptionsDTO o = new RunOptionsDTO();
        o.seed = 1L;
        o.snapshotIntervalMillis = 0;
        RunImpl run = new PipelineBuilder(registry).build(PipelineReader.read("ports.pipeline", """
                name = "ports"
                element src : bench-src%d
                element dst : bench-dst%d
                src.out -> dst.in
                src.pout -> dst.pin
                """.formatted(k, k)), o);
        FixedPool pool = new FixedPool(run.simulation(), "src.pool", BATCH, 2048);
        Buffer[] buffers = new Buffer[BATCH];
        for (int i = 0; i < BATCH; i++) {
            buffers[i] = pool.alloc(0, 0);
        }
        sender[0].next = buffers[0];
        return new Pair(sender[0], receiver[0], buffers);
    }

    private static ElementFactory factory(String type, String category,
            java.util.function.Function<ElementContext, Element> make, PortDescriptorDTO... ports) {
        return new ElementFactory() {
            @Override
            public ElementDescriptorDTO descriptor() {
                ElementDescriptorDTO d = new ElementDescriptorDTO();
                d.type = type;
                d.category = category;
                d.summary = "a benchmark's element that does nothing with its packets";
                d.ports.addAll(java.util.List.of(ports));
                return d;
            }

            @Override
            public Element create(ElementContext ctx) {
                return make.apply(ctx);
            }
        };
    }

    /**
     * The upstream element: it holds the output it pushes into and hands out {@link #next} on its pull output. Four
     * subclasses, each its own {@code pull}, so that the adapters' call sites can be shown four classes.
     */
    abstract static class Sender implements Element {
        OutputPort out;
        Buffer next;

        static Sender of(int k, ElementContext ctx) {
            Sender s = switch (k) {
                case 0 -> new Sender0();
                case 1 -> new Sender1();
                case 2 -> new Sender2();
                default -> new Sender3();
            };
            s.out = ctx.output("out");
            return s;
        }
    }

    static final class Sender0 extends Sender {
        @Override public Buffer pull(int port) { return next; }
    }

    static final class Sender1 extends Sender {
        @Override public Buffer pull(int port) { return next; }
    }

    static final class Sender2 extends Sender {
        @Override public Buffer pull(int port) { return next; }
    }

    static final class Sender3 extends Sender {
        @Override public Buffer pull(int port) { return next; }
    }

    /** The downstream element: it keeps the last buffer pushed to it and holds its pull input. */
    abstract static class Receiver implements Element {
        InputPort pin;
        Buffer last;

        static Receiver of(int k, ElementContext ctx) {
            Receiver r = switch (k) {
                case 0 -> new Receiver0();
                case 1 -> new Receiver1();
                case 2 -> new Receiver2();
                default -> new Receiver3();
            };
            r.pin = ctx.input("pin");
            return r;
        }
    }

    static final class Receiver0 extends Receiver {
        @Override public void push(int port, Buffer b) { last = b; }
        @Override public void pushBatch(int port, Buffer[] b, int offset, int count) { last = b[offset + count - 1]; }
    }

    static final class Receiver1 extends Receiver {
        @Override public void push(int port, Buffer b) { last = b; }
        @Override public void pushBatch(int port, Buffer[] b, int offset, int count) { last = b[offset + count - 1]; }
    }

    static final class Receiver2 extends Receiver {
        @Override public void push(int port, Buffer b) { last = b; }
        @Override public void pushBatch(int port, Buffer[] b, int offset, int count) { last = b[offset + count - 1]; }
    }

    static final class Receiver3 extends Receiver {
        @Override public void push(int port, Buffer b) { last = b; }
        @Override public void pushBatch(int port, Buffer[] b, int offset, int count) { last = b[offset + count - 1]; }
    }
}

package io.ringlab.traffic;

import java.util.Map;
import java.util.random.RandomGenerator;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementState;
import io.ringlab.sim.api.Handover;
import io.ringlab.sim.api.Metrics;
import io.ringlab.sim.api.OutputPort;
import io.ringlab.sim.api.Timer;

/**
 * A packet generator. Each event generates a burst of {@code burst} packets at once, all with the event's time as their
 * creation time, and pushes them downstream as one batch; the next burst comes after the sum of the burst's gaps, where a
 * gap is the wire time of a frame at {@code rate} (constant arrivals) or an exponential draw with that mean (Poisson
 * arrivals). The long-run rate is therefore {@code rate} whatever the burst; with {@code burst = 1} (the default) every
 * packet is its own event.
 * <p>
 * Frames: {@code size} includes the 4-byte FCS; the buffer's length is the frame without FCS ({@code skb->len}), and the
 * wire time counts the frame, FCS, 8 bytes of preamble and SFD (IEEE 802.3 clause 3.1.1) and 12 bytes of inter-frame gap
 * (clause 4.4.2).
 * <p>
 * Counters: {@code txPackets}, {@code txBytes} (frame bytes without FCS), {@code allocFailures}.
 * <p>
 * Hot swap ({@link Handover}): a successor {@code source} takes the next burst's time and timer (in its place among the
 * events of that instant) and the count generated; the random stream is the element's, so the draws go on where they
 * were. Engine thread only.
 */
final class SourceElement implements Element, Handover {
    /** FCS bytes, included in the configured frame size but not in skb->len (IEEE 802.3 clause 3.1.1). */
    static final int FCS_BYTES = 4;
    /** Preamble + SFD (8, IEEE 802.3 clause 3.1.1) and minimum inter-frame gap (12, clause 4.4.2), between frames. */
    static final int GAP_BYTES = 20;
    /** The simple IMIX of 7:4:1 frames of 64, 594 and 1518 bytes (Agilent/Cisco "simple IMIX"). */
    private static final int[] IMIX = {64, 64, 64, 64, 64, 64, 64, 594, 594, 594, 594, 1518};

    private final ElementContext ctx;
    private final OutputPort out;
    private final BufferPool pool;
    private final Timer timer;
    private final RandomGenerator random;
    private final Metrics.Counter txPackets, txBytes, allocFailures;
    private final long rate;
    private final int size, sizeMax;
    private final int sizes; // 0 fixed, 1 uniform, 2 imix
    private final boolean poisson;
    private final int flows, priority, tos;
    /**
     * This source's first flow number, derived from its name (so adding an element elsewhere changes no flow number), a
     * multiple of 65,536: flows of different sources do not share a number, as different sockets never share a 5-tuple.
     */
    private final int flowBase;
    private final long count;
    private final long start;
    private final int burst;
    private final Buffer[] batch;
    private long nextPicos;
    private int lastFrame = -1;
    private long lastGap;
    private long generated;

    SourceElement(ElementContext ctx) {
        this.ctx = ctx;
        var c = ctx.config();
        this.rate = c.getBitsPerSecond("rate");
        this.size = (int) c.getBytes("size");
        this.sizeMax = (int) c.getBytes("sizeMax");
        this.sizes = switch (c.getString("sizes")) {
            case "uniform" -> 1;
            case "imix" -> 2;
            default -> 0;
        };
        if (sizes == 1 && sizeMax < size) {
            throw new IllegalArgumentException("sizeMax=" + sizeMax + "B is below size=" + size + "B");
        }
        this.poisson = c.getString("arrivals").equals("poisson");
        this.flows = (int) c.getLong("flows");
        this.flowBase = Icmp.flowBase(ctx.name());
        this.priority = (int) c.getLong("priority");
        this.tos = (int) c.getLong("tos");
        this.count = c.getLong("count");
        this.start = c.getPicos("start");
        this.burst = (int) c.getLong("burst");
        this.batch = new Buffer[burst];
        int largest = sizes == 2 ? 1518 : Math.max(size, sizeMax);
        this.pool = ctx.pool("fixed", "pool", (int) c.getLong("buffers"), largest, Map.of());
        this.out = ctx.output("out");
        this.random = ctx.random();
        this.timer = ctx.timer(this::generate);
        Metrics m = ctx.metrics();
        this.txPackets = m.counter(SourceFactory.TX_PACKETS);
        this.txBytes = m.counter(SourceFactory.TX_BYTES);
        this.allocFailures = m.counter(SourceFactory.ALLOC_FAILURES);
        m.series(SourceFactory.TX_PACKETS.name);
    }

    @Override
    public void start() {
        nextPicos = start;
        timer.at(start);
    }

    @Override
    public boolean exportState(ElementState out) {
        out.put("source.nextPicos", nextPicos);
        out.put("source.generated", generated);
        out.put("source.timer", timer);
        return true;
    }

    @Override
    public boolean importState(ElementState in) {
        if (!in.fromType().equals("source")) {
            return false;
        }
        nextPicos = in.getLong("source.nextPicos", start);
        generated = in.getLong("source.generated", 0);
        timer.takeOver(in.get("source.timer", Timer.class));
        return true;
    }

    private void generate(long now) {
        int n = 0;
        long t = nextPicos;
        long limit = count == 0 ? Long.MAX_VALUE : count;
        // each of the burst's slots is one packet's turn: a slot whose buffer the pool cannot give is skipped (and its
        // gap still passes), so an empty pool never holds the loop (nor the virtual clock) in place
        for (int slot = 0; slot < burst && generated < limit; slot++) {
            int frame = frameSize();
            Buffer b = pool.alloc(0, ctx.index());
            if (b == null) {
                allocFailures.increment();
            } else {
                b.length(frame - FCS_BYTES);
                b.flow(flowBase + (flows == 1 ? 0 : random.nextInt(flows)));
                b.priority(priority);
                b.tos(tos);
                ctx.generated(b);
                batch[n++] = b;
                txBytes.add(frame - FCS_BYTES);
                generated++;
            }
            t += gap(frame);
        }
        nextPicos = t;
        if (n > 0) {
            txPackets.add(n);
            pushBurst(out, batch, n);
        }
        if (generated < limit) {
            timer.at(t);
        }
    }

    /**
     * Hands a burst of generated packets downstream: one {@code push} for one, one {@code pushBatch} for more, and
     * forgets them (the array is the element's, kept for the next burst).
     *
     * @param batch the packets, from index 0
     * @param n how many, at least 1
     */
    static void pushBurst(OutputPort out, Buffer[] batch, int n) {
        if (n == 1) {
            out.push(batch[0]);
        } else {
            out.pushBatch(batch, 0, n);
        }
        java.util.Arrays.fill(batch, 0, n, null);
    }

    private int frameSize() {
        return switch (sizes) {
            case 1 -> size + random.nextInt(sizeMax - size + 1);
            case 2 -> IMIX[random.nextInt(IMIX.length)];
            default -> size;
        };
    }

    /** @return picoseconds until the next packet: the frame's wire time at {@code rate}, or an exponential draw of it. */
    private long gap(int frame) {
        long mean;
        if (frame == lastFrame) {
            mean = lastGap; // fixed sizes repeat: spare the 64-bit division
        } else {
            long bits = (long) (frame + GAP_BYTES) * 8;
            mean = Math.max(1, (bits * 1_000_000_000_000L + rate / 2) / rate);
            lastFrame = frame;
            lastGap = mean;
        }
        if (!poisson) {
            return mean;
        }
        return Math.max(1, Math.round(-StrictMath.log(1.0 - random.nextDouble()) * mean));
    }
}

package io.ringlab.link;

import java.util.random.RandomGenerator;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementState;
import io.ringlab.sim.api.Handover;
import io.ringlab.sim.api.InputPort;
import io.ringlab.sim.api.Metrics;
import io.ringlab.sim.api.OutputPort;
import io.ringlab.sim.api.Timer;

/**
 * A point-to-point Ethernet wire in one direction.
 * <p>
 * <b>Transmit.</b> When the upstream device signals {@link #ready} and the wire is idle, the link pulls up to {@code batch}
 * frames (a pull group). Frame k of a group starts when frame k-1 ends, so back-to-back frames leave exactly one wire time
 * apart. The link pulls again when the last frame of the group has left.
 * <p>
 * <b>Approximation with batch &gt; 1, stated:</b> the upstream device sees all frames of a group leave at the time of the
 * pull (its TX completions come up to {@code batch - 1} wire times early), and the receiver gets the group in one call at
 * the first frame's arrival time (up to {@code batch - 1} wire times early); each frame's arrival stamp stays exact.
 * <p>
 * <b>Deliver.</b> Frames in flight wait in a FIFO with their arrival times (departure + wire time + delay). One timer fires
 * at the head's arrival and pushes the head and the frames behind it that belong to the same pull group; each frame
 * carries its own arrival time in {@link Buffer#stampPicos()}.
 * <p>
 * Counters: {@code txPackets}, {@code txBytes} (skb bytes), {@code wireBytes} (with overhead and padding), {@code lost};
 * gauges {@code inFlight}, {@code utilisationPercent} and {@code busySeconds}.
 * <p>
 * <b>Hot swap</b> ({@link Handover}): a successor {@code link} takes the frames on the wire in order with their arrival
 * times and pull groups, whether the wire is busy and until when, the busy time so far, and both timers (the end of the
 * current pull, the next delivery) in their places. Frames already on the wire keep the arrival times the old
 * configuration gave them; a successor with another rate or delay applies its own to the frames it pulls. The random
 * stream (loss) is the element's, so the draws go on where they were. Engine thread only.
 *
 * @see <a href="https://standards.ieee.org/ieee/802.3/">IEEE 802.3: clause 3.1.1 (frame format: preamble, SFD, FCS),
 *      clause 4.4.2 (interFrameGap 96 bit times, minFrameSize 512 bits)</a>
 */
final class LinkElement implements Element, Handover {
    private final ElementContext ctx;
    private final InputPort in;
    private final OutputPort out;
    private final long rate;
    private final long delay;
    private final int overhead;
    private final int minFrameNoFcs;
    private final double loss;
    private final int batch;
    private final RandomGenerator random;
    private final Timer txDone;
    private final Timer arrival;
    private final int lossReason;
    private final Metrics.Counter txPackets, txBytes, wireBytes, lost;
    /** Frames of the current pull; separate from {@link #delivering} because a delivery may cause a pull (a loop). */
    private final Buffer[] group;
    private final Buffer[] delivering;

    // frames in flight: a growable ring of power-of-two size (grows only past its largest occupancy so far), indexed by mask
    private Buffer[] flight = new Buffer[256];
    private long[] arrivals = new long[256];
    /** The pull group of each frame in flight, so that one delivery never takes frames of a later pull. */
    private long[] groups = new long[256];
    private long pullGroups;
    private int head, size;

    private int lastLen = -1;
    private long lastWire;
    private boolean busy;
    private long busyPicos;
    private long wireFreeAt;

    LinkElement(ElementContext ctx) {
        this.ctx = ctx;
        var c = ctx.config();
        this.rate = c.getBitsPerSecond("rate");
        this.delay = c.getPicos("delay");
        this.overhead = (int) c.getBytes("overhead");
        // a frame shorter than minFrame (which includes the 4-byte FCS) is padded: skb length + FCS >= minFrame
        this.minFrameNoFcs = (int) Math.max(0, c.getBytes("minFrame") - 4);
        this.loss = c.getDouble("loss");
        this.batch = (int) c.getLong("batch");
        this.group = new Buffer[batch];
        this.delivering = new Buffer[batch];
        this.in = ctx.input("in");
        this.out = ctx.output("out");
        this.random = ctx.random();
        this.txDone = ctx.timer(now -> {
            busy = false;
            pullGroup();
        });
        this.arrival = ctx.timer(this::deliver);
        this.lossReason = ctx.dropReason("link-loss");
        Metrics m = ctx.metrics();
        txPackets = m.counter(LinkFactory.TX_PACKETS);
        txBytes = m.counter(LinkFactory.TX_BYTES);
        wireBytes = m.counter(LinkFactory.WIRE_BYTES);
        lost = m.counter(LinkFactory.LOST);
        m.gauge(LinkFactory.IN_FLIGHT, () -> size);
        m.gauge(LinkFactory.UTILISATION_PERCENT, () -> {
            long now = ctx.nowPicos();
            return now == 0 ? 0 : 100.0 * busyUpTo(now) / now;
        });
        m.gauge(LinkFactory.BUSY_SECONDS, () -> busyUpTo(ctx.nowPicos()) / 1e12);
        m.series(LinkFactory.IN_FLIGHT.name);
    }

    /** @return the wire's busy time up to {@code now}: the frames serialised, the one on the wire up to now */
    private long busyUpTo(long now) {
        return busyPicos - Math.max(0, wireFreeAt - now);
    }

    /** @return the wire time of a frame of {@code len} skb bytes, in picoseconds, rounded to nearest. */
    long wirePicos(int len) {
        if (len == lastLen) {
            return lastWire; // most traffic repeats a size: spare the 64-bit division
        }
        long bytes = Math.max(len, minFrameNoFcs) + overhead;
        lastLen = len;
        lastWire = (bytes * 8 * 1_000_000_000_000L + rate / 2) / rate;
        return lastWire;
    }

    @Override
    public void ready(int inPort) {
        if (!busy) {
            pullGroup();
        }
    }

    private void pullGroup() {
        long t = ctx.nowPicos();
        int n = 0;
        busy = true; // the upstream may signal ready() again while we pull: ignore it
        while (n < batch) {
            Buffer b = in.pull();
            if (b == null) {
                break;
            }
            group[n++] = b;
        }
        if (n == 0) {
            busy = false;
            return;
        }
        pullGroups++;
        for (int i = 0; i < n; i++) {
            Buffer b = group[i];
            group[i] = null;
            int len = b.length();
            long wire = wirePicos(len);
            txPackets.increment();
            txBytes.add(len);
            wireBytes.add(Math.max(len, minFrameNoFcs) + overhead);
            t += wire;
            busyPicos += wire;
            if (loss > 0 && random.nextDouble() < loss) {
                lost.increment();
                ctx.drop(0, b, lossReason);
                continue;
            }
            enqueue(b, t + delay);
        }
        wireFreeAt = t;
        txDone.at(t);
    }

    private void enqueue(Buffer b, long when) {
        if (size == flight.length) {
            grow();
        }
        int i = (head + size++) & (flight.length - 1);
        flight[i] = b;
        arrivals[i] = when;
        groups[i] = pullGroups;
        b.stampPicos(when);
        if (size == 1) {
            arrival.at(when);
        }
    }

    private void grow() {
        Buffer[] f = new Buffer[flight.length * 2];
        long[] a = new long[flight.length * 2];
        long[] g = new long[flight.length * 2];
        for (int i = 0; i < size; i++) {
            f[i] = flight[(head + i) & (flight.length - 1)];
            a[i] = arrivals[(head + i) & (flight.length - 1)];
            g[i] = groups[(head + i) & (flight.length - 1)];
        }
        flight = f;
        arrivals = a;
        groups = g;
        head = 0;
    }

    /** Delivers the frame at the head and, with batch &gt; 1, the frames behind it from the same pull group. */
    private void deliver(long now) {
        int mask = flight.length - 1;
        long headGroup = groups[head];
        int n = 0;
        do {
            delivering[n++] = flight[head];
            flight[head] = null;
            head = (head + 1) & mask;
            size--;
        } while (size > 0 && n < batch && groups[head] == headGroup);
        if (size > 0) {
            arrival.at(Math.max(now, arrivals[head]));
        }
        if (n == 1) {
            out.push(delivering[0]);
        } else {
            out.pushBatch(delivering, 0, n);
        }
        for (int i = 0; i < n; i++) {
            delivering[i] = null;
        }
    }

    @Override
    public boolean exportState(ElementState out) {
        Buffer[] frames = new Buffer[size];
        long[] when = new long[size];
        long[] group = new long[size];
        for (int i = 0; i < size; i++) {
            int at = (head + i) & (flight.length - 1);
            frames[i] = flight[at];
            when[i] = arrivals[at];
            group[i] = groups[at];
        }
        out.put("link.flight", frames);
        out.put("link.arrivals", when);
        out.put("link.groups", group);
        out.put("link.pullGroups", pullGroups);
        out.put("link.busy", busy);
        out.put("link.busyPicos", busyPicos);
        out.put("link.wireFreeAt", wireFreeAt);
        out.put("link.txDone", txDone);
        out.put("link.arrival", arrival);
        return true;
    }

    @Override
    public boolean importState(ElementState in) {
        if (!in.fromType().equals("link")) {
            return false;
        }
        Buffer[] frames = in.get("link.flight", Buffer[].class);
        long[] when = in.get("link.arrivals", long[].class);
        long[] group = in.get("link.groups", long[].class);
        int capacity = flight.length;
        while (capacity < frames.length) {
            capacity *= 2;
        }
        flight = new Buffer[capacity];
        arrivals = new long[capacity];
        groups = new long[capacity];
        System.arraycopy(frames, 0, flight, 0, frames.length);
        System.arraycopy(when, 0, arrivals, 0, frames.length);
        System.arraycopy(group, 0, groups, 0, frames.length);
        head = 0;
        size = frames.length;
        pullGroups = in.getLong("link.pullGroups", 0);
        busy = in.getBoolean("link.busy", false);
        busyPicos = in.getLong("link.busyPicos", 0);
        wireFreeAt = in.getLong("link.wireFreeAt", 0);
        txDone.takeOver(in.get("link.txDone", Timer.class));
        arrival.takeOver(in.get("link.arrival", Timer.class));
        return true;
    }

    @Override
    public void forEachHeld(BufferVisitor visitor) {
        for (int i = 0; i < size; i++) {
            visitor.visit(flight[(head + i) & (flight.length - 1)]);
        }
    }
}

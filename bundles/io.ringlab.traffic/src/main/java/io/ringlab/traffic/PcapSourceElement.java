package io.ringlab.traffic;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.capture.PcapReader;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementState;
import io.ringlab.sim.api.Handover;
import io.ringlab.sim.api.Metrics;
import io.ringlab.sim.api.OutputPort;
import io.ringlab.sim.api.Timer;

/**
 * Replays a capture ({@link PcapReader}: pcap or pcapng of Ethernet frames), read whole when the pipeline is built.
 * <p>
 * Frame {@code i} of loop {@code k} is pushed at {@code start + k * period + t_i / speed}, where {@code t_i} is its
 * captured time after the first frame's, rounded to the picosecond; {@code period} is the capture's span plus one mean
 * frame gap ({@code span * n / (n - 1)} for {@code n} frames, divided by {@code speed}), so a looped capture keeps its
 * long-run rate. Frames of one time go downstream as one batch, in file order, with that time as their creation time.
 * <p>
 * Each buffer gets the frame's original length without FCS ({@code skb->len}), its IPv4 TOS and
 * {@code skb->priority = rt_tos2priority(tos)} as a socket of that TOS would give it ({@link Icmp#priorityOf}), and the
 * flow number of its 5-tuple: the element's base ({@link Icmp#flowBase}) plus the 5-tuple's first-seen order modulo
 * 65,536 (more distinct 5-tuples share numbers, as flows share a hashing qdisc's buckets). The protocol is left raw, as
 * {@code source} leaves it: the replay carries lengths, times and classes, not the captured TCP state.
 * <p>
 * Nothing is allocated per frame: the capture is in primitive arrays, the batch array is allocated once. Hot swap
 * ({@link Handover}): a successor {@code pcap-source} of the same file takes the next frame, the loop and the timer.
 * Engine thread only.
 */
final class PcapSourceElement implements Element, Handover {
    /** The most frames one event pushes as a batch; more frames of one time take further events at that time. */
    static final int BATCH = 64;
    private static final int FLOWS_PER_ELEMENT = 65_536;

    private final ElementContext ctx;
    private final OutputPort out;
    private final BufferPool pool;
    private final Timer timer;
    private final Metrics.Counter txPackets, txBytes, allocFailures, loops;
    private final String file;
    private final int frames;
    /** Each frame's time after the first frame's, already divided by the speed, in picoseconds. */
    private final long[] times;
    private final int[] lengths;
    private final byte[] tos;
    private final int[] flows;
    private final long period;
    private final long loopLimit;
    private final long start;
    private final int flowBase;
    private final Buffer[] batch = new Buffer[BATCH];
    /** The next frame and the loop it is in. */
    private int next;
    private long loop;

    PcapSourceElement(ElementContext ctx) {
        this.ctx = ctx;
        var c = ctx.config();
        this.file = c.getString("file");
        if (file.isBlank()) {
            throw new IllegalArgumentException("file is not set: name a .pcap or .pcapng capture (file = \"x.pcapng\")");
        }
        PcapReader.Capture capture;
        try {
            capture = PcapReader.read(Path.of(file));
        } catch (IOException e) {
            throw new IllegalArgumentException("file = \"" + file + "\": " + e.getMessage(), e);
        }
        double speed = c.getDouble("speed");
        this.frames = capture.frames();
        this.times = new long[frames];
        for (int i = 0; i < frames; i++) {
            times[i] = Math.round(capture.timePicos()[i] / speed);
        }
        this.lengths = capture.lengths();
        this.tos = capture.tos();
        this.flows = capture.flows();
        this.loopLimit = c.getLong("loop");
        if (loopLimit != 1 && (frames < 2 || times[frames - 1] == 0)) {
            throw new IllegalArgumentException("loop = " + loopLimit + ": " + file + " spans no time (" + frames
                    + " frame" + (frames == 1 ? "" : "s") + " at one instant), so it has no period to loop with");
        }
        long span = times[frames - 1];
        this.period = frames < 2 ? 0 : span + Math.max(1, Math.round((double) span / (frames - 1)));
        this.start = c.getPicos("start");
        this.flowBase = Icmp.flowBase(ctx.name());
        this.pool = ctx.pool("fixed", "pool", (int) c.getLong("buffers"), capture.largest(), Map.of());
        this.out = ctx.output("out");
        this.timer = ctx.timer(this::replay);
        Metrics m = ctx.metrics();
        this.txPackets = m.counter(PcapSourceFactory.TX_PACKETS);
        this.txBytes = m.counter(PcapSourceFactory.TX_BYTES);
        this.allocFailures = m.counter(PcapSourceFactory.ALLOC_FAILURES);
        this.loops = m.counter(PcapSourceFactory.LOOPS);
        m.gauge(PcapSourceFactory.FRAMES, () -> frames);
        m.gauge(PcapSourceFactory.FLOWS, capture::flowCount);
        m.gauge(PcapSourceFactory.CLAMPED_FRAMES, capture::clamped);
        m.series(PcapSourceFactory.TX_PACKETS.name);
    }

    @Override
    public void start() {
        timer.at(start);
    }

    /** @return when frame {@code i} of loop {@code k} is due */
    private long due(long k, int i) {
        return start + k * period + times[i];
    }

    private void replay(long now) {
        int n = 0;
        while (n < BATCH && next < frames && due(loop, next) == now) {
            int i = next++;
            Buffer b = pool.alloc(0, ctx.index());
            if (b == null) {
                allocFailures.increment();
                continue;
            }
            int t = tos[i] & 0xFF;
            b.length(lengths[i]);
            b.tos(t);
            b.priority(Icmp.priorityOf(t));
            b.flow(flowBase + flows[i] % FLOWS_PER_ELEMENT);
            ctx.generated(b);
            txBytes.add(lengths[i]);
            batch[n++] = b;
        }
        if (next == frames) {
            loops.increment();
            loop++;
            next = 0;
            if (loopLimit != 0 && loop >= loopLimit) {
                next = frames; // done: no more events
            }
        }
        if (n > 0) {
            txPackets.add(n);
            SourceElement.pushBurst(out, batch, n);
        }
        if (next < frames) {
            timer.at(due(loop, next));
        }
    }

    @Override
    public boolean exportState(ElementState out) {
        out.put("pcap-source.file", file);
        out.put("pcap-source.next", (long) next);
        out.put("pcap-source.loop", loop);
        out.put("pcap-source.timer", timer);
        return true;
    }

    @Override
    public boolean importState(ElementState in) {
        if (!in.fromType().equals(PcapSourceFactory.TYPE) || !file.equals(in.get("pcap-source.file", String.class))) {
            return false; // another capture: start from its first frame
        }
        next = (int) in.getLong("pcap-source.next", 0);
        loop = in.getLong("pcap-source.loop", 0);
        timer.takeOver(in.get("pcap-source.timer", Timer.class));
        return true;
    }
}

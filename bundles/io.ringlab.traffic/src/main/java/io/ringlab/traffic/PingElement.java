package io.ringlab.traffic;

import java.util.Map;

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
 * iputils {@code ping}: an echo request every {@code interval}, sequence numbers from 0, the send time remembered per
 * sequence number; a reply records its arrival (the later of now and the link's arrival stamp) minus the send time in the
 * {@code rtt} histogram (milliseconds). A reply whose sequence
 * number is unknown or already answered is counted as {@code duplicates} and consumed.
 * <p>
 * Counters: {@code sent}, {@code received}, {@code duplicates}; histogram {@code rtt}, whose every value is also kept as
 * a point at its time ({@code rttMillis} in the series' points, room for one echo per {@code interval}).
 * <p>
 * Hot swap ({@link Handover}): a successor {@code ping} takes the next sequence number, the send times of the requests
 * not yet answered, and the timer of the next request in its place. Engine thread only.
 */
final class PingElement implements Element, Handover {
    /** Send times are remembered for this many outstanding requests (a ring indexed by sequence number). */
    private static final int WINDOW = 65536;
    /**
     * The wait before a request that could not be sent is tried again: half the interval, at least MININTERVAL (10 ms)
     * and at most 500 ms ({@code nores_interval = SCHINT(interval/2)}, capped at 500, in iputils ping_common.c
     * {@code pinger()} after ENOBUFS or ENOMEM).
     */
    private static final long RETRY_MIN_PICOS = 10_000_000_000L, RETRY_MAX_PICOS = 500_000_000_000L;

    private final ElementContext ctx;
    private final OutputPort out;
    /** Where other pings' replies and other packets go ({@link #PASS}). */
    private final OutputPort pass;
    /** The output for what is not this ping's: several pings of one host (rrul) chain them. */
    static final String PASS = "pass";
    private final BufferPool pool;
    private final Timer timer;
    private final long interval;
    private final int frame;
    private final int tos;
    private final int priority;
    /** The flow of this ping's echoes: its identifier, as the capture's ICMP id shows it. */
    private final int flow;
    private final long count;
    private final long start;
    private final long[] sentAt = new long[WINDOW];
    private final Metrics.Counter sent, received, duplicates, allocFailures;
    private final Metrics.LatencyHistogram rtt;
    private long seq;

    PingElement(ElementContext ctx) {
        this.ctx = ctx;
        var c = ctx.config();
        this.interval = c.getPicos("interval");
        this.frame = (int) c.getBytes("size") + Icmp.HEADERS;
        this.tos = (int) c.getLong("tos");
        this.priority = Icmp.priorityOf(tos);
        this.count = c.getLong("count");
        this.start = c.getPicos("start");
        this.out = ctx.output("out");
        this.pass = ctx.output(PASS);
        this.flow = Icmp.flowBase(ctx.name());
        this.pool = ctx.pool("fixed", "pool", 1024, frame, Map.of());
        this.timer = ctx.timer(this::send);
        java.util.Arrays.fill(sentAt, -1);
        Metrics m = ctx.metrics();
        sent = m.counter(PingFactory.SENT);
        allocFailures = m.counter(PingFactory.ALLOC_FAILURES);
        received = m.counter(PingFactory.RECEIVED);
        duplicates = m.counter(PingFactory.DUPLICATES);
        rtt = m.histogram("rtt", "Millis");
        m.points("rtt", interval); // each echo's rtt at its time: ping.rttMillis
    }

    @Override
    public void start() {
        timer.at(start);
    }

    @Override
    public boolean exportState(ElementState out) {
        out.put("ping.seq", seq);
        out.put("ping.sentAt", sentAt.clone());
        out.put("ping.timer", timer);
        return true;
    }

    @Override
    public boolean importState(ElementState in) {
        if (!in.fromType().equals("ping")) {
            return false;
        }
        seq = in.getLong("ping.seq", 0);
        Handovers.read(in, "ping.sentAt", sentAt);
        timer.takeOver(in.get("ping.timer", Timer.class));
        return true;
    }

    private void send(long now) {
        Buffer b = pool.alloc(0, ctx.index());
        if (b != null) {
            b.length(frame);
            b.protocol(Buffer.PROTO_ICMP);
            b.flags(Icmp.ECHO_REQUEST);
            b.tos(tos);
            b.priority(priority);
            b.flow(flow);
            b.seq(seq);
            ctx.generated(b);
            sentAt[(int) (seq & (WINDOW - 1))] = now;
            sent.increment();
            out.push(b);
        } else {
            // pinger() on ENOBUFS: "Packet is not sent"; ntransmitted (the sequence number) stays for the next try
            allocFailures.increment();
            timer.after(Math.min(Math.max(interval / 2, RETRY_MIN_PICOS), RETRY_MAX_PICOS));
            return;
        }
        seq++;
        if (count == 0 || seq < count) {
            timer.after(interval);
        }
    }

    @Override
    public void push(int inPort, Buffer b) {
        if (pass.connected() && (b.protocol() != Buffer.PROTO_ICMP || b.flow() != flow)) {
            pass.push(b); // another socket's: ping_lookup finds the socket by the echo's identifier
            return;
        }
        int slot = (int) (b.seq() & (WINDOW - 1));
        long at = sentAt[slot];
        if (b.protocol() == Buffer.PROTO_ICMP && b.flags() == Icmp.ECHO_REPLY && at >= 0 && b.seq() < seq) {
            sentAt[slot] = -1;
            rtt.record(Math.max(ctx.nowPicos(), b.stampPicos()) - at); // a grouped link delivery may come early
            received.increment();
        } else {
            duplicates.increment();
        }
        ctx.deliver(0, b);
    }
}

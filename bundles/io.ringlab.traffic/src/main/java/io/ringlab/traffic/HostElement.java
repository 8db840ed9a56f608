package io.ringlab.traffic;

import java.util.Map;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementState;
import io.ringlab.sim.api.Handover;
import io.ringlab.sim.api.Metrics;
import io.ringlab.sim.api.OutputPort;
import io.ringlab.sim.api.Timer;

/**
 * A receiving host. Counts and consumes every frame (one-way latency histogram in microseconds, as {@code sink}); answers
 * an ICMP echo request with a reply after {@code delay}: a new packet of the same length, sequence number, TOS, priority and
 * flow, type echo reply. Replies waiting for their delay are held in a FIFO (the delay is the same for all, so FIFO order
 * is time order) and shown to the invariant walk. TCP data segments go to the host's {@link TcpReceiver}, which delivers
 * or drops them and sends ACKs on {@code out} at once or after the delayed-ACK timeout (ACKs never wait for
 * {@code delay}).
 * <p>
 * Counters: {@code rxPackets}, {@code rxBytes}, {@code echoReplies}, {@code replyPoolEmpty}, and the receiver's
 * {@code tcp*} counters; gauges {@code rxMbitPerSecond}, {@code tcpGoodputMbitPerSecond}; histogram {@code latency}.
 * <p>
 * Hot swap ({@link Handover}): a successor {@code host} with the same flow table takes the replies waiting for their delay
 * with their due times and the timer that releases them, and the receiver's flows (sequence state, out-of-order ranges,
 * delayed-ACK timers in their places). Engine thread only.
 */
final class HostElement implements Element, Handover {
    private final ElementContext ctx;
    private final OutputPort out;
    private final BufferPool pool;
    private final long delay;
    private final Timer timer;
    private final Buffer[] pending = new Buffer[1024];
    private final long[] due = new long[1024];
    private int head, size;
    private final Metrics.Counter rxPackets, rxBytes, echoReplies, replyPoolEmpty;
    private final Metrics.LatencyHistogram latency;
    private final TcpReceiver tcp;

    HostElement(ElementContext ctx) {
        this.ctx = ctx;
        this.delay = ctx.config().getPicos("delay");
        this.out = ctx.output("out");
        this.pool = ctx.pool("fixed", "replies", pending.length, 1514, Map.of());
        this.timer = ctx.timer(this::release);
        Metrics m = ctx.metrics();
        rxPackets = m.counter(HostFactory.RX_PACKETS);
        rxBytes = m.counter(HostFactory.RX_BYTES);
        echoReplies = m.counter(HostFactory.ECHO_REPLIES);
        replyPoolEmpty = m.counter(HostFactory.REPLY_POOL_EMPTY);
        latency = m.histogram("latency", "Micros");
        m.rate(HostFactory.RX_MBIT_PER_SECOND, rxBytes, 8e-6);
        m.series(HostFactory.RX_PACKETS.name);
        var c = ctx.config();
        this.tcp = new TcpReceiver(ctx, out, (int) c.getLong("tcpFlows"), c.getPicos("delayedAck"), c.getBytes("rcvWindow"));
    }

    @Override
    public void push(int inPort, Buffer b) {
        long now = ctx.nowPicos();
        latency.record(Math.max(now, b.stampPicos()) - b.createdPicos());
        rxPackets.increment();
        rxBytes.add(b.length());
        if (TcpReceiver.isData(b)) {
            tcp.receive(b);
            return;
        }
        if (b.protocol() == Buffer.PROTO_ICMP && b.flags() == Icmp.ECHO_REQUEST && out.connected()) {
            reply(b, now);
        }
        ctx.deliver(0, b);
    }

    private void reply(Buffer request, long now) {
        Buffer r = size < pending.length ? pool.alloc(0, ctx.index()) : null;
        if (r == null) {
            replyPoolEmpty.increment();
            return;
        }
        r.length(Math.min(request.length(), r.capacityBytes()));
        r.protocol(Buffer.PROTO_ICMP);
        r.flags(Icmp.ECHO_REPLY);
        r.seq(request.seq());
        r.tos(request.tos());
        r.priority(request.priority());
        r.flow(request.flow());
        ctx.generated(r);
        echoReplies.increment();
        int tail = (head + size++) % pending.length;
        pending[tail] = r;
        due[tail] = now + delay;
        if (size == 1) {
            timer.at(now + delay);
        }
    }

    private void release(long now) {
        while (size > 0 && due[head] <= now) {
            Buffer r = pending[head];
            pending[head] = null;
            head = (head + 1) % pending.length;
            size--;
            out.push(r);
        }
        if (size > 0) {
            timer.at(due[head]);
        }
    }

    @Override
    public boolean exportState(ElementState out) {
        Buffer[] replies = new Buffer[size];
        long[] times = new long[size];
        for (int i = 0; i < size; i++) {
            replies[i] = pending[(head + i) % pending.length];
            times[i] = due[(head + i) % pending.length];
        }
        out.put("host.replies", replies);
        out.put("host.due", times);
        out.put("host.timer", timer);
        tcp.exportState(out, "host");
        return true;
    }

    @Override
    public boolean importState(ElementState in) {
        if (!in.fromType().equals("host") || !tcp.importState(in, "host")) {
            return false; // another flow table: the receiver's state does not fit
        }
        Buffer[] replies = in.get("host.replies", Buffer[].class);
        System.arraycopy(replies, 0, pending, 0, replies.length);
        System.arraycopy(in.get("host.due", long[].class), 0, due, 0, replies.length);
        head = 0;
        size = replies.length;
        timer.takeOver(in.get("host.timer", Timer.class));
        return true;
    }

    @Override
    public void forEachHeld(BufferVisitor visitor) {
        for (int i = 0; i < size; i++) {
            visitor.visit(pending[(head + i) % pending.length]);
        }
    }
}

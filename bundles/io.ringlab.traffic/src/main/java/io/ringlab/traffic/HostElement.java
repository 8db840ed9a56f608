package io.ringlab.traffic;

import java.util.Map;
import java.util.function.ObjLongConsumer;

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
 * is time order) and shown to the invariant walk.
 * <p>
 * TCP: the host listens on every flow. A SYN opens a connection ({@link TcpSock}, the same code as the {@code tcp}
 * sender's, so the options, the receive window and autotuning, SACK and D-SACK blocks, timestamps and the delayed-ACK
 * policy are the {@code kernel} preset's); its SYN-ACK, ACKs and FIN ACKs are pushed on {@code out} (never delayed by
 * {@code delay}), from the host's pool {@code <host>.acks}. The application reads every byte as it arrives. Connections
 * live in a table of {@code tcpFlows} slots; a SYN of a further flow is dropped ({@code tcp-flow-table-full}), a segment
 * of a flow without a connection too ({@code tcp-not-ours}).
 * <p>
 * Counters: {@code rxPackets}, {@code rxBytes}, {@code txPackets}, {@code txBytes}, {@code echoReplies}, {@code replyPoolEmpty}, and the {@code tcp*}
 * counters; gauges {@code rxMbitPerSecond}, {@code tcpGoodputMbitPerSecond}; histogram {@code latency}.
 * <p>
 * Hot swap ({@link Handover}): a successor {@code host} with the same flow table and kernel takes the replies waiting for
 * their delay with their due times and the timer that releases them, and every connection (as {@code tcp} hands its
 * sockets over). Engine thread only.
 */
final class HostElement implements Element, Handover, TcpSock.Owner {
    /** ACK buffers in the host's {@code acks} pool: more than a reverse path of pfifo (1000) + a 256-frame ring holds. */
    static final int ACK_BUFFERS = 4096;
    /** Retransmission queue of a host's connection: it sends only its SYN-ACK and FIN. */
    static final int RTX_SLOTS = 16;

    private final ElementContext ctx;
    private final OutputPort out;
    private final BufferPool pool, acks;
    private final long delay;
    private final Timer timer;
    private final Buffer[] pending = new Buffer[1024];
    private final long[] due = new long[1024];
    private int head, size;
    private final Metrics.Counter rxPackets, rxBytes, txPackets, txBytes, echoReplies, replyPoolEmpty;
    private final Metrics.Counter tcpSegments, tcpRcvBytes, tcpOutOfOrder, tcpDuplicates, tcpAcks, tcpDelayedAcks,
            tcpAckPoolEmpty;
    private final Metrics.LatencyHistogram latency;
    private final TcpConfig cfg;
    private final TcpSock[] socks;
    private final int[] table; // slot + 1 per hash bucket, 0 = empty
    private final int mask;
    private int flows;
    private final int dropTableFull;
    private final int[] dropReasons = new int[TcpEvents.DROP_REASONS.length];

    HostElement(ElementContext ctx) {
        this.ctx = ctx;
        var c = ctx.config();
        this.delay = c.getPicos("delay");
        this.out = ctx.output("out");
        this.pool = ctx.pool("fixed", "replies", pending.length, 1514, Map.of());
        this.acks = ctx.pool("fixed", "acks", ACK_BUFFERS, Tcp.L2_L3 + Tcp.MAX_TCP_HEADER_BYTES, Map.of());
        this.timer = ctx.timer(this::release);
        Metrics m = ctx.metrics();
        rxPackets = m.counter(HostFactory.RX_PACKETS);
        rxBytes = m.counter(HostFactory.RX_BYTES);
        txPackets = m.counter(HostFactory.TX_PACKETS);
        txBytes = m.counter(HostFactory.TX_BYTES);
        echoReplies = m.counter(HostFactory.ECHO_REPLIES);
        replyPoolEmpty = m.counter(HostFactory.REPLY_POOL_EMPTY);
        latency = m.histogram("latency", "Micros");
        m.rate(HostFactory.RX_MBIT_PER_SECOND, rxBytes, 8e-6);
        m.series(HostFactory.RX_PACKETS.name);
        tcpSegments = m.counter(HostFactory.TCP_SEGMENTS);
        tcpRcvBytes = m.counter(HostFactory.TCP_RCV_BYTES);
        tcpOutOfOrder = m.counter(HostFactory.TCP_OUT_OF_ORDER);
        tcpDuplicates = m.counter(HostFactory.TCP_DUPLICATES);
        tcpAcks = m.counter(HostFactory.TCP_ACKS);
        tcpDelayedAcks = m.counter(HostFactory.TCP_DELAYED_ACKS);
        tcpAckPoolEmpty = m.counter(HostFactory.TCP_ACK_POOL_EMPTY);
        m.rate(HostFactory.TCP_GOODPUT_MBIT_PER_SECOND, tcpRcvBytes, 8e-6);
        this.cfg = new TcpConfig(c, ctx.name(), ctx.costProfile());
        int maxFlows = (int) c.getLong("tcpFlows");
        CongestionControl cc = new Reno(maxFlows, cfg.initialCwnd, cfg.initialSsthresh, TcpElement.WINDOW, cfg.kernel);
        this.socks = new TcpSock[maxFlows];
        for (int i = 0; i < maxFlows; i++) {
            int k = i;
            Timer xmit = ctx.timer(now -> socks[k].xmitTimerFired());
            Timer delack = ctx.timer(now -> socks[k].delackFired());
            socks[i] = new TcpSock(this, cfg, cc, i, 0, RTX_SLOTS, xmit, delack);
        }
        int buckets = Integer.highestOneBit(Math.max(2, maxFlows) * 2 - 1) << 1; // a power of two above 2 x flows
        this.table = new int[buckets];
        this.mask = buckets - 1;
        this.dropTableFull = ctx.dropReason("tcp-flow-table-full");
        for (int i = 0; i < dropReasons.length; i++) {
            dropReasons[i] = ctx.dropReason(TcpEvents.DROP_REASONS[i]);
        }
    }

    @Override
    public void push(int inPort, Buffer b) {
        long now = ctx.nowPicos();
        latency.record(Math.max(now, b.stampPicos()) - b.createdPicos());
        rxPackets.increment();
        rxBytes.add(b.length());
        if (b.protocol() == Buffer.PROTO_TCP) {
            tcp(b);
            return;
        }
        if (b.protocol() == Buffer.PROTO_ICMP && b.flags() == Icmp.ECHO_REQUEST && out.connected()) {
            reply(b, now);
        }
        ctx.deliver(0, b);
    }

    /** {@code tcp_v4_rcv}: finds the connection (a SYN creates it) and hands the segment over. */
    private void tcp(Buffer b) {
        boolean syn = (b.flags() & (Buffer.TCP_SYN | Buffer.TCP_ACK)) == Buffer.TCP_SYN;
        int k = slot(b.flow(), syn);
        if (k < 0) {
            ctx.drop(0, b, k == -2 ? dropTableFull : dropReasons[TcpEvents.DROP_NOT_OURS]);
            return;
        }
        TcpSock sk = socks[k];
        if (syn && sk.state != TcpSock.SYN_RECV && sk.state != TcpSock.LISTEN) {
            sk.listen(); // a new connection on a flow whose last one ended (or never started)
        }
        int hdr = b.tcpHeaderBytes() > 0 ? b.tcpHeaderBytes() : Tcp.HEADERS - Tcp.L2_L3;
        if (b.length() - Tcp.L2_L3 - hdr > 0) {
            tcpSegments.increment();
        }
        long before = sk.rcv.rcvNxt;
        int drop = sk.input(b);
        if (sk.rcv.rcvNxt > before && sk.state != TcpSock.SYN_RECV && before != 0) {
            tcpRcvBytes.add(sk.rcv.rcvNxt - before);
        }
        if (drop >= 0) {
            ctx.drop(0, b, dropReasons[drop]);
        } else {
            ctx.deliver(0, b);
        }
    }

    /**
     * @param create whether a missing flow gets a slot (a SYN)
     * @return the flow's slot; -1 when it has none, -2 when the table is full
     */
    private int slot(int flow, boolean create) {
        int h = (flow * 0x9E3779B9) >>> 16;
        for (int i = 0; i <= mask; i++) {
            int bkt = (h + i) & mask;
            int v = table[bkt];
            if (v == 0) {
                if (!create) {
                    return -1;
                }
                if (flows == socks.length) {
                    return -2;
                }
                int k = flows++;
                socks[k].flow = flow;
                socks[k].listen();
                table[bkt] = k + 1;
                return k;
            }
            if (socks[v - 1].flow == flow) {
                return v - 1;
            }
        }
        return -2;
    }

    // ---------------------------------------------------------------- TcpSock.Owner

    @Override
    public long now() {
        return ctx.nowPicos();
    }

    @Override
    public Buffer alloc(TcpSock sk, int bytes) {
        return acks.alloc(0, ctx.index());
    }

    @Override
    public boolean canSend() {
        return out.connected();
    }

    @Override
    public void send(TcpSock sk, Buffer b, int segs, boolean data) {
        b.flow(sk.flow);
        ctx.generated(b);
        txPackets.increment();
        txBytes.add(b.length());
        out.push(b);
    }

    @Override
    public boolean tsqThrottled(TcpSock sk, int truesize) {
        return false;
    }

    @Override
    public int tsoSegs(TcpSock sk) {
        return 1;
    }

    @Override
    public void event(int event, long n) {
        switch (event) {
            case TcpEvents.ACKS_SENT -> tcpAcks.add(n);
            case TcpEvents.DELAYED_ACKS -> tcpDelayedAcks.add(n);
            case TcpEvents.ACK_POOL_EMPTY -> tcpAckPoolEmpty.add(n);
            case TcpEvents.RCV_OUT_OF_ORDER -> tcpOutOfOrder.add(n);
            case TcpEvents.RCV_DUPLICATES -> tcpDuplicates.add(n);
            default -> {
            }
        }
    }

    // ---------------------------------------------------------------- for test harnesses (packetdrill)

    /** {@code getsockopt(TCP_INFO)} of the connection of {@code flow}; nothing for a flow without one. */
    void tcpInfo(int flow, ObjLongConsumer<String> info) {
        int k = slot(flow, false);
        if (k >= 0) {
            TcpInfo.fill(socks[k], info);
        }
    }

    /** @return whether the connection of {@code flow} is established (accept() returns). */
    boolean established(int flow) {
        int k = slot(flow, false);
        return k >= 0 && socks[k].state != TcpSock.LISTEN && socks[k].state != TcpSock.SYN_RECV
                && socks[k].state != TcpSock.CLOSE;
    }

    // ---------------------------------------------------------------- ICMP

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
            txPackets.increment();
            txBytes.add(r.length());
            out.push(r);
        }
        if (size > 0) {
            timer.at(due[head]);
        }
    }

    // ---------------------------------------------------------------- hot swap

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
        out.put("host.kernel", cfg.kernel.id);
        out.put("host.tcpFlows", flows);
        out.put("host.tcpTable", table.clone());
        int[] flowOf = new int[flows];
        for (int k = 0; k < flows; k++) {
            flowOf[k] = socks[k].flow;
            TcpSockState.export(socks[k], out, "host.sock." + k);
        }
        out.put("host.tcpFlowOf", flowOf);
        out.put("host.tcpSlots", socks.length);
        return true;
    }

    @Override
    public boolean importState(ElementState in) {
        int[] t = in.get("host.tcpTable", int[].class);
        if (!in.fromType().equals("host") || t == null || t.length != table.length
                || in.getInt("host.tcpSlots", 0) != socks.length
                || !cfg.kernel.id.equals(in.get("host.kernel", String.class))) {
            return false; // another flow table or kernel: the receiver's state does not fit
        }
        Buffer[] replies = in.get("host.replies", Buffer[].class);
        System.arraycopy(replies, 0, pending, 0, replies.length);
        System.arraycopy(in.get("host.due", long[].class), 0, due, 0, replies.length);
        head = 0;
        size = replies.length;
        timer.takeOver(in.get("host.timer", Timer.class));
        flows = in.getInt("host.tcpFlows", 0);
        System.arraycopy(t, 0, table, 0, table.length);
        int[] flowOf = in.get("host.tcpFlowOf", int[].class);
        for (int k = 0; k < flows; k++) {
            socks[k].flow = flowOf[k];
            TcpSockState.load(socks[k], in, "host.sock." + k);
        }
        return true;
    }

    @Override
    public void forEachHeld(BufferVisitor visitor) {
        for (int i = 0; i < size; i++) {
            visitor.visit(pending[(head + i) % pending.length]);
        }
    }
}

package io.ringlab.traffic;

import java.util.Map;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementState;
import io.ringlab.sim.api.Metrics;
import io.ringlab.sim.api.OutputPort;
import io.ringlab.sim.api.Timer;

/**
 * The TCP receiver of a {@code host}: per flow, {@code rcv_nxt}, an out-of-order record and Linux's ACK policy
 * ({@code tcp_data_queue}, {@code __tcp_ack_snd_check}, {@code tcp_send_delayed_ack} in {@code net/ipv4/tcp_input.c} and
 * {@code tcp_output.c}).
 * <ul>
 * <li><b>In order</b> ({@code seq <= rcv_nxt < end}): {@code rcv_nxt} moves to the segment's end and then over every
 * out-of-order range it reaches. The segment is delivered. An ACK goes out at once when more than one full-sized segment
 * ({@code rcv_mss}, the largest payload seen on the flow) is unacknowledged ({@code rcv_nxt - rcv_wup > rcv_mss}: every
 * second full-sized segment) or when the out-of-order record was not empty (a hole filled, RFC 5681 §4.2); otherwise the
 * delayed-ACK timer is armed, if idle, for {@code delayedAck} ({@code TCP_DELACK_MIN}, 40 ms).</li>
 * <li><b>Out of order</b> ({@code seq > rcv_nxt}): the range is recorded (payload not stored), the segment delivered, and a
 * duplicate ACK ({@code ack = rcv_nxt}) sent at once. Beyond {@code rcv_nxt + rcvWindow} the segment is dropped
 * ({@code tcp-over-window}) and ACKed at once; when the record is full and the range needs a slot of its own, it is dropped
 * ({@code tcp-ofo-drop}) and ACKed.</li>
 * <li><b>Old data</b> ({@code end <= rcv_nxt}, a retransmission already received): dropped ({@code tcp-old-data}) and
 * ACKed at once ({@code tcp_enter_quickack_mode}; no D-SACK).</li>
 * </ul>
 * An ACK is a new packet of {@link Tcp#HEADERS} bytes (66) with protocol TCP, flag ACK, the data's flow, {@code ack =
 * rcv_nxt}, TOS 0 and priority 0 (the receiving socket's own), pushed on the host's {@code out} port; sending one cancels
 * the flow's delayed-ACK timer. ACK buffers come from the host's pool {@code <host>.acks}; when it is empty the ACK is
 * not sent ({@code tcpAckPoolEmpty}) and the delayed-ACK timer retries. Without a connected {@code out} nothing is sent.
 * <p>
 * Flows are found in an open-addressing table of {@code tcpFlows} slots, filled at a flow's first segment (sequence 0 is
 * the first byte: no handshake), when the flow's out-of-order record of {@link #OFO_RANGES} ranges is allocated. A segment
 * of a further flow is dropped ({@code tcp-flow-table-full}).
 * <p>
 * Not modelled: quick-ACK mode at the start of a connection and its ACK-every-segment phase, the adaptive delayed-ACK
 * timeout ({@code ato}), D-SACK and SACK blocks, the advertised window (the sender is never limited by it), window
 * scaling, receive-buffer autotuning and memory pressure. Not thread-safe.
 */
final class TcpReceiver {
    /** ACK buffers in the host's {@code acks} pool: more than a reverse path of pfifo (1000) + a 256-frame ring holds. */
    static final int ACK_BUFFERS = 4096;
    /**
     * Out-of-order ranges remembered per flow: as many as the sender's window has segments ({@link TcpElement#WINDOW}), so
     * the record of a {@code tcp} sender's flow never overflows (the kernel's queue is bounded by memory, not by count).
     * The record is allocated at the flow's first segment, once per flow.
     */
    static final int OFO_RANGES = TcpElement.WINDOW;
    /** Out-of-order ranges each flow has room for before its record grows. */
    static final int OFO_INITIAL = 16;

    private final ElementContext ctx;
    private final OutputPort out;
    private final BufferPool acks;
    private final long delayedAckPicos;
    private final long rcvWindow;
    private final int[] table; // slot + 1 per hash bucket, 0 = empty
    private final int mask;
    private final int[] flowOf;
    private final long[] rcvNxt;
    private final long[] rcvWup;
    private final int[] rcvMss;
    private final SeqRanges[] ofo;
    private final Timer[] delack;
    private int flows;
    private final int dropOld, dropOverWindow, dropOfo, dropTableFull;
    private final Metrics.Counter segments, rcvBytes, outOfOrder, duplicates, acksSent, delayedAcks, ackPoolEmpty;

    /**
     * @param ctx the host's context
     * @param out the host's output towards the reverse path
     * @param maxFlows flows tracked at once
     * @param delayedAckPicos the delayed-ACK timeout; 0 acknowledges every segment at once
     * @param rcvWindow the receive window in bytes: data beyond {@code rcv_nxt + rcvWindow} is dropped
     */
    TcpReceiver(ElementContext ctx, OutputPort out, int maxFlows, long delayedAckPicos, long rcvWindow) {
        this.ctx = ctx;
        this.out = out;
        this.delayedAckPicos = delayedAckPicos;
        this.rcvWindow = rcvWindow;
        this.acks = ctx.pool("fixed", "acks", ACK_BUFFERS, Tcp.HEADERS, Map.of());
        int buckets = Integer.highestOneBit(Math.max(2, maxFlows) * 2 - 1) << 1; // a power of two above 2 x flows
        this.table = new int[buckets];
        this.mask = buckets - 1;
        this.flowOf = new int[maxFlows];
        this.rcvNxt = new long[maxFlows];
        this.rcvWup = new long[maxFlows];
        this.rcvMss = new int[maxFlows];
        this.ofo = new SeqRanges[maxFlows];
        for (int i = 0; i < maxFlows; i++) {
            // room for a few holes from the start (no allocation in the run), growing only under heavy loss
            ofo[i] = new SeqRanges(OFO_INITIAL, OFO_RANGES);
        }
        this.delack = new Timer[maxFlows];
        for (int i = 0; i < maxFlows; i++) {
            int k = i;
            delack[i] = ctx.timer(now -> delackFired(k));
        }
        this.dropOld = ctx.dropReason("tcp-old-data");
        this.dropOverWindow = ctx.dropReason("tcp-over-window");
        this.dropOfo = ctx.dropReason("tcp-ofo-drop");
        this.dropTableFull = ctx.dropReason("tcp-flow-table-full");
        Metrics m = ctx.metrics();
        segments = m.counter(HostFactory.TCP_SEGMENTS);
        rcvBytes = m.counter(HostFactory.TCP_RCV_BYTES);
        outOfOrder = m.counter(HostFactory.TCP_OUT_OF_ORDER);
        duplicates = m.counter(HostFactory.TCP_DUPLICATES);
        acksSent = m.counter(HostFactory.TCP_ACKS);
        delayedAcks = m.counter(HostFactory.TCP_DELAYED_ACKS);
        ackPoolEmpty = m.counter(HostFactory.TCP_ACK_POOL_EMPTY);
        m.rate(HostFactory.TCP_GOODPUT_MBIT_PER_SECOND, rcvBytes, 8e-6);
    }

    /** @return {@code true} if the buffer is a TCP segment that carries data. */
    static boolean isData(Buffer b) {
        return b.protocol() == Buffer.PROTO_TCP && b.length() > Tcp.HEADERS;
    }

    /**
     * Receives a data segment and ends it (delivered or dropped).
     *
     * @param b a buffer for which {@link #isData} holds
     */
    void receive(Buffer b) {
        int k = slot(b.flow());
        if (k < 0) {
            ctx.drop(0, b, dropTableFull);
            return;
        }
        segments.increment();
        int payload = b.length() - Tcp.HEADERS;
        long seq = b.seq();
        long end = seq + payload;
        if (payload > rcvMss[k]) {
            rcvMss[k] = payload;
        }
        long next = rcvNxt[k];
        if (end <= next) {
            duplicates.increment();
            ctx.drop(0, b, dropOld);
            sendAck(k);
            return;
        }
        if (seq >= next + rcvWindow) {
            ctx.drop(0, b, dropOverWindow);
            sendAck(k);
            return;
        }
        SeqRanges r = ofo[k];
        if (seq <= next) {
            boolean holes = !r.isEmpty();
            long advanced = r.advance(end);
            rcvNxt[k] = advanced;
            rcvBytes.add(advanced - next);
            ctx.deliver(0, b);
            if (holes || delayedAckPicos == 0 || advanced - rcvWup[k] > rcvMss[k]) {
                sendAck(k);
            } else if (!delack[k].pending()) {
                delack[k].after(delayedAckPicos);
            }
            return;
        }
        if (!r.add(seq, end)) {
            ctx.drop(0, b, dropOfo);
            sendAck(k);
            return;
        }
        outOfOrder.increment();
        ctx.deliver(0, b);
        sendAck(k);
    }

    private void delackFired(int k) {
        if (rcvNxt[k] > rcvWup[k]) {
            delayedAcks.increment();
            sendAck(k);
        }
    }

    private void sendAck(int k) {
        if (!out.connected()) {
            rcvWup[k] = rcvNxt[k];
            return;
        }
        Buffer a = acks.alloc(0, ctx.index());
        if (a == null) {
            ackPoolEmpty.increment();
            if (!delack[k].pending()) {
                delack[k].after(Math.max(delayedAckPicos, 1));
            }
            return;
        }
        a.length(Tcp.HEADERS);
        a.protocol(Buffer.PROTO_TCP);
        a.flags(Tcp.FLAG_ACK);
        a.flow(flowOf[k]);
        a.ack(rcvNxt[k]);
        ctx.generated(a);
        rcvWup[k] = rcvNxt[k];
        delack[k].cancel();
        acksSent.increment();
        out.push(a);
    }

    /**
     * Hot swap: writes the flow table, each flow's {@code rcv_nxt}, {@code rcv_wup}, {@code rcv_mss} and out-of-order
     * ranges, and its delayed-ACK timer.
     *
     * @param out where to write
     * @param prefix the host's type
     */
    void exportState(ElementState out, String prefix) {
        out.put(prefix + ".tcpFlows", flows);
        out.put(prefix + ".tcpTable", table.clone());
        out.put(prefix + ".tcpFlowOf", flowOf.clone());
        out.put(prefix + ".tcpRcvNxt", rcvNxt.clone());
        out.put(prefix + ".tcpRcvWup", rcvWup.clone());
        out.put(prefix + ".tcpRcvMss", rcvMss.clone());
        int[] counts = new int[flows];
        int total = 0;
        for (int k = 0; k < flows; k++) {
            counts[k] = ofo[k].count();
            total += counts[k];
        }
        long[] starts = new long[total];
        long[] ends = new long[total];
        for (int k = 0, n = 0; k < flows; k++) {
            for (int i = 0; i < counts[k]; i++, n++) {
                starts[n] = ofo[k].start(i);
                ends[n] = ofo[k].end(i);
            }
        }
        out.put(prefix + ".tcpOfoCounts", counts);
        out.put(prefix + ".tcpOfoStarts", starts);
        out.put(prefix + ".tcpOfoEnds", ends);
        for (int k = 0; k < flows; k++) {
            out.put(prefix + ".tcpDelack." + k, delack[k]);
        }
    }

    /**
     * Hot swap: takes a predecessor's receiver state over.
     *
     * @param in what the predecessor wrote
     * @param prefix the host's type
     * @return {@code false}, changing nothing, when the flow table has another size
     */
    boolean importState(ElementState in, String prefix) {
        int[] t = in.get(prefix + ".tcpTable", int[].class);
        if (t == null || t.length != table.length || in.get(prefix + ".tcpFlowOf", int[].class).length != flowOf.length) {
            return false;
        }
        flows = in.getInt(prefix + ".tcpFlows", 0);
        System.arraycopy(t, 0, table, 0, table.length);
        Handovers.read(in, prefix + ".tcpFlowOf", flowOf);
        Handovers.read(in, prefix + ".tcpRcvNxt", rcvNxt);
        Handovers.read(in, prefix + ".tcpRcvWup", rcvWup);
        Handovers.read(in, prefix + ".tcpRcvMss", rcvMss);
        int[] counts = in.get(prefix + ".tcpOfoCounts", int[].class);
        long[] starts = in.get(prefix + ".tcpOfoStarts", long[].class);
        long[] ends = in.get(prefix + ".tcpOfoEnds", long[].class);
        for (int k = 0, n = 0; k < flows; k++) {
            for (int i = 0; i < counts[k]; i++, n++) {
                ofo[k].add(starts[n], ends[n]); // sorted, apart: each goes to the end
            }
            delack[k].takeOver(in.get(prefix + ".tcpDelack." + k, Timer.class));
        }
        return true;
    }

    /** @return the flow's slot, created at its first segment, or -1 when the table is full. */
    private int slot(int flow) {
        int h = (flow * 0x9E3779B9) >>> 16;
        for (int i = 0; i <= mask; i++) {
            int b = (h + i) & mask;
            int v = table[b];
            if (v == 0) {
                if (flows == flowOf.length) {
                    return -1;
                }
                int k = flows++;
                flowOf[k] = flow;
                table[b] = k + 1;
                return k;
            }
            if (flowOf[v - 1] == flow) {
                return v - 1;
            }
        }
        return -1;
    }
}

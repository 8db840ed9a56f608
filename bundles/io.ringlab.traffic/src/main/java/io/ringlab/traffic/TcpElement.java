package io.ringlab.traffic;

import java.util.Map;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferDestructor;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementState;
import io.ringlab.sim.api.Handover;
import io.ringlab.sim.api.Metrics;
import io.ringlab.sim.api.OutputPort;
import io.ringlab.sim.api.Timer;

/**
 * Bulk TCP senders, like {@code iperf -P streams}: each stream is one connection with its own flow number that always has
 * data to send (or {@code count} bytes), from {@code start} on, without a handshake. With {@code gso = false} one
 * {@link Buffer} is one segment of {@code mss} payload bytes and {@link Tcp#HEADERS} header bytes.
 * <p>
 * <b>GSO</b> ({@code gso = true}, the default; Linux always has software GSO): new data goes out in GSO skbs sized by
 * {@code tcp_tso_autosize} (v3.19, {@code net/ipv4/tcp_output.c}): {@code segs = max(min(sk_pacing_rate >> 10,
 * GSO_MAX_SIZE - 1 - MAX_TCP_HEADER) / mss, tcp_min_tso_segs = 2)}, capped by the cwnd quota ({@code cwnd} minus the
 * segments in flight, {@code tcp_cwnd_test}) and by the data left. A GSO skb has length {@code HEADERS + segs * mss},
 * {@code segments = segs}, the truesize {@link Tcp#gsoTruesize} and one TSQ accounting. It carries only full segments: a
 * shorter tail of a {@code count} goes alone. Retransmissions, and the go-back-N resends after a timeout, are
 * single-segment skbs ({@code tcp_retransmit_skb} fragments to one MSS). A device without TSO segments the skb at dequeue
 * ({@code ElementContext.segment}); ACKs arrive per MTU segment, so ACK processing does not change.
 * <p>
 * <b>Sending</b> ({@code tcp_write_xmit}): while the segments in flight ({@code snd_nxt - snd_una}) are fewer than
 * {@code cwnd} and TCP Small Queues allows, the next segment is allocated, charged to the stream's {@code sk_wmem_alloc}
 * by its truesize ({@link Tcp#truesize}), given the destructor {@code tcp_wfree} and pushed on {@code out}.
 * <p>
 * <b>TSQ</b> ({@code tcpLimitOutputBytes}, {@code tsq}): before each segment the stream compares {@code sk_wmem_alloc} (the
 * truesize of its skbs not yet freed: in the qdisc, in the driver, and, when the driver passes the skb on, on the wire) with
 * a limit: v3.12-v3.18 {@code max(tcp_limit_output_bytes, sk_pacing_rate >> 10)}; v3.19+ (commit 605ad7f184b6, "tcp:
 * refine TSO autosizing") {@code min(max(2 * truesize, sk_pacing_rate >> 10), tcp_limit_output_bytes)}. Above it the
 * stream sets {@code TSQ_THROTTLED} and stops. When one of its skbs is freed, the destructor subtracts the truesize; if the
 * stream was throttled it clears the flag and queues the stream to the TSQ tasklet ({@code tcp_wfree}), a timer armed at
 * the current time, which calls the send loop again. The pacing rate is {@code tcp_update_pacing_rate}'s
 * {@code 2 * mss * max(cwnd, packets_out) / srtt} bytes per second ({@code ~0U} before the first RTT sample).
 * <p>
 * <b>ACKs</b> ({@code tcp_ack}) arrive on {@code in}: new data acknowledged advances {@code snd_una}, takes an RTT sample
 * from the oldest newly acknowledged segment unless any of them was retransmitted (Karn), and, in the Open and Loss states,
 * calls the congestion control's {@code cong_avoid} when the stream is cwnd-limited ({@code tcp_is_cwnd_limited} and
 * {@code tcp_cwnd_validate} of v3.19). Three duplicate ACKs start fast retransmit and NewReno fast recovery (RFC 6582):
 * {@code ssthresh} from the algorithm, the first unacknowledged segment resent, {@code cwnd = ssthresh + 3}, one more per
 * further duplicate ACK; a partial ACK resends the next hole, deflates the window by the acknowledged packets plus one and
 * restarts the timer ("slow but steady"); the ACK that covers {@code recover} sets {@code cwnd = ssthresh}. Fast retransmit
 * is not entered again until {@code snd_una} passes {@code recover} (RFC 6582 §4.1).
 * <p>
 * <b>RTO</b>: RFC 6298's estimator ({@code srtt}, {@code rttvar}) with Linux's bound, {@code rto = srtt + max(4 rttvar,
 * minRto)} ({@code tcp_set_rto}), at most 120 s ({@code TCP_RTO_MAX}), 1 s before the first sample
 * ({@code TCP_TIMEOUT_INIT}). On expiry: {@code ssthresh} from the algorithm if the stream was in the Open state,
 * {@code cwnd = 1}, state Loss, go-back-N ({@code snd_nxt = snd_una}), the timeout doubled (exponential backoff until a
 * valid RTT sample), the first segment resent. Retransmissions (fast, partial-ACK, timeout) bypass TSQ, as
 * {@code tcp_retransmit_skb} does; the go-back-N resends that follow go through the send loop.
 * <p>
 * <b>Hot swap</b> ({@link Handover}): a successor {@code tcp} with the same streams, MSS and congestion control takes over
 * every stream's sequence state, RTT estimator and RTO, TSQ accounting ({@code sk_wmem_alloc}, throttled and queued flags,
 * the tasklet's queue), cwnd validation, the send times and retransmitted flags of the window, the congestion control's
 * windows and state, and its timers (each stream's RTO, the start, the tasklet) in their places; the skbs it has sent
 * that are still in qdiscs, rings, on wires or at the receiver get its {@code tcp_wfree} as destructor, so their release
 * reaches the successor. Otherwise drain and restart (and those skbs lose the old instance's destructor).
 * <p>
 * Counters and gauges: declared in {@link TcpFactory}, the gauges registered by {@link TcpGauges}. Engine thread only.
 */
final class TcpElement implements Element, BufferDestructor, Handover, CongestionControl.Sock {
    /** {@code snd_cwnd_clamp}, packets; also the size of the per-stream ring of send times (a power of two). */
    static final int WINDOW = 4096;
    /** {@code TCP_TIMEOUT_INIT}: 1 s (RFC 6298 §2.1). */
    static final long INITIAL_RTO_PICOS = 1_000_000_000_000L;
    /** {@code TCP_RTO_MAX}: 120 s. */
    static final long MAX_RTO_PICOS = 120_000_000_000_000L;
    /** {@code ~0U}: {@code sk_pacing_rate} before the first RTT sample, and {@code sk_max_pacing_rate}, bytes per second. */
    static final long UNLIMITED_PACING = 0xFFFF_FFFFL;

    static final int OPEN = 0, RECOVERY = 1, LOSS = 2;
    static final int TSQ_OFF = 0, TSQ_V3_12 = 1, TSQ_V3_19 = 2;

    final ElementContext ctx;
    private final OutputPort out;
    private final BufferPool pool;
    final CongestionControl cc;
    final int streams;
    final int mss;
    final int fullTruesize;
    private final int flowBase;
    private final int tos, priority;
    final long start;
    private final long limitBytes;
    private final long minRto;
    final int tsq;
    private final long tcpLimitOutputBytes;
    final boolean gso;

    final long[] sndUna, sndNxt, sndMax, recoverEnd;
    private final int[] state, dupAcks;
    final long[] srtt, rttvar, rto;
    final long[] wmem, wmemMax;
    final long[] pacingRate;
    private final boolean[] throttled, queued, poolBlocked;
    private final int[] maxPacketsOut;
    private final long[] maxPacketsSeq;
    private final boolean[] cwndLimited;
    final long[] acked;
    /** Per stream, the ACKs that advanced snd_una: the events its goodput rests on. */
    final long[] ackEvents;
    /** Per stream, a ring of {@link #WINDOW} segments indexed by {@code seq / mss}: last send time and retransmitted flag. */
    private final long[] sendTime;
    private final boolean[] retrans;
    private final Timer[] rtoTimer;
    private final Timer startTimer;
    private final Timer tasklet;
    private final int[] tasks;
    private int taskHead, taskCount;
    private boolean anyPoolBlocked;
    private final int dropNotOurs;

    final Metrics.Counter segmentsSent, retransmits, fastRetransmits, rtoCount, tsqThrottles, ackedBytes,
            acksReceived, dupAckCount, allocFailures, skbsSent, hystartTrainExits, hystartDelayExits;

    TcpElement(ElementContext ctx) {
        this.ctx = ctx;
        var c = ctx.config();
        this.streams = (int) c.getLong("streams");
        this.mss = (int) c.getBytes("mss");
        this.fullTruesize = Tcp.truesize(mss + Tcp.HEADERS);
        this.flowBase = Icmp.flowBase(ctx.name());
        this.tos = (int) c.getLong("tos");
        this.priority = Icmp.priorityOf(tos);
        this.start = c.getPicos("start");
        long count = c.getBytes("count");
        this.limitBytes = count == 0 ? Long.MAX_VALUE : count;
        this.minRto = c.getPicos("minRto");
        this.tsq = switch (c.getString("tsq")) {
            case "off" -> TSQ_OFF;
            case "v3.12" -> TSQ_V3_12;
            default -> TSQ_V3_19;
        };
        this.tcpLimitOutputBytes = c.getBytes("tcpLimitOutputBytes");
        this.gso = c.getBoolean("gso");
        int initialCwnd = (int) c.getLong("initialCwnd");
        int initialSsthresh = (int) c.getLong("initialSsthresh");
        this.cc = c.getString("congestion").equals("reno")
                ? new Reno(streams, initialCwnd, initialSsthresh, WINDOW, Kernel.CURRENT)
                : new Cubic(streams, initialCwnd, initialSsthresh, WINDOW, (int) c.getLong("hz"), Kernel.CURRENT,
                        c.getBoolean("hystart"), gso ? Tcp.GSO_MAX_SIZE : 0, this);
        // a GSO skb holds up to 64 KB (GSO_MAX_SIZE); the pool's data size is its capacity, no memory is reserved
        this.pool = ctx.pool("fixed", "pool", (int) c.getLong("buffers"), gso ? Tcp.GSO_MAX_SIZE : mss + Tcp.HEADERS,
                Map.of());
        this.out = ctx.output("out");
        this.dropNotOurs = ctx.dropReason("tcp-not-ours");

        sndUna = new long[streams];
        sndNxt = new long[streams];
        sndMax = new long[streams];
        recoverEnd = new long[streams];
        state = new int[streams];
        dupAcks = new int[streams];
        srtt = new long[streams];
        rttvar = new long[streams];
        rto = new long[streams];
        wmem = new long[streams];
        wmemMax = new long[streams];
        pacingRate = new long[streams];
        throttled = new boolean[streams];
        queued = new boolean[streams];
        poolBlocked = new boolean[streams];
        maxPacketsOut = new int[streams];
        maxPacketsSeq = new long[streams];
        cwndLimited = new boolean[streams];
        acked = new long[streams];
        ackEvents = new long[streams];
        sendTime = new long[streams * WINDOW];
        retrans = new boolean[streams * WINDOW];
        rtoTimer = new Timer[streams];
        tasks = new int[streams];
        for (int s = 0; s < streams; s++) {
            int k = s;
            rto[s] = INITIAL_RTO_PICOS;
            pacingRate[s] = UNLIMITED_PACING;
            rtoTimer[s] = ctx.timer(now -> retransmitTimer(k));
        }
        this.startTimer = ctx.timer(now -> {
            for (int s = 0; s < streams; s++) {
                cc.init(s, now); // tcp_init_congestion_control: the connection is established
                writeXmit(s);
            }
        });
        this.tasklet = ctx.timer(this::tasklet);

        Metrics m = ctx.metrics();
        segmentsSent = m.counter(TcpFactory.SEGMENTS_SENT);
        retransmits = m.counter(TcpFactory.RETRANSMITS);
        fastRetransmits = m.counter(TcpFactory.FAST_RETRANSMITS);
        rtoCount = m.counter(TcpFactory.RTO_COUNT);
        tsqThrottles = m.counter(TcpFactory.TSQ_THROTTLES);
        ackedBytes = m.counter(TcpFactory.ACKED_BYTES);
        acksReceived = m.counter(TcpFactory.ACKS_RECEIVED);
        dupAckCount = m.counter(TcpFactory.DUP_ACKS);
        allocFailures = m.counter(TcpFactory.ALLOC_FAILURES);
        skbsSent = m.counter(TcpFactory.SKBS_SENT);
        hystartTrainExits = m.counter(TcpFactory.HYSTART_TRAIN_EXITS);
        hystartDelayExits = m.counter(TcpFactory.HYSTART_DELAY_EXITS);
        if (cc instanceof Cubic cubic) {
            cubic.countExits(hystartTrainExits, hystartDelayExits);
        }
        TcpGauges.register(this, m);
    }

    @Override
    public void start() {
        startTimer.at(start);
    }

    // ---------------------------------------------------------------- hot swap

    @Override
    public boolean exportState(ElementState out) {
        out.put("tcp.streams", streams);
        out.put("tcp.mss", mss);
        cc.exportState(out, "tcp");
        out.put("tcp.sndUna", sndUna.clone());
        out.put("tcp.sndNxt", sndNxt.clone());
        out.put("tcp.sndMax", sndMax.clone());
        out.put("tcp.recoverEnd", recoverEnd.clone());
        out.put("tcp.state", state.clone());
        out.put("tcp.dupAcks", dupAcks.clone());
        out.put("tcp.srtt", srtt.clone());
        out.put("tcp.rttvar", rttvar.clone());
        out.put("tcp.rto", rto.clone());
        out.put("tcp.wmem", wmem.clone());
        out.put("tcp.wmemMax", wmemMax.clone());
        out.put("tcp.pacingRate", pacingRate.clone());
        out.put("tcp.throttled", throttled.clone());
        out.put("tcp.queued", queued.clone());
        out.put("tcp.poolBlocked", poolBlocked.clone());
        out.put("tcp.maxPacketsOut", maxPacketsOut.clone());
        out.put("tcp.maxPacketsSeq", maxPacketsSeq.clone());
        out.put("tcp.cwndLimited", cwndLimited.clone());
        out.put("tcp.acked", acked.clone());
        out.put("tcp.ackEvents", ackEvents.clone());
        out.put("tcp.sendTime", sendTime.clone());
        out.put("tcp.retrans", retrans.clone());
        int[] waiting = new int[taskCount];
        for (int i = 0; i < taskCount; i++) {
            waiting[i] = tasks[(taskHead + i) % streams];
        }
        out.put("tcp.tasks", waiting);
        out.put("tcp.anyPoolBlocked", anyPoolBlocked);
        for (int s = 0; s < streams; s++) {
            out.put("tcp.rtoTimer." + s, rtoTimer[s]);
        }
        out.put("tcp.startTimer", startTimer);
        out.put("tcp.tasklet", tasklet);
        out.putDestructors("tcp.wfree", this); // tcp_wfree on every skb sent and not yet freed, wherever it is
        return true;
    }

    @Override
    public boolean importState(ElementState in) {
        if (!in.fromType().equals("tcp") || in.getInt("tcp.streams", 0) != streams || in.getInt("tcp.mss", 0) != mss
                || !cc.name().equals(in.get("tcp.congestion", String.class))) {
            return false; // other streams, segments or algorithm: the state means something else
        }
        if (!cc.importState(in, "tcp")) {
            return false; // CUBIC of another kernel: other units
        }
        Handovers.read(in, "tcp.sndUna", sndUna);
        Handovers.read(in, "tcp.sndNxt", sndNxt);
        Handovers.read(in, "tcp.sndMax", sndMax);
        Handovers.read(in, "tcp.recoverEnd", recoverEnd);
        Handovers.read(in, "tcp.state", state);
        Handovers.read(in, "tcp.dupAcks", dupAcks);
        Handovers.read(in, "tcp.srtt", srtt);
        Handovers.read(in, "tcp.rttvar", rttvar);
        Handovers.read(in, "tcp.rto", rto);
        Handovers.read(in, "tcp.wmem", wmem);
        Handovers.read(in, "tcp.wmemMax", wmemMax);
        Handovers.read(in, "tcp.pacingRate", pacingRate);
        Handovers.read(in, "tcp.throttled", throttled);
        Handovers.read(in, "tcp.queued", queued);
        Handovers.read(in, "tcp.poolBlocked", poolBlocked);
        Handovers.read(in, "tcp.maxPacketsOut", maxPacketsOut);
        Handovers.read(in, "tcp.maxPacketsSeq", maxPacketsSeq);
        Handovers.read(in, "tcp.cwndLimited", cwndLimited);
        Handovers.read(in, "tcp.acked", acked);
        if (in.get("tcp.ackEvents", long[].class) != null) { // a predecessor of before sim.api 1.4's samples has none
            Handovers.read(in, "tcp.ackEvents", ackEvents);
        }
        Handovers.read(in, "tcp.sendTime", sendTime);
        Handovers.read(in, "tcp.retrans", retrans);
        int[] waiting = in.get("tcp.tasks", int[].class);
        System.arraycopy(waiting, 0, tasks, 0, waiting.length);
        taskHead = 0;
        taskCount = waiting.length;
        anyPoolBlocked = in.getBoolean("tcp.anyPoolBlocked", false);
        for (int s = 0; s < streams; s++) {
            rtoTimer[s].takeOver(in.get("tcp.rtoTimer." + s, Timer.class));
        }
        startTimer.takeOver(in.get("tcp.startTimer", Timer.class));
        tasklet.takeOver(in.get("tcp.tasklet", Timer.class));
        in.replaceDestructors("tcp.wfree", this);
        return true;
    }

    // ---------------------------------------------------------------- sending

    /** @return segments covering {@code bytes} of sequence space (the last segment may be short). */
    private int segs(long bytes) {
        return (int) ((bytes + mss - 1) / mss);
    }

    /**
     * The TSQ limit of stream {@code s} in bytes ({@code tcp_write_xmit}).
     *
     * @param truesize the truesize of the skb about to be sent (v3.19's {@code 2 * skb->truesize})
     */
    long tsqLimit(int s, int truesize) {
        long rate = pacingRate[s] >> 10;
        if (tsq == TSQ_V3_12) {
            return Math.max(tcpLimitOutputBytes, rate);
        }
        return Math.min(Math.max(2L * truesize, rate), tcpLimitOutputBytes);
    }

    /**
     * {@code tcp_tso_autosize} (v3.19): segments per GSO skb, about one millisecond at the pacing rate, at least
     * {@code tcp_min_tso_segs}, and no more than fit in {@code GSO_MAX_SIZE - 1 - MAX_TCP_HEADER} bytes.
     */
    int tsoSegs(int s) {
        long bytes = Math.min(pacingRate[s] >> 10, Tcp.GSO_MAX_SIZE - 1 - Tcp.MAX_TCP_HEADER);
        return (int) Math.max(bytes / mss, Tcp.MIN_TSO_SEGS);
    }

    /** {@code tcp_write_xmit}: sends new (or, after a timeout, go-back-N) segments while cwnd, TSQ and the pool allow. */
    private void writeXmit(int s) {
        int sent = 0;
        boolean isCwndLimited = false;
        while (sndNxt[s] < limitBytes) {
            int inFlight = segs(sndNxt[s] - sndUna[s]);
            if (inFlight >= cc.cwnd[s]) {
                isCwndLimited = true;
                break;
            }
            int n = 1;
            if (gso && sndNxt[s] >= sndMax[s]) { // new data: an autosized GSO skb, within the cwnd quota and the data left
                n = Math.min(tsoSegs(s), cc.cwnd[s] - inFlight);
                long left = limitBytes - sndNxt[s];
                if (left < (long) n * mss) {
                    n = (int) Math.max(1, left / mss); // full segments only; a short tail goes alone
                }
            }
            int truesize = n == 1 ? fullTruesize : Tcp.gsoTruesize(mss, n);
            if (tsq != TSQ_OFF && wmem[s] > tsqLimit(s, truesize)) {
                if (!throttled[s]) {
                    throttled[s] = true;
                    tsqThrottles.increment();
                }
                break;
            }
            int len = transmit(s, sndNxt[s], n);
            if (len == 0) {
                break;
            }
            sndNxt[s] += len;
            if (sndNxt[s] > sndMax[s]) {
                sndMax[s] = sndNxt[s];
            }
            sent++;
        }
        if (sent > 0) {
            cwndValidate(s, isCwndLimited);
        }
    }

    /**
     * Sends the skb that starts at {@code seq} ({@code tcp_transmit_skb}): one segment, or a GSO skb of {@code n} full
     * segments.
     *
     * @param n segments, 1 or (for new data with at least {@code n * mss} bytes left) more
     * @return its payload bytes, or 0 when the pool is empty (the stream waits for a buffer to be freed)
     */
    private int transmit(int s, long seq, int n) {
        Buffer b = pool.alloc(0, ctx.index());
        if (b == null) {
            allocFailures.increment();
            poolBlocked[s] = true;
            anyPoolBlocked = true;
            return 0;
        }
        long now = ctx.nowPicos();
        int payload = n == 1 ? (int) Math.min(mss, limitBytes - seq) : n * mss;
        int len = payload + Tcp.HEADERS;
        b.length(len);
        b.segments(n);
        b.fragments(Tcp.skbFrags(seq, payload)); // nr_frags: the payload beyond the linear part sits in page fragments
        b.truesize(n == 1 ? Tcp.truesize(len) : Tcp.gsoTruesize(mss, n));
        b.protocol(Buffer.PROTO_TCP);
        b.flags(Tcp.FLAG_ACK | Tcp.FLAG_PSH);
        b.seq(seq);
        b.flow(flowBase + s);
        b.tos(tos);
        b.priority(priority);
        b.destructor(this);
        ctx.generated(b);
        boolean again = seq < sndMax[s];
        long first = seq / mss;
        for (int k = 0; k < n; k++) {
            int slot = s * WINDOW + (int) ((first + k) & (WINDOW - 1));
            retrans[slot] = again;
            sendTime[slot] = now;
        }
        if (again) {
            retransmits.add(n);
        }
        segmentsSent.add(n);
        skbsSent.increment();
        wmem[s] += b.truesize();
        if (wmem[s] > wmemMax[s]) {
            wmemMax[s] = wmem[s];
        }
        if (!rtoTimer[s].pending()) {
            rtoTimer[s].at(now + rto[s]);
        }
        out.push(b);
        return payload;
    }

    /** {@code tcp_cwnd_validate} (v3.19): remembers whether the stream was cwnd-limited in its largest flight this window. */
    private void cwndValidate(int s, boolean isCwndLimited) {
        int packetsOut = segs(sndMax[s] - sndUna[s]);
        if (sndUna[s] >= maxPacketsSeq[s] || packetsOut > maxPacketsOut[s]) {
            maxPacketsOut[s] = packetsOut;
            maxPacketsSeq[s] = sndMax[s];
            cwndLimited[s] = isCwndLimited;
        }
    }

    /** {@code tcp_is_cwnd_limited}: in slow start the window may grow to twice the largest flight, otherwise only when full. */
    private boolean isCwndLimited(int s) {
        if (cc.inSlowStart(s)) {
            return cc.cwnd[s] < 2 * maxPacketsOut[s];
        }
        return cwndLimited[s];
    }

    // ---------------------------------------------------------------- TSQ: tcp_wfree and the tasklet

    /** {@code tcp_wfree}: the skb was freed (by the driver, the link, a qdisc drop or the receiver). */
    @Override
    public void destroyed(Buffer b) {
        int s = b.flow() - flowBase;
        wmem[s] -= b.truesize();
        if (throttled[s]) {
            throttled[s] = false;
            schedule(s);
        }
        if (anyPoolBlocked) {
            anyPoolBlocked = false;
            for (int i = 0; i < streams; i++) {
                if (poolBlocked[i]) {
                    poolBlocked[i] = false;
                    schedule(i);
                }
            }
        }
    }

    /**
     * {@code tcp_gso_segment} (net/ipv4/tcp_offload.c, since commit 0d08c42cf9a7 "tcp: gso: fix truesize tracking", 2013):
     * each segment gets the truesize {@code skb_segment} allocated for it ({@link Tcp#segmentTruesize}: its bytes still in
     * the GSO skb's linear part, the first {@link Tcp#LINEAR_PAYLOAD}, need a larger head) and the nr_frags of the rest;
     * the socket is charged {@code sum_truesize - gso_skb->truesize} more, so a segmented skb weighs more in TSQ than it
     * did in the qdisc (about 2216 per 1448-byte segment instead of 1448).
     */
    @Override
    public void segmented(Buffer gso, Buffer[] segments, int count) {
        int s = gso.flow() - flowBase;
        int offset = 0;
        long sum = 0;
        for (int k = 0; k < count; k++) {
            Buffer seg = segments[k];
            int payload = seg.length() - Tcp.HEADERS;
            int hsize = Math.max(0, Math.min(payload, Tcp.LINEAR_PAYLOAD - offset));
            int dataLen = payload - hsize;
            seg.fragments(dataLen == 0 ? 0 : Tcp.pageFrags(seg.seq() + hsize, dataLen));
            int truesize = Tcp.segmentTruesize(hsize, dataLen);
            seg.truesize(truesize);
            sum += truesize;
            offset += payload;
        }
        wmem[s] += sum - gso.truesize();
        if (wmem[s] > wmemMax[s]) {
            wmemMax[s] = wmem[s];
        }
    }

    /** Queues a stream to the tasklet ({@code TSQ_QUEUED}), which runs at the current time after the running event. */
    private void schedule(int s) {
        if (queued[s]) {
            return;
        }
        queued[s] = true;
        int tail = taskHead + taskCount++;
        tasks[tail < streams ? tail : tail - streams] = s;
        if (!tasklet.pending()) {
            tasklet.at(ctx.nowPicos());
        }
    }

    /** {@code tcp_tasklet_func}: {@code tcp_write_xmit} for each queued stream, in the order they were queued. */
    private void tasklet(long now) {
        for (int n = taskCount; n > 0; n--) {
            int s = tasks[taskHead];
            if (++taskHead == streams) {
                taskHead = 0;
            }
            taskCount--;
            queued[s] = false;
            writeXmit(s);
        }
    }

    // ---------------------------------------------------------------- ACKs

    @Override
    public void push(int inPort, Buffer b) {
        int s = b.flow() - flowBase;
        if (b.protocol() != Buffer.PROTO_TCP || s < 0 || s >= streams) {
            ctx.drop(0, b, dropNotOurs);
            return;
        }
        long ack = b.ack();
        ctx.deliver(0, b);
        acksReceived.increment();
        onAck(s, ack);
    }

    /** {@code tcp_ack}. */
    private void onAck(int s, long ack) {
        long una = sndUna[s];
        if (ack > sndMax[s] || ack < una) {
            return; // acknowledges what was never sent, or old
        }
        long now = ctx.nowPicos();
        if (ack == una) {
            if (sndMax[s] > una) {
                duplicateAck(s);
            }
            return;
        }
        int newlyAcked = segs(ack - una);
        sndUna[s] = ack; // before pkts_acked: tcp_ack advances snd_una before tcp_clean_rtx_queue
        rttFromAck(s, una, ack, now);
        if (sndNxt[s] < ack) {
            sndNxt[s] = ack;
        }
        ackedBytes.add(ack - una);
        acked[s] += ack - una;
        ackEvents[s]++;
        dupAcks[s] = 0;
        switch (state[s]) {
            case RECOVERY -> {
                if (ack >= recoverEnd[s]) {
                    cc.cwnd[s] = Math.min(cc.ssthresh[s], cc.clamp); // full ACK: leave recovery
                    state[s] = OPEN;
                } else {
                    cc.cwnd[s] = Math.max(1, cc.cwnd[s] - newlyAcked + 1); // partial ACK: deflate, resend the next hole
                    retransmitHead(s);
                    rtoTimer[s].at(now + rto[s]);
                }
            }
            case LOSS -> {
                if (ack >= recoverEnd[s]) {
                    state[s] = OPEN;
                }
                if (isCwndLimited(s)) {
                    cc.congAvoid(s, ack, newlyAcked, now);
                }
            }
            default -> {
                if (isCwndLimited(s)) {
                    cc.congAvoid(s, ack, newlyAcked, now);
                }
            }
        }
        updatePacingRate(s);
        if (sndUna[s] >= sndMax[s]) {
            rtoTimer[s].cancel();
        } else {
            rtoTimer[s].at(now + rto[s]);
        }
        writeXmit(s);
    }

    private void duplicateAck(int s) {
        dupAckCount.increment();
        switch (state[s]) {
            case OPEN -> {
                if (++dupAcks[s] == 3 && sndUna[s] >= recoverEnd[s]) {
                    enterRecovery(s);
                }
            }
            case RECOVERY -> {
                cc.cwnd[s] = Math.min(cc.cwnd[s] + 1, cc.clamp); // window inflation: a segment has left the network
                writeXmit(s);
            }
            default -> {
                // Loss: duplicate ACKs of the go-back-N resends; wait for the cumulative ACK
            }
        }
    }

    /** Fast retransmit and the entry into NewReno fast recovery (RFC 6582 §3.2 steps 2 and 3). */
    private void enterRecovery(int s) {
        long now = ctx.nowPicos();
        fastRetransmits.increment();
        cc.ssthresh[s] = cc.recalcSsthresh(s, now);
        recoverEnd[s] = sndMax[s];
        state[s] = RECOVERY;
        retransmitHead(s);
        cc.cwnd[s] = Math.min(cc.ssthresh[s] + 3, cc.clamp);
        updatePacingRate(s);
        writeXmit(s);
    }

    /** Resends the first unacknowledged segment, bypassing TSQ ({@code tcp_retransmit_skb}). */
    private void retransmitHead(int s) {
        long una = sndUna[s];
        int len = transmit(s, una, 1);
        if (len > 0 && sndNxt[s] < una + len) {
            sndNxt[s] = una + len;
        }
    }

    /** {@code tcp_retransmit_timer}. */
    private void retransmitTimer(int s) {
        if (sndUna[s] >= sndMax[s]) {
            return;
        }
        long now = ctx.nowPicos();
        rtoCount.increment();
        if (state[s] == OPEN) {
            cc.ssthresh[s] = cc.recalcSsthresh(s, now);
        }
        cc.setState(s, CongestionControl.CA_LOSS, now);
        cc.cwnd[s] = 1;
        cc.cwndCnt[s] = 0;
        state[s] = LOSS;
        recoverEnd[s] = sndMax[s];
        dupAcks[s] = 0;
        sndNxt[s] = sndUna[s];
        rto[s] = Math.min(rto[s] * 2, MAX_RTO_PICOS);
        updatePacingRate(s);
        retransmitHead(s); // arms the timer with the backed-off RTO
        if (!rtoTimer[s].pending()) {
            rtoTimer[s].at(now + rto[s]); // the pool was empty: try again after the timeout
        }
    }

    /** Karn's rule: a sample from the oldest newly acknowledged segment unless any of them was retransmitted. */
    private void rttFromAck(int s, long una, long ack, long now) {
        long first = una / mss;
        long last = (ack - 1) / mss;
        int base = s * WINDOW;
        for (long i = first; i <= last; i++) {
            if (retrans[base + (int) (i & (WINDOW - 1))]) {
                return;
            }
        }
        long r = now - sendTime[base + (int) (first & (WINDOW - 1))];
        if (srtt[s] == 0) {
            srtt[s] = Math.max(1, r);
            rttvar[s] = r / 2;
        } else {
            rttvar[s] = (3 * rttvar[s] + Math.abs(srtt[s] - r)) / 4;
            srtt[s] = Math.max(1, (7 * srtt[s] + r) / 8);
        }
        rto[s] = Math.min(srtt[s] + Math.max(4 * rttvar[s], minRto), MAX_RTO_PICOS); // backoff ends with a valid sample
        cc.pktsAcked(s, (int) (last - first + 1), now - sendTime[base + (int) (last & (WINDOW - 1))], now); // ca_rtt_us
    }

    /** {@code tcp_update_pacing_rate}: 200 % of {@code mss * max(cwnd, packets_out) / srtt}. */
    private void updatePacingRate(int s) {
        if (srtt[s] < 1_000_000) { // srtt_us >> 3 == 0: not divided, so effectively unlimited
            pacingRate[s] = UNLIMITED_PACING;
            return;
        }
        int packetsOut = segs(sndMax[s] - sndUna[s]);
        double rate = 2.0 * mss * Math.max(cc.cwnd[s], packetsOut) * 1e12 / srtt[s];
        pacingRate[s] = (long) Math.min(rate, UNLIMITED_PACING);
    }

    // ---------------------------------------------------------------- CongestionControl.Sock

    @Override
    public long sndNxt(int s) {
        return sndNxt[s];
    }

    @Override
    public long sndUna(int s) {
        return sndUna[s];
    }

    @Override
    public long pacingRate(int s) {
        return pacingRate[s];
    }

    // ---------------------------------------------------------------- for tests

    /** @return the stream's {@code sk_wmem_alloc} now, bytes. */
    long wmem(int s) {
        return wmem[s];
    }

    /** @return the congestion control. */
    CongestionControl congestionControl() {
        return cc;
    }
}

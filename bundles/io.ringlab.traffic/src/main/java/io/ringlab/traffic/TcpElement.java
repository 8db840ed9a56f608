package io.ringlab.traffic;

import java.util.Map;
import java.util.function.ObjLongConsumer;

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
 * TCP senders like {@code iperf -P streams}: each stream is one {@link TcpSock} with its own flow number, which connects
 * at {@code start} (SYN, SYN-ACK, ACK with the options both ends offer) and then always has data to send, or
 * {@code count} bytes followed by a FIN. The connection follows the {@code kernel} preset's TCP ({@link TcpSock},
 * {@link TcpRecovery}: SACK scoreboard, PRR, FACK / RACK loss marking, TLP, F-RTO, undo, the receive window of the
 * peer); this class adds what belongs to the host around the sockets:
 * <ul>
 * <li><b>GSO</b> ({@code gso = true}): new data goes out in GSO skbs sized by {@code tcp_tso_autosize} (v3.19,
 * {@code net/ipv4/tcp_output.c}): {@code segs = max(min(sk_pacing_rate >> 10, GSO_MAX_SIZE - 1 - MAX_TCP_HEADER) / mss,
 * tcp_min_tso_segs = 2)}, within the cwnd quota, the peer's window and the data left; retransmissions are single
 * segments. A device without TSO segments the skb at dequeue ({@code ElementContext.segment}).</li>
 * <li><b>TSQ</b> ({@code tcpLimitOutputBytes}, {@code tsq}): before an skb the stream compares {@code sk_wmem_alloc}
 * (the truesize of its skbs not yet freed) with v3.12's {@code max(tcp_limit_output_bytes, sk_pacing_rate >> 10)} or
 * v3.19's {@code min(max(2 * truesize, sk_pacing_rate >> 10), tcp_limit_output_bytes)} (commit 605ad7f184b6); above it
 * the stream sets {@code TSQ_THROTTLED}; the skb destructor ({@code tcp_wfree}) subtracts the truesize and queues a
 * throttled stream to the TSQ tasklet, a timer at the current time that calls {@code tcp_write_xmit} again.
 * Retransmissions bypass TSQ in v3.19/v4.6 and are checked with it in current kernels.</li>
 * <li><b>Pacing rate</b> ({@code tcp_update_pacing_rate}): {@code ratio * mss * max(cwnd, packets_out) / srtt}, ratio
 * 200 % (v3.19), 200 % in slow start below half of ssthresh and 120 % otherwise (v4.5+, tcp_pacing_ss/ca_ratio);
 * {@code ~0U} before the first RTT sample. It sizes GSO skbs and the TSQ limit; packets are not paced (no fq).</li>
 * </ul>
 * With {@code open = passive} the streams listen and the peer connects; with {@code open = script} and
 * {@code app = writes} a test harness drives the sockets ({@link #appConnect}, {@link #appWrite}, ...), as packetdrill's
 * system calls do.
 * <p>
 * <b>Hot swap</b> ({@link Handover}): a successor {@code tcp} with the same streams, MSS, kernel and congestion control
 * takes over every socket (sequence state, scoreboard, recovery and RACK state, RTT estimator, receive half, timers in
 * their places), the congestion control's state, TSQ's accounting and tasklet, and the skbs in flight get its
 * {@code tcp_wfree}. Otherwise drain and restart.
 * <p>
 * Counters and gauges: declared in {@link TcpFactory}, the gauges registered by {@link TcpGauges}. Engine thread only.
 */
final class TcpElement implements Element, BufferDestructor, Handover, TcpSock.Owner, CongestionControl.Sock {
    /** {@code snd_cwnd_clamp}, packets; also each socket's retransmission queue capacity (a power of two). */
    static final int WINDOW = 4096;
    /** {@code ~0U}: {@code sk_pacing_rate} before the first RTT sample, bytes per second. */
    static final long UNLIMITED_PACING = 0xFFFF_FFFFL;
    static final int TSQ_OFF = 0, TSQ_V3_12 = 1, TSQ_V3_19 = 2;
    static final int OPEN_ACTIVE = 0, OPEN_PASSIVE = 1, OPEN_SCRIPT = 2;

    final ElementContext ctx;
    final TcpConfig cfg;
    private final OutputPort out;
    /** Where segments of other flows and other protocols go: the host's next socket ({@link #PASS}). */
    private final OutputPort pass;
    /** The output for what is not this element's: a host with a sender and a receiver (rrul) chains them. */
    static final String PASS = "pass";
    private final BufferPool pool;
    final CongestionControl cc;
    final int streams;
    final int mss;
    final int fullTruesize;
    private final int flowBase;
    private final int tos, priority;
    final long start;
    private final long limitBytes;
    final int tsq;
    private final long tcpLimitOutputBytes;
    final boolean gso;
    private final int open;
    private final boolean bulk;
    final TcpSock[] socks;
    final long[] wmem, wmemMax, pacingRate;
    private final Metrics.LatencyHistogram ackRtt;
    /** Per stream: frames (skbs: a GSO skb is one) and bytes handed to the IP layer, and those received; since start. */
    final long[] framesSent, bytesSent, framesReceived, bytesReceived;
    private final boolean[] throttled, queued;
    private final Timer startTimer, tasklet, poolRetry;
    private final int[] tasks;
    private int taskHead, taskCount;
    private boolean anyPoolBlocked;
    private final int[] dropReasons = new int[TcpEvents.DROP_REASONS.length];
    private final Metrics.Counter[] events = new Metrics.Counter[TcpEvents.COUNT];

    final Metrics.Counter segmentsSent, retransmits, fastRetransmits, rtoCount, tsqThrottles, ackedBytes,
            acksReceived, dupAckCount, allocFailures, skbsSent;

    TcpElement(ElementContext ctx) {
        this.ctx = ctx;
        var c = ctx.config();
        this.cfg = new TcpConfig(c, ctx.name(), ctx.costProfile());
        this.streams = (int) c.getLong("streams");
        this.mss = cfg.mss;
        this.fullTruesize = cfg.skb.truesize(mss + Tcp.HEADERS);
        this.flowBase = Icmp.flowBase(ctx.name());
        this.tos = (int) c.getLong("tos");
        this.priority = Icmp.priorityOf(tos);
        this.start = c.getPicos("start");
        long count = c.getBytes("count");
        this.limitBytes = count == 0 ? Long.MAX_VALUE / 4 : count;
        this.tsq = switch (c.getString("tsq")) {
            case "off" -> TSQ_OFF;
            case "v3.12" -> TSQ_V3_12;
            default -> TSQ_V3_19;
        };
        this.tcpLimitOutputBytes = c.getBytes("tcpLimitOutputBytes");
        this.gso = c.getBoolean("gso");
        this.open = switch (c.getString("open")) {
            case "passive" -> OPEN_PASSIVE;
            case "script" -> OPEN_SCRIPT;
            default -> OPEN_ACTIVE;
        };
        this.bulk = c.getString("app").equals("bulk");
        this.cc = c.getString("congestion").equals("reno")
                ? new Reno(streams, cfg.initialCwnd, cfg.initialSsthresh, WINDOW, cfg.kernel)
                : new Cubic(streams, cfg.initialCwnd, cfg.initialSsthresh, WINDOW, cfg.hz, cfg.kernel,
                        c.getBoolean("hystart"), gso ? Tcp.GSO_MAX_SIZE : 0, this);
        // a GSO skb holds up to 64 KB (GSO_MAX_SIZE); the pool's data size is its capacity, no memory is reserved
        this.pool = ctx.pool("fixed", "pool", (int) c.getLong("buffers"),
                gso ? Tcp.GSO_MAX_SIZE : mss + Tcp.L2_L3 + Tcp.MAX_TCP_HEADER_BYTES, Map.of());
        this.out = ctx.output("out");
        this.pass = ctx.output(PASS);
        for (int i = 0; i < dropReasons.length; i++) {
            dropReasons[i] = ctx.dropReason(TcpEvents.DROP_REASONS[i]);
        }
        wmem = new long[streams];
        wmemMax = new long[streams];
        framesSent = new long[streams];
        bytesSent = new long[streams];
        framesReceived = new long[streams];
        bytesReceived = new long[streams];
        pacingRate = new long[streams];
        throttled = new boolean[streams];
        queued = new boolean[streams];
        tasks = new int[streams];
        socks = new TcpSock[streams];
        for (int s = 0; s < streams; s++) {
            pacingRate[s] = UNLIMITED_PACING;
            int k = s;
            Timer xmit = ctx.timer(now -> socks[k].xmitTimerFired());
            Timer delack = ctx.timer(now -> socks[k].delackFired());
            socks[s] = new TcpSock(this, cfg, cc, s, flowBase + s, WINDOW, xmit, delack);
        }
        this.startTimer = ctx.timer(now -> {
            for (TcpSock sk : socks) {
                if (open == OPEN_ACTIVE) {
                    sk.connect();
                } else if (open == OPEN_PASSIVE) {
                    sk.listen();
                }
            }
        });
        this.tasklet = ctx.timer(this::tasklet);
        this.poolRetry = ctx.timer(now -> wakePoolBlocked());

        Metrics m = ctx.metrics();
        segmentsSent = m.counter(TcpFactory.SEGMENTS_SENT);
        retransmits = m.counter(TcpFactory.RETRANSMITS);
        fastRetransmits = m.counter(TcpFactory.FAST_RETRANSMITS);
        rtoCount = m.counter(TcpFactory.RTO_COUNT);
        tsqThrottles = m.counter(TcpFactory.TSQ_THROTTLES);
        ackedBytes = m.counter(TcpFactory.ACKED_BYTES);
        acksReceived = m.counter(TcpFactory.ACKS_RECEIVED);
        ackRtt = m.histogram(TcpFactory.ACK_RTT, "Millis");
        dupAckCount = m.counter(TcpFactory.DUP_ACKS);
        allocFailures = m.counter(TcpFactory.ALLOC_FAILURES);
        skbsSent = m.counter(TcpFactory.SKBS_SENT);
        events[TcpEvents.SEGMENTS_SENT] = segmentsSent;
        events[TcpEvents.RETRANSMITS] = retransmits;
        events[TcpEvents.RECOVERIES] = fastRetransmits;
        events[TcpEvents.RTO] = rtoCount;
        events[TcpEvents.ACKED_BYTES] = ackedBytes;
        events[TcpEvents.DUP_ACKS] = dupAckCount;
        events[TcpEvents.ALLOC_FAILURES] = allocFailures;
        events[TcpEvents.LOSS_PROBES] = m.counter(TcpFactory.LOSS_PROBES);
        events[TcpEvents.LOSS_PROBE_RECOVERIES] = m.counter(TcpFactory.LOSS_PROBE_RECOVERIES);
        events[TcpEvents.SPURIOUS_RTOS] = m.counter(TcpFactory.SPURIOUS_RTOS);
        events[TcpEvents.UNDOS] = m.counter(TcpFactory.UNDOS);
        events[TcpEvents.DSACKS_RECEIVED] = m.counter(TcpFactory.DSACKS_RECEIVED);
        events[TcpEvents.REORDERING] = m.counter(TcpFactory.REORDERINGS);
        events[TcpEvents.LOST_RETRANSMITS] = m.counter(TcpFactory.LOST_RETRANSMITS);
        events[TcpEvents.RWND_LIMITED] = m.counter(TcpFactory.RWND_LIMITED);
        if (cc instanceof Cubic cubic) {
            cubic.countExits(m.counter(TcpFactory.HYSTART_TRAIN_EXITS), m.counter(TcpFactory.HYSTART_DELAY_EXITS));
        } else { // declared for both algorithms: Reno's stay 0
            m.counter(TcpFactory.HYSTART_TRAIN_EXITS);
            m.counter(TcpFactory.HYSTART_DELAY_EXITS);
        }
        TcpGauges.register(this, m);
    }

    @Override
    public void start() {
        if (open != OPEN_SCRIPT) {
            startTimer.at(start);
        }
    }

    // ---------------------------------------------------------------- TcpSock.Owner

    @Override
    public long now() {
        return ctx.nowPicos();
    }

    @Override
    public Buffer alloc(TcpSock sk, int bytes) {
        return pool.alloc(0, ctx.index());
    }

    @Override
    public void send(TcpSock sk, Buffer b, int segs, boolean data) {
        b.flow(sk.flow);
        b.tos(tos);
        b.priority(priority);
        if (!data) {
            b.truesize(cfg.skb.truesize(b.length()));
        }
        // tcp_transmit_skb: skb_set_owner_w with tcp_wfree on every skb, control segments included
        b.destructor(this);
        wmem[sk.s] += b.truesize();
        if (wmem[sk.s] > wmemMax[sk.s]) {
            wmemMax[sk.s] = wmem[sk.s];
        }
        skbsSent.increment();
        framesSent[sk.s]++;
        bytesSent[sk.s] += b.length();
        ctx.generated(b);
        out.push(b);
    }

    @Override
    public void ackRtt(TcpSock sk, long picos) {
        ackRtt.record(picos);
    }

    @Override
    public boolean tsqThrottled(TcpSock sk, int truesize) {
        if (tsq == TSQ_OFF || wmem[sk.s] <= tsqLimit(sk.s, truesize)) {
            return false;
        }
        if (!throttled[sk.s]) {
            throttled[sk.s] = true;
            tsqThrottles.increment();
        }
        return true;
    }

    @Override
    public int tsoSegs(TcpSock sk) {
        return gso ? tsoSegs(sk.s) : 1;
    }

    @Override
    public void event(int event, long n) {
        if (event == TcpEvents.ALLOC_FAILURES) {
            anyPoolBlocked = true; // the socket waits for a buffer: tcp_wfree wakes it
            if (!destructorPending() && !poolRetry.pending()) {
                // every buffer of the pool is held by a driver that orphaned it (its tcp_wfree has run): no destructor
                // will wake the streams, so look again one jiffy later
                poolRetry.after(cfg.jiffyPicos());
            }
        }
        Metrics.Counter c = events[event];
        if (c != null) {
            c.add(n);
        }
    }

    @Override
    public void stateChanged(TcpSock sk) {
        if (bulk && sk.state == TcpSock.ESTABLISHED && sk.writeSeq == sk.iss + 1) {
            sk.write(limitBytes); // iperf: the whole count (or an endless stream) at once
            if (limitBytes < Long.MAX_VALUE / 4) {
                sk.close();
            }
        }
    }

    // ---------------------------------------------------------------- the application (test harnesses)

    void appListen(int s) {
        socks[s].listen();
    }

    void appConnect(int s) {
        socks[s].connect();
    }

    boolean established(int s) {
        int st = socks[s].state;
        return st != TcpSock.CLOSE && st != TcpSock.LISTEN && st != TcpSock.SYN_SENT && st != TcpSock.SYN_RECV;
    }

    long appWrite(int s, long bytes) {
        return socks[s].write(bytes);
    }

    void appClose(int s) {
        socks[s].close();
    }

    /** {@code getsockopt(TCP_INFO)}: every field the model keeps, by the kernel's name. */
    void tcpInfo(int s, ObjLongConsumer<String> info) {
        TcpInfo.fill(socks[s], info);
    }

    // ---------------------------------------------------------------- input

    @Override
    public void push(int inPort, Buffer b) {
        int s = b.flow() - flowBase;
        if (b.protocol() != Buffer.PROTO_TCP || s < 0 || s >= streams) {
            if (pass.connected()) {
                pass.push(b); // __inet_lookup: another socket of this host takes it
            } else {
                ctx.drop(0, b, dropReasons[TcpEvents.DROP_NOT_OURS]);
            }
            return;
        }
        acksReceived.increment();
        framesReceived[s]++;
        bytesReceived[s] += b.length();
        TcpSock sk = socks[s];
        int drop = sk.input(b);
        if (drop >= 0) {
            ctx.drop(0, b, dropReasons[drop]);
        } else {
            ctx.deliver(0, b);
        }
        updatePacingRate(sk);
    }

    // ---------------------------------------------------------------- TSQ

    /** The TSQ limit of stream {@code s} in bytes ({@code tcp_small_queue_check} / {@code tcp_write_xmit}). */
    long tsqLimit(int s, int truesize) {
        long rate = pacingRate[s] >> 10;
        if (tsq == TSQ_V3_12) {
            return Math.max(tcpLimitOutputBytes, rate);
        }
        return Math.min(Math.max(2L * truesize, rate), tcpLimitOutputBytes);
    }

    /** {@code tcp_tso_autosize} (v3.19). */
    int tsoSegs(int s) {
        long bytes = Math.min(pacingRate[s] >> 10, Tcp.GSO_MAX_SIZE - 1 - cfg.skb.maxTcpHeader);
        return (int) Math.max(bytes / socks[s].mssCache, Tcp.MIN_TSO_SEGS);
    }

    /** {@code tcp_update_pacing_rate}. */
    private void updatePacingRate(TcpSock sk) {
        if (sk.srttUs >> 3 == 0) {
            pacingRate[sk.s] = UNLIMITED_PACING;
            return;
        }
        int ratio = 200;
        if (cfg.kernel != Kernel.V3_19 && sk.cwnd() >= sk.ssthresh() / 2) {
            ratio = 120;
        }
        double rate = (double) sk.mssCache * ratio / 100 * Math.max(sk.cwnd(), sk.q.packetsOut()) * 1e6
                / (sk.srttUs >> 3);
        pacingRate[sk.s] = (long) Math.min(rate, UNLIMITED_PACING);
    }

    /** {@code tcp_wfree}: the skb was freed (by the driver, the link, a qdisc drop or the receiver). */
    @Override
    public void destroyed(Buffer b) {
        int s = b.flow() - flowBase;
        wmem[s] -= b.truesize();
        if (throttled[s]) {
            throttled[s] = false;
            schedule(s);
        }
        wakePoolBlocked();
    }

    /** @return whether some skb of this element has not run its {@code tcp_wfree} yet. */
    private boolean destructorPending() {
        for (long w : wmem) {
            if (w > 0) {
                return true;
            }
        }
        return false;
    }

    /** Queues the streams that found the pool empty to the tasklet. */
    private void wakePoolBlocked() {
        if (anyPoolBlocked) {
            anyPoolBlocked = false;
            for (int i = 0; i < streams; i++) {
                if (socks[i].poolBlocked) {
                    socks[i].poolBlocked = false;
                    schedule(i);
                }
            }
        }
    }

    /**
     * {@code tcp_gso_segment} (net/ipv4/tcp_offload.c, since commit 0d08c42cf9a7 "tcp: gso: fix truesize tracking", 2013):
     * each segment gets the truesize {@code skb_segment} allocated for it ({@link SkbSizes#segmentTruesize}) and the nr_frags
     * of its payload; the socket is charged {@code sum_truesize - gso_skb->truesize} more.
     */
    @Override
    public void segmented(Buffer gso, Buffer[] segments, int count) {
        int s = gso.flow() - flowBase;
        int offset = 0;
        long sum = 0;
        int headers = Tcp.L2_L3 + gso.tcpHeaderBytes();
        long iss1 = socks[s].iss + 1;
        for (int k = 0; k < count; k++) {
            Buffer seg = segments[k];
            int payload = seg.length() - headers;
            int hsize = Math.max(0, Math.min(payload, cfg.skb.linearPayload - offset));
            int dataLen = payload - hsize;
            seg.fragments(dataLen == 0 ? 0 : Tcp.pageFrags(seg.seq() - iss1 + hsize, dataLen));
            int truesize = cfg.skb.segmentTruesize(hsize, dataLen);
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

    /** {@code tcp_tasklet_func}: {@code tcp_write_xmit} (after {@code tcp_xmit_retransmit_queue}) for each queued stream. */
    private void tasklet(long now) {
        for (int n = taskCount; n > 0; n--) {
            int s = tasks[taskHead];
            if (++taskHead == streams) {
                taskHead = 0;
            }
            taskCount--;
            queued[s] = false;
            TcpSock sk = socks[s];
            if (sk.q.lostOut > sk.q.retransOut) {
                sk.rec.xmitRetransmitQueue();
            }
            sk.writeXmit(false);
        }
    }

    // ---------------------------------------------------------------- hot swap

    @Override
    public boolean exportState(ElementState out) {
        out.put("tcp.streams", streams);
        out.put("tcp.mss", mss);
        out.put("tcp.kernel", cfg.kernel.id);
        cc.exportState(out, "tcp");
        for (int s = 0; s < streams; s++) {
            TcpSockState.export(socks[s], out, "tcp.sock." + s);
        }
        out.put("tcp.wmem", wmem.clone());
        out.put("tcp.wmemMax", wmemMax.clone());
        out.put("tcp.framesSent", framesSent.clone());
        out.put("tcp.bytesSent", bytesSent.clone());
        out.put("tcp.framesReceived", framesReceived.clone());
        out.put("tcp.bytesReceived", bytesReceived.clone());
        out.put("tcp.pacingRate", pacingRate.clone());
        out.put("tcp.throttled", throttled.clone());
        out.put("tcp.queued", queued.clone());
        int[] waiting = new int[taskCount];
        for (int i = 0; i < taskCount; i++) {
            waiting[i] = tasks[(taskHead + i) % streams];
        }
        out.put("tcp.tasks", waiting);
        out.put("tcp.anyPoolBlocked", anyPoolBlocked);
        out.put("tcp.startTimer", startTimer);
        out.put("tcp.tasklet", tasklet);
        out.put("tcp.poolRetry", poolRetry);
        out.putDestructors("tcp.wfree", this); // tcp_wfree on every skb sent and not yet freed, wherever it is
        return true;
    }

    @Override
    public boolean importState(ElementState in) {
        if (!in.fromType().equals("tcp") || in.getInt("tcp.streams", 0) != streams || in.getInt("tcp.mss", 0) != mss
                || !cfg.kernel.id.equals(in.get("tcp.kernel", String.class))
                || !cc.name().equals(in.get("tcp.congestion", String.class))) {
            return false; // other streams, segments, kernel or algorithm: the state means something else
        }
        cc.importState(in, "tcp");
        for (int s = 0; s < streams; s++) {
            TcpSockState.load(socks[s], in, "tcp.sock." + s);
        }
        Handovers.read(in, "tcp.wmem", wmem);
        Handovers.read(in, "tcp.wmemMax", wmemMax);
        Handovers.readIfPresent(in, "tcp.framesSent", framesSent); // since 0.2.0 (issue 19)
        Handovers.readIfPresent(in, "tcp.bytesSent", bytesSent); // since 0.2.0 (issue 19)
        Handovers.readIfPresent(in, "tcp.framesReceived", framesReceived); // since 0.2.0 (issue 19)
        Handovers.readIfPresent(in, "tcp.bytesReceived", bytesReceived); // since 0.2.0 (issue 19)
        Handovers.read(in, "tcp.pacingRate", pacingRate);
        Handovers.read(in, "tcp.throttled", throttled);
        Handovers.read(in, "tcp.queued", queued);
        int[] waiting = in.get("tcp.tasks", int[].class);
        System.arraycopy(waiting, 0, tasks, 0, waiting.length);
        taskHead = 0;
        taskCount = waiting.length;
        anyPoolBlocked = in.getBoolean("tcp.anyPoolBlocked", false);
        startTimer.takeOver(in.get("tcp.startTimer", Timer.class));
        tasklet.takeOver(in.get("tcp.tasklet", Timer.class));
        poolRetry.takeOver(in.get("tcp.poolRetry", Timer.class));
        in.replaceDestructors("tcp.wfree", this);
        return true;
    }

    // ---------------------------------------------------------------- CongestionControl.Sock

    @Override
    public long sndNxt(int s) {
        return socks[s].sndNxt;
    }

    @Override
    public long sndUna(int s) {
        return socks[s].sndUna;
    }

    @Override
    public long pacingRate(int s) {
        return pacingRate[s];
    }

    // ---------------------------------------------------------------- for tests and gauges

    /** @return the stream's {@code sk_wmem_alloc} now, bytes. */
    long wmem(int s) {
        return wmem[s];
    }

    /** @return the congestion control. */
    CongestionControl congestionControl() {
        return cc;
    }
}

package io.ringlab.traffic;

import static io.ringlab.traffic.HttpExchange.*;

import java.util.Map;
import java.util.random.RandomGenerator;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.sim.api.Configuration;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementState;
import io.ringlab.sim.api.Handover;
import io.ringlab.sim.api.Metrics;
import io.ringlab.sim.api.OutputPort;
import io.ringlab.sim.api.Timer;

/**
 * The machines beyond the proxy's port: HTTP clients keeping {@code concurrency} connections open through the proxy (a
 * new one as soon as one ends: a closed loop, as {@code inject} or {@code ab -c} run), and the server the proxy forwards
 * them to. Both are fast: no CPU model, no think time beyond {@code startJitter}. Frames follow {@link HttpExchange}.
 * <p>
 * Frames to send wait in a FIFO that the {@code out} pull port serves (a {@code link} pulls them onto the wire). A
 * connection that makes no progress for {@code timeout} (a frame of it was dropped: the model has no retransmission) is
 * counted as failed and its slot starts a new connection; frames of the abandoned one that still arrive are stale and
 * dropped ({@code stale-connection}). Connections completed before {@code warmup} are not in the rate.
 * <p>
 * Counters {@code connections} (completed), {@code failedConnections}, {@code framesSent}, {@code framesReceived},
 * {@code staleFrames}, {@code responseBytes} (body bytes the clients received), {@code allocFailures} (frames not sent
 * for want of a buffer: their connections time out like those of a lost frame); gauges {@code connPerSecond} (after
 * warm-up), {@code goodputMbitPerSecond} (response bodies after warm-up), {@code open} (connections in progress); histogram
 * {@code connectionTime} (SYN sent to the proxy's last ACK, microseconds).
 * <p>
 * Hot swap ({@link Handover}): a successor {@code http-load} with the same concurrency and room for the frames waiting
 * takes every connection's state, the next serial number, the frames waiting for the wire in order, the counts after
 * warm-up, and each slot's timeout and start timers in their places; the random stream (start jitter) is the element's,
 * so the draws go on where they were. Engine thread only.
 */
final class HttpLoadElement implements Element, Handover {
    private final ElementContext ctx;
    private final OutputPort out;
    private final BufferPool pool;
    private final RandomGenerator random;
    private final int concurrency, requestBytes, responseHeaderBytes, window;
    private final long responseBytes, timeoutPicos, warmupPicos, jitterPicos;
    private final int dropStale;

    // per slot
    private final long[] serial, started, srvSent, srvAcked, cliReceived;
    private final int[] cliSegments;
    private final boolean[] srvFinSent, srvDone, cliDone;
    private final Timer[] timeouts;
    private final Timer[] starts;
    private long nextSerial;

    // frames waiting for the wire
    private final Buffer[] queue;
    private int head, size;

    private final Metrics.Counter connections, failed, framesSent, framesReceived, stale, bodyBytes, allocFailures;
    private final Metrics.LatencyHistogram connectionTime;
    private long connectionsAfterWarmup, bodyBytesAfterWarmup;

    HttpLoadElement(ElementContext ctx) {
        this.ctx = ctx;
        Configuration c = ctx.config();
        this.concurrency = (int) c.getLong("concurrency");
        this.requestBytes = (int) c.getBytes("requestBytes");
        this.responseHeaderBytes = (int) c.getBytes("responseHeaderBytes");
        this.responseBytes = c.getBytes("responseBytes");
        // whole segments, an even number: the proxy acknowledges every second one, so a full window always ends in an ACK
        this.window = (int) (c.getBytes("window") / (2 * MSS) * 2 * MSS);
        this.timeoutPicos = c.getPicos("timeout");
        this.warmupPicos = c.getPicos("warmup");
        this.jitterPicos = c.getPicos("startJitter");
        if (requestBytes > MSS || responseHeaderBytes > MSS) {
            throw new IllegalArgumentException("requestBytes and responseHeaderBytes must fit one segment (" + MSS
                    + " bytes); got " + requestBytes + " and " + responseHeaderBytes);
        }
        if (window < 2 * MSS) {
            throw new IllegalArgumentException("window=" + window + " B must hold two segments (" + 2 * MSS + " B)");
        }
        this.out = ctx.output("out");
        this.random = ctx.random();
        this.dropStale = ctx.dropReason("stale-connection");
        this.serial = new long[concurrency];
        this.started = new long[concurrency];
        this.srvSent = new long[concurrency];
        this.srvAcked = new long[concurrency];
        this.cliReceived = new long[concurrency];
        this.cliSegments = new int[concurrency];
        this.srvFinSent = new boolean[concurrency];
        this.srvDone = new boolean[concurrency];
        this.cliDone = new boolean[concurrency];
        this.timeouts = new Timer[concurrency];
        this.starts = new Timer[concurrency];
        for (int i = 0; i < concurrency; i++) {
            int slot = i;
            timeouts[i] = ctx.timer(now -> timedOut(slot));
            starts[i] = ctx.timer(now -> open(slot));
        }
        // per connection at most a window of server segments and a few control frames wait at once
        int perSlot = window / MSS * 3 / 2 + 8; // server segments, client ACKs, control frames
        this.queue = new Buffer[concurrency * perSlot + 64];
        this.pool = ctx.pool("fixed", "frames", queue.length, MAX_FRAME, Map.of());
        Metrics m = ctx.metrics();
        connections = m.counter(HttpLoadFactory.CONNECTIONS);
        failed = m.counter(HttpLoadFactory.FAILED_CONNECTIONS);
        framesSent = m.counter(HttpLoadFactory.FRAMES_SENT);
        framesReceived = m.counter(HttpLoadFactory.FRAMES_RECEIVED);
        stale = m.counter(HttpLoadFactory.STALE_FRAMES);
        bodyBytes = m.counter(HttpLoadFactory.RESPONSE_BYTES);
        allocFailures = m.counter(HttpLoadFactory.ALLOC_FAILURES);
        connectionTime = m.histogram("connectionTime", "Micros");
        m.gauge(HttpLoadFactory.CONN_PER_SECOND, () -> perSecond(connectionsAfterWarmup),
                () -> connectionsAfterWarmup, warmupPicos);
        m.gauge(HttpLoadFactory.GOODPUT_MBIT_PER_SECOND, () -> perSecond(bodyBytesAfterWarmup * 8) / 1e6,
                () -> connectionsAfterWarmup,
                warmupPicos);
        m.gauge(HttpLoadFactory.OPEN, this::open);
        m.series(HttpLoadFactory.CONNECTIONS.name);
        m.series(HttpLoadFactory.CONN_PER_SECOND.name);
    }

    private double perSecond(long amount) {
        long span = ctx.nowPicos() - warmupPicos;
        return span <= 0 ? 0 : amount / (span / 1e12);
    }

    private double open() {
        int n = 0;
        for (int i = 0; i < concurrency; i++) {
            n += serial[i] != 0 && !(srvDone[i] && cliDone[i]) ? 1 : 0;
        }
        return n;
    }

    @Override
    public void start() {
        for (int i = 0; i < concurrency; i++) {
            later(i);
        }
    }

    @Override
    public boolean exportState(ElementState out) {
        out.put("http-load.concurrency", concurrency);
        out.put("http-load.serial", serial.clone());
        out.put("http-load.started", started.clone());
        out.put("http-load.srvSent", srvSent.clone());
        out.put("http-load.srvAcked", srvAcked.clone());
        out.put("http-load.cliReceived", cliReceived.clone());
        out.put("http-load.cliSegments", cliSegments.clone());
        out.put("http-load.srvFinSent", srvFinSent.clone());
        out.put("http-load.srvDone", srvDone.clone());
        out.put("http-load.cliDone", cliDone.clone());
        out.put("http-load.nextSerial", nextSerial);
        Buffer[] waiting = new Buffer[size];
        for (int i = 0; i < size; i++) {
            int at = head + i;
            waiting[i] = queue[at < queue.length ? at : at - queue.length];
        }
        out.put("http-load.queue", waiting);
        out.put("http-load.afterWarmup", new long[] {connectionsAfterWarmup, bodyBytesAfterWarmup});
        for (int i = 0; i < concurrency; i++) {
            out.put("http-load.timeout." + i, timeouts[i]);
            out.put("http-load.start." + i, starts[i]);
        }
        return true;
    }

    @Override
    public boolean importState(ElementState in) {
        Buffer[] waiting = in.get("http-load.queue", Buffer[].class);
        if (!in.fromType().equals("http-load") || in.getInt("http-load.concurrency", 0) != concurrency
                || waiting.length > queue.length) {
            return false; // other slots, or no room for the frames waiting
        }
        Handovers.read(in, "http-load.serial", serial);
        Handovers.read(in, "http-load.started", started);
        Handovers.read(in, "http-load.srvSent", srvSent);
        Handovers.read(in, "http-load.srvAcked", srvAcked);
        Handovers.read(in, "http-load.cliReceived", cliReceived);
        Handovers.read(in, "http-load.cliSegments", cliSegments);
        Handovers.read(in, "http-load.srvFinSent", srvFinSent);
        Handovers.read(in, "http-load.srvDone", srvDone);
        Handovers.read(in, "http-load.cliDone", cliDone);
        nextSerial = in.getLong("http-load.nextSerial", 0);
        System.arraycopy(waiting, 0, queue, 0, waiting.length);
        head = 0;
        size = waiting.length;
        long[] afterWarmup = in.get("http-load.afterWarmup", long[].class);
        connectionsAfterWarmup = afterWarmup[0];
        bodyBytesAfterWarmup = afterWarmup[1];
        for (int i = 0; i < concurrency; i++) {
            timeouts[i].takeOver(in.get("http-load.timeout." + i, Timer.class));
            starts[i].takeOver(in.get("http-load.start." + i, Timer.class));
        }
        return true;
    }

    /** Opens a new connection in {@code slot} after a random part of {@code startJitter}. */
    private void later(int slot) {
        long delay = jitterPicos > 0 ? random.nextLong(jitterPicos + 1) : 0;
        starts[slot].after(delay);
    }

    private void open(int slot) {
        long s = ++nextSerial;
        serial[slot] = s;
        started[slot] = ctx.nowPicos();
        srvSent[slot] = 0;
        srvAcked[slot] = 0;
        cliReceived[slot] = 0;
        cliSegments[slot] = 0;
        srvFinSent[slot] = false;
        srvDone[slot] = false;
        cliDone[slot] = false;
        send(C_SYN, slot, 0, 0);
        timeouts[slot].after(timeoutPicos);
    }

    private void timedOut(int slot) {
        failed.increment();
        serial[slot] = 0; // frames of it still on their way are stale from now on
        later(slot);
    }

    // ------------------------------------------------------------------ frames

    private void send(int kind, int slot, long offset, int payload) {
        if (size == queue.length) {
            throw new IllegalStateException("http-load send queue full (" + queue.length + " frames)");
        }
        Buffer b = pool.alloc(0, ctx.index());
        if (b == null) {
            allocFailures.increment(); // the frame is not sent: its connection times out, as after a lost frame
            return;
        }
        fill(b, kind, slot, serial[slot], offset, payload);
        ctx.generated(b);
        int tail = head + size++;
        queue[tail < queue.length ? tail : tail - queue.length] = b;
        framesSent.increment();
        if (size == 1) {
            out.ready();
        }
    }

    @Override
    public Buffer pull(int outPort) {
        if (size == 0) {
            return null;
        }
        Buffer b = queue[head];
        queue[head] = null;
        if (++head == queue.length) {
            head = 0;
        }
        size--;
        return b;
    }

    /** A frame from the proxy. */
    @Override
    public void push(int inPort, Buffer b) {
        framesReceived.increment();
        int slot = b.flow();
        if (b.protocol() != Buffer.PROTO_TCP || slot < 0 || slot >= concurrency || b.seq() != serial[slot]
                || serial[slot] == 0) {
            stale.increment();
            ctx.drop(0, b, dropStale);
            return;
        }
        int kind = b.flags();
        long offset = b.ack();
        int payload = payload(b);
        ctx.deliver(0, b);
        timeouts[slot].after(timeoutPicos); // progress
        switch (kind) {
            case P_SYNACK -> { // the client's connect() completes: ACK, then the request
                send(C_ACK, slot, 0, 0);
                send(C_GET, slot, 0, requestBytes);
            }
            case P_SYN -> send(S_SYNACK, slot, 0, 0); // the server accepts
            case P_ACK -> { } // the server's side of the handshake is complete
            case P_GET -> serve(slot); // the server answers
            case P_ACKDATA -> {
                srvAcked[slot] = Math.max(srvAcked[slot], offset);
                serve(slot);
            }
            case P_FINACK -> { // the proxy closed the server connection (acknowledging the server's FIN)
                send(S_LASTACK, slot, 0, 0);
                srvDone[slot] = true;
            }
            case P_DATA -> {
                cliReceived[slot] += payload;
                long body = Math.max(0, Math.min(offset + payload, responseHeaderBytes + responseBytes)
                        - Math.max(offset, responseHeaderBytes));
                bodyBytes.add(body);
                if (ctx.nowPicos() >= warmupPicos) {
                    bodyBytesAfterWarmup += body;
                }
                if (++cliSegments[slot] % 2 == 0) {
                    send(C_ACKDATA, slot, cliReceived[slot], 0); // an ACK every second segment
                }
            }
            case P_FIN -> { // the response is complete: the client's kernel acknowledges, the client closes
                send(C_ACKFIN, slot, cliReceived[slot], 0);
                send(C_FIN, slot, cliReceived[slot], 0);
            }
            case P_LASTACK -> {
                cliDone[slot] = true;
                if (srvDone[slot]) {
                    complete(slot);
                }
            }
            default -> { }
        }
    }

    /** The server sends what its window allows of the response, then its FIN. */
    private void serve(int slot) {
        long total = responseHeaderBytes + responseBytes;
        while (srvSent[slot] < total) {
            int seg = (int) Math.min(MSS, total - srvSent[slot]);
            if (srvSent[slot] + seg - srvAcked[slot] > window) {
                break; // the window is full until the proxy acknowledges
            }
            send(S_DATA, slot, srvSent[slot], seg);
            srvSent[slot] += seg;
        }
        if (srvSent[slot] == total && !srvFinSent[slot]) {
            srvFinSent[slot] = true;
            send(S_FIN, slot, total, 0); // HTTP/1.0: the server closes after the response
        }
    }

    private void complete(int slot) {
        long now = ctx.nowPicos();
        timeouts[slot].cancel();
        connections.increment();
        if (now >= warmupPicos) {
            connectionsAfterWarmup++;
        }
        connectionTime.record(now - started[slot]);
        serial[slot] = 0;
        later(slot);
    }

    @Override
    public void forEachHeld(BufferVisitor visitor) {
        for (int i = 0; i < size; i++) {
            int at = head + i;
            visitor.visit(queue[at < queue.length ? at : at - queue.length]);
        }
    }
}

package io.ringlab.traffic;

import static io.ringlab.traffic.HttpExchange.*;

import java.util.Map;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.sim.api.Configuration;
import io.ringlab.sim.api.Core;
import io.ringlab.sim.api.CpuTask;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementState;
import io.ringlab.sim.api.Handover;
import io.ringlab.sim.api.Metrics;
import io.ringlab.sim.api.OutputPort;

/**
 * An HTTP reverse proxy on the board, as haproxy runs in seed 000: its host's TCP (the kernel side) and one haproxy
 * process per core in {@code cores} (the application side). Frames follow {@link HttpExchange}.
 * <p>
 * <b>Kernel.</b> Every frame from the port arrives inside the driver's NAPI poll on {@code softirqCore} and costs
 * {@code rxFrameCycles} there ({@code tcp_v4_rcv} and the socket work up to a wake-up); control frames are consumed at
 * once, and the kernel answers the client's SYN (SYN-ACK), the server's SYN-ACK (ACK), the client's FIN (last ACK), and
 * acknowledges every second segment of the server's response. A request or response segment stays queued on its socket
 * (the buffer is held) until the haproxy process reads it. Every frame sent costs {@code txFrameCycles} on the core that
 * sends it.
 * <p>
 * <b>haproxy.</b> A connection belongs to the process that accepts it: the one with the fewest events waiting when the
 * handshake completes (processes sharing one listening socket: the idle one wakes first; ties to the lowest core). Each
 * process handles its events in order, one per run of its task in the core's application class: accept, the request
 * (read it, {@code connect()} to the server), connected (send the request), each response segment (read, send it on to
 * the client: {@code segmentCycles} each after the first), the server's close (close both sides). The four connection
 * events share {@code connectionCycles} equally. Reading a segment touches its bytes through the cache model.
 * <p>
 * A client SYN for a slot with a newer serial resets the slot: the previous connection, if unfinished, counts as
 * aborted, and frames or events of it are stale ({@code stale-connection}).
 * <p>
 * Counters {@code accepted}, {@code closed}, {@code aborted}, {@code staleFrames}, {@code framesIn}, {@code framesOut};
 * gauges {@code cpuCyclesPerConnection} (all cores' busy cycles over connections closed), {@code appBacklog}.
 * <p>
 * Hot swap ({@link Handover}): a successor {@code haproxy} with the same slots and processes on the same cores, each with
 * room for its events, takes every connection's state and each process's events in order, with the segments they hold,
 * and each process's task in its place on its core. Engine thread only.
 */
final class HaproxyElement implements Element, Handover {
    private static final int EV_ACCEPT = 1, EV_REQUEST = 2, EV_CONNECTED = 3, EV_DATA = 4, EV_CLOSE = 5;

    private final ElementContext ctx;
    private final int self;
    private final OutputPort out;
    private final BufferPool pool;
    private final Core softirq;
    private final long rxFrameCycles, txFrameCycles, eventCycles, segmentCycles;
    private final int dropStale, dropSlots, dropBacklog;
    private final Process[] processes;

    // per slot
    private final int slots;
    private final long[] serial, srvReceived, cliSent;
    private final int[] owner, srvSegments, request;
    private final boolean[] accepted, closed;

    private final Metrics.Counter acceptedCount, closedCount, aborted, stale, framesIn, framesOut, allocFailures;

    HaproxyElement(ElementContext ctx) {
        this.ctx = ctx;
        this.self = ctx.index();
        Configuration c = ctx.config();
        this.softirq = ctx.core((int) c.getLong("softirqCore"));
        this.rxFrameCycles = cycles(c, "rxFrameCycles", "tcp.rxSegmentCycles");
        this.txFrameCycles = cycles(c, "txFrameCycles", "tcp.txSegmentCycles");
        this.eventCycles = cycles(c, "connectionCycles", "haproxy.connectionCycles") / 4;
        this.segmentCycles = cycles(c, "segmentCycles", "haproxy.segmentCycles");
        this.slots = (int) c.getLong("slots");
        this.out = ctx.output("out");
        int[] coreList = parseCores(c.getString("cores"), ctx.cores());
        int backlog = (int) c.getLong("backlog");
        this.processes = new Process[coreList.length];
        for (int i = 0; i < coreList.length; i++) {
            processes[i] = new Process(ctx.core(coreList[i]), backlog);
        }
        this.serial = new long[slots];
        this.srvReceived = new long[slots];
        this.cliSent = new long[slots];
        this.owner = new int[slots];
        this.srvSegments = new int[slots];
        this.request = new int[slots];
        this.accepted = new boolean[slots];
        this.closed = new boolean[slots];
        this.pool = ctx.pool("fixed", "skbs", (int) c.getLong("buffers"), MAX_FRAME, Map.of());
        this.dropStale = ctx.dropReason("stale-connection");
        this.dropSlots = ctx.dropReason("proxy-slots-full");
        this.dropBacklog = ctx.dropReason("proxy-backlog-full");
        Metrics m = ctx.metrics();
        acceptedCount = m.counter(HaproxyFactory.ACCEPTED);
        closedCount = m.counter(HaproxyFactory.CLOSED);
        aborted = m.counter(HaproxyFactory.ABORTED);
        stale = m.counter(HaproxyFactory.STALE_FRAMES);
        framesIn = m.counter(HaproxyFactory.FRAMES_IN);
        framesOut = m.counter(HaproxyFactory.FRAMES_OUT);
        allocFailures = m.counter(HaproxyFactory.ALLOC_FAILURES);
        m.gauge(HaproxyFactory.CPU_CYCLES_PER_CONNECTION, this::cyclesPerConnection, closedCount::get, 0);
        m.gauge(HaproxyFactory.APP_BACKLOG, () -> {
            int n = 0;
            for (Process p : processes) {
                n += p.size;
            }
            return n;
        });
        m.series(HaproxyFactory.CLOSED.name);
    }

    private long cycles(Configuration c, String property, String profileKey) {
        long v = c.getLong(property);
        return v >= 0 ? v : Math.round(ctx.costProfile().value(profileKey, 0));
    }

    static int[] parseCores(String text, int available) {
        String[] parts = text.split(",");
        int[] cores = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i].trim();
            int core;
            try {
                core = Integer.parseInt(p);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("cores=\"" + text + "\": '" + p + "' is not a core number; write core"
                        + " numbers separated by commas, e.g. 0,1");
            }
            if (core < 0 || core >= available) {
                throw new IllegalArgumentException("cores=\"" + text + "\": core " + core + " does not exist; the profile"
                        + " has cores 0 to " + (available - 1));
            }
            for (int j = 0; j < i; j++) {
                if (cores[j] == core) {
                    throw new IllegalArgumentException("cores=\"" + text + "\": core " + core + " is listed twice");
                }
            }
            cores[i] = core;
        }
        return cores;
    }

    private double cyclesPerConnection() {
        long closedNow = closedCount.get();
        if (closedNow == 0) {
            return 0;
        }
        double cycles = 0;
        for (int i = 0; i < ctx.cores(); i++) {
            Core core = ctx.core(i);
            cycles += core.busyPicos() * (core.frequencyHz() / 1e12);
        }
        return cycles / closedNow;
    }

    // ------------------------------------------------------------------ hot swap

    @Override
    public boolean exportState(ElementState out) {
        out.put("haproxy.slots", slots);
        out.put("haproxy.serial", serial.clone());
        out.put("haproxy.srvReceived", srvReceived.clone());
        out.put("haproxy.cliSent", cliSent.clone());
        out.put("haproxy.owner", owner.clone());
        out.put("haproxy.srvSegments", srvSegments.clone());
        out.put("haproxy.request", request.clone());
        out.put("haproxy.accepted", accepted.clone());
        out.put("haproxy.closed", closed.clone());
        int[] cores = new int[processes.length];
        for (int i = 0; i < processes.length; i++) {
            cores[i] = processes[i].core.index();
            processes[i].exportState(out, "haproxy.process" + i);
        }
        out.put("haproxy.cores", cores);
        return true;
    }

    @Override
    public boolean importState(ElementState in) {
        int[] cores = in.get("haproxy.cores", int[].class);
        if (!in.fromType().equals("haproxy") || in.getInt("haproxy.slots", 0) != slots || cores.length != processes.length) {
            return false;
        }
        for (int i = 0; i < processes.length; i++) {
            if (cores[i] != processes[i].core.index()
                    || in.get("haproxy.process" + i + ".slot", int[].class).length > processes[i].slotQ.length) {
                return false; // another core, or no room for the process's events
            }
        }
        Handovers.read(in, "haproxy.serial", serial);
        Handovers.read(in, "haproxy.srvReceived", srvReceived);
        Handovers.read(in, "haproxy.cliSent", cliSent);
        Handovers.read(in, "haproxy.owner", owner);
        Handovers.read(in, "haproxy.srvSegments", srvSegments);
        Handovers.read(in, "haproxy.request", request);
        Handovers.read(in, "haproxy.accepted", accepted);
        Handovers.read(in, "haproxy.closed", closed);
        for (int i = 0; i < processes.length; i++) {
            processes[i].importState(in, "haproxy.process" + i);
        }
        return true;
    }

    // ------------------------------------------------------------------ the kernel side

    /** A frame from the driver, inside its NAPI poll. */
    @Override
    public void push(int inPort, Buffer b) {
        if (!softirq.running()) {
            throw new IllegalStateException("haproxy: a frame arrived outside a task on softirqCore " + softirq.index()
                    + "; set softirqCore to the core of the driver that delivers it");
        }
        framesIn.increment();
        softirq.charge(self, rxFrameCycles, 1);
        int slot = b.flow();
        int kind = b.flags();
        if (b.protocol() != Buffer.PROTO_TCP || slot < 0 || slot >= slots) {
            ctx.drop(softirq.index(), b, dropSlots);
            return;
        }
        long s = b.seq();
        if (kind == C_SYN && s > serial[slot]) {
            if (serial[slot] != 0 && !closed[slot]) {
                aborted.increment();
            }
            serial[slot] = s;
            accepted[slot] = false;
            closed[slot] = false;
            srvReceived[slot] = 0;
            srvSegments[slot] = 0;
            cliSent[slot] = 0;
        } else if (s != serial[slot]) {
            stale.increment();
            ctx.drop(softirq.index(), b, dropStale);
            return;
        }
        switch (kind) {
            case C_SYN -> {
                consume(b);
                send(softirq, P_SYNACK, slot, 0, 0);
            }
            case C_ACK -> {
                consume(b);
                accept(slot);
            }
            case C_GET -> {
                accept(slot); // the request's ACK completes the handshake if the bare ACK was lost
                queue(slot, EV_REQUEST, b);
            }
            case S_SYNACK -> {
                consume(b);
                send(softirq, P_ACK, slot, 0, 0); // tcp_rcv_synsent_state_process: nothing to send yet, ACK at once
                queue(slot, EV_CONNECTED, null);
            }
            case S_DATA -> {
                srvReceived[slot] = Math.max(srvReceived[slot], b.ack() + payload(b));
                if (++srvSegments[slot] % 2 == 0) {
                    send(softirq, P_ACKDATA, slot, srvReceived[slot], 0);
                }
                queue(slot, EV_DATA, b);
            }
            case S_FIN -> {
                consume(b);
                queue(slot, EV_CLOSE, null);
            }
            case C_FIN -> {
                consume(b);
                send(softirq, P_LASTACK, slot, 0, 0);
            }
            default -> consume(b); // C_ACKDATA, C_ACKFIN, S_LASTACK: acknowledgements the kernel absorbs
        }
    }

    private void consume(Buffer b) {
        ctx.deliver(softirq.index(), b);
    }

    private void accept(int slot) {
        if (accepted[slot]) {
            return;
        }
        accepted[slot] = true;
        int best = 0;
        for (int i = 1; i < processes.length; i++) {
            if (processes[i].size < processes[best].size) {
                best = i;
            }
        }
        owner[slot] = best;
        acceptedCount.increment();
        queue(slot, EV_ACCEPT, null);
    }

    private void queue(int slot, int event, Buffer b) {
        Process p = processes[owner[slot]];
        if (!accepted[slot] || !p.offer(slot, serial[slot], event, b)) {
            if (b != null) {
                ctx.drop(softirq.index(), b, dropBacklog);
            }
        }
    }

    private void send(Core core, int kind, int slot, long offset, int payload) {
        Buffer b = pool.alloc(core.index(), self);
        if (b == null) {
            allocFailures.increment(); // the frame is not sent: the client times out, as after a lost frame
            return;
        }
        fill(b, kind, slot, serial[slot], offset, payload);
        ctx.generated(b);
        core.charge(self, txFrameCycles, 1);
        framesOut.increment();
        out.push(b);
    }

    // ------------------------------------------------------------------ the haproxy processes

    /** One haproxy process: its event queue and its task on its core. */
    private final class Process implements CpuTask {
        private final Core core;
        private final int[] slotQ, eventQ;
        private final long[] serialQ;
        private final Buffer[] bufferQ;
        private int head, size;

        Process(Core core, int capacity) {
            this.core = core;
            this.slotQ = new int[capacity];
            this.eventQ = new int[capacity];
            this.serialQ = new long[capacity];
            this.bufferQ = new Buffer[capacity];
        }

        boolean offer(int slot, long s, int event, Buffer b) {
            if (size == slotQ.length) {
                return false;
            }
            int tail = head + size++;
            if (tail >= slotQ.length) {
                tail -= slotQ.length;
            }
            slotQ[tail] = slot;
            serialQ[tail] = s;
            eventQ[tail] = event;
            bufferQ[tail] = b;
            core.submit(Core.APP, this);
            return true;
        }

        /** Writes the events waiting, in order, and names the task under {@code prefix}. */
        void exportState(ElementState out, String prefix) {
            int[] slotsWaiting = new int[size];
            int[] events = new int[size];
            long[] serials = new long[size];
            Buffer[] buffers = new Buffer[size];
            for (int i = 0; i < size; i++) {
                int at = head + i < slotQ.length ? head + i : head + i - slotQ.length;
                slotsWaiting[i] = slotQ[at];
                events[i] = eventQ[at];
                serials[i] = serialQ[at];
                buffers[i] = bufferQ[at];
            }
            out.put(prefix + ".slot", slotsWaiting);
            out.put(prefix + ".event", events);
            out.put(prefix + ".serial", serials);
            out.put(prefix + ".buffers", buffers); // null where the event holds no segment
            out.putTask(prefix + ".task", this);
        }

        /** Takes a predecessor process's events and the place of its task; the caller checked the room. */
        void importState(ElementState in, String prefix) {
            int[] slotsWaiting = in.get(prefix + ".slot", int[].class);
            int[] events = in.get(prefix + ".event", int[].class);
            long[] serials = in.get(prefix + ".serial", long[].class);
            Buffer[] buffers = in.get(prefix + ".buffers", Buffer[].class);
            System.arraycopy(slotsWaiting, 0, slotQ, 0, slotsWaiting.length);
            System.arraycopy(events, 0, eventQ, 0, slotsWaiting.length);
            System.arraycopy(serials, 0, serialQ, 0, slotsWaiting.length);
            System.arraycopy(buffers, 0, bufferQ, 0, slotsWaiting.length);
            head = 0;
            size = slotsWaiting.length;
            if (size > 0 && in.requeue(prefix + ".task", this) == 0) {
                core.submit(Core.APP, this);
            }
        }

        @Override
        public void run(Core c) {
            int slot = slotQ[head];
            long s = serialQ[head];
            int event = eventQ[head];
            Buffer b = bufferQ[head];
            bufferQ[head] = null;
            if (++head == slotQ.length) {
                head = 0;
            }
            size--;
            if (s != serial[slot]) { // the connection was reset meanwhile
                if (b != null) {
                    stale.increment();
                    ctx.drop(c.index(), b, dropStale);
                }
            } else {
                handle(c, slot, event, b);
            }
            if (size > 0) {
                c.submit(Core.APP, this);
            }
        }

        private void handle(Core c, int slot, int event, Buffer b) {
            switch (event) {
                case EV_ACCEPT -> c.charge(self, eventCycles, 0);
                case EV_REQUEST -> {
                    c.charge(self, eventCycles, 0);
                    request[slot] = payload(b);
                    read(c, b);
                    send(c, P_SYN, slot, 0, 0); // connect() to the server
                }
                case EV_CONNECTED -> {
                    c.charge(self, eventCycles, 0);
                    send(c, P_GET, slot, 0, request[slot]); // the client's request, as read
                }
                case EV_DATA -> {
                    long offset = b.ack();
                    int payload = payload(b);
                    c.charge(self, offset == 0 ? 0 : segmentCycles, 0);
                    read(c, b);
                    send(c, P_DATA, slot, offset, payload);
                    cliSent[slot] = Math.max(cliSent[slot], offset + payload);
                }
                case EV_CLOSE -> {
                    c.charge(self, eventCycles, 0);
                    send(c, P_FIN, slot, cliSent[slot], 0);
                    send(c, P_FINACK, slot, srvReceived[slot], 0);
                    closed[slot] = true;
                    closedCount.increment();
                }
                default -> throw new IllegalStateException("haproxy: unknown event " + event);
            }
        }
    }

    /** recv(): the process copies the segment out of the socket, touching its bytes, and the skb is freed. */
    private void read(Core c, Buffer b) {
        c.touch(self, b.address(), b.length(), false);
        ctx.deliver(c.index(), b);
    }

    @Override
    public void forEachHeld(BufferVisitor visitor) {
        for (Process p : processes) {
            for (int i = 0; i < p.size; i++) {
                int at = p.head + i;
                Buffer b = p.bufferQ[at < p.bufferQ.length ? at : at - p.bufferQ.length];
                if (b != null) {
                    visitor.visit(b);
                }
            }
        }
    }
}

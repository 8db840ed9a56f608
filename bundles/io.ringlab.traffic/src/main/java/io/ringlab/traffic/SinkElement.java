package io.ringlab.traffic;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.sim.api.Core;
import io.ringlab.sim.api.CpuTask;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementState;
import io.ringlab.sim.api.Handover;
import io.ringlab.sim.api.Metrics;

/**
 * The end of a path. Counts packets and bytes, records one-way latency in a histogram (microseconds), and reports the
 * receive rate over the run in Mpps and Mbit/s (frame bytes without FCS, as {@code ip -s link} counts). With
 * {@code cycles > 0} it models a consumer on a core (see {@link SinkFactory}).
 * <p>
 * Counters: {@code rxPackets}, {@code rxBytes}, {@code backlogDrops}; gauges {@code rxMpps}, {@code rxMbitPerSecond}; histogram
 * {@code latency}.
 * <p>
 * Hot swap ({@link Handover}): without a consumer the sink holds nothing and takes nothing over; with one, a successor
 * whose backlog has room takes the packets waiting for the consumer in order and the consumer's task, in its place on the
 * same core (on another core, at the end of its queue). Engine thread only.
 */
final class SinkElement implements Element, CpuTask, Handover {
    /**
     * Packets a consumer task takes per run. One, so that each packet's service ends at its own time and the run's end
     * cuts the work exactly (a task that served a batch would count packets whose service ends after the run).
     */
    private static final int QUOTA = 1;

    private final ElementContext ctx;
    private final Metrics.Counter rxPackets, rxBytes, backlogDrops;
    private final Metrics.LatencyHistogram latency;
    private final long cycles;
    private final Core core;
    private final int dropBacklog;
    private final Buffer[] backlog;
    private int head, size;

    SinkElement(ElementContext ctx) {
        this.ctx = ctx;
        var c = ctx.config();
        this.cycles = c.getLong("cycles");
        this.core = cycles > 0 ? ctx.core((int) c.getLong("core")) : null;
        this.backlog = new Buffer[cycles > 0 ? (int) c.getLong("backlog") : 0];
        this.dropBacklog = ctx.dropReason("sink-backlog-full");
        Metrics m = ctx.metrics();
        rxPackets = m.counter(SinkFactory.RX_PACKETS);
        rxBytes = m.counter(SinkFactory.RX_BYTES);
        backlogDrops = m.counter(SinkFactory.BACKLOG_DROPS);
        latency = m.histogram("latency", "Micros");
        m.rate(SinkFactory.RX_MPPS, rxPackets, 1e-6);
        m.rate(SinkFactory.RX_MBIT_PER_SECOND, rxBytes, 8e-6);
        m.series(SinkFactory.RX_PACKETS.name);
    }

    @Override
    public void push(int inPort, Buffer b) {
        if (core == null) {
            consume(b);
            return;
        }
        if (size == backlog.length) {
            backlogDrops.increment();
            ctx.drop(core.index(), b, dropBacklog);
            return;
        }
        int tail = head + size++;
        backlog[tail < backlog.length ? tail : tail - backlog.length] = b;
        core.submit(Core.APP, this);
    }

    @Override
    public void run(Core c) {
        int n = Math.min(size, QUOTA);
        for (int i = 0; i < n; i++) {
            Buffer b = backlog[head];
            backlog[head] = null;
            if (++head == backlog.length) {
                head = 0;
            }
            size--;
            c.charge(ctx.index(), cycles, 1);
            consume(b);
        }
        if (size > 0) {
            c.submit(Core.APP, this);
        }
    }

    private void consume(Buffer b) {
        long arrival = Math.max(ctx.nowPicos(), b.stampPicos());
        latency.record(arrival - b.createdPicos());
        rxPackets.increment();
        rxBytes.add(b.length());
        ctx.deliver(core == null ? 0 : core.index(), b);
    }

    @Override
    public boolean exportState(ElementState out) {
        Buffer[] waiting = new Buffer[size];
        for (int i = 0; i < size; i++) {
            waiting[i] = backlog[(head + i) % backlog.length];
        }
        out.put("sink.backlog", waiting);
        out.put("sink.core", core == null ? -1 : core.index());
        out.putTask("sink.consumer", this);
        return true;
    }

    @Override
    public boolean importState(ElementState in) {
        Buffer[] waiting = in.get("sink.backlog", Buffer[].class);
        if (!in.fromType().equals("sink") || waiting.length > backlog.length) {
            return false; // no room for the packets waiting
        }
        System.arraycopy(waiting, 0, backlog, 0, waiting.length);
        head = 0;
        size = waiting.length;
        if (size > 0 && (in.getInt("sink.core", -1) != core.index() || in.requeue("sink.consumer", this) == 0)) {
            core.submit(Core.APP, this);
        }
        return true;
    }

    @Override
    public void forEachHeld(BufferVisitor visitor) {
        for (int i = 0; i < size; i++) {
            visitor.visit(backlog[(head + i) % backlog.length]);
        }
    }
}

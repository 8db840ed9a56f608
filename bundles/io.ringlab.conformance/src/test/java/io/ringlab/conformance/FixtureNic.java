package io.ringlab.conformance;

import static io.ringlab.sim.api.dto.MetricDescriptorDTO.COUNTER;

import java.util.List;
import java.util.Map;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.BufferVisitor;
import io.ringlab.driver.api.DescriptorRing;
import io.ringlab.driver.api.DriverState;
import io.ringlab.driver.api.DriverSupport;
import io.ringlab.driver.api.NicDriver;
import io.ringlab.driver.api.SendRing;
import io.ringlab.driver.api.TxSegments;
import io.ringlab.queue.api.QueueLimitsProvider;
import io.ringlab.queue.api.TxQueue;
import io.ringlab.sim.api.Configuration;
import io.ringlab.sim.api.Core;
import io.ringlab.sim.api.CpuTask;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.ElementState;
import io.ringlab.sim.api.Handover;
import io.ringlab.sim.api.InputPort;
import io.ringlab.sim.api.Metrics;
import io.ringlab.sim.api.OutputPort;
import io.ringlab.sim.api.Timer;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.MetricDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Direction;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Mode;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO.Kind;

/**
 * Element type {@code fixture-nic}: a small transmit-only NIC driver for the kit's own tests, stmmac-shaped (a
 * {@code SendRing}, software GSO, BQL, TX interrupts coalesced every {@code coalesce} frames or after {@code timer}, the
 * clean in softirq) and a full handover. With {@link Fault#NONE} it keeps the driver contract; each other fault breaks
 * one part of it, as a driver bug would.
 */
final class FixtureNic implements ElementFactory {

    /** What is wrong with the driver. */
    enum Fault {
        /** Nothing: the driver keeps the contract. */
        NONE,
        /** The timer's TX clean frees the skbs but does not tell BQL ({@code netdev_tx_completed_queue} forgotten there). */
        SKIPS_BQL_COMPLETION,
        /** Every 50th skb its TX clean takes off the ring is forgotten: neither freed nor held. */
        LOSES_A_RING_BUFFER,
        /** Its invariant walk ({@code forEachHeld}) leaves the TX ring out. */
        WALK_MISSES_THE_RING,
        /** The interrupt coalescing threshold depends on the wall clock ({@code System.nanoTime()}). */
        WALL_CLOCK,
        /** The interrupt coalescing threshold comes from an unseeded {@code java.util.Random}. */
        UNSEEDED_RANDOM,
        /** The handover leaves the TX ring out: the new instance starts with an empty one of its own. */
        HANDOVER_DROPS_RING,
        /** It registers a counter ({@code txDoorbells}) that its factory does not declare. */
        UNDECLARED_METRIC,
        /** Its factory declares a counter ({@code txRestarts}) that it never registers. */
        UNREGISTERED_METRIC
    }

    // The metrics, each declared once: the descriptor lists them and the driver registers by them.
    static final MetricDescriptorDTO TX_PACKETS = new MetricDescriptorDTO(COUNTER, "txPackets", "frames sent");
    static final MetricDescriptorDTO TX_BYTES = new MetricDescriptorDTO(COUNTER, "txBytes", "their lengths");
    static final MetricDescriptorDTO TX_IRQS = new MetricDescriptorDTO(COUNTER, "txIrqs", "TX interrupts raised");
    static final MetricDescriptorDTO TX_TIMER_CLEANS = new MetricDescriptorDTO(COUNTER, "txTimerCleans",
            "TX cleans run by the coalescing timer");

    static final String TYPE = "fixture-nic";

    private final Fault fault;
    private final ElementDescriptorDTO descriptor = new ElementDescriptorDTO();

    FixtureNic(Fault fault) {
        this.fault = fault;
        descriptor.type = TYPE;
        descriptor.category = ElementDescriptorDTO.DRIVER;
        descriptor.summary = "The conformance kit's fixture NIC, fault " + fault;
        descriptor.ports.add(PortDescriptorDTO.of("in", Direction.IN, Mode.PULL, true, "frames from the qdisc"));
        descriptor.ports.add(PortDescriptorDTO.of("wire", Direction.OUT, Mode.PULL, true, "frames to the link"));
        descriptor.properties.add(PropertyDescriptorDTO.of("ring", Kind.INTEGER, "64", "2", "4096", "TX descriptors"));
        descriptor.properties.add(PropertyDescriptorDTO.of("bql", Kind.BOOLEAN, "true", null, null, "byte queue limits"));
        descriptor.properties.add(PropertyDescriptorDTO.of("coalesce", Kind.INTEGER, "8", "1", "256",
                "frames per TX interrupt"));
        descriptor.properties.add(PropertyDescriptorDTO.of("timer", Kind.DURATION, "50us", "1us", "1s",
                "TX coalescing timer"));
        descriptor.metricDescriptors.addAll(List.of(TX_PACKETS, TX_BYTES, TX_IRQS, TX_TIMER_CLEANS));
        if (fault == Fault.UNREGISTERED_METRIC) {
            descriptor.metricDescriptors.add(new MetricDescriptorDTO(COUNTER, "txRestarts", "wakes of the queue"));
        }
    }

    @Override
    public ElementDescriptorDTO descriptor() {
        return descriptor;
    }

    @Override
    public Element create(ElementContext context) {
        return new Nic(context, fault);
    }

    /** The driver. */
    private static final class Nic implements NicDriver, Handover {
        /** Segments of the largest GSO skb ({@code 65536 / 88 + 1}). */
        private static final int MAX_GSO_SEGS = 745;

        private final ElementContext ctx;
        private final Fault fault;
        private final OutputPort wire;
        private final Core core;
        private final int ringSize;
        private final int coalesce;
        private final long timerPicos;
        private final DescriptorRing rxView;
        private final CpuTask txTask, irqTask, timerTask;
        private final Timer timer;
        private final Metrics.Counter txPackets, txBytes, txIrqs, txTimerCleans;
        private final java.util.Random unseeded = new java.util.Random();
        private TxQueue txq;
        private SendRing ring;
        private TxSegments segments;
        private boolean txRunning;
        private int pending;
        private long cleaned;

        Nic(ElementContext ctx, Fault fault) {
            this.ctx = ctx;
            this.fault = fault;
            Configuration c = ctx.config();
            this.ringSize = (int) c.getLong("ring");
            this.coalesce = (int) c.getLong("coalesce");
            this.timerPicos = c.getPicos("timer");
            InputPort in = ctx.input("in");
            this.wire = ctx.output("wire");
            this.core = ctx.core(0);
            BufferPool wirePool = ctx.pool("fixed", "wire", 4096, 1536, Map.of());
            BufferPool gsoPool = ctx.pool("fixed", "gso", ringSize + MAX_GSO_SEGS, 1536, Map.of());
            QueueLimitsProvider qlp = ctx.provider(QueueLimitsProvider.class, QueueLimitsProvider.KIND, "dql");
            this.txq = qlp.createTxQueue(c.getBoolean("bql"), 250, 250, 0, 1_879_048_192, false, this::schedule);
            DriverSupport support = ctx.provider(DriverSupport.class, DriverSupport.KIND, DriverSupport.LINUX);
            this.ring = support.sendRing(ctx, 0, ringSize, wirePool);
            this.segments = support.txSegments(ctx, 0, in, gsoPool);
            this.rxView = support.receiveRing(new Buffer[0], () -> 0);
            this.txTask = cpu -> transmit();
            this.irqTask = cpu -> clean(false);
            this.timerTask = cpu -> clean(true);
            this.timer = ctx.timer(now -> core.submit(Core.SOFTIRQ, timerTask));
            Metrics m = ctx.metrics();
            txPackets = m.counter(TX_PACKETS);
            txBytes = m.counter(TX_BYTES);
            txIrqs = m.counter(TX_IRQS);
            txTimerCleans = m.counter(TX_TIMER_CLEANS);
            if (fault == Fault.UNDECLARED_METRIC) {
                m.counter("txDoorbells"); // by its name alone: the descriptor does not list it
            }
        }

        @Override
        public void start() {
            txq.reset(ctx.nowPicos());
        }

        @Override
        public void ready(int inPort) {
            schedule();
        }

        private void schedule() {
            if (!txRunning) {
                core.submit(Core.TX, txTask);
            }
        }

        private void transmit() {
            txRunning = true;
            boolean kicked = false;
            while (!txq.stopped()) {
                if (ring.used() == ringSize) {
                    txq.stopByDriver();
                    break;
                }
                Buffer skb = segments.next();
                if (skb == null) {
                    break;
                }
                ring.post(skb, 1);
                txq.sent(skb.length(), ctx.nowPicos());
                kicked = true;
            }
            txRunning = false;
            if (kicked) {
                wire.ready();
            }
        }

        @Override
        public Buffer pull(int outPort) {
            Buffer bits = ring.toWire();
            if (bits == null) {
                return null;
            }
            txPackets.increment();
            txBytes.add(bits.length());
            int threshold = switch (fault) {
                case WALL_CLOCK -> coalesce + (int) (System.nanoTime() & 3);
                case UNSEEDED_RANDOM -> coalesce + unseeded.nextInt(4);
                default -> coalesce;
            };
            if (++pending >= threshold) {
                pending = 0;
                txIrqs.increment();
                timer.cancel();
                core.submit(Core.HARDIRQ, irqTask);
            } else {
                timer.after(timerPicos);
            }
            return bits;
        }

        private void clean(boolean fromTimer) {
            if (fromTimer) {
                txTimerCleans.increment();
            }
            int packets = 0;
            int bytes = 0;
            for (Buffer skb = ring.clean(); skb != null; skb = ring.clean()) {
                packets++;
                bytes += skb.length();
                if (fault == Fault.LOSES_A_RING_BUFFER && ++cleaned % 50 == 0) {
                    continue; // forgotten: no longer in the ring, never freed
                }
                skb.pool().free(core.index(), skb);
            }
            if (packets > 0 && !(fault == Fault.SKIPS_BQL_COMPLETION && fromTimer)) {
                txq.completed(packets, bytes, ctx.nowPicos());
            }
            if (txq.driverStopped() && ring.used() < ringSize / 2) {
                txq.wakeByDriver();
            }
        }

        @Override
        public int poll(int budget) {
            return 0;
        }

        @Override
        public void forEachHeld(BufferVisitor visitor) {
            if (fault != Fault.WALK_MISSES_THE_RING) {
                ring.forEachHeld(visitor);
            }
            segments.forEachHeld(visitor);
        }

        @Override
        public DescriptorRing txRing() {
            return ring;
        }

        @Override
        public DescriptorRing rxRing() {
            return rxView;
        }

        @Override
        public boolean exportState(ElementState out) {
            if (fault != Fault.HANDOVER_DROPS_RING) {
                out.put(DriverState.TX_RING, ring);
            }
            out.put(DriverState.TX_SEGMENTS, segments);
            out.put(DriverState.TX_QUEUE, txq);
            out.put("fixture.pending", pending);
            out.put("fixture.cleaned", cleaned);
            out.put("fixture.timer", timer);
            out.putTask("fixture.txTask", txTask);
            out.putTask("fixture.irqTask", irqTask);
            out.putTask("fixture.timerTask", timerTask);
            return true;
        }

        @Override
        public boolean importState(ElementState in) {
            if (!in.fromType().equals(TYPE)) {
                return false;
            }
            TxQueue old = in.get(DriverState.TX_QUEUE, TxQueue.class);
            old.listener(this::schedule);
            txq = old;
            if (in.has(DriverState.TX_RING)) {
                ring = in.get(DriverState.TX_RING, SendRing.class);
            }
            segments = in.get(DriverState.TX_SEGMENTS, TxSegments.class);
            pending = in.getInt("fixture.pending", 0);
            cleaned = in.getLong("fixture.cleaned", 0);
            timer.takeOver(in.get("fixture.timer", Timer.class));
            in.requeue("fixture.txTask", txTask);
            in.requeue("fixture.irqTask", irqTask);
            in.requeue("fixture.timerTask", timerTask);
            return true;
        }
    }
}

package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.driver.api.DriverSupport;
import io.ringlab.driver.api.StartXmit;
import io.ringlab.sim.api.Core;
import io.ringlab.sim.api.InputPort;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;

/**
 * The SDK's transmit loop ({@link QdiscRunImpl}): {@code __qdisc_run} on the sending core, the {@code dev_tx_weight}
 * quota ending a run with {@code NET_TX_SOFTIRQ} work on that core, {@code dev_requeue_skb} when the driver is busy, and
 * the run resumed by the driver's wake-up.
 */
class QdiscRunTest {
    private final Simulation sim = new Simulation(new TestRegistry(), new TestRegistry().profile("generic-x86-4ghz"), 1);
    private final ElementContextImpl ctx = sim.addContext(
            new ElementContextImpl(sim, 0, "drv", "test", new ElementDescriptorDTO(), null, 1));
    private final FixedPool pool = new FixedPool(sim, "src.pool", 512, 64);
    private final FixedPool gso = new FixedPool(sim, "drv.gso", 16, 64);
    /** The qdisc: packets in order. */
    private final ArrayDeque<Buffer> qdisc = new ArrayDeque<>();
    private final InputPort in = new InputPort() {
        @Override public String name() { return "in"; }
        @Override public boolean connected() { return true; }
        @Override public Buffer pull() { return qdisc.poll(); }
    };
    /** What happened, consecutive repeats counted: "xmit cpu1 x64". */
    private final List<String> log = new ArrayList<>();

    /** A driver: a ring of {@code size} skbs; a full ring stops the queue after the post, or (busyOnFull) on the next. */
    private final class Ring implements StartXmit {
        final int size;
        final boolean busyOnFull;
        final List<Buffer> posted = new ArrayList<>();
        int used;
        boolean stopped;

        Ring(int size, boolean busyOnFull) {
            this.size = size;
            this.busyOnFull = busyOnFull;
        }

        @Override
        public boolean stopped() {
            return stopped;
        }

        @Override
        public int startXmit(Core c, Buffer skb) {
            if (used == size) {
                stopped = true; // netif_stop_queue, then NETDEV_TX_BUSY
                note("busy cpu" + c.index());
                return NETDEV_TX_BUSY;
            }
            used++;
            posted.add(skb);
            c.charge(0, 40, 1);
            note("xmit cpu" + c.index());
            if (!busyOnFull && used == size) {
                stopped = true;
            }
            return NETDEV_TX_OK;
        }

        @Override
        public void kick(Core c) {
            note("kick cpu" + c.index());
        }
    }

    private void note(String event) {
        int last = log.size() - 1;
        if (last >= 0 && (log.get(last).equals(event) || log.get(last).startsWith(event + " x"))) {
            String prev = log.get(last);
            int n = prev.equals(event) ? 1 : Integer.parseInt(prev.substring(event.length() + 2));
            log.set(last, event + " x" + (n + 1));
        } else {
            log.add(event);
        }
    }

    private List<Buffer> enqueue(int n) {
        List<Buffer> packets = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Buffer b = pool.alloc(0, 0);
            b.length(64);
            packets.add(b);
            qdisc.add(b);
        }
        return packets;
    }

    private QdiscRunImpl run(Ring ring) {
        return new QdiscRunImpl(ctx, 0, new TxSegmentsImpl(ctx, 0, in, gso), ring);
    }

    @Test
    void aRunOnTheSendingCoreHandsOverTheQuotaThenContinuesAsTxSoftirqWorkOnThatCore() {
        Ring ring = new Ring(1000, false);
        QdiscRunImpl run = run(ring);
        enqueue(150);
        Core cpu1 = ctx.core(1);
        cpu1.submit(Core.APP, c -> { // a process on core 1 sends: dev_queue_xmit in its system call
            cpu1.submit(Core.TX, x -> note("process-context transmit waiting on cpu1"));
            note("app cpu" + c.index());
            run.ready();
        });
        sim.advance(Long.MAX_VALUE, Long.MAX_VALUE);
        // 64 in the sender's task, then NET_TX_SOFTIRQ on the same core: softirq work runs before the TX work that
        // waited there already, so each continuation is a softirq, not process-context transmit
        assertEquals(List.of("app cpu1", "xmit cpu1 x64", "kick cpu1", "xmit cpu1 x64", "kick cpu1", "xmit cpu1 x22",
                "kick cpu1", "process-context transmit waiting on cpu1"), log);
        assertEquals(DriverSupport.DEV_TX_WEIGHT, 64);
        assertEquals(2, run.quotaReschedules());
        assertEquals(0, sim.cores[0].busyPicos(), "nothing ran on the device's core");
        assertEquals(150, ring.posted.size());
    }

    @Test
    void outsideAnyTaskTheRunIsProcessContextTransmitOnTheDevicesCore() {
        Ring ring = new Ring(1000, false);
        QdiscRunImpl run = run(ring);
        enqueue(10);
        run.ready();
        run.ready(); // queued once
        assertTrue(sim.cores[0].queued(run.processTask));
        assertFalse(sim.cores[1].queued(run.processTask));
        assertEquals(List.of(), log, "nothing runs before the core dispatches");
        sim.advance(Long.MAX_VALUE, Long.MAX_VALUE);
        assertEquals(List.of("xmit cpu0 x10", "kick cpu0"), log);
        assertEquals(0, run.quotaReschedules());
    }

    @Test
    void aBusyDriverGetsItsSkbRequeuedAndTheWakeUpResumesWithIt() {
        Ring ring = new Ring(8, true);
        QdiscRunImpl run = run(ring);
        List<Buffer> sent = enqueue(12);
        run.ready();
        sim.advance(Long.MAX_VALUE, Long.MAX_VALUE);
        assertEquals(List.of("xmit cpu0 x8", "busy cpu0", "kick cpu0"), log);
        assertEquals(1, run.requeues());
        assertTrue(run.segments().holding(), "the 9th skb waits in the run (q->gso_skb), not in the qdisc");
        List<Buffer> held = new ArrayList<>();
        run.segments().forEachHeld(held::add);
        assertEquals(List.of(sent.get(8)), held);
        assertEquals(3, qdisc.size());

        log.clear();
        run.ready(); // the queue is stopped: the qdisc's signal starts nothing
        assertFalse(sim.cores[0].queued(run.processTask) || sim.cores[0].queued(run.softirqTask));
        ctx.core(0).submit(Core.SOFTIRQ, c -> { // the TX completion frees the ring and wakes the queue
            ring.used = 0;
            ring.stopped = false;
            note("wake cpu" + c.index());
            run.schedule(); // netif_tx_wake_queue → __netif_schedule
        });
        sim.advance(Long.MAX_VALUE, Long.MAX_VALUE);
        assertEquals(List.of("wake cpu0", "xmit cpu0 x4", "kick cpu0"), log);
        assertEquals(sent, ring.posted, "every skb once, in order: the requeued one first");
        assertFalse(run.segments().holding());
        assertEquals(1, run.requeues());
    }

    @Test
    void aRequeuedSkbComesFirstAndOnlyTheLastOneTakenMayGoBack() {
        TxSegmentsImpl segments = new TxSegmentsImpl(ctx, 0, in, gso);
        List<Buffer> sent = enqueue(2);
        assertSame(sent.get(0), segments.next());
        segments.requeue(sent.get(0));
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> segments.requeue(sent.get(1)));
        assertTrue(e.getMessage().startsWith("TxSegments.requeue: skb="), e.getMessage());
        assertSame(sent.get(0), segments.next(), "the requeued skb comes first");
        assertSame(sent.get(1), segments.next());
        assertFalse(segments.holding());
    }
}

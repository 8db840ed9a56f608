package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ringlab.buffer.api.BufferPool;
import io.ringlab.buffer.api.BufferPoolProvider;
import io.ringlab.buffer.api.PoolContext;
import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

import io.ringlab.conformance.ModelTests;

/**
 * Every element that allocates, given a pool of one buffer, goes on: it counts what it could not allocate and the run
 * finishes with packets and buffers conserved. A source whose allocation failed once never advanced its loop and spun
 * inside one event until the watchdog ended the run FAILED (issue 15); the watchdog here is the bound that turns such a
 * livelock into a failed test instead of a hang. Elements with a {@code buffers} property get it set to 1 (or its least);
 * the others get every pool they ask for with one buffer, of its own kind, through {@link Starving}.
 */
class EmptyPoolTest {
    /** Far above what any of these runs needs (a few hundred milliseconds), far below a hang. */
    private static final long WATCHDOG_MILLIS = 30_000;

    /**
     * The class path's registry, except that the pools named hold one buffer. Not starved: the engine's own records that
     * model no allocation (a driver's {@code .wire} copies of frames on the wire, mlx4's {@code .desc} descriptor records,
     * both sized to the ring for the whole run).
     */
    private static final class Starving extends TestRegistry {
        private final java.util.Set<String> pools;

        Starving(String... pools) {
            this.pools = java.util.Set.of(pools);
        }

        @Override
        public BufferPoolProvider poolProvider(String kind) {
            BufferPoolProvider real = super.poolProvider(kind);
            if (real == null) {
                return null;
            }
            return new BufferPoolProvider() {
                @Override
                public BufferPool create(PoolContext context, String name, int capacity, int bufferBytes,
                        Map<String, Object> settings) {
                    return real.create(context, name, pools.contains(name) ? 1 : capacity, bufferBytes, settings);
                }
            };
        }
    }

    private static RunResultDTO run(Registry registry, String text, String... sets) throws Exception {
        RunOptionsDTO o = new RunOptionsDTO();
        o.seed = 1L;
        o.snapshotIntervalMillis = 0;
        o.eventWatchdogMillis = WATCHDOG_MILLIS;
        o.overrides.addAll(java.util.List.of(sets));
        RunResultDTO r = new PipelineBuilder(registry).build(PipelineReader.read("test.pipeline", text), o).run();
        assertEquals("FINISHED", r.state, r.error);
        assertTrue(r.invariants.packetConservation && r.invariants.bufferConservation, r.invariants.violations.toString());
        return r;
    }

    private static double metric(RunResultDTO r, String element, String name) {
        return ModelTests.metric(r, element, name);
    }

    private static String netdevBql(String duration) throws Exception {
        return ModelTests.sample("netdev-bql.pipeline", duration);
    }

    @Test
    void aSourceWithOneBufferSkipsWhatItCannotAllocateAndTheRunFinishes() throws Exception {
        RunResultDTO r = run(new TestRegistry(), netdevBql("20ms"), "src.buffers=1");
        double sent = metric(r, "src", "txPackets");
        double failed = metric(r, "src", "allocFailures");
        assertTrue(sent > 0, "the one buffer goes out whenever it is back: " + sent);
        assertTrue(failed > 0, "the rest are skipped");
        // 1.2 Gbit/s of 1,518-byte frames (1,538 on the wire) for 20 ms: about 1,950 Poisson arrivals, each sent or skipped
        double arrivals = 1.2e9 * 0.020 / (1538 * 8);
        assertEquals(arrivals, sent + failed, 0.1 * arrivals, "every arrival's turn passes: " + sent + " + " + failed);
        assertTrue(r.packets > 0 && r.packets == sent + metric(r, "ping", "sent") + metric(r, "sink", "echoReplies"),
                "what was skipped was never generated: " + r.packets);
    }

    @Test
    void aBacklogDeeperThanTheSourcesBuffersRunsOn() throws Exception {
        // the second case: a qdisc that holds more than the source's 4,096 buffers
        // 0.2 Gbit/s more than the wire takes: 4,096 frames of 1,538 bytes queue up in about 250 ms
        RunResultDTO r = run(new TestRegistry(), netdevBql("500ms"), "q.limit=100000");
        double held = metric(r, "q", "backlog") + metric(r, "eth0", "ringUsed");
        assertTrue(held > 4000 && held <= 4096, "the qdisc and the ring hold the source's 4,096 buffers: " + held);
        assertTrue(metric(r, "src", "allocFailures") > 0);
    }

    @Test
    void pingCountsTheRequestsItCouldNotSend() throws Exception {
        // ping's pool of one: its buffer is back (the reply freed) long before the next request, a millisecond later
        RunResultDTO one = run(new Starving("ping.pool"), netdevBql("20ms").replace("rate = 1.2Gbit", "rate = 100Mbit"));
        assertEquals(0, metric(one, "ping", "allocFailures"), 0.0, "one buffer suffices when each echo is back in time");
        // behind a standing queue of 9 ms (BQL off, 1,000 packets in pfifo_fast) a request is out when the next is due
        RunResultDTO r = run(new Starving("ping.pool"), netdevBql("50ms").replace("tos = 0x10", "tos = 0"));
        assertTrue(metric(r, "ping", "allocFailures") > 0, "requests due while the one buffer was out: " + r.elements.get("ping"));
        // a request that found the pool empty goes again 10 ms later (iputils' nores_interval), with the same number
        double tries = metric(r, "ping", "sent") + metric(r, "ping", "allocFailures");
        assertTrue(tries < 50, tries + " tries in 50 ms: fewer than one per millisecond once the pool was empty");
        assertTrue(metric(r, "ping", "received") > 0);
        assertEquals(0, metric(r, "ping", "duplicates"), 0.0, "a number is not used twice");
    }

    @Test
    void aHostWithOneReplyBufferCountsTheRepliesItDropped() throws Exception {
        RunResultDTO r = run(new Starving("sink.replies"), netdevBql("20ms").replace("interval = 1ms", "interval = 10us"));
        assertTrue(metric(r, "sink", "replyPoolEmpty") > 0, "requests come faster than replies go: " + r.elements.get("sink"));
        assertTrue(metric(r, "sink", "echoReplies") > 0);
    }

    @Test
    void tcpWithOneBufferSendsOneSegmentAtATime() throws Exception {
        // without TSQ and GSO nothing but the pool holds the stream back (TSQ alone keeps it within one skb or two)
        String path = TcpTest.path("100ms", "congestion = reno; tsq = off; gso = false; buffers = 1", "", "",
                "rate = 100Mbit; delay = 1ms", "delay = 1ms");
        RunResultDTO r = run(new TestRegistry(), path);
        assertTrue(metric(r, "tcp", "ackedBytes") > 0, "the stream makes progress: " + r.elements.get("tcp"));
        assertTrue(metric(r, "tcp", "allocFailures") > 0, "and waits for its buffer: " + r.elements.get("tcp"));
    }

    @Test
    void aTcpReceiverWithOneAckBufferGoesOn() throws Exception {
        String path = TcpTest.path("100ms", "congestion = reno", "", "", "rate = 100Mbit; delay = 1ms", "delay = 1ms");
        RunResultDTO r = run(new Starving("far.acks"), path);
        assertTrue(metric(r, "tcp", "ackedBytes") > 0, "ACKs still go, one at a time: " + r.elements.get("far"));
    }

    @Test
    void httpLoadAndHaproxyWithOneBufferTimeOutTheConnectionsWhoseFramesTheyCouldNotSend() throws Exception {
        String haproxy = ModelTests.sample("mvneta-bm-haproxy.pipeline", "300ms");
        RunResultDTO load = run(new Starving("load.frames"), haproxy);
        assertTrue(metric(load, "load", "allocFailures") > 0, String.valueOf(load.elements.get("load")));
        assertTrue(metric(load, "load", "failedConnections") > 0, "their connections time out");

        RunResultDTO proxy = run(new Starving("proxy.skbs"), haproxy);
        assertTrue(metric(proxy, "proxy", "allocFailures") > 0, String.valueOf(proxy.elements.get("proxy")));
        assertTrue(metric(proxy, "load", "failedConnections") > 0, "the clients time out");
    }

    @Test
    void everyDriverWithPoolsOfOneBufferDropsWhatItCannotReceiveAndTheRunFinishes() throws Exception {
        // {pipeline, duration, --set, pools of eth0 to starve...}
        String[][] cases = {
            {"stmmac-bql-100m.pipeline", "200ms", "", "eth0.rx", "eth0.gso"},
            {"mvneta-bm-haproxy.pipeline", "100ms", "eth0.bm=false", "eth0.rx", "eth0.copy", "eth0.gso"},
            {"mvneta-bm-haproxy.pipeline", "100ms", "eth0.bm=true", "eth0.long", "eth0.short", "eth0.copy", "eth0.gso"},
            {"mlx4-bulk-free-fwd.pipeline", "1ms", "", "eth0.rx", "eth0.gso"},
            {"mlx5-bulk-drop.pipeline", "1ms", "", "eth0.rx", "eth0.gso"},
        };
        // netdev allocates only to segment GSO skbs in software (validate_xmit_skb): a TCP stream's through a pool of one
        RunResultDTO gso = run(new Starving("eth0.gso"), TcpTest.path("50ms", "congestion = reno", "", "",
                "rate = 100Mbit; delay = 1ms", "delay = 1ms"));
        assertTrue(gso.invariants.dropped > 0, "GSO skbs that cannot be segmented are dropped: " + gso.invariants.droppedByReason);
        for (String[] c : cases) {
            String[] sets = c[2].isEmpty() ? new String[0] : new String[] {c[2]};
            RunResultDTO r = run(new Starving(java.util.Arrays.copyOfRange(c, 3, c.length)), ModelTests.sample(c[0], c[1]), sets);
            long dropped = r.invariants.dropped;
            assertTrue(r.packets > 0 && dropped > 0, c[0] + " " + java.util.Arrays.toString(sets)
                    + ": what finds no buffer is dropped by a named reason: " + r.invariants.droppedByReason);
        }
    }
}

package io.ringlab.driver.mlx5;

import static io.ringlab.conformance.ModelTests.metric;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.ringlab.sim.api.dto.RunResultDTO;

import io.ringlab.conformance.ModelTests;

/**
 * Forwarding between two mlx5 ports on one core: skbs allocated by eth0's RX are freed by eth1's TX completion, with
 * napi_consume_skb (deferred into eth0's per-CPU NAPI cache, freed 64 at a time) or dev_kfree_skb (one at a time).
 */
class Mlx5ForwardTest {
    private static final String PIPELINE = """
            duration = 5ms
            profile = generic-x86-4ghz
            element gen : source {
                rate = 10Gbit
                size = 64B
                burst = 16
            }
            element eth0 : mlx5 {
                allocBulk = 0
            }
            element q : pfifo {
                limit = 1000
            }
            element eth1 : mlx5 {
                bulkFree = BULK
            }
            element wire : link {
                rate = 100Gbit
                batch = 16
            }
            element sink : sink
            gen -> eth0.rx
            eth0.stack -> q -> eth1.in
            eth1.wire -> wire -> sink
            """;

    private static RunResultDTO run(boolean bulkFree) throws Exception {
        return ModelTests.runConserved(PIPELINE.replace("BULK", String.valueOf(bulkFree)), 1);
    }

    @Test
    void sentSkbsAreFreedByTheirCompletionInBulkOrOneByOne() throws Exception {
        RunResultDTO bulk = run(true);
        RunResultDTO single = run(false);
        double sent = metric(bulk, "eth1", "txCompletions");
        assertTrue(sent > 50_000, "14.9 Mpps offered for 5 ms, forwarded: " + sent);
        assertEquals(metric(bulk, "sink", "rxPackets"), metric(bulk, "eth1", "txPackets"), 16,
                "what the wire took reached the sink");
        // napi_consume_skb: every completed skb is deferred into eth0's pool's cache and freed 64 at a time
        assertEquals(sent, metric(bulk, "pool:eth0.rx", "napiDeferredFrees"), 64);
        assertTrue(metric(bulk, "pool:eth0.rx", "slabBulkFreeCalls") >= sent / 64 - 1);
        assertEquals(0, metric(single, "pool:eth0.rx", "napiDeferredFrees"));
        // dev_kfree_skb of heads allocated a ring ago: a slow free each; bulk free groups them by slab
        double slowSingle = metric(single, "pool:eth0.rx", "slabSlowFrees") / metric(single, "eth1", "txCompletions");
        double slowBulk = metric(bulk, "pool:eth0.rx", "slabSlowFrees") / sent;
        assertTrue(slowSingle > 0.9 && slowBulk < 0.2, "slow frees per packet: " + slowSingle + " vs " + slowBulk);
        double nsBulk = (metric(bulk, "eth0", "cpuNanos") + metric(bulk, "eth1", "cpuNanos")) / sent;
        double nsSingle = (metric(single, "eth0", "cpuNanos") + metric(single, "eth1", "cpuNanos"))
                / metric(single, "eth1", "txCompletions");
        assertTrue(nsBulk < nsSingle, "CPU per forwarded packet: " + nsBulk + " ns with bulk free, " + nsSingle + " without");
    }
}

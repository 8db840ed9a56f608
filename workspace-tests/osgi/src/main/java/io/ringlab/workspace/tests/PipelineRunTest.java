package io.ringlab.workspace.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.common.annotation.InjectService;
import org.osgi.test.junit5.context.BundleContextExtension;
import org.osgi.test.junit5.service.ServiceExtension;

import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.RunState;
import io.ringlab.sim.api.SimulationRun;
import io.ringlab.sim.api.Simulator;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/** Pipelines assembled from the services in the registry run inside Felix; a departing bundle ends its runs cleanly. */
@ExtendWith({BundleContextExtension.class, ServiceExtension.class})
class PipelineRunTest {
    static final String PIPELINE = """
            name = "integration"
            duration = 5ms
            headline = sink.rxMpps
            element src : source { rate = 2Gbit; size = 1518B; flows = 4 }
            element q : pfifo { limit = 100 }
            element eth0 : netdev { ring = 64; bql = true }
            element wire : link { rate = 1Gbit; delay = 10us }
            element sink : sink
            src -> q -> eth0 -> wire -> sink
            """;

    @InjectBundleContext
    BundleContext context;

    @Test
    void aPipelineFromServicesRunsAndItsInvariantsHold(@InjectService Simulator simulator) throws Exception {
        RunResultDTO r = simulator.prepare(PipelineReader.read("integration.pipeline", PIPELINE), new RunOptionsDTO()).run();
        assertEquals("FINISHED", r.state, r.error);
        assertTrue(r.invariants.packetConservation, r.invariants.violations.toString());
        assertTrue(r.invariants.bufferConservation, r.invariants.violations.toString());
        // 2 Gbit/s offered into a 1 Gbit/s link: the qdisc must drop, and the drops must be named
        assertTrue(r.invariants.droppedByReason.getOrDefault("qdisc-overlimit", 0L) > 0, r.invariants.droppedByReason.toString());
        assertTrue(r.elements.get("sink").get("rxPackets") > 0);
        assertTrue(r.bundles.keySet().containsAll(java.util.List.of("io.ringlab.link", "io.ringlab.bql", "io.ringlab.qdisc",
                "io.ringlab.traffic", "io.ringlab.driver.netdev", "io.ringlab.engine")), r.bundles.toString());
        assertNotNull(r.headline);
    }

    /** The driver models and the pool kinds they ask for by kind, each in its own bundle, work together in Felix. */
    @Test
    void driverModelsFindTheirPoolKindsAcrossBundles(@InjectService Simulator simulator) throws Exception {
        String bm = """
                duration = 2ms
                profile = armada-388
                element gen : source { rate = 900Mbit; sizes = uniform; size = 64B; sizeMax = 1518B; burst = 4 }
                element eth0 : mvneta { bm = true }
                element sink : sink
                gen -> eth0.rx
                eth0.stack -> sink
                """;
        RunResultDTO r = simulator.prepare(PipelineReader.read("bm.pipeline", bm), new RunOptionsDTO()).run();
        assertEquals("FINISHED", r.state, r.error);
        assertTrue(r.invariants.packetConservation && r.invariants.bufferConservation, r.invariants.violations.toString());
        assertTrue(r.elements.get("pool:eth0.long").get("refills") > 2048, r.elements.get("pool:eth0.long").toString());
        assertTrue(r.bundles.keySet().containsAll(java.util.List.of("io.ringlab.driver.mvneta", "io.ringlab.pool.hwbm",
                "io.ringlab.pool.slab")), r.bundles.toString());
        String drop = """
                duration = 1ms
                element gen : source { rate = 100Gbit; size = 64B; burst = 64 }
                element eth0 : mlx5 { allocBulk = 8; bulkHint = true; earlyDrop = kfree_skb }
                gen -> eth0.rx
                """;
        r = simulator.prepare(PipelineReader.read("drop.pipeline", drop), new RunOptionsDTO()).run();
        assertEquals("FINISHED", r.state, r.error);
        assertTrue(r.elements.get("pool:eth0.rx").get("napiHintedRefills") > 0, r.elements.get("pool:eth0.rx").toString());
    }

    @Test
    void anUnknownTypeListsTheInstalledTypes(@InjectService Simulator simulator) throws Exception {
        var p = PipelineReader.read("bad.pipeline", "element x : nosuch\n");
        PipelineException e = assertThrows(PipelineException.class, () -> simulator.prepare(p, new RunOptionsDTO()));
        assertTrue(e.getMessage().startsWith("bad.pipeline:1:"), e.getMessage());
        assertTrue(e.getMessage().contains("nosuch") && e.getMessage().contains("netdev"), e.getMessage());
    }

    @Test
    void stoppingABundleDuringARunEndsThatRunWithAClearError(@InjectService Simulator simulator) throws Exception {
        RunOptionsDTO o = new RunOptionsDTO();
        o.durationPicos = 3_600L * 1_000_000_000_000L; // an hour of simulated time: far longer than the test
        SimulationRun run = simulator.prepare(PipelineReader.read("long.pipeline", PIPELINE), o);
        run.start();
        Bundle link = bundle("io.ringlab.link");
        try {
            // wait (bounded) until the engine thread is processing events
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (run.state() != RunState.RUNNING && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertEquals(RunState.RUNNING, run.state());
            link.stop();
            RunResultDTO r = run.await(60, TimeUnit.SECONDS);
            assertNotNull(r, "the run did not end after its bundle stopped (hang)");
            assertEquals("FAILED", r.state);
            assertTrue(r.error.contains("io.ringlab.link") && r.error.contains("link"), r.error);
            assertTrue(r.invariants.packetConservation, r.invariants.violations.toString());
        } finally {
            link.start();
            run.stop();
        }
    }

    private Bundle bundle(String bsn) {
        for (Bundle b : context.getBundles()) {
            if (bsn.equals(b.getSymbolicName())) {
                return b;
            }
        }
        throw new AssertionError("no bundle " + bsn);
    }
}

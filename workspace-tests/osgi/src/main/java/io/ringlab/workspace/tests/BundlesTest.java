package io.ringlab.workspace.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.common.annotation.InjectService;
import org.osgi.test.junit5.context.BundleContextExtension;
import org.osgi.test.junit5.service.ServiceExtension;

import io.ringlab.buffer.api.BufferPoolProvider;
import io.ringlab.queue.api.QdiscProvider;
import io.ringlab.queue.api.QueueLimitsProvider;
import io.ringlab.sim.api.Simulator;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;

/** Every bundle resolves and activates, and the services a pipeline needs are registered. */
@ExtendWith({BundleContextExtension.class, ServiceExtension.class})
class BundlesTest {

    @InjectBundleContext
    BundleContext context;

    @Test
    void everyRinglabBundleIsActive() {
        List<String> notActive = new ArrayList<>();
        Set<String> ringlab = new TreeSet<>();
        for (Bundle b : context.getBundles()) {
            if (b.getHeaders().get("Fragment-Host") != null) {
                continue;
            }
            if (b.getState() != Bundle.ACTIVE) {
                notActive.add(b.getSymbolicName() + " state=" + b.getState());
            }
            if (b.getSymbolicName().startsWith("io.ringlab.")) {
                ringlab.add(b.getSymbolicName());
            }
        }
        assertEquals(List.of(), notActive, "bundles not active");
        assertTrue(ringlab.containsAll(Set.of("io.ringlab.buffer.api", "io.ringlab.queue.api", "io.ringlab.sim.api",
                "io.ringlab.driver.api", "io.ringlab.pipeline.format", "io.ringlab.engine", "io.ringlab.bql", "io.ringlab.qdisc",
                "io.ringlab.traffic", "io.ringlab.link", "io.ringlab.driver.netdev", "io.ringlab.driver.stmmac", "io.ringlab.cli", "io.ringlab.pool.slab", "io.ringlab.driver.mlx5",
                "io.ringlab.driver.mlx4",
                "io.ringlab.pool.hwbm", "io.ringlab.driver.mvneta", "io.ringlab.experiment.api", "io.ringlab.experiment",
                // the conformance kit resolves inside the framework too, with its JUnit 5 imports and the engine's
                // io.ringlab.engine.standalone
                "io.ringlab.conformance")),
                ringlab.toString());
    }

    @Test
    void elementFactoriesAreFoundAsServices(@InjectService Simulator simulator) {
        Set<String> types = new TreeSet<>();
        for (ElementDescriptorDTO d : simulator.elementTypes()) {
            types.add(d.type);
            assertTrue(d.bundle.startsWith("io.ringlab."), d.type + " bundle " + d.bundle);
            assertTrue(d.bundleVersion != null && !d.bundleVersion.isEmpty(), d.type + " has no bundle version");
        }
        assertTrue(types.containsAll(Set.of("source", "sink", "drop", "ping", "host", "link", "netdev", "stmmac", "pfifo", "pfifo_fast",
                "fq_codel", "mlx5", "mlx4", "mvneta", "http-load", "haproxy")), types.toString());
        assertTrue(simulator.poolKinds().containsAll(Set.of("fixed", "slab", "skb", "hwbm", "pagefrag", "pagepool")), simulator.poolKinds().toString());
    }

    @Test
    void providersAreRegisteredByKind() throws Exception {
        assertEquals(1, context.getServiceReferences(QueueLimitsProvider.class, "(" + QueueLimitsProvider.KIND + "=dql)").size());
        for (String kind : new String[] {"pfifo", "pfifo_fast", "fq_codel"}) {
            assertEquals(1, context.getServiceReferences(QdiscProvider.class, "(" + QdiscProvider.KIND + "=" + kind + ")").size(),
                    kind);
        }
        for (String kind : new String[] {"fixed", "slab", "skb", "hwbm", "pagefrag", "pagepool"}) {
            assertEquals(1, context.getServiceReferences(BufferPoolProvider.class, "(" + BufferPoolProvider.KIND + "=" + kind + ")")
                    .size(), kind);
        }
    }
}

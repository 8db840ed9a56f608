package io.ringlab.workspace.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.FrameworkUtil;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.common.annotation.InjectService;
import org.osgi.test.junit5.context.BundleContextExtension;
import org.osgi.test.junit5.service.ServiceExtension;

import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.SimulationRun;
import io.ringlab.sim.api.Simulator;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.SwapDTO;

/**
 * Hot swap inside the framework: a bundle update while a run uses its element type swaps and continues (the state is
 * taken while the old bundle is still active); an uninstall ends the run cleanly, with its results and invariants.
 */
@ExtendWith({BundleContextExtension.class, ServiceExtension.class})
class BundleUpdateSwapTest {
    private static final String NETDEV = "io.ringlab.driver.netdev";
    private static final String PIPELINE = """
            name = "osgi-swap"
            duration = 40ms
            element src : source { rate = 1.2Gbit; size = 1518B; flows = 4; arrivals = poisson }
            element q : pfifo { limit = 1000 }
            element eth0 : netdev { ring = 256; bql = true }
            element wire : link { rate = 1Gbit; delay = 10us }
            element sink : sink
            src -> q -> eth0 -> wire -> sink
            """;

    @InjectBundleContext
    BundleContext context;

    private Bundle bundle(String bsn) {
        for (Bundle b : context.getBundles()) {
            if (bsn.equals(b.getSymbolicName())) {
                return b;
            }
        }
        return null;
    }

    /** A run paced to a tenth of real time (40 ms of virtual time in 0.4 s), started, and past 5 ms of virtual time. */
    private SimulationRun running(Simulator simulator) throws Exception {
        RunOptionsDTO o = new RunOptionsDTO();
        o.seed = 3L;
        o.realTimeFactor = 0.1;
        o.snapshotIntervalMillis = 10;
        SimulationRun run = simulator.prepare(PipelineReader.read("osgi-swap.pipeline", PIPELINE), o);
        run.start();
        Await.until(() -> run.snapshot().simulatedSeconds > 0.005, "the run past 5 ms");
        return run;
    }

    @Test
    void aBundleUpdateWhileARunUsesItsTypeSwapsAndContinues(@InjectService Simulator simulator) throws Exception {
        SimulationRun run = running(simulator);
        Bundle netdev = bundle(NETDEV);
        netdev.update(); // stops the bundle (its factory goes), re-reads it from its location and starts it again

        RunResultDTO r = run.await(60, TimeUnit.SECONDS);
        assertNotNull(r, "the run ended");
        assertEquals("FINISHED", r.state, r.error);
        assertTrue(r.invariants.packetConservation && r.invariants.bufferConservation, r.invariants.violations.toString());
        assertEquals(1, r.swaps.size(), r.swaps.toString());
        SwapDTO d = r.swaps.get(0);
        assertTrue(d.applied && d.handover, d.message);
        assertEquals("eth0", d.element);
        assertEquals("netdev@" + netdev.getVersion(), d.to);
        assertEquals(0, d.packetsDropped);
        assertTrue(d.packetsTransferred > 0, "the ring was busy");
        assertEquals(Bundle.ACTIVE, bundle(NETDEV).getState());
    }

    @Test
    void anUninstallWhileARunUsesItsTypeEndsTheRunCleanly(@InjectService Simulator simulator) throws Exception {
        Bundle netdev = bundle(NETDEV);
        String location = netdev.getLocation();
        SimulationRun run = running(simulator);
        try {
            netdev.uninstall();
            RunResultDTO r = run.await(60, TimeUnit.SECONDS);
            assertNotNull(r, "the run ended");
            assertEquals("FAILED", r.state);
            assertTrue(r.error.contains("bundle " + NETDEV) && r.error.contains("uninstalled")
                    && r.error.contains("element type netdev; the run ends"), r.error);
            assertTrue(r.invariants.packetConservation && r.invariants.bufferConservation, r.invariants.violations.toString());
            assertTrue(r.invariants.inFlight > 0, "the held driver's frames are counted in flight");
            // the wait for a replacement ends with the run: it held the run and its simulation for 30 s (issue 15)
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().startsWith("ringlab-replacement-wait-")) {
                    t.join(15_000); // half the engine's 30 s wait (SimulatorComponent.REPLACEMENT_WAIT_MILLIS)
                    assertTrue(!t.isAlive(), t.getName() + " still waits after the run ended");
                }
            }
        } finally {
            if (bundle(NETDEV) == null) {
                // through the test bundle's own context: osgi-test uninstalls what the injected one installed, after the test
                FrameworkUtil.getBundle(BundleUpdateSwapTest.class).getBundleContext().installBundle(location).start();
            }
        }
        Await.until(() -> simulator.elementTypes().stream().anyMatch(d -> d.type.equals("netdev")), "netdev back");
    }

    /** @return a copy of a bundle's jar with another Bundle-Version, as a newer build of it would be */
    private Path withVersion(Bundle b, String version) throws Exception {
        String location = b.getLocation();
        String url = location.startsWith("reference:") ? location.substring("reference:".length()) : location;
        Path out = Files.createTempFile("netdev-" + version, ".jar");
        try (InputStream in = new URL(url).openStream(); JarInputStream jar = new JarInputStream(in)) {
            Manifest m = jar.getManifest();
            m.getMainAttributes().putValue("Bundle-Version", version);
            try (JarOutputStream copy = new JarOutputStream(Files.newOutputStream(out), m)) {
                for (JarEntry e; (e = jar.getNextJarEntry()) != null;) {
                    copy.putNextEntry(new JarEntry(e.getName()));
                    jar.transferTo(copy);
                    copy.closeEntry();
                }
            }
        }
        return out;
    }

    @Test
    void aNewerVersionInstalledWhileARunGoesSwapsItAndItsRemovalSwapsBack(@InjectService Simulator simulator)
            throws Exception {
        Bundle netdev = bundle(NETDEV);
        Path jar = withVersion(netdev, "9.0.0");
        SimulationRun run = running(simulator);
        Bundle newer = context.installBundle("file:" + jar, Files.newInputStream(jar));
        try {
            newer.start(); // its factory is the newest netdev: the run swaps to it
            Await.until(() -> run.snapshot().swaps.size() == 1, "the swap to 9.0.0");
            newer.uninstall(); // its factory goes while the older stays: the run swaps back before it stops
            RunResultDTO r = run.await(60, TimeUnit.SECONDS);
            assertNotNull(r, "the run ended");
            assertEquals("FINISHED", r.state, r.error);
            assertTrue(r.invariants.packetConservation && r.invariants.bufferConservation, r.invariants.violations.toString());
            assertEquals(2, r.swaps.size(), r.swaps.toString());
            assertEquals("netdev@9.0.0", r.swaps.get(0).to);
            assertEquals("netdev@9.0.0", r.swaps.get(1).from);
            assertEquals("netdev@" + netdev.getVersion(), r.swaps.get(1).to);
            for (SwapDTO d : r.swaps) {
                assertTrue(d.applied && d.handover && d.packetsDropped == 0, d.toString() + " " + d.message);
            }
            assertEquals("io.ringlab.driver.netdev", simulator.elementTypes().stream().filter(d -> d.type.equals("netdev"))
                    .findFirst().orElseThrow().bundle);
        } finally {
            if (newer.getState() != Bundle.UNINSTALLED) {
                newer.uninstall();
            }
            Files.deleteIfExists(jar);
        }
    }
}

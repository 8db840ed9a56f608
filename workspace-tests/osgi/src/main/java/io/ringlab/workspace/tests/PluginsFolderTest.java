package io.ringlab.workspace.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.common.annotation.InjectService;
import org.osgi.test.junit5.context.BundleContextExtension;
import org.osgi.test.junit5.service.ServiceExtension;

import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.Simulator;
import io.ringlab.sim.api.dto.RunOptionsDTO;

/** The plugins folder: a bundle jar dropped there is installed and started; a .cfg file there goes to ConfigAdmin. */
@ExtendWith({BundleContextExtension.class, ServiceExtension.class})
class PluginsFolderTest {
    private static final String BSN = "io.ringlab.test.dropin";

    @InjectBundleContext
    BundleContext context;

    private Path folder() {
        Path dir = Path.of(context.getProperty("felix.fileinstall.dir"));
        assertTrue(Files.isDirectory(dir), "fileinstall folder " + dir);
        return dir;
    }

    private Bundle bundle(String bsn) {
        for (Bundle b : context.getBundles()) {
            if (bsn.equals(b.getSymbolicName())) {
                return b;
            }
        }
        return null;
    }

    @Test
    void aJarDroppedIntoThePluginsFolderIsInstalledAndStartedAndRemovedWithIt() throws Exception {
        Path jar = folder().resolve("dropin.jar");
        Manifest m = new Manifest();
        Attributes a = m.getMainAttributes();
        a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        a.putValue("Bundle-ManifestVersion", "2");
        a.putValue("Bundle-SymbolicName", BSN);
        a.putValue("Bundle-Version", "1.0.0");
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out, m)) {
            // a manifest-only bundle is enough to prove the install path
        }
        try {
            Await.until(() -> bundle(BSN) != null && bundle(BSN).getState() == Bundle.ACTIVE, BSN + " active");
            assertEquals("1.0.0", bundle(BSN).getVersion().toString());
        } finally {
            Files.deleteIfExists(jar);
        }
        Await.until(() -> bundle(BSN) == null, BSN + " uninstalled after its jar was deleted");
    }

    @Test
    void aCfgFileSetsInstallationDefaults(@InjectService ConfigurationAdmin cm, @InjectService Simulator simulator)
            throws Exception {
        Path cfg = folder().resolve("ringlab.element.sink.cfg");
        Files.writeString(cfg, "backlog = 7\ncycles = 400000\n", StandardCharsets.UTF_8);
        try {
            Await.until(() -> {
                try {
                    return cm.listConfigurations("(service.pid=ringlab.element.sink)") != null;
                } catch (Exception e) {
                    return false;
                }
            }, "configuration ringlab.element.sink");
            var r = simulator.prepare(PipelineReader.read("cfg.pipeline", """
                    duration = 1ms
                    element src : source { rate = 1Gbit; size = 64B }
                    element sink : sink
                    src -> sink
                    """), new RunOptionsDTO()).run();
            assertNotNull(r.invariants.droppedByReason.get("sink-backlog-full"), "the 7-packet backlog from the .cfg overflowed");
            assertEquals(400000.0, r.elements.get("sink").get("cpuCyclesPerPacket"));
        } finally {
            Files.deleteIfExists(cfg);
        }
        Await.until(() -> {
            try {
                return cm.listConfigurations("(service.pid=ringlab.element.sink)") == null;
            } catch (Exception e) {
                return false;
            }
        }, "configuration removed with its file");
    }
}

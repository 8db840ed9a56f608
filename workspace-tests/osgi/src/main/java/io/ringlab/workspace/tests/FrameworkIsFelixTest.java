package io.ringlab.workspace.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarInputStream;

import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.osgi.framework.BundleContext;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.junit5.context.BundleContextExtension;

/**
 * Every executable jar starts Apache Felix, the framework Ringlab runs on. The bnd launcher of an executable jar takes the
 * first {@code org.osgi.framework.launch.FrameworkFactory} that {@code META-INF/services} names along its class path, the
 * jar's {@code Embedded-Runpath} in order. The console's run path holds org.eclipse.osgi too (for equinox.common), which
 * is a framework as well: until session 19 it came first and the console ran on Equinox, while the launcher's warning
 * ("Found more than one FrameworkFactory implementation") named the second, Felix. The test reads each jar of this
 * checkout's {@code app/target} as the launcher does.
 */
@ExtendWith(BundleContextExtension.class)
class FrameworkIsFelixTest {
    private static final String SERVICE = "META-INF/services/org.osgi.framework.launch.FrameworkFactory";

    @InjectBundleContext
    BundleContext context;

    @ParameterizedTest
    @ValueSource(strings = {"ringlab.jar", "shell.jar", "console.jar"})
    void theFirstFrameworkFactoryOnTheRunPathIsFelix(String name) throws Exception {
        Path jar = App.home(context).resolve("app/target").resolve(name);
        List<String> factories = new ArrayList<>();
        try (JarFile j = new JarFile(jar.toFile())) {
            String runpath = j.getManifest().getMainAttributes().getValue("Embedded-Runpath");
            assertNotNull(runpath, name + " has an Embedded-Runpath");
            for (String entry : runpath.split(",")) {
                JarEntry e = j.getJarEntry(entry.strip());
                assertNotNull(e, name + ": its run path names " + entry + ", which it does not hold");
                byte[] nested;
                try (InputStream in = j.getInputStream(e)) {
                    nested = in.readAllBytes();
                }
                String factory = factoryOf(nested);
                if (factory != null) {
                    factories.add(entry.strip() + ": " + factory);
                }
            }
        }
        assertTrue(!factories.isEmpty(), name + ": no FrameworkFactory on the run path");
        assertEquals("org.apache.felix.framework.FrameworkFactory", factories.get(0).replaceFirst(".*: ", ""),
                name + ": the launcher starts the first of " + factories);
    }

    /** @return the first class a nested jar's {@code META-INF/services} names as a FrameworkFactory, or {@code null} */
    private static String factoryOf(byte[] jar) throws Exception {
        try (JarInputStream in = new JarInputStream(new ByteArrayInputStream(jar))) {
            for (JarEntry e; (e = in.getNextJarEntry()) != null;) {
                if (e.getName().equals(SERVICE)) {
                    for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                        String s = line.replaceFirst("#.*", "").strip();
                        if (!s.isEmpty()) {
                            return s;
                        }
                    }
                }
            }
        }
        return null;
    }
}

package io.ringlab.cluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.wiring.FrameworkWiring;

import io.ringlab.experiment.api.ClusterException;

/**
 * Hazelcast's bundle, installed on first use rather than imported: this bundle has no {@code Import-Package:
 * com.hazelcast}, only a dynamic import, so a command that starts no worker and connects to no cluster never resolves or
 * loads Hazelcast (a 21 MB jar), and Hazelcast's own activator never runs (it is resolved, never started).
 * <p>
 * In a framework, the bundle {@value #SYMBOLIC_NAME} is the installed one, or else the jar at the property {@value
 * #JAR_PROPERTY} (a path), or else at {@code ${ringlab.home}/}{@value #APP_JAR}, where the app's build copies it,
 * installed by reference ({@code reference:file:...}, read where it is). Outside a framework (unit tests) Hazelcast is
 * on the class path and nothing is done.
 * <p>
 * Thread-safe.
 */
final class Hazelcasts {
    /** Hazelcast's bundle, as its manifest names it. */
    static final String SYMBOLIC_NAME = "com.hazelcast";
    /** System or framework property: the Hazelcast jar to install when no Hazelcast bundle is installed. */
    static final String JAR_PROPERTY = "ringlab.hazelcast";
    /** Where the app's build puts Hazelcast's jar, relative to {@code ringlab.home}. */
    static final String APP_JAR = "app/target/lib/hazelcast.jar";

    private static volatile Bundle bundle; // written once, under Hazelcasts.class

    private Hazelcasts() {
    }

    /**
     * Makes Hazelcast's classes loadable from this bundle: installs and resolves its bundle on the first call.
     *
     * @param context this bundle's context; {@code null} outside a framework
     * @return Hazelcast's class loader (its bundle's, or the class path's)
     * @throws ClusterException if there is no Hazelcast to install, naming the jar looked for
     */
    static ClassLoader ensure(BundleContext context) throws ClusterException {
        if (context == null) {
            return Hazelcasts.class.getClassLoader();
        }
        Bundle b = bundle;
        if (b == null) {
            synchronized (Hazelcasts.class) {
                b = bundle;
                if (b == null) {
                    b = install(context);
                    if (!context.getBundle(0).adapt(FrameworkWiring.class).resolveBundles(List.of(b))) {
                        throw new ClusterException("Hazelcast's bundle " + b.getLocation() + " cannot be resolved in"
                                + " this framework");
                    }
                    bundle = b;
                }
            }
        }
        return b.adapt(org.osgi.framework.wiring.BundleWiring.class).getClassLoader();
    }

    private static Bundle install(BundleContext context) throws ClusterException {
        for (Bundle b : context.getBundles()) {
            if (SYMBOLIC_NAME.equals(b.getSymbolicName()) && b.getState() != Bundle.UNINSTALLED) {
                return b;
            }
        }
        Path jar = jar(context);
        if (!Files.isRegularFile(jar)) {
            throw new ClusterException("Hazelcast, which a cluster needs, is not installed and its jar " + jar
                    + " does not exist: build Ringlab with ./ringlab (the build puts the jar there), or set -D"
                    + JAR_PROPERTY + "=PATH to a hazelcast 5.x jar");
        }
        try {
            return context.installBundle("reference:" + jar.toUri());
        } catch (BundleException | SecurityException e) {
            throw new ClusterException("Hazelcast's jar " + jar + " cannot be installed as a bundle: " + e.getMessage(), e);
        }
    }

    /** @return the jar to install: {@value #JAR_PROPERTY}, else the app's copy under {@code ringlab.home} */
    static Path jar(BundleContext context) {
        String given = context.getProperty(JAR_PROPERTY);
        if (given != null && !given.isBlank()) {
            return Path.of(given).toAbsolutePath().normalize();
        }
        String home = context.getProperty("ringlab.home");
        return Path.of(home != null ? home : ".").resolve(APP_JAR).toAbsolutePath().normalize();
    }
}

package io.ringlab.experiment;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;

/**
 * The bundles whose code can change a run's result, each as {@code version#hash} of its content, for run keys
 * ({@link RunKeys}): every {@code io.ringlab.*} bundle but those that only drive runs (the command line, the console,
 * the experiment service and its API, the results database), and every other bundle that provides an element type
 * (a third-party driver). The hash is the SHA-256 of every entry's path and bytes in path order, without
 * {@code META-INF/MANIFEST.MF} (bnd writes the build time into it: a rebuild of the same sources keeps its keys); it is
 * computed once per bundle and kept while the bundle's last-modified time stays (an update or a new jar computes it
 * again).
 * <p>
 * Thread-safe.
 */
final class BundleFingerprints {
    /** Bundles that drive runs without changing them. */
    private static final Set<String> DRIVERS_ONLY = Set.of("io.ringlab.cli", "io.ringlab.console", "io.ringlab.experiment",
            "io.ringlab.experiment.api", "io.ringlab.results", "io.ringlab.cluster");

    private record Cached(long lastModified, String fingerprint) {
    }

    private final BundleContext context;
    private final Map<Long, Cached> cache = new ConcurrentHashMap<>();

    /** @param context the experiment bundle's context; {@code null} outside a framework (no bundles, no fingerprints) */
    BundleFingerprints(BundleContext context) {
        this.context = context;
    }

    /**
     * @param elementBundles symbolic names of the bundles that provide element types (from the descriptors)
     * @return symbolic name to {@code version#sha256}, sorted; empty outside a framework
     */
    Map<String, String> of(Set<String> elementBundles) {
        if (context == null) {
            return Map.of();
        }
        Map<String, String> out = new TreeMap<>();
        for (Bundle b : context.getBundles()) {
            String name = b.getSymbolicName();
            if (name == null || DRIVERS_ONLY.contains(name)
                    || !(name.startsWith("io.ringlab.") || elementBundles.contains(name))) {
                continue;
            }
            long modified = b.getLastModified();
            Cached c = cache.get(b.getBundleId());
            if (c == null || c.lastModified != modified) {
                c = new Cached(modified, b.getVersion() + "#" + hash(b));
                cache.put(b.getBundleId(), c);
            }
            out.put(name, c.fingerprint);
        }
        return out;
    }

    private static String hash(Bundle b) {
        Enumeration<URL> entries = b.findEntries("/", "*", true);
        List<URL> files = new ArrayList<>();
        if (entries != null) {
            for (URL u : Collections.list(entries)) {
                String path = u.getPath();
                if (!path.endsWith("/") && !path.endsWith("META-INF/MANIFEST.MF")) {
                    files.add(u);
                }
            }
        }
        files.sort((x, y) -> x.getPath().compareTo(y.getPath()));
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[65536];
            for (URL u : files) {
                md.update(u.getPath().getBytes(java.nio.charset.StandardCharsets.UTF_8));
                md.update((byte) 0);
                try (InputStream in = u.openStream()) {
                    for (int n; (n = in.read(buffer)) > 0;) {
                        md.update(buffer, 0, n);
                    }
                }
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        } catch (IOException e) {
            // an entry that cannot be read: the bundle still has a fingerprint, one that never matches a stored run
            return "unreadable-" + b.getBundleId() + "-" + System.nanoTime();
        }
    }
}

package io.ringlab.cluster;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;

/**
 * The submitter's plug-ins, shipped to the workers: every bundle of the client's framework that Ringlab's launcher did
 * not install (its locations start with {@value #LAUNCHER}) and that was not installed by reference (Hazelcast, DuckDB):
 * those of {@code --plugins} folders and of the plugins folder. Each travels as a jar rebuilt from the bundle's entries
 * (manifest first, then every entry in path order), named {@code bsn@version#sha256} of those bytes, through the
 * cluster's map {@value #MAP}; a worker installs those it lacks after checking the bytes against the name's hash, and
 * refuses a plug-in of the same name and version whose content differs from the submitter's.
 */
final class Plugins {
    /** The cluster map that holds the shipped jars, by {@link #key}. */
    static final String MAP = "ringlab-plugins";
    /** The location prefix of the bundles Ringlab's launcher installs from its own jar. */
    static final String LAUNCHER = "jar/";
    /** The location prefix of the bundles a worker installs from a submitter. */
    static final String SHIPPED = "ringlab-cluster:";

    private Plugins() {
    }

    /** @return whether the bundle is the submitter's plug-in: neither the launcher's, nor by reference, nor the system */
    static boolean isPlugin(Bundle b) {
        String l = b.getLocation();
        return b.getBundleId() != 0 && b.getSymbolicName() != null && !l.startsWith(LAUNCHER) && !l.startsWith("reference:");
    }

    /** @return the symbolic names of the bundles that are Ringlab itself here (for the build hash) */
    static Set<String> core(BundleContext context) {
        Set<String> names = new TreeSet<>();
        for (Bundle b : context.getBundles()) {
            if (b.getSymbolicName() != null && b.getLocation().startsWith(LAUNCHER)) {
                names.add(b.getSymbolicName());
            }
        }
        return names;
    }

    /** @return the plug-ins of this framework as shipped jars, by {@link #key} */
    static Map<String, byte[]> jars(BundleContext context) throws IOException {
        Map<String, byte[]> out = new LinkedHashMap<>();
        for (Bundle b : context.getBundles()) {
            if (isPlugin(b) && b.getState() != Bundle.UNINSTALLED) {
                byte[] jar = jar(b);
                out.put(key(b, jar), jar);
            }
        }
        return out;
    }

    /** @return {@code bsn@version#sha256} of the jar */
    static String key(Bundle b, byte[] jar) {
        return b.getSymbolicName() + "@" + b.getVersion() + "#" + sha256(jar);
    }

    /** @return the bundle's content as a jar: its manifest, then every other entry in path order */
    static byte[] jar(Bundle b) throws IOException {
        List<URL> files = new ArrayList<>();
        Enumeration<URL> entries = b.findEntries("/", "*", true);
        if (entries != null) {
            for (URL u : Collections.list(entries)) {
                String p = u.getPath();
                if (!p.endsWith("/") && !p.equals("/META-INF/MANIFEST.MF")) {
                    files.add(u);
                }
            }
        }
        files.sort((x, y) -> x.getPath().compareTo(y.getPath()));
        URL mf = b.getEntry("META-INF/MANIFEST.MF");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JarOutputStream j = new JarOutputStream(bytes)) {
            if (mf != null) {
                copy(j, "META-INF/MANIFEST.MF", mf);
            }
            for (URL u : files) {
                copy(j, u.getPath().substring(1), u);
            }
        }
        return bytes.toByteArray();
    }

    /** Writes one entry, dated 1980-01-01 in every time zone: the same content packs to the same bytes anywhere. */
    private static void copy(JarOutputStream j, String name, URL from) throws IOException {
        JarEntry e = new JarEntry(name);
        e.setTimeLocal(java.time.LocalDateTime.of(1980, 1, 1, 0, 0));
        j.putNextEntry(e);
        try (InputStream in = from.openStream()) {
            in.transferTo(j);
        }
        j.closeEntry();
    }

    /**
     * Installs and starts on a worker the shipped plug-ins it lacks.
     *
     * @param context the worker's framework
     * @param keys the submitter's plug-ins, by {@link #key}
     * @param fetch the jar of a key from the cluster's map ({@code null} if it is not there)
     * @return why the worker cannot use them (naming the bundle), or {@code null} once they are all installed
     */
    static synchronized String ensure(BundleContext context, List<String> keys, java.util.function.Function<String, byte[]> fetch) {
        List<Bundle> installed = new ArrayList<>();
        for (String key : keys) {
            int at = key.indexOf('@');
            int hash = key.lastIndexOf('#');
            if (at < 1 || hash < at) {
                return "the submitter shipped a plug-in under a malformed name '" + key + "'";
            }
            String bsn = key.substring(0, at);
            String version = key.substring(at + 1, hash);
            Bundle here = find(context, bsn, version);
            if (here != null) {
                try {
                    if (!key.equals(key(here, jar(here)))) {
                        return "plug-in " + bsn + " " + version + " here (" + here.getLocation() + ") is not the submitter's:"
                                + " its content differs; remove it from this worker, or give both the same jar";
                    }
                } catch (IOException e) {
                    return "plug-in " + bsn + " " + version + " here cannot be read: " + e.getMessage();
                }
                continue;
            }
            byte[] jar = fetch.apply(key);
            if (jar == null) {
                return "plug-in " + bsn + " " + version + " is not in the cluster's map " + MAP + " (its submitter left?)";
            }
            if (!key.substring(hash + 1).equals(sha256(jar))) {
                return "plug-in " + bsn + " " + version + " arrived with SHA-256 " + sha256(jar) + ", not the "
                        + key.substring(hash + 1) + " it was shipped under";
            }
            try {
                installed.add(context.installBundle(SHIPPED + key, new ByteArrayInputStream(jar)));
            } catch (BundleException e) {
                uninstall(installed);
                return "plug-in " + bsn + " " + version + " cannot be installed here: " + e.getMessage();
            }
        }
        for (Bundle b : installed) {
            if (b.getHeaders("").get(Constants.FRAGMENT_HOST) != null) {
                continue;
            }
            try {
                b.start();
            } catch (BundleException e) {
                String why = "plug-in " + b.getSymbolicName() + " " + b.getVersion() + " cannot be started here: "
                        + e.getMessage();
                uninstall(installed);
                return why;
            }
        }
        return null;
    }

    private static Bundle find(BundleContext context, String bsn, String version) {
        for (Bundle b : context.getBundles()) {
            if (bsn.equals(b.getSymbolicName()) && version.equals(b.getVersion().toString())
                    && b.getState() != Bundle.UNINSTALLED) {
                return b;
            }
        }
        return null;
    }

    private static void uninstall(List<Bundle> bundles) {
        for (Bundle b : bundles) {
            try {
                b.uninstall();
            } catch (BundleException | IllegalStateException e) {
                // gone already
            }
        }
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}

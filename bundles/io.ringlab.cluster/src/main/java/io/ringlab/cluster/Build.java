package io.ringlab.cluster;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

/**
 * Which Ringlab a member runs, as its cluster attributes say it: the engine bundle's version, and a build hash over
 * every {@code io.ringlab.*} bundle that can change a run's result, with its version and content hash (so two builds of
 * one snapshot version differ when their models do). Third-party bundles are not in it: a run names those it needs in
 * its task, and the worker checks them per run.
 *
 * @param version the engine bundle's version ({@code dev} outside a framework)
 * @param hash the first 16 hex digits of the SHA-256 of the bundles' fingerprints
 */
record Build(String version, String hash) {
    /** Member attribute: the Ringlab version. */
    static final String VERSION = "ringlab.version";
    /** Member attribute: the build hash. */
    static final String HASH = "ringlab.build";
    /** Member attribute: how many runs the worker runs at once. */
    static final String THREADS = "ringlab.threads";

    /** @param bundles the installation's fingerprints ({@code ExperimentService.bundles()}) */
    static Build of(Map<String, String> bundles) {
        return of(bundles, null);
    }

    /**
     * @param bundles the installation's fingerprints ({@code ExperimentService.bundles()})
     * @param core the bundles that are Ringlab itself ({@link Plugins#core}), or {@code null} for every
     *        {@code io.ringlab.*} one: a plug-in named {@code io.ringlab.*} is not the build
     */
    static Build of(Map<String, String> bundles, java.util.Set<String> core) {
        String engine = bundles.get("io.ringlab.engine");
        String version = engine == null ? "dev" : engine.substring(0, Math.max(0, engine.indexOf('#')));
        StringBuilder t = new StringBuilder();
        bundles.forEach((name, fingerprint) -> {
            if (name.startsWith("io.ringlab.") && (core == null || core.contains(name))) {
                t.append(name).append(' ').append(fingerprint).append('\n');
            }
        });
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(t.toString().getBytes(StandardCharsets.UTF_8));
            return new Build(version.isEmpty() ? "dev" : version, HexFormat.of().formatHex(d).substring(0, 16));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    /**
     * @param version a member's {@value #VERSION} attribute, or {@code null}
     * @param hash its {@value #HASH} attribute, or {@code null}
     * @return why a member with these attributes cannot work with this build, or {@code null} if it can
     */
    String refuses(String version, String hash) {
        if (version == null || hash == null) {
            return "it is not a Ringlab worker (it has no " + VERSION + " attribute)";
        }
        if (!version.equals(this.version) || !hash.equals(this.hash)) {
            return "it runs Ringlab " + version + " (build " + hash + "), this process " + this;
        }
        return null;
    }

    @Override
    public String toString() {
        return "Ringlab " + version + " (build " + hash + ")";
    }
}

package io.ringlab.experiment;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

import io.ringlab.sim.api.dto.ConnectionDTO;
import io.ringlab.sim.api.dto.ElementSpecDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.ValueDTO;

/**
 * A run's key (docs/experiments.md, "The results database"): the SHA-256, in hex, of a canonical text of everything that
 * determines the run's result, so that a run found under its key in a results database gives what running it again
 * would (the engine is deterministic: the same pipeline, seed and version give bit-identical results):
 * <ul>
 * <li>the pipeline's semantics: its cost profile and plotted series, each element's name, type and properties in the
 * order written, each connection in the order written (name, description, headline, layout and source positions do
 * not change a run and are left out; the pipeline's own duration and seed are replaced by the run's);</li>
 * <li>the run's options: overrides (the variant's, then the sweep point's) and swaps in order, seed, duration, warm-up
 * and fork in picoseconds;</li>
 * <li>the bundles the run may use, each with its version and the hash of its content ({@link BundleFingerprints}).</li>
 * </ul>
 * A key starts with a version of this text ({@code ringlab-run-key 1}), so that a change of what goes in makes new keys.
 * <p>
 * Stateless and thread-safe.
 */
final class RunKeys {
    /** Bumped whenever the canonical text changes. */
    static final String VERSION = "ringlab-run-key 1";

    private RunKeys() {
    }

    /**
     * @param pipeline the pipeline the run prepares (the variant's and point's types applied)
     * @param o the run's options
     * @param bundles symbolic name to {@code version#content-hash} of the bundles the run may use, sorted; empty outside
     *        a framework
     * @return the key, 64 hex digits
     */
    static String of(PipelineDTO pipeline, RunOptionsDTO o, Map<String, String> bundles) {
        StringBuilder t = new StringBuilder(VERSION).append('\n');
        t.append("profile ").append(text(pipeline.profile)).append('\n');
        for (ValueDTO plot : pipeline.plot) {
            t.append("plot ").append(text(plot)).append('\n');
        }
        for (ElementSpecDTO e : pipeline.elements) {
            t.append("element ").append(e.name).append(" : ").append(e.type).append('\n');
            e.properties.forEach((k, v) -> t.append("  ").append(k).append(" = ").append(text(v)).append('\n'));
        }
        for (ConnectionDTO c : pipeline.connections) {
            t.append("connect ").append(c.from).append('.').append(c.fromPort).append(" -> ").append(c.to).append('.')
                    .append(c.toPort).append('\n');
        }
        o.overrides.forEach(x -> t.append("set ").append(x).append('\n'));
        o.swaps.forEach(x -> t.append("swap ").append(x).append('\n'));
        t.append("seed ").append(o.seed).append('\n');
        t.append("duration ").append(o.durationPicos).append(" warmup ").append(o.warmupPicos).append(" fork ")
                .append(o.forkAtPicos).append('\n');
        bundles.forEach((name, version) -> t.append("bundle ").append(name).append(' ').append(version).append('\n'));
        return sha256(t.toString());
    }

    /** @return a value as written, quoted values marked, so that {@code "1"} and {@code 1} differ as they may in a run */
    private static String text(ValueDTO v) {
        return v == null ? "-" : v.quoted ? "\"" + v.text + "\"" : v.text;
    }

    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e); // every Java SE platform has it
        }
    }
}

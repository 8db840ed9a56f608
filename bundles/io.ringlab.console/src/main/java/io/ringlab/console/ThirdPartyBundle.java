package io.ringlab.console;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;

import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PipelineDTO;

/**
 * A bundle that provides one of a pipeline's element types and is not Ringlab's own (its symbolic name does not start
 * with {@code io.ringlab.}). The console runs such a pipeline in a separate process by default, and gives that process
 * the bundle's jar ({@link IsolatedRun}), and with it every bundle not Ringlab's own that provides a pool kind, a qdisc
 * kind or queue limits ({@link #KIND_PROVIDERS}): a pipeline does not say which kinds its elements use.
 *
 * @param symbolicName the bundle's symbolic name, as the engine's descriptor gives it
 * @param version the bundle's version, as the engine's descriptor gives it
 * @param location the bundle's location in the console's framework (for example {@code file:/.../plugins/x.jar});
 *        {@code null} when no installed bundle has that name and version any more
 * @param required whether a run cannot go without it (it provides one of the pipeline's element types); a kind
 *        provider that cannot be copied is left out instead
 */
record ThirdPartyBundle(String symbolicName, String version, String location, boolean required) {
    /** A bundle of one of the pipeline's element types: required. */
    ThirdPartyBundle(String symbolicName, String version, String location) {
        this(symbolicName, version, location, true);
    }

    /**
     * The services whose third-party providers a child process gets whatever the pipeline: pool kinds, qdisc kinds,
     * queue limits (BQL's kind of service).
     */
    static final List<String> KIND_PROVIDERS = List.of("io.ringlab.buffer.api.BufferPoolProvider",
            "io.ringlab.queue.api.QdiscProvider", "io.ringlab.queue.api.QueueLimitsProvider");

    /** @return whether the bundle is one of Ringlab's own, which every Ringlab process has */
    static boolean isRinglabs(String symbolicName) {
        return symbolicName.startsWith("io.ringlab.");
    }

    /**
     * @param pipeline the pipeline
     * @param installed the installed element types (the simulator's list)
     * @param location the location of the installed bundle of that symbolic name and version, or {@code null}
     * @return the bundles not Ringlab's own that provide the pipeline's element types, each once, in the order of
     *         {@code installed}; empty when every type is Ringlab's own or not installed
     */
    static List<ThirdPartyBundle> of(PipelineDTO pipeline, List<ElementDescriptorDTO> installed,
            BiFunction<String, String, String> location) {
        Set<String> types = new HashSet<>();
        pipeline.elements.forEach(e -> types.add(e.type));
        List<ThirdPartyBundle> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (ElementDescriptorDTO d : installed) {
            if (types.contains(d.type) && d.bundle != null && !isRinglabs(d.bundle)
                    && seen.add(d.bundle + " " + d.bundleVersion)) {
                out.add(new ThirdPartyBundle(d.bundle, d.bundleVersion, location.apply(d.bundle, d.bundleVersion)));
            }
        }
        return out;
    }

    /**
     * @param elementBundles the bundles of the pipeline's element types that are not Ringlab's own ({@link #of})
     * @param providers the bundles registering a service of the given class
     * @return {@code elementBundles}, then the providers of {@link #KIND_PROVIDERS} that are not Ringlab's own (not
     *         {@link #required}), each bundle once
     */
    static List<ThirdPartyBundle> forAChild(List<ThirdPartyBundle> elementBundles,
            java.util.function.Function<String, List<ThirdPartyBundle>> providers) {
        List<ThirdPartyBundle> out = new ArrayList<>(elementBundles);
        Set<String> seen = new HashSet<>();
        elementBundles.forEach(b -> seen.add(b.label()));
        for (String service : KIND_PROVIDERS) {
            for (ThirdPartyBundle b : providers.apply(service)) {
                if (!isRinglabs(b.symbolicName()) && seen.add(b.label())) {
                    out.add(new ThirdPartyBundle(b.symbolicName(), b.version(), b.location(), false));
                }
            }
        }
        return out;
    }

    /** @return the symbolic name and version, as the log shows them */
    String label() {
        return symbolicName + " " + version;
    }
}

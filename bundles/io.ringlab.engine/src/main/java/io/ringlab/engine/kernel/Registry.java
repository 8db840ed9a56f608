package io.ringlab.engine.kernel;

import java.util.List;

import io.ringlab.buffer.api.BufferPoolProvider;
import io.ringlab.sim.api.CostProfile;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;

/**
 * Where the kernel finds factories, pool kinds, other providers and cost profiles. The OSGi component implements it over
 * the service registry; unit tests implement it with plain maps. Implementations are thread-safe.
 */
public interface Registry {

    /** @return the factory of a type, or null. */
    ElementFactory factory(String type);

    /** @return descriptors of the installed types, with bundle and version filled in. */
    List<ElementDescriptorDTO> types();

    /** @return the provider of a pool kind, or null. */
    BufferPoolProvider poolProvider(String kind);

    /** @return the installed pool kinds. */
    List<String> poolKinds();

    /**
     * @return a provider service of {@code type} whose {@code kindProperty} is {@code kind}, or null
     */
    <S> S provider(Class<S> type, String kindProperty, String kind);

    /** @return the kinds installed for a provider type. */
    List<String> providerKinds(Class<?> type, String kindProperty);

    /**
     * @param name a profile name, or a path to a profile file
     * @return the profile
     * @throws IllegalArgumentException if there is none, listing the known names
     */
    CostProfile profile(String name);

    /**
     * @param type an element type id
     * @return "symbolicName:version" of the bundle providing it, or null for types outside OSGi
     */
    String bundleOf(String type);

    /**
     * @param type an element type id
     * @return installation-wide default values (pipeline text) for the type's properties, from ConfigAdmin PID
     *         {@code ringlab.element.<type>}; they replace the descriptor's defaults and yield to the pipeline file's values
     */
    default java.util.Map<String, String> installationDefaults(String type) {
        return java.util.Map.of();
    }

    /**
     * @param service a provider service a run obtained (a pool kind, queue limits, a qdisc)
     * @return "symbolicName:version" of the bundle that implements it, or null outside OSGi
     */
    default String bundleOfService(Object service) {
        return null;
    }

    /** @return the symbolic name and version of bundles whose services a run may use besides factories (engine, pools). */
    java.util.Map<String, String> coreBundles();
}

package io.ringlab.engine.kernel;

import java.util.List;

import io.ringlab.buffer.api.BufferPoolProvider;
import io.ringlab.pipeline.format.MetricUnits;
import io.ringlab.sim.api.CostProfile;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.MetricDescriptorDTO;

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

    /** @return what an installed pool kind models, as its provider says; "" for none or a kind not installed */
    default String poolDescription(String kind) {
        BufferPoolProvider p = poolProvider(kind);
        return p == null ? "" : p.description();
    }

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

    /**
     * @param type an element type id
     * @param version the providing bundle's version, or null for the newest installed
     * @return the factory, or null when that type (or that version of it) is not installed
     */
    default ElementFactory factory(String type, String version) {
        return version == null || version.equals(version(type)) ? factory(type) : null;
    }

    /**
     * @param type an element type id
     * @return the installed versions of the bundles providing it, newest first; empty when none
     */
    default java.util.List<String> versions(String type) {
        String v = version(type);
        return v == null ? java.util.List.of() : java.util.List.of(v);
    }

    /**
     * @param type an element type id
     * @return the version of the bundle providing its newest factory, or null when the type is not installed or comes from
     *         no bundle
     */
    default String version(String type) {
        String b = bundleOf(type);
        return b == null ? null : b.substring(b.lastIndexOf(':') + 1);
    }

    /**
     * @param src a factory's descriptor, shared by the factory and never changed
     * @param bundle the providing bundle's symbolic name
     * @param version its version
     * @return a copy of the descriptor, with the bundle and version filled in, as {@link #types()} lists it
     */
    static ElementDescriptorDTO withBundle(ElementDescriptorDTO src, String bundle, String version) {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = src.type;
        d.category = src.category;
        d.summary = src.summary;
        d.description = src.description;
        d.ports = new java.util.ArrayList<>(src.ports);
        d.properties = new java.util.ArrayList<>(src.properties);
        describeMetrics(src, d);
        d.modelPage = src.modelPage;
        d.bundle = bundle;
        d.bundleVersion = version;
        return d;
    }

    /**
     * Fills a listed type's metric names and metric descriptors, each from the other when the factory gave only one,
     * and each descriptor's unit from its name's suffix ({@link MetricUnits}) when the factory gave none; the engine's
     * CPU metrics ({@link Simulation#CPU_METRICS}) come last.
     */
    private static void describeMetrics(ElementDescriptorDTO src, ElementDescriptorDTO d) {
        d.metrics = new java.util.ArrayList<>(src.metrics);
        d.metricDescriptors = new java.util.ArrayList<>();
        for (MetricDescriptorDTO m : src.metricDescriptors) {
            MetricDescriptorDTO c = new MetricDescriptorDTO(m.kind, m.name, m.description);
            c.unit = m.unit != null ? m.unit : MetricUnits.unitOf(m.name);
            c.ethtool = m.ethtool;
            c.ethtoolSource = m.ethtoolSource;
            c.canvas = m.canvas;
            c.capacity = m.capacity;
            d.metricDescriptors.add(c);
            if (src.metrics.isEmpty() && !m.name.contains("<")) {
                d.metrics.add(m.name);
            }
        }
        if (src.metricDescriptors.isEmpty()) {
            for (String name : src.metrics) {
                MetricDescriptorDTO c = new MetricDescriptorDTO(null, name, null);
                c.unit = MetricUnits.unitOf(name);
                d.metricDescriptors.add(c);
            }
        }
        for (MetricDescriptorDTO m : Simulation.CPU_METRICS) { // the engine's own, for any element on a core
            if (d.metricDescriptors.stream().noneMatch(e -> e.name.equals(m.name))) {
                MetricDescriptorDTO c = new MetricDescriptorDTO(m.kind, m.name, m.unit, m.description);
                c.unit = c.unit != null ? c.unit : MetricUnits.unitOf(m.name);
                d.metricDescriptors.add(c);
                if (!d.metrics.contains(m.name)) {
                    d.metrics.add(m.name);
                }
            }
        }
    }

    /**
     * @param type an element type id
     * @param version a version of its bundle, or null
     * @return {@code type@version} as swaps name an implementation ({@code type@unversioned} outside a bundle)
     */
    static String implementation(String type, String version) {
        return type + "@" + (version == null ? "unversioned" : version);
    }
}

package io.ringlab.engine.kernel;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.Attributes;
import java.util.jar.Manifest;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

import io.ringlab.buffer.api.BufferPoolProvider;
import io.ringlab.sim.api.CostProfile;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.engine.kernel.profile.CostProfileImpl;

/**
 * A {@link Registry} without a framework: services registered by hand, then the Declarative Services components of the
 * bundles on a class path, which it creates itself the way SCR would for a component with no references.
 * <p>
 * <b>Discovery.</b> Every {@code META-INF/MANIFEST.MF} the class loader finds with a {@code Service-Component} header is a
 * bundle; each component XML it names (as bnd writes them) gives the component's implementation class, the interfaces it
 * provides and its properties. A component is created, with its public no-argument constructor, the first time a lookup
 * needs it (element factories when the types are listed), and once: one instance serves all its interfaces. A component
 * SCR could not create without a framework (a mandatory reference, an activate method, a required configuration, a
 * component factory) is never created; register such an implementation by hand. Lookups take the services registered
 * by hand first, then the bundles in class-path order. Cost profiles: by hand, then {@code profiles/NAME.profile} on the
 * class path (the first wins), or a file for a name ending in {@code .profile} or holding a {@code /}.
 * <p>
 * Register everything before the first lookup; afterwards lookups are thread-safe (parallel runs).
 */
public class ClassPathRegistry implements Registry {

    /** A component found on the class path. */
    private record Component(String bundle, String implementation, List<String> provides, Map<String, List<String>> properties,
            String unsupported) {

        boolean provides(Class<?> type, String property, String value) {
            return unsupported == null && provides.contains(type.getName())
                    && (property == null || properties.getOrDefault(property, List.of()).contains(value));
        }
    }

    /** A service registered by hand: it serves lookups of its kind whatever service property they name. */
    private record Registered(Class<?> type, String kind, Object service) {
    }

    /** What discovery found on a class path: its components and the engine's version. */
    private record Discovery(List<Component> components, String engineVersion) {
    }

    /** Discoveries by class loader: a class path is read once per JVM, however many registries are built on it. */
    private static final Map<ClassLoader, Discovery> DISCOVERED = new java.util.WeakHashMap<>();

    private final ClassLoader loader;
    private final Map<String, ElementFactory> factories = new LinkedHashMap<>();
    private final List<Registered> services = new ArrayList<>();
    private final List<String> registeredProfiles = new ArrayList<>();
    private final List<Component> components;
    private final Map<Component, Object> created = new ConcurrentHashMap<>();
    private final Map<Object, String> bundles = Collections.synchronizedMap(new IdentityHashMap<>());
    private final Map<String, CostProfile> profiles = new ConcurrentHashMap<>();
    private final String engineVersion;

    /**
     * @param loader where to discover bundles and profiles; {@code null} for none: only what is registered by hand
     * @throws IllegalStateException if a bundle's manifest or component description cannot be read, naming it
     */
    public ClassPathRegistry(ClassLoader loader) {
        this.loader = loader;
        Discovery d = new Discovery(List.of(), "standalone");
        if (loader != null) {
            synchronized (DISCOVERED) {
                d = DISCOVERED.get(loader);
                if (d == null) {
                    d = discover(loader);
                    DISCOVERED.put(loader, d);
                }
            }
        }
        this.components = d.components;
        this.engineVersion = d.engineVersion;
    }

    /**
     * Registers an element factory under its descriptor's type, before any discovered factory of that type.
     *
     * @param factory the factory; must not be {@code null}
     * @return this registry
     */
    public ClassPathRegistry element(ElementFactory factory) {
        factories.put(factory.descriptor().type, factory);
        return this;
    }

    /**
     * Registers a service of {@code type} for lookups of {@code kind}, whatever service property they name, before any
     * discovered one.
     *
     * @param type the service interface ({@code BufferPoolProvider}, {@code QueueLimitsProvider}, ...)
     * @param kind the kind it serves
     * @param service the service; must not be {@code null}
     * @param <S> the service type
     * @return this registry
     */
    public <S> ClassPathRegistry provider(Class<S> type, String kind, S service) {
        services.add(0, new Registered(type, kind, type.cast(service)));
        return this;
    }

    /**
     * Registers a cost profile by name, before any file or class-path profile of that name.
     *
     * @param name the name pipelines give in {@code profile = NAME}
     * @param text the profile's text (see {@link CostProfileImpl})
     * @return this registry
     * @throws IllegalArgumentException naming the line of a malformed or unsourced constant
     */
    public ClassPathRegistry profile(String name, String text) {
        try {
            profiles.put(name, CostProfileImpl.read(name, new StringReader(text)));
        } catch (IOException e) {
            throw new IllegalStateException(e); // a StringReader does not fail
        }
        registeredProfiles.add(name);
        return this;
    }

    // ---------------------------------------------------------------- discovery

    private static Discovery discover(ClassLoader loader) {
        List<Component> components = new ArrayList<>();
        String engineVersion = "standalone";
        Enumeration<URL> manifests;
        try {
            manifests = loader.getResources("META-INF/MANIFEST.MF");
        } catch (IOException e) {
            throw new IllegalStateException("the class path's manifests could not be listed: " + e, e);
        }
        while (manifests.hasMoreElements()) {
            URL url = manifests.nextElement();
            Attributes main;
            try (InputStream in = url.openStream()) {
                main = new Manifest(in).getMainAttributes();
            } catch (IOException e) {
                throw new IllegalStateException("manifest " + url + " could not be read: " + e, e);
            }
            String bsn = main.getValue("Bundle-SymbolicName");
            if (bsn == null) {
                continue;
            }
            bsn = bsn.split(";")[0].strip();
            String version = main.getValue("Bundle-Version");
            String bundle = bsn + ":" + (version == null ? "0.0.0" : version.strip());
            if (bsn.equals("io.ringlab.engine") && version != null) {
                engineVersion = version.strip();
            }
            String header = main.getValue("Service-Component");
            if (header == null) {
                continue;
            }
            for (String path : header.split(",")) {
                path = path.strip();
                Component c = path.isEmpty() ? null : readComponent(bundle, url, path);
                if (c != null) {
                    components.add(c);
                }
            }
        }
        return new Discovery(List.copyOf(components), engineVersion);
    }

    /** @return the component a description declares, or null when it provides no service */
    private static Component readComponent(String bundle, URL manifest, String path) {
        URL xml;
        Document doc;
        try {
            String m = manifest.toString(); // a file: or jar: URL ending in META-INF/MANIFEST.MF
            xml = java.net.URI.create(m.substring(0, m.length() - "META-INF/MANIFEST.MF".length()) + path).toURL();
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            try (InputStream in = xml.openStream()) {
                doc = f.newDocumentBuilder().parse(in);
            }
        } catch (IOException | IllegalArgumentException | ParserConfigurationException | SAXException e) {
            throw new IllegalStateException("bundle " + bundle + ": component " + path + " could not be read: " + e, e);
        }
        Element root = doc.getDocumentElement();
        String implementation = null;
        List<String> provides = new ArrayList<>();
        Map<String, List<String>> properties = new LinkedHashMap<>();
        String unsupported = null;
        if (!root.getAttribute("activate").isEmpty()) {
            unsupported = "it has an activate method";
        } else if (root.getAttribute("configuration-policy").equals("require")) {
            unsupported = "it requires a configuration";
        } else if (!root.getAttribute("factory").isEmpty()) {
            unsupported = "it is a component factory";
        }
        for (Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (!(n instanceof Element e)) {
                continue;
            }
            switch (e.getLocalName() == null ? e.getTagName() : e.getLocalName()) {
                case "implementation" -> implementation = e.getAttribute("class");
                case "service" -> {
                    NodeList l = e.getElementsByTagNameNS("*", "provide");
                    for (int i = 0; i < l.getLength(); i++) {
                        provides.add(((Element) l.item(i)).getAttribute("interface"));
                    }
                }
                case "property" -> {
                    List<String> values = new ArrayList<>();
                    if (e.hasAttribute("value")) {
                        values.add(e.getAttribute("value"));
                    } else {
                        for (String line : e.getTextContent().split("\n")) {
                            if (!line.isBlank()) {
                                values.add(line.strip());
                            }
                        }
                    }
                    properties.put(e.getAttribute("name"), values);
                }
                case "reference" -> {
                    String cardinality = e.getAttribute("cardinality");
                    if ((cardinality.isEmpty() || cardinality.startsWith("1")) && unsupported == null) {
                        unsupported = "it needs a service " + e.getAttribute("interface");
                    }
                }
                default -> {
                    // properties files, factory properties: nothing a lookup by kind reads
                }
            }
        }
        return implementation == null || provides.isEmpty() ? null
                : new Component(bundle, implementation, List.copyOf(provides), Map.copyOf(properties), unsupported);
    }

    /** @return the component's single instance, created on first use */
    private Object instance(Component c) {
        return created.computeIfAbsent(c, k -> {
            try {
                Object o = Class.forName(k.implementation, true, loader).getDeclaredConstructor().newInstance();
                bundles.put(o, k.bundle);
                return o;
            } catch (ReflectiveOperationException | LinkageError e) {
                throw new IllegalStateException("bundle " + k.bundle + ": component " + k.implementation
                        + " could not be created without a framework: " + e, e);
            }
        });
    }

    private <S> S discovered(Class<S> type, String property, String value) {
        for (Component c : components) {
            if (c.provides(type, property, value)) {
                return type.cast(instance(c));
            }
        }
        return null;
    }

    private List<String> discoveredKinds(Class<?> type, String property) {
        List<String> kinds = new ArrayList<>();
        for (Component c : components) {
            if (c.provides(type, null, null)) {
                kinds.addAll(c.properties.getOrDefault(property, List.of()));
            }
        }
        return kinds;
    }

    // ---------------------------------------------------------------- Registry

    @Override
    public ElementFactory factory(String type) {
        ElementFactory f = factories.get(type);
        return f != null ? f : discovered(ElementFactory.class, ElementFactory.TYPE, type);
    }

    @Override
    public List<ElementDescriptorDTO> types() {
        Map<String, ElementDescriptorDTO> byType = new LinkedHashMap<>();
        for (ElementFactory f : factories.values()) { // listed as any type is: units from suffixes, the CPU account
            byType.putIfAbsent(f.descriptor().type, Registry.withBundle(f.descriptor(), null, null));
        }
        for (String type : discoveredKinds(ElementFactory.class, ElementFactory.TYPE)) {
            if (!byType.containsKey(type)) {
                ElementFactory f = discovered(ElementFactory.class, ElementFactory.TYPE, type);
                String b = bundles.get(f);
                int colon = b.lastIndexOf(':');
                byType.put(type, Registry.withBundle(f.descriptor(), b.substring(0, colon), b.substring(colon + 1)));
            }
        }
        List<ElementDescriptorDTO> out = new ArrayList<>(byType.values());
        out.sort(Comparator.comparing((ElementDescriptorDTO d) -> String.valueOf(d.category)).thenComparing(d -> d.type));
        return out;
    }

    @Override
    public BufferPoolProvider poolProvider(String kind) {
        return provider(BufferPoolProvider.class, BufferPoolProvider.KIND, kind);
    }

    @Override
    public List<String> poolKinds() {
        return providerKinds(BufferPoolProvider.class, BufferPoolProvider.KIND);
    }

    @Override
    public <S> S provider(Class<S> type, String kindProperty, String kind) {
        for (Registered r : services) {
            if (r.type == type && r.kind.equals(kind)) {
                return type.cast(r.service);
            }
        }
        return discovered(type, kindProperty, kind);
    }

    @Override
    public List<String> providerKinds(Class<?> type, String kindProperty) {
        TreeSet<String> kinds = new TreeSet<>(discoveredKinds(type, kindProperty));
        for (Registered r : services) {
            if (r.type == type) {
                kinds.add(r.kind);
            }
        }
        return new ArrayList<>(kinds);
    }

    @Override
    public CostProfile profile(String name) {
        return CostProfileImpl.find(name, profiles, path -> {
            URL url = loader == null ? null : loader.getResource(path);
            return url == null ? null : new CostProfileImpl.Entry(url.toString(), url);
        }, () -> "unknown cost profile " + name + ": no profiles/" + name + ".profile on the class path"
                + (registeredProfiles.isEmpty() ? "" : "; registered: " + String.join(", ", registeredProfiles)));
    }

    @Override
    public String bundleOf(String type) {
        return factories.containsKey(type) ? null : bundleOfService(factory(type));
    }

    @Override
    public String bundleOfService(Object service) {
        return service == null ? null : bundles.get(service);
    }

    @Override
    public Map<String, String> coreBundles() {
        return Map.of("io.ringlab.engine", engineVersion);
    }
}

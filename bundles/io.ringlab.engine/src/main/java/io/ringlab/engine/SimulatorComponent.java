package io.ringlab.engine;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.FrameworkUtil;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.metatype.MetaTypeProvider;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;

import io.ringlab.buffer.api.BufferPoolProvider;
import io.ringlab.engine.kernel.CostProfileImpl;
import io.ringlab.engine.kernel.PipelineBuilder;
import io.ringlab.engine.kernel.Registry;
import io.ringlab.engine.kernel.RunImpl;
import io.ringlab.sim.api.CostProfile;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.RunState;
import io.ringlab.sim.api.SimulationRun;
import io.ringlab.sim.api.Simulator;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;

/**
 * The {@link Simulator} service: tracks element factories and pool kinds in the service registry, finds cost profiles in
 * bundles ({@code profiles/<name>.profile}) or files, and builds runs. When a factory's service goes away (its bundle is
 * stopped, updated or uninstalled), every active run that uses the type is ended with an error that names the bundle.
 * <p>
 * Thread-safe.
 */
@Component(service = Simulator.class, immediate = true)
public class SimulatorComponent implements Simulator, Registry {

    private record Factory(ElementFactory factory, String bundle, String version) {
    }

    private final Map<String, Factory> factories = new ConcurrentHashMap<>();
    private final Map<String, BufferPoolProvider> pools = new ConcurrentHashMap<>();
    private final Map<String, CostProfile> profiles = new ConcurrentHashMap<>();
    private final List<RunImpl> active = new CopyOnWriteArrayList<>();
    private final Map<String, ServiceRegistration<MetaTypeProvider>> metatypes = new ConcurrentHashMap<>();
    private volatile BundleContext context;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    volatile ConfigurationAdmin configurationAdmin;

    @Activate
    void activate(BundleContext bc) {
        this.context = bc;
        for (Map.Entry<String, Factory> e : factories.entrySet()) {
            publishMetaType(e.getKey(), e.getValue().factory);
        }
    }

    @Deactivate
    void deactivate() {
        for (RunImpl run : active) {
            run.abort("the Ringlab engine (bundle io.ringlab.engine) is stopping");
        }
        context = null;
        for (ServiceRegistration<MetaTypeProvider> r : metatypes.values()) {
            try {
                r.unregister();
            } catch (IllegalStateException alreadyGone) {
                // the framework unregisters a stopping bundle's services itself
            }
        }
        metatypes.clear();
    }

    /** Publishes the type's properties as a Metatype OCD under PID {@code ringlab.element.<type>}. */
    private void publishMetaType(String type, ElementFactory f) {
        BundleContext bc = context;
        if (bc == null || metatypes.containsKey(type)) {
            return;
        }
        Hashtable<String, Object> props = new Hashtable<>();
        props.put(MetaTypeProvider.METATYPE_PID, ElementMetaType.PID_PREFIX + type);
        props.put(ElementFactory.TYPE, type);
        metatypes.put(type, bc.registerService(MetaTypeProvider.class, new ElementMetaType(f.descriptor()), props));
    }

    private void withdrawMetaType(String type) {
        ServiceRegistration<MetaTypeProvider> r = metatypes.remove(type);
        if (r != null) {
            try {
                r.unregister();
            } catch (IllegalStateException alreadyGone) {
                // engine bundle stopping
            }
        }
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addFactory(ElementFactory f, ServiceReference<ElementFactory> ref) {
        Object type = ref.getProperty(ElementFactory.TYPE);
        if (!(type instanceof String t)) {
            return;
        }
        Bundle b = ref.getBundle();
        factories.put(t, new Factory(f, b.getSymbolicName(), b.getVersion().toString()));
        publishMetaType(t, f);
    }

    void removeFactory(ElementFactory f, ServiceReference<ElementFactory> ref) {
        Object type = ref.getProperty(ElementFactory.TYPE);
        if (!(type instanceof String t)) {
            return;
        }
        Factory gone = factories.get(t);
        if (gone == null || gone.factory != f) {
            return;
        }
        factories.remove(t, gone);
        withdrawMetaType(t);
        for (RunImpl run : active) {
            if (run.types().contains(t)) {
                run.abort("bundle " + gone.bundle + " " + gone.version + " went away (stopped, updated or uninstalled) while the"
                        + " run used its element type " + t);
            }
        }
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addPool(BufferPoolProvider p, Map<String, Object> props) {
        if (props.get(BufferPoolProvider.KIND) instanceof String kind) {
            pools.put(kind, p);
        }
    }

    void removePool(BufferPoolProvider p, Map<String, Object> props) {
        if (props.get(BufferPoolProvider.KIND) instanceof String kind) {
            pools.remove(kind, p);
        }
    }

    // ------------------------------------------------------------ Simulator

    @Override
    public List<ElementDescriptorDTO> elementTypes() {
        return types();
    }

    @Override
    public List<String> poolKinds() {
        return new ArrayList<>(new TreeSet<>(pools.keySet()));
    }

    @Override
    public SimulationRun prepare(PipelineDTO pipeline, RunOptionsDTO options) throws PipelineException {
        RunImpl run = new PipelineBuilder(this).build(pipeline, options);
        active.add(run);
        run.onDone(() -> active.remove(run));
        return run;
    }

    /** @return runs that are prepared or running now. */
    public List<SimulationRun> activeRuns() {
        List<SimulationRun> l = new ArrayList<>();
        for (RunImpl r : active) {
            RunState s = r.state();
            if (s == RunState.READY || s == RunState.RUNNING || s == RunState.PAUSED) {
                l.add(r);
            }
        }
        return l;
    }

    // ------------------------------------------------------------ Registry

    @Override
    public ElementFactory factory(String type) {
        Factory f = factories.get(type);
        return f == null ? null : f.factory;
    }

    @Override
    public List<ElementDescriptorDTO> types() {
        List<ElementDescriptorDTO> out = new ArrayList<>();
        for (Map.Entry<String, Factory> e : factories.entrySet()) {
            ElementDescriptorDTO src = e.getValue().factory.descriptor();
            ElementDescriptorDTO d = new ElementDescriptorDTO();
            d.type = src.type;
            d.category = src.category;
            d.summary = src.summary;
            d.description = src.description;
            d.ports = new ArrayList<>(src.ports);
            d.properties = new ArrayList<>(src.properties);
            d.metrics = new ArrayList<>(src.metrics);
            d.bundle = e.getValue().bundle;
            d.bundleVersion = e.getValue().version;
            out.add(d);
        }
        out.sort(Comparator.comparing((ElementDescriptorDTO d) -> d.category).thenComparing(d -> d.type));
        return out;
    }

    @Override
    public BufferPoolProvider poolProvider(String kind) {
        return pools.get(kind);
    }

    @Override
    public <S> S provider(Class<S> type, String kindProperty, String kind) {
        BundleContext bc = context;
        if (bc == null) {
            return null;
        }
        try {
            String value = kind.replace("\\", "\\\\").replace("*", "\\*").replace("(", "\\(").replace(")", "\\)");
            List<ServiceReference<S>> refs = new ArrayList<>(bc.getServiceReferences(type, "(" + kindProperty + "=" + value + ")"));
            // highest ranking first, then the oldest service: the same installation always gives the same provider
            refs.sort(java.util.Collections.reverseOrder());
            for (ServiceReference<S> r : refs) {
                S s = bc.getService(r);
                if (s != null) {
                    return s;
                }
            }
        } catch (InvalidSyntaxException e) {
            throw new IllegalArgumentException("kind=" + kind + " is not a valid kind name");
        }
        return null;
    }

    @Override
    public List<String> providerKinds(Class<?> type, String kindProperty) {
        Set<String> kinds = new TreeSet<>();
        try {
            for (ServiceReference<?> r : context.getServiceReferences(type, null)) {
                if (r.getProperty(kindProperty) instanceof String k) {
                    kinds.add(k);
                }
            }
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException(e);
        }
        return new ArrayList<>(kinds);
    }

    @Override
    public CostProfile profile(String name) {
        CostProfile cached = profiles.get(name);
        if (cached != null) {
            return cached;
        }
        CostProfile p;
        try {
            if (name.endsWith(".profile") || name.contains("/")) {
                Path file = Path.of(name);
                if (!Files.isRegularFile(file)) {
                    throw new IllegalArgumentException("cost profile file " + name + " does not exist");
                }
                try (Reader r = Files.newBufferedReader(file)) {
                    p = CostProfileImpl.read(name, r);
                }
            } else {
                p = null;
                for (Bundle b : context.getBundles()) {
                    URL url = b.getEntry("profiles/" + name + ".profile");
                    if (url != null) {
                        try (Reader r = new InputStreamReader(url.openStream(), StandardCharsets.UTF_8)) {
                            p = CostProfileImpl.read(b.getSymbolicName() + "/profiles/" + name + ".profile", r);
                        }
                        break;
                    }
                }
                if (p == null) {
                    throw new IllegalArgumentException("unknown cost profile " + name + "; installed profiles: "
                            + String.join(", ", profileNames()));
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("cost profile " + name + " could not be read: " + e.getMessage());
        }
        profiles.put(name, p);
        return p;
    }

    /** @return the names of the profiles bundles ship. */
    public List<String> profileNames() {
        Set<String> names = new TreeSet<>();
        for (Bundle b : context.getBundles()) {
            Enumeration<String> e = b.getEntryPaths("profiles/");
            while (e != null && e.hasMoreElements()) {
                String path = e.nextElement();
                if (path.endsWith(".profile")) {
                    names.add(path.substring("profiles/".length(), path.length() - ".profile".length()));
                }
            }
        }
        return new ArrayList<>(names);
    }

    @Override
    public Map<String, String> installationDefaults(String type) {
        ConfigurationAdmin cm = configurationAdmin;
        if (cm == null) {
            return Map.of();
        }
        try {
            Configuration[] configs = cm.listConfigurations("(service.pid=" + ElementMetaType.PID_PREFIX + type + ")");
            if (configs == null || configs.length == 0 || configs[0].getProperties() == null) {
                return Map.of();
            }
            Map<String, String> values = new TreeMap<>();
            Dictionary<String, Object> d = configs[0].getProperties();
            for (Enumeration<String> keys = d.keys(); keys.hasMoreElements();) {
                String k = keys.nextElement();
                if (!k.startsWith("service.") && !k.startsWith("felix.") && !k.startsWith("component.")) {
                    values.put(k, String.valueOf(d.get(k)));
                }
            }
            return values;
        } catch (IOException | InvalidSyntaxException e) {
            throw new IllegalArgumentException("ConfigAdmin PID " + ElementMetaType.PID_PREFIX + type + " could not be read: "
                    + e.getMessage());
        }
    }

    @Override
    public String bundleOfService(Object service) {
        Bundle b = FrameworkUtil.getBundle(service.getClass());
        return b == null ? null : b.getSymbolicName() + ":" + b.getVersion();
    }

    @Override
    public String bundleOf(String type) {
        Factory f = factories.get(type);
        return f == null ? null : f.bundle + ":" + f.version;
    }

    @Override
    public Map<String, String> coreBundles() {
        Map<String, String> m = new TreeMap<>();
        Bundle self = context.getBundle();
        m.put(self.getSymbolicName(), self.getVersion().toString());
        return m;
    }
}

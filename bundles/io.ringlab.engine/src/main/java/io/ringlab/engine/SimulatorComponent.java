package io.ringlab.engine;

import java.io.IOException;
import java.net.URL;
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
import org.osgi.framework.Version;
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
import io.ringlab.engine.kernel.profile.CostProfileImpl;
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

    private record Factory(ElementFactory factory, String bundle, Version version, long bundleId) {
    }

    /** How long a run whose element type lost its only factory waits for a replacement (a bundle update) before it ends. */
    static final long REPLACEMENT_WAIT_MILLIS = 30_000;
    /** How long the thread unregistering a factory waits for a run's engine to reach a safe point. */
    static final long SAFE_POINT_WAIT_MILLIS = 10_000;

    /** Type id to its factories, newest version first (several versions of a bundle may be installed side by side). */
    private final Map<String, List<Factory>> factories = new ConcurrentHashMap<>();
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
        for (Map.Entry<String, List<Factory>> e : factories.entrySet()) {
            Factory newest = newest(e.getKey());
            if (newest != null) {
                publishMetaType(e.getKey(), newest.factory);
            }
        }
        bc.addBundleListener(uninstalls);
    }

    /** Bundle id to the types whose only factory it withdrew (for {@link #uninstalls}). */
    private final Map<Long, Set<String>> gone = new ConcurrentHashMap<>();

    /**
     * Ends the held runs at once when the bundle whose factory they wait for is uninstalled, or stopped for good (a
     * persistent stop; an update stops the bundle transiently, so it stays persistently started and a replacement comes).
     * Synchronous, so that the decision is taken before the bundle's next state.
     */
    private final org.osgi.framework.SynchronousBundleListener uninstalls = event -> {
        int type = event.getType();
        Bundle b = event.getBundle();
        String how;
        if (type == org.osgi.framework.BundleEvent.UNINSTALLED) {
            how = "was uninstalled";
        } else if (type == org.osgi.framework.BundleEvent.STOPPED && !persistentlyStarted(b)) {
            how = "was stopped (or is being uninstalled)"; // an uninstall stops the bundle persistently first
        } else {
            return;
        }
        Set<String> types = gone.remove(b.getBundleId());
        if (types == null) {
            return;
        }
        for (RunImpl run : active) {
            for (String t : types) {
                if (run.holding(t)) {
                    run.abort("bundle " + b.getSymbolicName() + " " + b.getVersion() + " " + how + " while the run used its"
                            + " element type " + t + "; the run ends");
                }
            }
        }
    };

    private static boolean persistentlyStarted(Bundle b) {
        try {
            org.osgi.framework.startlevel.BundleStartLevel sl = b.adapt(org.osgi.framework.startlevel.BundleStartLevel.class);
            return sl != null && sl.isPersistentlyStarted();
        } catch (IllegalStateException | SecurityException e) {
            return false; // uninstalled meanwhile
        }
    }

    private Factory newest(String type) {
        List<Factory> l = factories.get(type);
        if (l == null) {
            return null;
        }
        synchronized (l) {
            return l.isEmpty() ? null : l.get(0);
        }
    }

    @Deactivate
    void deactivate() {
        if (context != null) {
            context.removeBundleListener(uninstalls);
        }
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

    /**
     * A factory arrived. When it is the newest version of its type, runs that use an older version swap to it at their
     * next safe point (a new version dropped into plugins/ or installed from the console: swap and continue), and runs
     * holding elements of the type for a replacement (a bundle update) go on with it.
     */
    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addFactory(ElementFactory f, ServiceReference<ElementFactory> ref) {
        Object type = ref.getProperty(ElementFactory.TYPE);
        if (!(type instanceof String t)) {
            return;
        }
        Bundle b = ref.getBundle();
        Factory added = new Factory(f, b.getSymbolicName(), b.getVersion(), b.getBundleId());
        List<Factory> l = factories.computeIfAbsent(t, k -> new ArrayList<>());
        boolean newest;
        synchronized (l) {
            l.add(added);
            l.sort(Comparator.comparing(Factory::version).reversed().thenComparing(Factory::bundleId, Comparator.reverseOrder()));
            newest = l.get(0) == added;
        }
        if (!newest) {
            return;
        }
        withdrawMetaType(t);
        publishMetaType(t, f);
        String implementation = Registry.implementation(t, added.version.toString());
        for (RunImpl run : active) {
            if (run.holding(t)) {
                run.replacementArrived(t);
                continue;
            }
            RunState s = run.state();
            if (s != RunState.RUNNING && s != RunState.PAUSED) {
                continue;
            }
            run.implementations().forEach((element, impl) -> {
                if (impl.startsWith(t + "@") && !impl.equals(implementation)) {
                    run.swap(element, t, added.version.toString());
                }
            });
        }
    }

    /**
     * A factory is going away. Runs whose elements use it swap, while its bundle is still active: to the newest other
     * installed version of the type if there is one; otherwise their elements' state is taken now and the run waits for a
     * replacement (a bundle update brings one), for {@link #REPLACEMENT_WAIT_MILLIS} at most; an uninstall, or no
     * replacement in time, ends the run with its results and invariants. A run not started yet is ended at once.
     */
    void removeFactory(ElementFactory f, ServiceReference<ElementFactory> ref) {
        Object type = ref.getProperty(ElementFactory.TYPE);
        if (!(type instanceof String t)) {
            return;
        }
        List<Factory> l = factories.get(t);
        if (l == null) {
            return;
        }
        Factory removed = null;
        Factory next;
        synchronized (l) {
            for (Factory x : l) {
                if (x.factory == f) {
                    removed = x;
                }
            }
            if (removed == null) {
                return;
            }
            l.remove(removed);
            next = l.isEmpty() ? null : l.get(0);
        }
        withdrawMetaType(t);
        if (next != null) {
            publishMetaType(t, next.factory);
        }
        String implementation = Registry.implementation(t, removed.version.toString());
        String what = "bundle " + removed.bundle + " " + removed.version + " went away (stopped, updated or uninstalled)"
                + " while the run used its element type " + t;
        for (RunImpl run : active) {
            List<String> users = new ArrayList<>();
            run.implementations().forEach((element, impl) -> {
                if (impl.equals(implementation)) {
                    users.add(element);
                }
            });
            if (users.isEmpty()) {
                continue;
            }
            RunState s = run.state();
            if (s == RunState.READY) {
                run.abort(what);
                continue;
            }
            if (next != null) {
                for (String element : users) {
                    try {
                        run.swap(element, t, next.version.toString()).toCompletableFuture()
                                .get(SAFE_POINT_WAIT_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS);
                    } catch (Exception e) {
                        run.abort(what + "; the swap to version " + next.version + " did not complete: " + e);
                    }
                }
            } else if (run.hold(t, SAFE_POINT_WAIT_MILLIS)) {
                gone.computeIfAbsent(removed.bundleId, k -> ConcurrentHashMap.newKeySet()).add(t);
                Thread timeout = new Thread(() -> {
                    try {
                        Thread.sleep(REPLACEMENT_WAIT_MILLIS);
                    } catch (InterruptedException e) {
                        return;
                    }
                    if (run.holding(t)) {
                        run.abort(what + ", and no replacement came within " + REPLACEMENT_WAIT_MILLIS / 1000 + " s; the run"
                                + " ends");
                    }
                }, "ringlab-replacement-wait-" + t);
                timeout.setDaemon(true);
                timeout.start();
                // a run that ends sooner (an uninstall, a stop) lets go of it at once: the sleeping thread held the run,
                // its simulation and every buffer for the 30 s, so that a storm of uninstalls in a shell kept them all
                run.completion().whenComplete((result, failure) -> timeout.interrupt());
            } else {
                run.abort(what);
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
    public String poolKindDescription(String kind) {
        return poolDescription(kind);
    }

    /**
     * Framework property: the nice value (1 to 19; 0 or unset: the normal priority) each engine thread lowers itself, and
     * the JVM's JIT compiler threads, to as it starts, on Linux. The console sets it, so that its UI thread gets the CPU
     * first (see {@code EngineNice}).
     */
    static final String ENGINE_NICE = "ringlab.engineNice";

    @Override
    public SimulationRun prepare(PipelineDTO pipeline, RunOptionsDTO options) throws PipelineException {
        RunImpl run = new PipelineBuilder(this).build(pipeline, options);
        BundleContext bc = context;
        String watchdog = bc == null ? null : bc.getProperty("ringlab.eventWatchdogMillis");
        if (watchdog != null) {
            try {
                run.defaultWatchdogMillis(Long.parseLong(watchdog.trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("framework property ringlab.eventWatchdogMillis=" + watchdog
                        + " is not a whole number of milliseconds");
            }
        }
        String nice = bc == null ? null : bc.getProperty(ENGINE_NICE);
        if (nice != null) {
            try {
                run.engineNice(Integer.parseInt(nice.trim())); // which refuses a value outside 0 to 19
            } catch (IllegalArgumentException e) { // a NumberFormatException is one too
                throw new IllegalArgumentException("framework property " + ENGINE_NICE + "=" + nice
                        + " is not a nice value: allowed 0 (the normal priority) to 19 (the lowest)");
            }
        }
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
        Factory f = newest(type);
        return f == null ? null : f.factory;
    }

    @Override
    public ElementFactory factory(String type, String version) {
        if (version == null) {
            return factory(type);
        }
        List<Factory> l = factories.get(type);
        if (l == null) {
            return null;
        }
        synchronized (l) {
            for (Factory f : l) {
                if (f.version.toString().equals(version)) {
                    return f.factory;
                }
            }
        }
        return null;
    }

    @Override
    public List<String> versions(String type) {
        List<Factory> l = factories.get(type);
        List<String> out = new ArrayList<>();
        if (l != null) {
            synchronized (l) {
                for (Factory f : l) {
                    out.add(f.version.toString());
                }
            }
        }
        return out;
    }

    @Override
    public List<ElementDescriptorDTO> types() {
        List<ElementDescriptorDTO> out = new ArrayList<>();
        for (String type : factories.keySet()) {
            Factory newest = newest(type);
            if (newest == null) {
                continue;
            }
            out.add(Registry.withBundle(newest.factory.descriptor(), newest.bundle, newest.version.toString()));
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
        return CostProfileImpl.find(name, profiles, path -> {
            for (Bundle b : context.getBundles()) {
                URL url = b.getEntry(path);
                if (url != null) {
                    return new CostProfileImpl.Entry(b.getSymbolicName() + "/" + path, url);
                }
            }
            return null;
        }, () -> "unknown cost profile " + name + "; installed profiles: " + String.join(", ", profileNames()));
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
        Factory f = newest(type);
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

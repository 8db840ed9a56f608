package io.ringlab.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.Version;
import org.osgi.framework.namespace.PackageNamespace;
import org.osgi.framework.wiring.BundleCapability;
import org.osgi.framework.wiring.BundleRequirement;
import org.osgi.framework.wiring.BundleRevision;
import org.osgi.framework.wiring.FrameworkWiring;
import org.osgi.resource.Namespace;
import org.osgi.service.component.runtime.ServiceComponentRuntime;
import org.osgi.service.component.runtime.dto.ComponentConfigurationDTO;
import org.osgi.service.component.runtime.dto.ComponentDescriptionDTO;
import org.osgi.service.component.runtime.dto.ReferenceDTO;
import org.osgi.service.component.runtime.dto.UnsatisfiedReferenceDTO;

import io.ringlab.sim.api.ElementFactory;

/**
 * Installs the bundles of plugin folders into the running framework for one command, the way {@code ringlab run FILE
 * --plugins DIR} needs them: every {@code *.jar} of the folders is installed (all first, so that they can resolve against
 * each other), then started, and the command waits until Declarative Services has their components up, in particular
 * their element factories registered, and each factory has been created once (a delayed component's service is
 * registered before its class is even loaded). A jar that is not a bundle, does not resolve, fails to start, or whose
 * components cannot be loaded (the class is missing), stay unsatisfied or fail to activate is reported by file name with
 * the component and what it misses (the requirement no installed bundle
 * provides, the reference no service satisfies, the first line of the failure), never with a stack trace; the bundles of
 * that call are then uninstalled again.
 * <p>
 * These bundles are the command's own: {@code plugins/} stays Felix fileinstall's, which installs and updates its jars for
 * the whole session. A bundle whose symbolic name and version are installed already (from {@code plugins/}, or built in)
 * is not installed twice; a note says which one is used. Thread-safe (no state besides the context).
 */
final class FrameworkPluginLoader implements PluginLoader {
    /** System or framework property: how long a command waits for the plugins' components, in seconds. */
    static final String TIMEOUT_PROPERTY = "ringlab.plugins.timeoutSeconds";
    /** Default of {@link #TIMEOUT_PROPERTY}: SCR brings a bundle's components up in milliseconds; 20 s is a hang. */
    static final long DEFAULT_TIMEOUT_SECONDS = 20;
    /** Bundle locations of plugin folders start so, apart from fileinstall's ({@code file:...}). */
    static final String LOCATION_PREFIX = "ringlab-plugins:";

    private static final String SERVICE_NAMESPACE = "osgi.service";
    private static final Pattern VERSION_RANGE = Pattern.compile(
            "\\(version>=([^)]+)\\)|\\(!\\(version>=([^)]+)\\)\\)|\\(version<=([^)]+)\\)|\\(!\\(version<=([^)]+)\\)\\)|\\(version=([^)]+)\\)");

    private final BundleContext context;
    private final Supplier<ServiceComponentRuntime> scr;
    private final long timeoutMillis;

    /**
     * @param context the context bundles are installed through
     * @param scr Declarative Services' runtime, or a supplier of {@code null} when SCR is not installed (the wait then
     *        counts the element factories each bundle declares)
     */
    FrameworkPluginLoader(BundleContext context, Supplier<ServiceComponentRuntime> scr) {
        this.context = context;
        this.scr = scr;
        String t = context.getProperty(TIMEOUT_PROPERTY);
        this.timeoutMillis = TimeUnit.SECONDS.toMillis(t == null ? DEFAULT_TIMEOUT_SECONDS : Long.parseLong(t.strip()));
    }

    @Override
    public Session install(List<Path> folders) throws PluginException {
        List<String> problems = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        List<Path> jars = jars(folders, problems);
        fail(problems, List.of());

        Map<Bundle, Path> ours = new LinkedHashMap<>();
        // bundles installed already (by fileinstall from the installation's plugins/, which starts them on its own
        // thread): used as they are, but waited for like ours, so that their element types are there when the
        // pipeline is read
        Map<Bundle, Path> theirs = new LinkedHashMap<>();
        for (Path jar : jars) {
            String[] id = identity(jar, problems);
            if (id == null) {
                continue;
            }
            Bundle same = installed(id[0], id[1]);
            if (same != null) {
                notes.add(jar + ": " + id[0] + " " + id[1] + " is installed already (" + same.getLocation()
                        + "); that bundle is used");
                theirs.putIfAbsent(same, jar);
                continue;
            }
            try (InputStream in = Files.newInputStream(jar)) {
                ours.put(context.installBundle(LOCATION_PREFIX + jar.toAbsolutePath().toUri(), in), jar);
            } catch (BundleException | IOException | IllegalStateException e) {
                problems.add(jar + ": cannot be installed: " + firstLine(e.getMessage()));
            }
        }
        fail(problems, ours.keySet());

        for (Map.Entry<Bundle, Path> e : ours.entrySet()) {
            Bundle b = e.getKey();
            if (b.getHeaders("").get(Constants.FRAGMENT_HOST) != null) {
                continue; // a fragment attaches to its host when that resolves; it is never started
            }
            try {
                b.start();
            } catch (BundleException x) {
                problems.add(e.getValue() + ": " + name(b) + (x.getType() == BundleException.RESOLVE_ERROR
                        ? " does not resolve: " + missing(b, x) : " failed to start: " + cause(x)));
            } catch (IllegalStateException | SecurityException x) {
                problems.add(e.getValue() + ": " + name(b) + " failed to start: " + firstLine(x.getMessage()));
            }
        }
        fail(problems, ours.keySet());

        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        Set<Bundle> ready = new HashSet<>();
        Map<Bundle, Path> awaited = new LinkedHashMap<>(theirs);
        awaited.putAll(ours);
        while (true) {
            List<String> waiting = new ArrayList<>();
            for (Map.Entry<Bundle, Path> e : awaited.entrySet()) {
                if (ready.contains(e.getKey())) {
                    continue;
                }
                String why = notReady(e.getKey(), problems, e.getValue());
                if (why != null) {
                    waiting.add(e.getValue() + ": " + name(e.getKey()) + ": " + why);
                } else {
                    ready.add(e.getKey());
                }
            }
            fail(problems, ours.keySet());
            if (waiting.isEmpty()) {
                break;
            }
            if (System.nanoTime() > deadline) {
                waiting.replaceAll(w -> w + " (after " + TimeUnit.MILLISECONDS.toSeconds(timeoutMillis) + " s)");
                fail(waiting, ours.keySet());
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
                fail(List.of("interrupted while waiting for the plugins' components"), ours.keySet());
            }
        }
        List<Bundle> installed = List.copyOf(ours.keySet());
        return new Session() {
            @Override
            public void close() {
                uninstall(installed);
            }

            @Override
            public List<String> notes() {
                return notes;
            }
        };
    }

    /** @return the jars of the folders, each folder's sorted by name; adds a problem for a folder that does not exist */
    private static List<Path> jars(List<Path> folders, List<String> problems) {
        List<Path> jars = new ArrayList<>();
        for (Path dir : folders) {
            if (!Files.isDirectory(dir)) {
                problems.add("--plugins " + dir + ": no such folder");
                continue;
            }
            try (Stream<Path> s = Files.list(dir)) {
                s.filter(p -> p.getFileName().toString().endsWith(".jar") && Files.isRegularFile(p)).sorted()
                        .forEach(jars::add);
            } catch (IOException e) {
                problems.add("--plugins " + dir + ": cannot be listed: " + e.getMessage());
            }
        }
        return jars;
    }

    /** @return the jar's symbolic name and version, or {@code null} with a problem added when it is not a bundle */
    private static String[] identity(Path jar, List<String> problems) {
        try (JarFile j = new JarFile(jar.toFile())) {
            Manifest m = j.getManifest();
            Attributes a = m == null ? null : m.getMainAttributes();
            String bsn = a == null ? null : a.getValue(Constants.BUNDLE_SYMBOLICNAME);
            if (bsn == null) {
                problems.add(jar + ": not an OSGi bundle (its manifest has no " + Constants.BUNDLE_SYMBOLICNAME + ")");
                return null;
            }
            String v = a.getValue(Constants.BUNDLE_VERSION);
            return new String[] {bsn.split(";", 2)[0].strip(), Version.parseVersion(v == null ? null : v.strip()).toString()};
        } catch (IOException e) {
            problems.add(jar + ": not a jar file (" + firstLine(e.getMessage()) + ")");
        } catch (IllegalArgumentException e) {
            problems.add(jar + ": its " + Constants.BUNDLE_VERSION + " is not an OSGi version (" + e.getMessage() + ")");
        }
        return null;
    }

    private Bundle installed(String bsn, String version) {
        for (Bundle b : context.getBundles()) {
            if (bsn.equals(b.getSymbolicName()) && version.equals(b.getVersion().toString())) {
                return b;
            }
        }
        return null;
    }

    /**
     * @return why the bundle's components are not all up yet, {@code null} when they are; a component that failed to
     *         activate adds a problem instead
     */
    private String notReady(Bundle b, List<String> problems, Path jar) {
        if (b.getState() != Bundle.ACTIVE) {
            return b.getHeaders("").get(Constants.FRAGMENT_HOST) != null ? null : "not active (state " + b.getState() + ")";
        }
        if (b.getHeaders("").get("Service-Component") == null) {
            return null; // no Declarative Services components; an activator registers its services inside start()
        }
        int before = problems.size();
        ServiceComponentRuntime runtime = scr.get();
        if (runtime != null) {
            var descriptions = runtime.getComponentDescriptionDTOs(b);
            if (descriptions.isEmpty()) {
                return "Declarative Services has not loaded its components yet";
            }
            for (ComponentDescriptionDTO d : descriptions) {
                if (!runtime.isComponentEnabled(d)) {
                    continue;
                }
                String missing = unloadable(b, d.implementationClass);
                if (missing != null) {
                    // SCR would register the service anyway and fail, with a trace, when the engine first asks for it
                    problems.add(jar + ": " + name(b) + ": component " + d.name + " cannot be created: " + missing);
                    continue;
                }
                var configurations = runtime.getComponentConfigurationDTOs(d);
                if (configurations.isEmpty()) {
                    if ("require".equals(d.configurationPolicy)) {
                        continue; // waits for a configuration by design (ConfigAdmin, a .cfg in plugins/)
                    }
                    return "component " + d.name + " is not set up yet";
                }
                for (ComponentConfigurationDTO c : configurations) {
                    switch (c.state) {
                        case ComponentConfigurationDTO.SATISFIED, ComponentConfigurationDTO.ACTIVE -> {
                        }
                        case ComponentConfigurationDTO.FAILED_ACTIVATION -> problems.add(jar + ": " + name(b)
                                + ": component " + d.name + " failed to activate: " + firstLine(c.failure));
                        case ComponentConfigurationDTO.UNSATISFIED_CONFIGURATION -> {
                            return "component " + d.name + " waits for its configuration";
                        }
                        default -> {
                            return "component " + d.name + " is not satisfied: " + unsatisfied(d, c);
                        }
                    }
                }
            }
        }
        if (problems.size() > before) {
            return null; // refused: nothing of it is activated
        }
        int declared = declaredFactories(b);
        int registered = registeredFactories(b);
        if (registered < declared) {
            return registered + " of the " + declared + " element factories it declares are registered";
        }
        if (runtime != null) {
            activate(b, runtime, problems, jar);
        }
        return null;
    }

    /**
     * @return why the class cannot be loaded from the bundle (it is not in the jar, or a class it needs is missing), or
     *         {@code null} when it loads
     */
    private static String unloadable(Bundle b, String className) {
        try {
            b.loadClass(className);
            return null;
        } catch (ClassNotFoundException e) {
            return "its class " + className + " is not in the jar, nor imported by it";
        } catch (LinkageError e) { // NoClassDefFoundError names the class its own class needs
            return "its class " + className + " cannot be loaded: " + e.getClass().getSimpleName() + " "
                    + firstLine(e.getMessage()).replace('/', '.');
        }
    }

    /**
     * Creates each element factory of the bundle once, as the engine will: a delayed component's service is registered
     * before its object exists, so a failing constructor or activate method shows only now; such a component is added to
     * {@code problems} with the first line of its failure.
     */
    private void activate(Bundle b, ServiceComponentRuntime runtime, List<String> problems, Path jar) {
        for (ServiceReference<ElementFactory> ref : factoryReferences(b)) {
            ElementFactory f;
            try {
                f = context.getService(ref);
            } catch (RuntimeException e) {
                f = null;
            }
            if (f != null) {
                context.ungetService(ref);
                continue;
            }
            Object component = ref.getProperty("component.name");
            String failure = "Declarative Services could not create it";
            for (ComponentDescriptionDTO d : runtime.getComponentDescriptionDTOs(b)) {
                if (!d.name.equals(component)) {
                    continue;
                }
                for (ComponentConfigurationDTO c : runtime.getComponentConfigurationDTOs(d)) {
                    if (c.state == ComponentConfigurationDTO.FAILED_ACTIVATION && c.failure != null) {
                        failure = firstLine(c.failure);
                    }
                }
            }
            problems.add(jar + ": " + name(b) + ": component " + component + " failed to activate: " + failure);
        }
    }

    private static String unsatisfied(ComponentDescriptionDTO d, ComponentConfigurationDTO c) {
        List<String> refs = new ArrayList<>();
        for (UnsatisfiedReferenceDTO u : c.unsatisfiedReferences) {
            String type = "?";
            for (ReferenceDTO r : d.references) {
                if (r.name.equals(u.name)) {
                    type = r.interfaceName;
                }
            }
            refs.add("no service " + type + (u.target == null ? "" : " matching " + u.target) + " for reference '" + u.name
                    + "'");
        }
        return refs.isEmpty() ? "state " + c.state : String.join(", ", refs);
    }

    /** @return the element factories the bundle declares it provides (bnd writes an osgi.service capability per DS service) */
    private static int declaredFactories(Bundle b) {
        BundleRevision r = b.adapt(BundleRevision.class);
        int n = 0;
        for (BundleCapability c : r == null ? List.<BundleCapability>of() : r.getDeclaredCapabilities(SERVICE_NAMESPACE)) {
            if (c.getAttributes().get("objectClass") instanceof List<?> l && l.contains(ElementFactory.class.getName())) {
                n++;
            }
        }
        return n;
    }

    private int registeredFactories(Bundle b) {
        return factoryReferences(b).size();
    }

    /** @return the element factories the bundle has registered */
    private List<ServiceReference<ElementFactory>> factoryReferences(Bundle b) {
        List<ServiceReference<ElementFactory>> refs = new ArrayList<>();
        try {
            for (ServiceReference<ElementFactory> ref : context.getServiceReferences(ElementFactory.class, null)) {
                if (ref.getBundle() == b) {
                    refs.add(ref);
                }
            }
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException(e);
        }
        return refs;
    }

    /** @return the requirements of an unresolved bundle that no installed bundle provides, or Felix's own message */
    private String missing(Bundle b, BundleException x) {
        BundleRevision r = b.adapt(BundleRevision.class);
        FrameworkWiring fw = context.getBundle(Constants.SYSTEM_BUNDLE_LOCATION).adapt(FrameworkWiring.class);
        List<String> missing = new ArrayList<>();
        if (r != null && fw != null) {
            for (BundleRequirement req : r.getDeclaredRequirements(null)) {
                if (Namespace.RESOLUTION_OPTIONAL.equals(req.getDirectives().get(Namespace.REQUIREMENT_RESOLUTION_DIRECTIVE))
                        || !fw.findProviders(req).isEmpty()) {
                    continue;
                }
                missing.add(describe(req));
            }
        }
        return missing.isEmpty() ? firstLine(x.getMessage()) : "missing " + String.join("; missing ", missing);
    }

    /** @return a requirement in the words of the manifest, with the versions installed where it is a package */
    private String describe(BundleRequirement req) {
        String filter = req.getDirectives().getOrDefault(Namespace.REQUIREMENT_FILTER_DIRECTIVE, "");
        String ns = req.getNamespace();
        if (PackageNamespace.PACKAGE_NAMESPACE.equals(ns)) {
            Matcher m = Pattern.compile("\\(osgi\\.wiring\\.package=([^)]+)\\)").matcher(filter);
            String pkg = m.find() ? m.group(1) : filter;
            Set<String> have = new TreeSet<>();
            for (Bundle other : context.getBundles()) {
                BundleRevision or = other.adapt(BundleRevision.class);
                if (or == null) {
                    continue;
                }
                for (BundleCapability c : or.getDeclaredCapabilities(PackageNamespace.PACKAGE_NAMESPACE)) {
                    if (pkg.equals(c.getAttributes().get(PackageNamespace.PACKAGE_NAMESPACE))) {
                        have.add(c.getAttributes().get(PackageNamespace.CAPABILITY_VERSION_ATTRIBUTE) + " (from "
                                + other.getSymbolicName() + " " + other.getVersion() + ")");
                    }
                }
            }
            return "Import-Package " + pkg + range(filter) + (have.isEmpty() ? ": no installed bundle exports it"
                    : ": installed " + String.join(", ", have));
        }
        return ns + " " + filter;
    }

    /** @return a version filter as a range, {@code ;version="[1.3,2.0)"}, or "" when it has none */
    static String range(String filter) {
        String low = null, high = null;
        boolean lowIn = true, highIn = false;
        Matcher m = VERSION_RANGE.matcher(filter);
        while (m.find()) {
            if (m.group(1) != null) {
                low = m.group(1);
            } else if (m.group(2) != null) {
                high = m.group(2);
            } else if (m.group(3) != null) {
                high = m.group(3);
                highIn = true;
            } else if (m.group(4) != null) {
                low = m.group(4);
                lowIn = false;
            } else {
                return ";version=\"[" + m.group(5) + "," + m.group(5) + "]\"";
            }
        }
        if (low == null && high == null) {
            return "";
        }
        if (high == null) {
            return ";version=\"" + low + "\"";
        }
        return ";version=\"" + (lowIn ? "[" : "(") + (low == null ? "0.0.0" : low) + "," + high + (highIn ? "]" : ")") + "\"";
    }

    private void uninstall(List<Bundle> bundles) {
        for (int i = bundles.size() - 1; i >= 0; i--) {
            try {
                bundles.get(i).uninstall();
            } catch (BundleException | IllegalStateException e) {
                // uninstalled already, or the framework is stopping
            }
        }
        try {
            FrameworkWiring fw = context.getBundle(Constants.SYSTEM_BUNDLE_LOCATION).adapt(FrameworkWiring.class);
            fw.refreshBundles(bundles); // drop their packages now rather than at the next refresh
        } catch (IllegalStateException e) {
            // the framework is stopping
        }
    }

    /** Uninstalls {@code installed} and throws when there are problems. */
    private void fail(List<String> problems, Iterable<Bundle> installed) throws PluginException {
        if (problems.isEmpty()) {
            return;
        }
        List<Bundle> all = new ArrayList<>();
        installed.forEach(all::add);
        uninstall(all);
        throw new PluginException(String.join("\n", problems));
    }

    private static String name(Bundle b) {
        return b.getSymbolicName() + " " + b.getVersion();
    }

    /** @return the messages of an activator's failure and its causes, first lines only */
    private static String cause(Throwable x) {
        StringBuilder sb = new StringBuilder(firstLine(x.getMessage()));
        for (Throwable c = x.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            sb.append(": ").append(c.getClass().getSimpleName()).append(c.getMessage() == null ? "" : " " + firstLine(c.getMessage()));
        }
        return sb.toString();
    }

    static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).strip();
    }
}

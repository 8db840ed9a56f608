package io.ringlab.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.Version;

import io.ringlab.console.BundleActions.ActionException;
import io.ringlab.console.BundleActions.Row;

class BundleActionsTest {
    /** A framework of proxies: bundles by id, the console is bundle 5; what install and start do is up to the test. */
    private final Map<Long, Bundle> bundles = new HashMap<>();
    private final Map<Long, Integer> states = new HashMap<>();
    private final List<String> calls = new ArrayList<>();
    private BundleException installFailure, startFailure;

    private Bundle bundle(long id, String name, String version, int state) {
        states.put(id, state);
        Bundle b = (Bundle) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] { Bundle.class }, (p, m, a) -> switch (m.getName()) {
            case "getBundleId" -> id;
            case "getSymbolicName" -> name;
            case "getVersion" -> Version.parseVersion(version);
            case "getState" -> states.get(id);
            case "start" -> {
                calls.add("start " + id);
                if (startFailure != null) {
                    throw startFailure;
                }
                states.put(id, Bundle.ACTIVE);
                yield null;
            }
            case "uninstall" -> {
                calls.add("uninstall " + id);
                states.put(id, Bundle.UNINSTALLED);
                yield null;
            }
            case "update" -> {
                calls.add("update " + id + " " + new String(((InputStream) a[0]).readAllBytes()));
                yield null;
            }
            case "hashCode" -> (int) id;
            case "equals" -> p == a[0];
            default -> throw new UnsupportedOperationException(m.getName());
        });
        bundles.put(id, b);
        return b;
    }

    private BundleActions actions() {
        bundle(0, "org.apache.felix.framework", "7.0.5", Bundle.ACTIVE);
        bundle(5, "io.ringlab.console", "0.1.0.SNAPSHOT", Bundle.ACTIVE);
        bundle(3, "io.ringlab.link", "0.1.0.SNAPSHOT", Bundle.RESOLVED);
        BundleContext bc = (BundleContext) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] { BundleContext.class },
                (p, m, a) -> switch (m.getName()) {
                    case "getBundles" -> bundles.values().toArray(Bundle[]::new);
                    case "getBundle" -> a == null ? bundles.get(5L) : bundles.get((Long) a[0]);
                    case "installBundle" -> {
                        calls.add("install " + a[0] + " " + new String(((InputStream) a[1]).readAllBytes()));
                        if (installFailure != null) {
                            throw installFailure;
                        }
                        yield bundle(9, "io.ringlab.driver.x", "1.2.0", Bundle.INSTALLED);
                    }
                    default -> throw new UnsupportedOperationException(m.getName());
                });
        return new BundleActions(bc);
    }

    @Test
    void rowsListEveryBundleByIdWithItsStateInWords() {
        List<Row> rows = actions().rows();
        assertEquals(List.of(new Row(0, "org.apache.felix.framework", "7.0.5", "ACTIVE"), new Row(3, "io.ringlab.link", "0.1.0.SNAPSHOT", "RESOLVED"),
                new Row(5, "io.ringlab.console", "0.1.0.SNAPSHOT", "ACTIVE")), rows);
        assertEquals("STARTING", BundleActions.state(Bundle.STARTING));
    }

    @Test
    void installReadsTheFileUnderItsUriAndStartsTheBundle(@TempDir Path dir) throws Exception {
        BundleActions a = actions();
        Path jar = Files.writeString(dir.resolve("x.jar"), "JAR");
        assertEquals("installed and started io.ringlab.driver.x 1.2.0 (id 9) from " + jar, a.install(jar));
        assertEquals(List.of("install " + jar.toUri() + " JAR", "start 9"), calls);
    }

    @Test
    void failuresSayWhatWasTriedOnWhatAndWhy(@TempDir Path dir) throws Exception {
        BundleActions a = actions();
        ActionException missing = assertThrows(ActionException.class, () -> a.install(dir.resolve("none.jar")));
        assertEquals("Cannot install " + dir.resolve("none.jar") + ": IOException: no such file", missing.getMessage());

        Path jar = Files.writeString(dir.resolve("x.jar"), "JAR");
        installFailure = new BundleException("Bundle symbolic name and version are not unique: io.ringlab.link:0.1.0.SNAPSHOT",
                BundleException.DUPLICATE_BUNDLE_ERROR);
        ActionException dup = assertThrows(ActionException.class, () -> a.install(jar));
        assertEquals("Cannot install " + jar + ": Bundle symbolic name and version are not unique: io.ringlab.link:0.1.0.SNAPSHOT", dup.getMessage());

        installFailure = null;
        startFailure = new BundleException("Activator start error in bundle io.ringlab.driver.x", new IllegalStateException("no profile"));
        ActionException start = assertThrows(ActionException.class, () -> a.install(jar));
        assertEquals("Installed io.ringlab.driver.x 1.2.0 (id 9) from " + jar + " (now INSTALLED), but it does not start: "
                + "Activator start error in bundle io.ringlab.driver.x; caused by: no profile", start.getMessage());
    }

    @Test
    void theFrameworkAndTheConsoleCannotBeUninstalledOrUpdatedFromTheConsole(@TempDir Path dir) throws Exception {
        BundleActions a = actions();
        assertEquals("Cannot uninstall org.apache.felix.framework 7.0.5 (id 0): it is the framework itself",
                assertThrows(ActionException.class, () -> a.uninstall(0)).getMessage());
        assertTrue(assertThrows(ActionException.class, () -> a.update(5, dir)).getMessage().endsWith("from its own window: it is the console"));
        assertEquals("Cannot uninstall bundle 42: it is no longer installed", assertThrows(ActionException.class, () -> a.uninstall(42)).getMessage());
        assertTrue(calls.isEmpty(), calls.toString());
    }

    @Test
    void updateAndUninstallGoToTheBundle(@TempDir Path dir) throws Exception {
        BundleActions a = actions();
        Path jar = Files.writeString(dir.resolve("link.jar"), "NEW");
        assertEquals("updated io.ringlab.link 0.1.0.SNAPSHOT (id 3) from " + jar + ": now io.ringlab.link 0.1.0.SNAPSHOT (id 3), RESOLVED", a.update(3, jar));
        assertEquals("uninstalled io.ringlab.link 0.1.0.SNAPSHOT (id 3)", a.uninstall(3));
        assertEquals(List.of("update 3 NEW", "uninstall 3"), calls);
    }

    @Test
    void frameworkErrorsNameTheBundleAndTheCause() {
        actions();
        FrameworkEvent e = new FrameworkEvent(FrameworkEvent.ERROR, bundles.get(3L), new BundleException("Activator start error",
                new NoClassDefFoundError("io/ringlab/sim/api/Element")));
        assertEquals("io.ringlab.link 0.1.0.SNAPSHOT (id 3): Activator start error; caused by: io/ringlab/sim/api/Element", BundleActions.describe(e));
    }
}

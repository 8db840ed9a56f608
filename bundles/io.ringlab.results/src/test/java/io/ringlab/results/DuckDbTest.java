package io.ringlab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.Driver;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;

import io.ringlab.experiment.api.ResultsException;

/**
 * Finding DuckDB's driver ({@link DuckDb}): on the class path, from an installed bundle, from a jar installed by
 * reference, and the message when there is no jar. The framework is a proxy that answers what DuckDb asks.
 */
class DuckDbTest {
    @TempDir
    Path dir;

    @Test
    void outsideAFrameworkTheDriverComesFromTheClassPathOnce() throws Exception {
        Driver d = DuckDb.driver(null);
        assertEquals(DuckDb.DRIVER, d.getClass().getName());
        assertTrue(d == DuckDb.driver(null), "loaded once");
    }

    @Test
    void anInstalledDuckDbBundleIsUsed() throws Exception {
        List<String> installed = new ArrayList<>();
        BundleContext context = context(Map.of(), new Bundle[] {bundle(DuckDb.SYMBOLIC_NAME)}, installed);
        assertEquals(DuckDb.DRIVER, DuckDb.load(context).getClass().getName());
        assertEquals(List.of(), installed, "nothing installed");
    }

    @Test
    void otherwiseTheJarIsInstalledByReference() throws Exception {
        Path jar = Path.of(Class.forName(DuckDb.DRIVER).getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> installed = new ArrayList<>();
        BundleContext context = context(Map.of(DuckDb.JAR_PROPERTY, jar.toString()),
                new Bundle[] {bundle("org.apache.felix.scr")}, installed);
        assertNotNull(DuckDb.load(context));
        assertEquals(List.of("reference:" + jar.toUri()), installed);
        assertEquals(dir.resolve(DuckDb.APP_JAR), DuckDb.jar(context(Map.of("ringlab.home", dir.toString()), null, null)));
    }

    @Test
    void aMissingJarIsNamedWithHowToGetIt() {
        Path home = dir.resolve("ringlab");
        ResultsException x = assertThrows(ResultsException.class,
                () -> DuckDb.load(context(Map.of("ringlab.home", home.toString()), new Bundle[0], new ArrayList<>())));
        assertEquals("DuckDB, which results databases need, is not installed and its jar " + home.resolve(DuckDb.APP_JAR)
                + " does not exist: build Ringlab with ./ringlab (the build puts the jar there), or set -Dringlab.duckdb=PATH"
                + " to a duckdb_jdbc jar", x.getMessage());
    }

    /** @return a context with these properties and bundles, that records what is installed as a DuckDB bundle */
    private static BundleContext context(Map<String, String> properties, Bundle[] bundles, List<String> installed) {
        return (BundleContext) Proxy.newProxyInstance(DuckDbTest.class.getClassLoader(), new Class<?>[] {BundleContext.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getProperty" -> properties.get((String) args[0]);
                    case "getBundles" -> bundles;
                    case "installBundle" -> {
                        installed.add((String) args[0]);
                        yield bundle(DuckDb.SYMBOLIC_NAME);
                    }
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    /** @return a resolved bundle of that name whose classes are the class path's */
    private static Bundle bundle(String symbolicName) {
        return (Bundle) Proxy.newProxyInstance(DuckDbTest.class.getClassLoader(), new Class<?>[] {Bundle.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getSymbolicName" -> symbolicName;
                    case "getState" -> Bundle.RESOLVED;
                    case "loadClass" -> Class.forName((String) args[0]);
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}

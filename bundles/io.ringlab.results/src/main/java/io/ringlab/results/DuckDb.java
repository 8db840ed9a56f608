package io.ringlab.results;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Driver;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;

import io.ringlab.experiment.api.ResultsException;

/**
 * DuckDB's JDBC driver, found at run time rather than imported: the bundle has no {@code Import-Package: org.duckdb}, so
 * a command that opens no results database never resolves, extracts or loads DuckDB (its jar is 80 MB, its native
 * library 71 MB, extracted to a temporary file by every JVM that loads it).
 * <ul>
 * <li>In a framework, the driver comes from the bundle {@value #SYMBOLIC_NAME}: the installed one, or else the jar at
 * the property {@value #JAR_PROPERTY} (a path), or else at {@code ${ringlab.home}/}{@value #APP_JAR}, where the app's
 * build copies it, installed by reference ({@code reference:file:...}: the framework reads the jar where it is, with no
 * copy in its cache).</li>
 * <li>Outside a framework (unit tests, a plain class path), it is {@value #DRIVER} on the thread's context class loader,
 * or this class's.</li>
 * </ul>
 * The driver is loaded once per process, on first use; it is used through {@link Driver#connect} only, never through
 * {@code DriverManager}, which cannot see classes of other bundles.
 * <p>
 * Thread-safe.
 */
final class DuckDb {
    /** DuckDB's bundle, as its manifest names it. */
    static final String SYMBOLIC_NAME = "org.duckdb.duckdb_jdbc";
    /** The driver class. */
    static final String DRIVER = "org.duckdb.DuckDBDriver";
    /** System or framework property: the DuckDB jar to install when no DuckDB bundle is installed. */
    static final String JAR_PROPERTY = "ringlab.duckdb";
    /** Where the app's build puts DuckDB's jar, relative to {@code ringlab.home}. */
    static final String APP_JAR = "app/target/lib/duckdb_jdbc.jar";
    /** JDBC URL prefix of a DuckDB file. */
    static final String URL_PREFIX = "jdbc:duckdb:";

    private static volatile Driver driver; // written once, under DuckDb.class

    private DuckDb() {
    }

    /**
     * @param context the bundle's context in a framework; {@code null} outside one
     * @return DuckDB's driver, loaded on the first call
     * @throws ResultsException if there is no DuckDB to load: naming the jar looked for and how to get it
     */
    static Driver driver(BundleContext context) throws ResultsException {
        Driver d = driver;
        if (d == null) {
            synchronized (DuckDb.class) {
                d = driver;
                if (d == null) {
                    d = load(context);
                    driver = d;
                }
            }
        }
        return d;
    }

    /**
     * @param context the bundle's context in a framework; {@code null} outside one
     * @return a new instance of DuckDB's driver, from its bundle or the class path
     * @throws ResultsException if there is no DuckDB to load
     */
    static Driver load(BundleContext context) throws ResultsException {
        Class<?> c;
        try {
            c = context != null ? bundle(context).loadClass(DRIVER) : classPathDriver();
        } catch (ClassNotFoundException e) {
            throw new ResultsException("DuckDB's driver " + DRIVER + " is not there"
                    + (context != null ? " in bundle " + SYMBOLIC_NAME : " on the class path") + ": " + e.getMessage(), e);
        }
        try {
            return (Driver) c.getConstructor().newInstance();
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new ResultsException("DuckDB's driver " + DRIVER + " cannot be created: " + e, e);
        }
    }

    private static Class<?> classPathDriver() throws ClassNotFoundException {
        ClassLoader tccl = Thread.currentThread().getContextClassLoader();
        if (tccl != null) {
            try {
                return Class.forName(DRIVER, true, tccl);
            } catch (ClassNotFoundException e) {
                // not there: try this bundle's (or class path's) own loader
            }
        }
        return Class.forName(DRIVER, true, DuckDb.class.getClassLoader());
    }

    /** @return DuckDB's bundle: the installed one, or the jar installed by reference */
    private static Bundle bundle(BundleContext context) throws ResultsException {
        for (Bundle b : context.getBundles()) {
            if (SYMBOLIC_NAME.equals(b.getSymbolicName()) && b.getState() != Bundle.UNINSTALLED) {
                return b;
            }
        }
        Path jar = jar(context);
        if (!Files.isRegularFile(jar)) {
            throw new ResultsException("DuckDB, which results databases need, is not installed and its jar " + jar
                    + " does not exist: build Ringlab with ./ringlab (the build puts the jar there), or set -D"
                    + JAR_PROPERTY + "=PATH to a duckdb_jdbc jar");
        }
        try {
            return context.installBundle("reference:" + jar.toUri());
        } catch (BundleException | SecurityException e) {
            throw new ResultsException("DuckDB's jar " + jar + " cannot be installed as a bundle: " + e.getMessage(), e);
        }
    }

    /** @return the jar to install: {@value #JAR_PROPERTY}, else the app's copy under {@code ringlab.home} */
    static Path jar(BundleContext context) {
        String given = context.getProperty(JAR_PROPERTY);
        if (given != null && !given.isBlank()) {
            return Path.of(given).toAbsolutePath().normalize();
        }
        String home = context.getProperty("ringlab.home");
        return Path.of(home != null ? home : ".").resolve(APP_JAR).toAbsolutePath().normalize();
    }
}

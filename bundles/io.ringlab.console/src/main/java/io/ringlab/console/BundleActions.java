package io.ringlab.console;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.FrameworkEvent;

/**
 * What the bundles view does, without SWT: the rows it lists, and install, update and uninstall through the framework.
 * Every failure comes back as an {@link ActionException} whose message says what was tried, on which bundle or file, and
 * why (the framework's message and its causes), never a stack trace; the view shows it in a dialog and the log.
 * <p>
 * Calls go to the framework on the caller's thread (the UI thread): installing, starting, updating and uninstalling a
 * bundle take milliseconds here, and their service events come back synchronously. Thread-safe otherwise (no state
 * besides the context).
 */
final class BundleActions {
    /** A failed action: the message is for the user. */
    static final class ActionException extends Exception {
        private static final long serialVersionUID = 1L;

        ActionException(String message) {
            super(message);
        }
    }

    /**
     * One row of the bundles table.
     *
     * @param id the bundle id
     * @param symbolicName its symbolic name ({@code "(none)"} for a bundle without one)
     * @param version its version
     * @param state its state in words ({@code ACTIVE}, {@code RESOLVED}, ...)
     */
    record Row(long id, String symbolicName, String version, String state) {
    }

    private final BundleContext context;

    BundleActions(BundleContext context) {
        this.context = context;
    }

    /** @return every installed bundle, by id; never {@code null}. */
    List<Row> rows() {
        List<Row> l = new ArrayList<>();
        for (Bundle b : context.getBundles()) {
            l.add(new Row(b.getBundleId(), b.getSymbolicName() == null ? "(none)" : b.getSymbolicName(), b.getVersion().toString(),
                    state(b.getState())));
        }
        l.sort(Comparator.comparingLong(Row::id));
        return l;
    }

    /** @return a bundle state constant in words. */
    static String state(int state) {
        return switch (state) {
            case Bundle.UNINSTALLED -> "UNINSTALLED";
            case Bundle.INSTALLED -> "INSTALLED";
            case Bundle.RESOLVED -> "RESOLVED";
            case Bundle.STARTING -> "STARTING";
            case Bundle.STOPPING -> "STOPPING";
            case Bundle.ACTIVE -> "ACTIVE";
            default -> "state " + state;
        };
    }

    /**
     * Installs a bundle from a file and starts it. A bundle that installs but does not start stays installed (the table
     * shows it, so it can be fixed or uninstalled) and the failure is reported.
     *
     * @return a line for the log
     * @throws ActionException if the file cannot be read, is no bundle, duplicates an installed bundle, or does not start
     */
    String install(Path file) throws ActionException {
        Bundle b;
        try (InputStream in = open(file)) {
            b = context.installBundle(file.toAbsolutePath().normalize().toUri().toString(), in);
        } catch (BundleException | IOException | RuntimeException e) {
            throw new ActionException("Cannot install " + file + ": " + describe(e));
        }
        try {
            b.start();
        } catch (BundleException | RuntimeException e) {
            throw new ActionException("Installed " + name(b) + " from " + file + " (now " + state(b.getState())
                    + "), but it does not start: " + describe(e));
        }
        return "installed and started " + name(b) + " from " + file;
    }

    /**
     * Updates a bundle from a file (the framework stops it, replaces its content and starts it again if it was active).
     *
     * @return a line for the log
     * @throws ActionException if the bundle is gone or protected, or the file cannot be read or is refused
     */
    String update(long id, Path file) throws ActionException {
        Bundle b = bundle(id, "update");
        String before = name(b);
        try (InputStream in = open(file)) {
            b.update(in);
        } catch (BundleException | IOException | RuntimeException e) {
            throw new ActionException("Cannot update " + before + " from " + file + ": " + describe(e));
        }
        return "updated " + before + " from " + file + ": now " + name(b) + ", " + state(b.getState());
    }

    /**
     * Uninstalls a bundle.
     *
     * @return a line for the log
     * @throws ActionException if the bundle is gone or protected, or the framework refuses
     */
    String uninstall(long id) throws ActionException {
        Bundle b = bundle(id, "uninstall");
        String n = name(b);
        try {
            b.uninstall();
        } catch (BundleException | RuntimeException e) {
            throw new ActionException("Cannot uninstall " + n + ": " + describe(e));
        }
        return "uninstalled " + n;
    }

    /** @return the message for a framework event of type ERROR or WARNING: the bundle and what went wrong. */
    static String describe(FrameworkEvent e) {
        Bundle b = e.getBundle();
        String who = b == null ? "the framework" : name(b);
        Throwable t = e.getThrowable();
        return who + ": " + (t == null ? "an error without a message" : describe(t));
    }

    /** @return the message of an exception and of its causes, without stack traces. */
    static String describe(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            String m = c.getMessage() == null || c.getMessage().isBlank() ? c.getClass().getSimpleName() : c.getMessage();
            if (c instanceof IOException && !(c.getMessage() == null)) {
                m = c.getClass().getSimpleName() + ": " + m; // NoSuchFileException's message is only the path
            }
            if (sb.indexOf(m) < 0) { // a wrapper often repeats its cause's message
                if (sb.length() > 0) {
                    sb.append("; caused by: ");
                }
                sb.append(m);
            }
        }
        return sb.toString();
    }

    static String name(Bundle b) {
        return (b.getSymbolicName() == null ? "bundle " + b.getBundleId() : b.getSymbolicName()) + " " + b.getVersion()
                + " (id " + b.getBundleId() + ")";
    }

    private Bundle bundle(long id, String action) throws ActionException {
        Bundle b = context.getBundle(id);
        if (b == null || b.getState() == Bundle.UNINSTALLED) {
            throw new ActionException("Cannot " + action + " bundle " + id + ": it is no longer installed");
        }
        if (id == 0) {
            throw new ActionException("Cannot " + action + " " + name(b) + ": it is the framework itself");
        }
        if (id == context.getBundle().getBundleId()) {
            throw new ActionException("Cannot " + action + " " + name(b) + " from its own window: it is the console");
        }
        return b;
    }

    private static InputStream open(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IOException(Files.exists(file) ? "not a regular file" : "no such file");
        }
        return Files.newInputStream(file);
    }
}

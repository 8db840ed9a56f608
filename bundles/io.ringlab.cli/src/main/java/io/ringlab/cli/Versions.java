package io.ringlab.cli;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.osgi.framework.Bundle;
import org.osgi.framework.FrameworkUtil;

import picocli.CommandLine;

/**
 * {@code ringlab -V}: Ringlab's version (the engine bundle's) and every installed bundle with its version and state,
 * so that a report of a problem can say exactly what ran.
 */
final class Versions implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        Bundle self = FrameworkUtil.getBundle(Versions.class);
        if (self == null || self.getBundleContext() == null) {
            return new String[] {"Ringlab (outside an OSGi framework: no bundles to list)"};
        }
        Bundle[] bundles = self.getBundleContext().getBundles();
        String version = self.getVersion().toString();
        for (Bundle b : bundles) {
            if ("io.ringlab.engine".equals(b.getSymbolicName())) {
                version = b.getVersion().toString();
            }
        }
        List<String> lines = new ArrayList<>();
        lines.add("Ringlab " + version + " (Java " + Runtime.version() + ")");
        lines.add("bundles:");
        List<Bundle> sorted = new ArrayList<>(List.of(bundles));
        sorted.sort(Comparator.comparing(b -> String.valueOf(b.getSymbolicName())));
        for (Bundle b : sorted) {
            lines.add(String.format("  %-44s %-24s %s", b.getSymbolicName(), b.getVersion(), state(b.getState())));
        }
        return lines.toArray(String[]::new);
    }

    private static String state(int state) {
        return switch (state) {
            case Bundle.ACTIVE -> "active";
            case Bundle.RESOLVED -> "resolved";
            case Bundle.INSTALLED -> "installed (not resolved)";
            case Bundle.STARTING -> "starting";
            case Bundle.STOPPING -> "stopping";
            default -> "uninstalled";
        };
    }
}

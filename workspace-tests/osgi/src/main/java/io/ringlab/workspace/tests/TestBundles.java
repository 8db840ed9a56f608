package io.ringlab.workspace.tests;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import org.osgi.framework.Bundle;

import io.ringlab.sim.api.ElementFactory;

/**
 * Third-party bundles made by the tests: the classes of one package of this test bundle, a hand-written manifest and
 * hand-written component descriptions, in a jar of their own (what a plugin author's build would produce).
 */
final class TestBundles {
    private TestBundles() {
    }

    /**
     * Writes a bundle jar.
     *
     * @param self the test bundle, whose entries hold the classes
     * @param jar the file to write
     * @param bsn the symbolic name (version 1.0.0)
     * @param classes a class of the package whose classes the jar holds
     * @param components entry name (under OSGI-INF/) to component XML; empty for none
     * @param headers more manifest headers (Import-Package, ...)
     * @return {@code jar}
     */
    static Path write(Bundle self, Path jar, String bsn, Class<?> classes, Map<String, String> components,
            Map<String, String> headers) throws IOException {
        Files.createDirectories(jar.getParent());
        Manifest m = new Manifest();
        Attributes a = m.getMainAttributes();
        a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        a.putValue("Bundle-ManifestVersion", "2");
        a.putValue("Bundle-SymbolicName", bsn);
        a.putValue("Bundle-Version", "1.0.0");
        headers.forEach(a::putValue);
        if (!components.isEmpty()) {
            a.putValue("Service-Component", String.join(",", components.keySet().stream().map(n -> "OSGI-INF/" + n)
                    .toList()));
            // what bnd writes for a DS component providing a service: `--plugins` counts the factories by it
            a.putValue("Provide-Capability", "osgi.service;objectClass:List<String>=\"" + ElementFactory.class.getName()
                    + "\"");
        }
        try (OutputStream os = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(os, m)) {
            String pkg = classes.getPackageName().replace('.', '/');
            for (URL u : Collections.list(self.findEntries(pkg, "*.class", false))) {
                j.putNextEntry(new JarEntry(u.getPath().substring(1)));
                try (InputStream in = u.openStream()) {
                    in.transferTo(j);
                }
            }
            for (Map.Entry<String, String> c : components.entrySet()) {
                j.putNextEntry(new JarEntry("OSGI-INF/" + c.getKey()));
                j.write(c.getValue().getBytes(StandardCharsets.UTF_8));
            }
        }
        return jar;
    }

    /**
     * @param implementation the component's class, which provides {@link ElementFactory}
     * @param type the element type ({@link ElementFactory#TYPE})
     * @param inside more XML inside the component (references, an activate attribute goes in {@code activate})
     * @return a DS 1.3 component description
     */
    static String component(String name, Class<?> implementation, String type, String activate, String inside) {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <scr:component xmlns:scr="http://www.osgi.org/xmlns/scr/v1.3.0" name="%s"%s>
                  <property name="%s" type="String" value="%s"/>
                  <service><provide interface="%s"/></service>
                  %s
                  <implementation class="%s"/>
                </scr:component>
                """.formatted(name, activate == null ? "" : " activate=\"" + activate + "\"", ElementFactory.TYPE, type,
                ElementFactory.class.getName(), inside, implementation.getName());
    }

    /** @return the Import-Package a plugin of element factories needs, with {@code extra} appended */
    static Map<String, String> imports(String extra) {
        return Map.of("Import-Package", "io.ringlab.buffer.api;version=\"[1.0,2)\",io.ringlab.sim.api;version=\"[1.0,2)\","
                + "io.ringlab.sim.api.dto;version=\"[1.0,2)\"" + extra);
    }
}

package io.ringlab.workspace.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarInputStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.osgi.framework.BundleContext;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.junit5.context.BundleContextExtension;

/**
 * An executable jar started with a Java older than its bundles need stops at once, with a message naming both versions,
 * instead of starting a framework whose bundles cannot resolve and waiting for ever (as {@code java -jar ringlab.jar}
 * on Debian 12's Java 17 did). The check ({@code io.ringlab.launcher.JavaVersionCheck}) reads the minimum from the
 * launch properties, so a launch whose minimum is the next Java release after this one plays the old Java here: the bnd
 * launcher reads its properties from the file {@code -Dlauncher.properties} names. Runs each jar of this checkout's
 * {@code app/target} in a process of its own.
 */
@ExtendWith(BundleContextExtension.class)
class JavaVersionCheckRunTest {
    @InjectBundleContext
    BundleContext context;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"ringlab.jar", "shell.jar", "console.jar"})
    void aJavaOlderThanTheMinimumIsRefusedAtOnceWithBothVersionsAndNoBundleErrors(String name) throws Exception {
        Path jar = App.home(context).resolve("app/target").resolve(name);
        Properties launch = new Properties();
        try (JarFile j = new JarFile(jar.toFile()); InputStream in = j.getInputStream(j.getEntry("launcher.properties"))) {
            launch.load(in);
        }
        assertEquals(minimumOfTheBndrun(), launch.getProperty("ringlab.java.minimum"),
                name + ": the launch's minimum is the bndrun's ringlab.java, which its -runee names");
        assertTrue(launch.getProperty("launch.activators", "").contains("io.ringlab.launcher.JavaVersionCheck"), name);

        int newer = Runtime.version().feature() + 1;
        launch.setProperty("ringlab.java.minimum", Integer.toString(newer));
        Path file = dir.resolve("launcher.properties");
        try (OutputStream out = Files.newOutputStream(file)) {
            launch.store(out, null);
        }
        List<String> cmd = new ArrayList<>(App.command(context, dir, "--version"));
        int at = cmd.indexOf("-jar");
        cmd.add(at, "-Dlauncher.properties=" + file);
        cmd.set(cmd.indexOf("-jar") + 1, jar.toString());
        Path log = dir.resolve("output.txt");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean ended = p.waitFor(60, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly().waitFor();
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertTrue(ended, name + " did not stop within 60 s: " + output);
        assertEquals(2, p.exitValue(), output);
        assertTrue(output.contains("ringlab: this is Java " + Runtime.version().feature() + " ("
                + System.getProperty("java.home") + "); Ringlab needs Java " + newer + " or newer."), output);
        assertTrue(output.contains("./ringlab"), output);
        assertFalse(output.contains("Failed to start bundle"), "refused before any bundle: " + output);
        assertFalse(output.contains("\tat "), output);
    }

    /** The check must load on the Java it refuses: its classes are Java 8 class files (major version 52). */
    @ParameterizedTest
    @ValueSource(strings = {"ringlab.jar", "shell.jar", "console.jar"})
    void theCheckIsAJava8ClassFile(String name) throws Exception {
        Path jar = App.home(context).resolve("app/target").resolve(name);
        byte[] nested = null;
        try (JarFile j = new JarFile(jar.toFile())) {
            for (JarEntry e : java.util.Collections.list(j.entries())) {
                if (e.getName().startsWith("jar/io.ringlab.launcher-")) {
                    try (InputStream in = j.getInputStream(e)) {
                        nested = in.readAllBytes();
                    }
                }
            }
        }
        assertNotNull(nested, name + " embeds io.ringlab.launcher on its run path");
        int classes = 0;
        try (JarInputStream in = new JarInputStream(new ByteArrayInputStream(nested))) {
            for (JarEntry e; (e = in.getNextJarEntry()) != null;) {
                if (e.getName().endsWith(".class")) {
                    byte[] b = in.readAllBytes();
                    int major = ((b[6] & 0xff) << 8) | (b[7] & 0xff);
                    assertEquals(52, major, e.getName());
                    classes++;
                }
            }
        }
        assertTrue(classes > 0, "the check's classes are in the jar");
    }

    /** @return the value of {@code ringlab.java:} in app/ringlab.bndrun */
    private String minimumOfTheBndrun() throws Exception {
        String bndrun = Files.readString(App.home(context).resolve("app/ringlab.bndrun"));
        Matcher m = Pattern.compile("(?m)^ringlab\\.java:\\s*(\\d+)\\s*$").matcher(bndrun);
        assertTrue(m.find(), "app/ringlab.bndrun sets ringlab.java");
        return m.group(1);
    }
}

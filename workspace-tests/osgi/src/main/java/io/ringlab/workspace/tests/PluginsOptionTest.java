package io.ringlab.workspace.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.namespace.PackageNamespace;
import org.osgi.framework.wiring.BundleCapability;
import org.osgi.framework.wiring.BundleWiring;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.common.annotation.InjectService;
import org.osgi.test.junit5.context.BundleContextExtension;
import org.osgi.test.junit5.service.ServiceExtension;

import io.ringlab.sim.api.Simulator;
import io.ringlab.workspace.tests.dropin.PlugSinkFactory;

/**
 * {@code ringlab run FILE --plugins DIR} inside Felix, through the command line's own code (the {@code ringlab:run} Gogo
 * function, which runs the same picocli commands as the launcher): the bundles of DIR are installed and started before
 * the pipeline is read, the run waits until their element factories are registered, and they are uninstalled after the
 * command; a jar that is not a bundle, does not resolve, or whose component stays unsatisfied is named with what it
 * misses, and nothing runs. The plugin is built here: the classes of {@code io.ringlab.workspace.tests.dropin} with a
 * hand-written manifest and component description, in a jar of their own.
 */
@ExtendWith({BundleContextExtension.class, ServiceExtension.class})
class PluginsOptionTest {
    private static final String BSN = "io.ringlab.test.plugin";
    private static final String PIPELINE = """
            duration = 1ms
            element src : source { rate = 1Gbit; size = 1500B }
            element snk : plugsink
            src -> snk
            """;

    @InjectBundleContext
    BundleContext context;

    @TempDir
    Path dir;

    private String pipeline;

    @BeforeEach
    void writePipeline() throws IOException {
        pipeline = Files.writeString(dir.resolve("plug.pipeline"), PIPELINE).toString();
    }

    @AfterEach
    void resetTimeout() {
        System.clearProperty("ringlab.plugins.timeoutSeconds");
    }

    private Gogo.Result ringlab(String command, String... args) throws Exception {
        return Gogo.ringlab(context, command, args);
    }

    /** Writes the plugin's bundle jar; {@code component} {@code null} for none. */
    private Path bundle(Path folder, String file, String bsn, String component, Map<String, String> headers)
            throws IOException {
        return TestBundles.write(context.getBundle(), folder.resolve(file), bsn, PlugSinkFactory.class,
                component == null ? Map.of() : Map.of("plugsink.xml", component), headers);
    }

    /** A DS component providing {@link PlugSinkFactory} as the element type {@code plugsink}, with extra XML inside. */
    private static String component(String inside) {
        return TestBundles.component(PlugSinkFactory.class.getName(), PlugSinkFactory.class, PlugSinkFactory.TYPE, null,
                inside);
    }

    private static Map<String, String> imports(String extra) {
        return TestBundles.imports(extra);
    }

    private boolean installed(String bsn) {
        for (Bundle b : context.getBundles()) {
            if (bsn.equals(b.getSymbolicName())) {
                return true;
            }
        }
        return false;
    }

    /** @return the version of the package as the installed bundles export it (the API's own, not a literal) */
    private String exported(String pkg) {
        for (Bundle b : context.getBundles()) {
            BundleWiring w = b.adapt(BundleWiring.class);
            for (BundleCapability c : w == null ? java.util.List.<BundleCapability>of()
                    : w.getCapabilities(PackageNamespace.PACKAGE_NAMESPACE)) {
                if (pkg.equals(c.getAttributes().get(PackageNamespace.PACKAGE_NAMESPACE))) {
                    return c.getAttributes().get(PackageNamespace.CAPABILITY_VERSION_ATTRIBUTE).toString();
                }
            }
        }
        throw new AssertionError("no bundle exports " + pkg);
    }

    private static boolean hasStackTrace(String text) {
        return text.contains("\tat ") || text.contains("Exception in thread");
    }

    @Test
    void aPluginFoldersElementTypeRunsAndIsGoneAfterTheCommand(@InjectService Simulator simulator) throws Exception {
        Path plugins = dir.resolve("plugins-a");
        bundle(plugins, "plugsink.jar", BSN, component(""), imports(""));

        Gogo.Result r = ringlab("run", pipeline, "--plugins", plugins.toString(), "--print", "snk.received");

        assertEquals(0, r.code(), r.all());
        assertTrue(r.out().matches("(?s)snk\\.received=\\d+\\s*"), r.all()); // a count, printed as an integer
        assertTrue(Double.parseDouble(r.out().strip().split("=")[1]) > 50, r.out()); // 1 ms at 1 Gbit/s of 1500-byte frames: 83
        assertFalse(installed(BSN), "uninstalled after the command");
        assertTrue(simulator.elementTypes().stream().noneMatch(d -> d.type.equals(PlugSinkFactory.TYPE)),
                "the type went with its bundle");
    }

    @Test
    void elementsListsThePluginsTypeWithItsBundle() throws Exception {
        Path plugins = dir.resolve("plugins-b");
        bundle(plugins, "plugsink.jar", BSN, component(""), imports(""));

        Gogo.Result r = ringlab("elements", "--plugins", plugins.toString());

        assertEquals(0, r.code(), r.all());
        assertTrue(r.out().contains("plugsink") && r.out().contains("[" + BSN + " 1.0.0]"), r.out());
    }

    @Test
    void aJarThatDoesNotResolveIsNamedWithItsMissingImportAndNothingRuns() throws Exception {
        Path plugins = dir.resolve("plugins-c");
        bundle(plugins, "a-good.jar", BSN, component(""), imports(""));
        bundle(plugins, "b-broken.jar", BSN + ".broken", null, imports(",com.example.gone;version=\"[1.0,2)\""));
        bundle(plugins, "c-newer-api.jar", BSN + ".newer", null,
                Map.of("Import-Package", "io.ringlab.sim.api;version=\"[2.0,3)\""));
        Files.writeString(plugins.resolve("d-notes.jar"), "not a zip");

        Gogo.Result r = ringlab("run", pipeline, "--plugins", plugins.toString());

        assertEquals(2, r.code(), r.all());
        String err = r.err();
        assertTrue(err.contains("ringlab: --plugins: " + plugins.resolve("d-notes.jar") + ": not a jar file"), err);
        assertFalse(err.contains("b-broken.jar"), "install problems are reported before anything is started: " + err);
        assertFalse(hasStackTrace(err), err);
        assertFalse(installed(BSN), "the good plugin of that folder was uninstalled again");

        Files.delete(plugins.resolve("d-notes.jar"));
        r = ringlab("run", pipeline, "--plugins", plugins.toString());

        assertEquals(2, r.code(), r.all());
        err = r.err();
        assertTrue(err.contains(plugins.resolve("b-broken.jar") + ": " + BSN + ".broken 1.0.0 does not resolve: missing"
                + " Import-Package com.example.gone;version=\"[1.0.0,2.0.0)\": no installed bundle exports it"), err);
        assertTrue(err.contains(plugins.resolve("c-newer-api.jar") + ": " + BSN + ".newer 1.0.0 does not resolve: missing"
                + " Import-Package io.ringlab.sim.api;version=\"[2.0.0,3.0.0)\": installed " + exported("io.ringlab.sim.api")
                + " (from io.ringlab.sim.api"),
                err);
        assertFalse(hasStackTrace(err), err);
        assertEquals("", r.out(), "the pipeline did not run");
        assertFalse(installed(BSN) || installed(BSN + ".broken") || installed(BSN + ".newer"), "all uninstalled");
    }

    @Test
    void aComponentThatStaysUnsatisfiedIsNamedWithTheReferenceItMissesAfterTheTimeout() throws Exception {
        System.setProperty("ringlab.plugins.timeoutSeconds", "1");
        Path plugins = dir.resolve("plugins-d");
        bundle(plugins, "waiting.jar", BSN, component("<reference name=\"pool\" interface=\"io.ringlab.buffer.api"
                + ".BufferPoolProvider\" target=\"(ringlab.pool.kind=nowhere)\"/>"), imports(""));

        long t0 = System.nanoTime();
        Gogo.Result r = ringlab("run", pipeline, "--plugins", plugins.toString());

        assertEquals(2, r.code(), r.all());
        assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(10), "bounded by the timeout");
        assertTrue(r.err().contains(plugins.resolve("waiting.jar") + ": " + BSN + " 1.0.0: component "
                + PlugSinkFactory.class.getName() + " is not satisfied: no service io.ringlab.buffer.api.BufferPoolProvider"
                + " matching (ringlab.pool.kind=nowhere) for reference 'pool' (after 1 s)"), r.err());
        assertFalse(installed(BSN));
    }

    /** A component class the plugin's jar does not hold. */
    private static final String GONE = "io.ringlab.test.plugin.GoneFactory";

    /** Writes a plugin whose component's implementation class, {@link #GONE}, is not in its jar. */
    private void goneBundle(Path folder, String bsn) throws IOException {
        bundle(folder, "gone.jar", bsn, component("").replace(PlugSinkFactory.class.getName() + "\"/>", GONE + "\"/>"),
                imports(""));
    }

    /** Writes a plugin whose component names an activate method its class does not have. */
    private void noActivateBundle(Path folder, String bsn) throws IOException {
        bundle(folder, "noactivate.jar", bsn, TestBundles.component(PlugSinkFactory.class.getName(),
                PlugSinkFactory.class, PlugSinkFactory.TYPE, "noSuchActivate", ""), imports(""));
    }

    /** Runs the pipeline with the folder's plugins: refused with {@code message}, nothing run, nothing left installed. */
    private void refusedBeforeTheRun(Path plugins, String message) throws Exception {
        Gogo.Result r = ringlab("run", pipeline, "--plugins", plugins.toString());

        assertEquals(2, r.code(), r.all());
        assertTrue(r.err().contains(message), r.err());
        assertFalse(hasStackTrace(r.all()), r.all());
        assertEquals("", r.out(), "the pipeline did not run");
        assertFalse(installed(BSN), "uninstalled");
    }

    @Test
    void aComponentWhoseClassIsMissingIsNamedWithItsClassAndNothingRuns() throws Exception {
        Path plugins = dir.resolve("plugins-f");
        goneBundle(plugins, BSN);
        refusedBeforeTheRun(plugins, plugins.resolve("gone.jar") + ": " + BSN + " 1.0.0: component "
                + PlugSinkFactory.class.getName() + " cannot be created: its class " + GONE + " is not in the jar, nor"
                + " imported by it");
    }

    @Test
    void aComponentThatFailsToActivateIsNamedWithItsFailureBeforeTheRun() throws Exception {
        // SCR registers the factory, and only fails when it is first asked for it
        Path plugins = dir.resolve("plugins-g");
        noActivateBundle(plugins, BSN);
        refusedBeforeTheRun(plugins, plugins.resolve("noactivate.jar") + ": " + BSN + " 1.0.0: component "
                + PlugSinkFactory.class.getName() + " failed to activate");
    }

    @Test
    void theLauncherExitsTwoForAMissingComponentClassOrActivateWithoutSCRsTraceOnTheTerminal() throws Exception {
        Path plugins = dir.resolve("plugins-h");
        goneBundle(plugins, BSN);
        noActivateBundle(plugins, BSN + ".noactivate");
        Path ok = Files.writeString(dir.resolve("ok.pipeline"), """
                duration = 1ms
                element src : source { rate = 1Gbit; size = 1500B }
                element snk : sink
                src -> snk
                """);

        Process p = new ProcessBuilder(App.command(context, dir, "run", ok.toString(), "--plugins", plugins.toString()))
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the process ended");

        assertEquals(2, p.exitValue(), output); // it was 0, after SCR's ClassNotFoundException trace
        assertTrue(output.contains("ringlab: --plugins: " + plugins.resolve("gone.jar") + ": " + BSN + " 1.0.0: component "
                + PlugSinkFactory.class.getName() + " cannot be created: its class " + GONE + " is not in the jar"), output);
        assertTrue(output.contains("ringlab: --plugins: " + plugins.resolve("noactivate.jar") + ": " + BSN + ".noactivate"
                + " 1.0.0: component " + PlugSinkFactory.class.getName() + " failed to activate"), output);
        assertFalse(hasStackTrace(output) || output.contains("ClassNotFoundException"), output);
        assertFalse(output.contains("FINISHED"), "nothing ran: " + output);
    }

    @Test
    void thePluginsFolderOfTheInstallationStaysAsItIsAndAJarInBothIsUsedOnce() throws Exception {
        Path watched = Path.of(context.getProperty("felix.fileinstall.dir"));
        Path jar = bundle(watched, "plugsink.jar", BSN, component(""), imports(""));
        try {
            Await.until(() -> installed(BSN), "fileinstall installs the jar of the plugins folder");
            Path plugins = dir.resolve("plugins-e");
            bundle(plugins, "plugsink.jar", BSN, component(""), imports(""));

            Gogo.Result r = ringlab("run", pipeline, "--plugins", plugins.toString(), "--print", "snk.received");

            assertEquals(0, r.code(), r.all());
            assertTrue(r.err().contains(BSN + " 1.0.0 is installed already (file:"), r.err());
            assertTrue(installed(BSN), "the plugins folder's bundle stays after the command");
        } finally {
            Files.deleteIfExists(jar);
        }
        Await.until(() -> !installed(BSN), "fileinstall uninstalls it with its jar");
    }
}

package io.ringlab.console.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.TabFolder;
import org.eclipse.swt.widgets.Text;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeItem;
import org.junit.jupiter.api.Test;
import org.osgi.framework.Bundle;

import io.ringlab.console.api.ConsoleService;
import io.ringlab.console.tests.dropin.TpSinkFactory;
import io.ringlab.console.tests.dropin.TpSpinFactory;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.SwapDTO;

/**
 * A third-party bundle dropped into the folder the console's fileinstall watches ({@code felix.fileinstall.dir}, here
 * {@code target/plugins}), as a user drops one into {@code plugins/}: its element types join the palette, a pipeline of
 * them runs in a separate process by default (the child gets a copy of the jar), a type that loops is ended there by the
 * child's watchdog with a report naming its bundle while the console goes on, a run in the console's own process swaps
 * it live, and deleting the jar ends that run with its results. The bundle is built here: the classes of
 * {@code io.ringlab.console.tests.dropin} with a hand-written manifest and component descriptions, in a jar of their own
 * whose symbolic name is not one of Ringlab's own.
 */
class DropInGuiTest extends GuiTest {
    private static final String BSN = "org.example.dropin";
    private static final String VERSION = "1.0.0";
    /** The watchdog's report: how long the stuck event ran, in seconds. */
    private static final Pattern STUCK_FOR = Pattern.compile("has run one event for ([0-9.]+) s");

    /** The jar in the watched folder while a test has dropped it. */
    private Path jar;

    // ------------------------------------------------------------------ tests

    @Test
    void aDroppedJarsTypesJoinThePaletteAndRunInASeparateProcessThatGetsTheJar() throws Exception {
        shell = console.open(display, null);
        Tree palette = gui.find(shell, ConsoleService.ID_PALETTE, Tree.class);
        assertFalse(hasType(palette, TpSinkFactory.TYPE), "tpsink before the jar was dropped");
        drop();
        try {
            gui.until("tpsink and tpspin in the palette", () -> hasType(palette, TpSinkFactory.TYPE)
                    && hasType(palette, TpSpinFactory.TYPE));
            assertTrue(Gui.leaves(palette).contains(TpSinkFactory.TYPE + "  (" + BSN + " " + VERSION + ")"), Gui.leaves(palette).toString());
            palette.showItem(item(palette, TpSinkFactory.TYPE)); // the sinks are below the fold
            gui.screenshot(shell, context.getProperty("ringlab.screenshots"), "console-dropin");

            shell.dispose();
            shell = console.open(display, pipeline("dropin-tpsink", TpSinkFactory.TYPE, "5ms"));
            assertTrue(gui.find(shell, ConsoleService.ID_ISOLATE, Button.class).getSelection(),
                    "a pipeline with a bundle not Ringlab's own runs in a separate process by default");
            RunResultDTO r = run();
            assertEquals("FINISHED", r.state, r.error);
            double sent = r.elements.get("src").get("txPackets");
            assertTrue(sent > 0, r.elements.toString());
            assertEquals(sent, r.elements.get("snk").get("received"), "tpsink received every packet the source sent");
            assertTrue(r.invariants.packetConservation && r.invariants.bufferConservation, r.invariants.violations.toString());
            assertTrue(log().contains("running in a separate process (bundles not Ringlab's own: " + BSN + " " + VERSION + ")"),
                    log());

            Files.delete(jar);
            Tree again = gui.find(shell, ConsoleService.ID_PALETTE, Tree.class);
            gui.until("tpsink and tpspin to leave the palette", () -> !hasType(again, TpSinkFactory.TYPE)
                    && !hasType(again, TpSpinFactory.TYPE));
        } finally {
            removeJar();
        }
    }

    @Test
    void aLoopingThirdPartyTypeIsEndedInItsChildProcessAndTheConsoleGoesOn() throws Exception {
        drop();
        try {
            untilInstalled();
            shell = console.open(display, pipeline("dropin-tpspin", TpSpinFactory.TYPE, "1ms"));
            assertTrue(gui.find(shell, ConsoleService.ID_ISOLATE, Button.class).getSelection(),
                    "a pipeline with a bundle not Ringlab's own runs in a separate process by default");
            RunResultDTO r = run();
            assertEquals("FAILED", r.state);
            assertTrue(r.error.startsWith("element snk (type " + TpSpinFactory.TYPE + ", bundle " + BSN + ":" + VERSION + ")")
                    && r.error.contains("without returning"), r.error);
            Matcher m = STUCK_FOR.matcher(r.error);
            assertTrue(m.find(), r.error);
            assertTrue(Double.parseDouble(m.group(1)) < 5, "the child's watchdog is the console's 1 s, not the default 10 s: "
                    + r.error);
            gui.until("an error dialog", () -> !gui.errorDialogs().isEmpty());
            Shell dialog = gui.errorDialogs().get(0);
            assertTrue(Gui.texts(dialog).contains("type " + TpSpinFactory.TYPE + ", bundle " + BSN), Gui.texts(dialog));
            dialog.close();

            // the console goes on: the third-party sink runs, in a child of its own again
            shell.dispose();
            shell = console.open(display, pipeline("dropin-tpsink", TpSinkFactory.TYPE, "1ms"));
            RunResultDTO next = run();
            assertEquals("FINISHED", next.state, next.error);
            assertEquals(next.elements.get("src").get("txPackets"), next.elements.get("snk").get("received"));
        } finally {
            removeJar();
        }
    }

    @Test
    void inTheConsolesOwnProcessADroppedTypeSwapsLiveAndDeletingTheJarEndsTheRun() throws Exception {
        drop();
        try {
            untilInstalled();
            shell = console.open(display, pipeline("dropin-tpsink-long", TpSinkFactory.TYPE, "1s"));
            Button isolate = gui.find(shell, ConsoleService.ID_ISOLATE, Button.class);
            assertTrue(isolate.getSelection());
            isolate.setSelection(false); // live swaps need the run in this process
            Combo speed = gui.find(shell, ConsoleService.ID_SPEED, Combo.class);
            speed.select(Arrays.asList(speed.getItems()).indexOf("0.01x real time")); // 1 s of virtual time takes 100 s
            Text summary = gui.find(shell, ConsoleService.ID_SUMMARY, Text.class);
            gui.click(gui.find(shell, ConsoleService.ID_RUN, Button.class));
            Label status = gui.find(shell, ConsoleService.ID_STATUS, Label.class);
            gui.until("the run to go", () -> status.getText().startsWith("RUNNING"));

            Combo element = gui.find(shell, ConsoleService.ID_SWAP_ELEMENT, Combo.class);
            element.select(Arrays.asList(element.getItems()).indexOf("snk"));
            element.notifyListeners(SWT.Selection, new Event());
            Combo target = gui.find(shell, ConsoleService.ID_SWAP_TARGET, Combo.class);
            assertTrue(target.getItem(0).startsWith(TpSinkFactory.TYPE + "@" + VERSION), Arrays.toString(target.getItems()));
            target.select(0);
            gui.click(gui.find(shell, ConsoleService.ID_SWAP, Button.class));
            gui.until("the swap in the log", () -> log().contains("swap at "));
            TabFolder tabs = gui.find(shell, ConsoleService.ID_CHART_TABS, TabFolder.class);
            gui.until("the swap marked on the charts", () -> Integer.valueOf(1).equals(tabs.getData(ConsoleService.SWAPS_DATA)));
            assertTrue(status.getText().startsWith("RUNNING"), status.getText());

            Files.delete(jar);
            gui.until("the run to end", () -> summary.getData(ConsoleService.RESULT_DATA) != null);
            RunResultDTO r = (RunResultDTO) summary.getData(ConsoleService.RESULT_DATA);
            assertEquals("FAILED", r.state);
            assertTrue(r.error.startsWith("bundle " + BSN + " " + VERSION + " ") && r.error.contains("uninstalled")
                    && r.error.contains("element type " + TpSinkFactory.TYPE), r.error);
            assertTrue(r.elements.get("snk").get("received") > 0, "the results up to the end: " + r.elements);
            assertEquals(1, r.swaps.size(), r.swaps.toString());
            SwapDTO d = r.swaps.get(0);
            assertTrue(d.applied, d.message);
            assertEquals(TpSinkFactory.TYPE + "@" + VERSION, d.to);
            gui.until("an error dialog", () -> !gui.errorDialogs().isEmpty());
            gui.errorDialogs().get(0).close();

            // the console goes on: a pipeline of Ringlab's own bundles runs to its end
            shell.dispose();
            shell = console.open(display, Path.of(context.getProperty("ringlab.home")).resolve("pipelines/netdev-bql.pipeline"));
            gui.find(shell, ConsoleService.ID_DURATION, Text.class).setText("5ms");
            assertEquals("FINISHED", run().state);
        } finally {
            removeJar();
        }
    }

    // ------------------------------------------------------------------ the drop-in bundle

    /**
     * Writes the bundle jar next to the watched folder and moves it in, so that fileinstall never reads a half-written
     * jar.
     */
    private void drop() throws IOException {
        Path folder = Path.of(context.getProperty("felix.fileinstall.dir"));
        Files.createDirectories(folder);
        Path staged = Files.createDirectories(work()).resolve(BSN + ".jar");
        writeBundle(staged);
        jar = Files.move(staged, folder.resolve(BSN + ".jar"), StandardCopyOption.ATOMIC_MOVE);
    }

    /** Deletes the jar if a test left it, and waits until fileinstall has uninstalled its bundle. */
    private void removeJar() throws IOException {
        if (jar != null) {
            Files.deleteIfExists(jar);
        }
        gui.until("fileinstall to uninstall " + BSN, () -> installed() == null);
    }

    private void untilInstalled() {
        gui.until("the dropped bundle's element types", () -> simulator.elementTypes().stream()
                .filter(d -> d.type.equals(TpSinkFactory.TYPE) || d.type.equals(TpSpinFactory.TYPE)).count() == 2);
    }

    private Bundle installed() {
        for (Bundle b : context.getBundles()) {
            if (BSN.equals(b.getSymbolicName())) {
                return b;
            }
        }
        return null;
    }

    /** The bundle: the fixture package's classes, a component per element type, and a manifest of its own. */
    private void writeBundle(Path file) throws IOException {
        Manifest m = new Manifest();
        Attributes a = m.getMainAttributes();
        a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        a.putValue("Bundle-ManifestVersion", "2");
        a.putValue("Bundle-SymbolicName", BSN);
        a.putValue("Bundle-Version", VERSION);
        // the API packages' consumer range, as bnd would write it
        a.putValue("Import-Package", "io.ringlab.buffer.api;version=\"[1.0,2)\",io.ringlab.sim.api;version=\"[1.0,2)\","
                + "io.ringlab.sim.api.dto;version=\"[1.0,2)\"");
        a.putValue("Service-Component", "OSGI-INF/tpsink.xml,OSGI-INF/tpspin.xml");
        // what bnd writes for a DS component providing a service, one per component
        String factory = "osgi.service;objectClass:List<String>=\"" + ElementFactory.class.getName() + "\"";
        a.putValue("Provide-Capability", factory + "," + factory);
        try (OutputStream os = Files.newOutputStream(file); JarOutputStream j = new JarOutputStream(os, m)) {
            String pkg = TpSinkFactory.class.getPackageName().replace('.', '/');
            for (URL u : Collections.list(context.getBundle().findEntries(pkg, "*.class", false))) {
                j.putNextEntry(new JarEntry(u.getPath().substring(1)));
                try (InputStream in = u.openStream()) {
                    in.transferTo(j);
                }
            }
            entry(j, "OSGI-INF/tpsink.xml", component(TpSinkFactory.class, TpSinkFactory.TYPE, ""));
            entry(j, "OSGI-INF/tpspin.xml", component(TpSpinFactory.class, TpSpinFactory.TYPE, " deactivate=\"deactivate\""));
        }
    }

    private static void entry(JarOutputStream j, String name, String text) throws IOException {
        j.putNextEntry(new JarEntry(name));
        j.write(text.getBytes(StandardCharsets.UTF_8));
    }

    /** A DS component providing the class as the element type {@code type}; {@code attributes} go on its element. */
    private static String component(Class<?> implementation, String type, String attributes) {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <scr:component xmlns:scr="http://www.osgi.org/xmlns/scr/v1.3.0" name="%s"%s>
                  <property name="%s" type="String" value="%s"/>
                  <service><provide interface="%s"/></service>
                  <implementation class="%s"/>
                </scr:component>
                """.formatted(implementation.getName(), attributes, ElementFactory.TYPE, type, ElementFactory.class.getName(),
                implementation.getName());
    }

    // ------------------------------------------------------------------ helpers

    /** @return a folder for this test's files, beside the screenshots (a build artifact) */
    private Path work() {
        return Path.of(context.getProperty("ringlab.screenshots")).resolveSibling("dropin");
    }

    /** @return a pipeline file: a source pushing into one element of {@code type}, named {@code snk} */
    private Path pipeline(String name, String type, String duration) throws IOException {
        Path file = Files.createDirectories(work()).resolve(name + ".pipeline");
        return Files.writeString(file, """
                duration = %s
                element src : source { rate = 1Gbit; size = 1518B }
                element snk : %s
                src -> snk
                """.formatted(duration, type));
    }

    /** Runs the open pipeline with the Run button and returns the result the summary shows. */
    private RunResultDTO run() {
        Text summary = gui.find(shell, ConsoleService.ID_SUMMARY, Text.class);
        summary.setData(ConsoleService.RESULT_DATA, null);
        gui.click(gui.find(shell, ConsoleService.ID_RUN, Button.class));
        gui.until("the run's result", () -> summary.getData(ConsoleService.RESULT_DATA) != null);
        RunResultDTO r = (RunResultDTO) summary.getData(ConsoleService.RESULT_DATA);
        assertNotNull(r.state);
        return r;
    }

    private String log() {
        return gui.find(shell, ConsoleService.ID_LOG, Text.class).getText();
    }

    private static boolean hasType(Tree palette, String type) {
        return Gui.leaves(palette).stream().anyMatch(t -> t.startsWith(type + "  ("));
    }

    private static TreeItem item(Tree palette, String type) {
        for (TreeItem c : palette.getItems()) {
            for (TreeItem t : c.getItems()) {
                if (t.getText().startsWith(type + "  (")) {
                    return t;
                }
            }
        }
        throw new AssertionError(type + " is not in the palette");
    }
}

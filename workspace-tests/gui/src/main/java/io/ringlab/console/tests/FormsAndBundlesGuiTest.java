package io.ringlab.console.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.TabFolder;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.swt.widgets.Text;
import org.eclipse.swt.widgets.Tree;
import org.junit.jupiter.api.Test;
import org.osgi.framework.Bundle;

import io.ringlab.console.api.ConsoleService;
import io.ringlab.pipeline.format.Overrides;
import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.pipeline.format.Units;
import io.ringlab.sim.api.dto.PipelineDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * The property forms and the bundles view with real widgets and the real engine: a property changed through its form
 * changes the next run exactly as {@code --set} changes a headless run; an invalid value shows its message under the
 * field and Run refuses; a bundle installed from the bundles view brings its element type to the palette and takes it
 * away when uninstalled there.
 */
class FormsAndBundlesGuiTest extends GuiTest {
    private static final String MVNETA = "io.ringlab.driver.mvneta";

    private Path sample() {
        return Path.of(context.getProperty("ringlab.home"), "pipelines", "netdev-bql.pipeline");
    }

    /**
     * eth0.bql from false to true with its check box, q.limit from 1000 to 50 typed into its field: the next run equals a
     * headless run of the file with {@code --set eth0.bql=true --set q.limit=50} and the same seed, and differs from the
     * run before the edits; the file itself is unchanged.
     */
    @Test
    void aPropertyChangedInItsFormChangesTheNextRunAsSetDoesAHeadlessRun() throws Exception {
        String fileBefore = Files.readString(sample());
        shell = console.open(display, sample());
        gui.find(shell, ConsoleService.ID_DURATION, Text.class).setText("20ms");
        gui.find(shell, ConsoleService.ID_SEED, Text.class).setText("7");
        RunResultDTO before = run();
        assertEquals(headless(), before.elements, "the unedited run is the file's");

        select("eth0");
        TabFolder tabs = gui.find(shell, ConsoleService.ID_TABS, TabFolder.class);
        assertEquals("Properties", tabs.getSelection()[0].getText(), "selecting an element shows its form");
        Composite form = gui.find(shell, ConsoleService.ID_PROPERTIES, Composite.class);
        assertTrue(labels(form).contains("eth0 : netdev"), labels(form).toString());
        Button bql = gui.find(shell, ConsoleService.PROPERTY_PREFIX + "bql", Button.class);
        assertTrue((bql.getStyle() & SWT.CHECK) != 0, "bql is a check box");
        assertFalse(bql.getSelection(), "the file says bql = false");
        Text hold = gui.find(shell, ConsoleService.PROPERTY_PREFIX + "bqlHoldTime", Text.class);
        assertEquals("", hold.getText(), "a property the file does not set shows empty, its default as the hint");
        assertEquals("1s", hold.getMessage());
        assertTrue(labels(form).contains("ps ns us ms s; default 1s; 0s to 60s"), labels(form).toString());
        bql.setSelection(true);
        bql.notifyListeners(SWT.Selection, new Event());

        select("q");
        Text limit = gui.find(shell, ConsoleService.PROPERTY_PREFIX + "limit", Text.class);
        assertEquals("1000", limit.getText());
        limit.setText("50");
        assertEquals("", gui.find(shell, ConsoleService.PROPERTY_PREFIX + "limit.error", Label.class).getText());
        gui.screenshot(shell, context.getProperty("ringlab.screenshots"), "console-properties");

        RunResultDTO after = run();
        assertEquals(headless("eth0.bql=true", "q.limit=50"), after.elements, "the edited run is the file's with the same --set");
        assertNotEquals(before.elements, after.elements);
        assertTrue(after.headline.value < before.headline.value / 4, "BQL keeps the device's queue short, and the band-0"
                + " ping passes the qdisc's backlog: ping.rttP50Millis " + before.headline.value + " without, "
                + after.headline.value + " with");
        Text log = gui.find(shell, ConsoleService.ID_LOG, Text.class);
        assertTrue(log.getText().contains("running the pipeline as edited (not saved to its file): eth0.bql=true, q.limit=50"), log.getText());
        assertEquals(fileBefore, Files.readString(sample()), "the form wrote into the file");
    }

    /**
     * Invalid values show their message under the field as they are typed (the element, the property and what is allowed),
     * and Run refuses with the messages until they are fixed or reset to the default.
     */
    @Test
    void anInvalidValueShowsItsMessageInlineAndRunRefusesUntilItIsFixed() throws Exception {
        shell = console.open(display, sample());
        gui.find(shell, ConsoleService.ID_DURATION, Text.class).setText("5ms");
        select("q");
        Text limit = gui.find(shell, ConsoleService.PROPERTY_PREFIX + "limit", Text.class);
        Label limitError = gui.find(shell, ConsoleService.PROPERTY_PREFIX + "limit.error", Label.class);
        limit.setText("0");
        assertEquals("q.limit=0 is out of range: allowed 1 to 1000000", limitError.getText());
        assertTrue(limitError.isVisible());
        limit.setText("10x");
        assertTrue(limitError.getText().startsWith("q.limit: '10x' is not an integer: write decimal digits"), limitError.getText());

        select("wire");
        Text delay = gui.find(shell, ConsoleService.PROPERTY_PREFIX + "delay", Text.class);
        delay.setText("10");
        String delayMessage = gui.find(shell, ConsoleService.PROPERTY_PREFIX + "delay.error", Label.class).getText();
        assertTrue(delayMessage.startsWith("wire.delay: '10' is not a duration: the unit is missing; write a number followed by ps, ns"),
                delayMessage);
        gui.screenshot(shell, context.getProperty("ringlab.screenshots"), "console-properties-invalid");
        delay.setText("10us");
        assertEquals("", gui.find(shell, ConsoleService.PROPERTY_PREFIX + "delay.error", Label.class).getText());

        gui.click(gui.find(shell, ConsoleService.ID_RUN, Button.class));
        gui.until("an error dialog", () -> !gui.errorDialogs().isEmpty());
        String message = Gui.texts(gui.errorDialogs().get(0));
        assertTrue(message.contains("fix these in the Properties tab:\nq.limit: '10x' is not an integer"), message);
        assertNull(gui.find(shell, ConsoleService.ID_SUMMARY, Text.class).getData(ConsoleService.RESULT_DATA));
        assertTrue(gui.find(shell, ConsoleService.ID_STATUS, Label.class).getText().startsWith("ready:"), "a run started");
        assertTrue(gui.find(shell, ConsoleService.ID_LOG, Text.class).getText().contains("ERROR Invalid property values"));
        gui.errorDialogs().get(0).close();

        select("q"); // the invalid text and its message survive a change of selection
        limit = gui.find(shell, ConsoleService.PROPERTY_PREFIX + "limit", Text.class);
        assertEquals("10x", limit.getText());
        assertFalse(gui.find(shell, ConsoleService.PROPERTY_PREFIX + "limit.error", Label.class).getText().isEmpty());
        gui.click(gui.find(shell, ConsoleService.PROPERTY_PREFIX + "limit.default", Button.class));
        assertEquals("", limit.getText());
        assertEquals("", gui.find(shell, ConsoleService.PROPERTY_PREFIX + "limit.error", Label.class).getText());

        RunResultDTO r = run();
        assertEquals("FINISHED", r.state, r.error);
        assertTrue(gui.errorDialogs().isEmpty());
    }

    /**
     * The mvneta driver bundle, uninstalled first, is installed again from its jar through the bundles view: it shows as
     * ACTIVE and its type mvneta joins the palette; Uninstall in the view takes both away. A file that is no bundle is
     * refused with a dialog naming the file.
     */
    @Test
    void aBundleInstalledFromTheBundlesViewBringsItsTypeToThePaletteAndUninstallTakesItAway() throws Exception {
        Bundle original = bundle(MVNETA).orElseThrow();
        Path jar = Path.of(context.getProperty("ringlab.screenshots")).resolveSibling("bundles").resolve(MVNETA + ".jar");
        Files.createDirectories(jar.getParent());
        Files.copy(file(original.getLocation()), jar, StandardCopyOption.REPLACE_EXISTING);
        shell = console.open(display, null);
        Tree palette = gui.find(shell, ConsoleService.ID_PALETTE, Tree.class);
        Table table = gui.find(shell, ConsoleService.ID_BUNDLES, Table.class);
        assertTrue(rows(table).contains(MVNETA + " ACTIVE"), rows(table).toString());
        original.uninstall();
        try {
            gui.until("mvneta to leave the palette and the table", () -> !hasType(palette, "mvneta") && rows(table).stream().noneMatch(r -> r.startsWith(MVNETA)));
            TabFolder tabs = gui.find(shell, ConsoleService.ID_TABS, TabFolder.class);
            tabs.setSelection(2);

            Button install = gui.find(shell, ConsoleService.ID_BUNDLE_INSTALL, Button.class);
            install.setData(ConsoleService.FILE_DATA, jar.toString());
            gui.click(install);
            gui.until("mvneta to be listed ACTIVE and its type in the palette", () -> rows(table).contains(MVNETA + " ACTIVE") && hasType(palette, "mvneta"));
            assertTrue(Gui.leaves(palette).stream().anyMatch(t -> t.startsWith("mvneta  (" + MVNETA + " ")), Gui.leaves(palette).toString());
            assertTrue(gui.errorDialogs().isEmpty(), "an error dialog is open");
            Text log = gui.find(shell, ConsoleService.ID_LOG, Text.class);
            assertTrue(log.getText().contains("installed and started " + MVNETA), log.getText());
            assertNull(install.getData(ConsoleService.FILE_DATA), "the file hook is used once");
            gui.screenshot(shell, context.getProperty("ringlab.screenshots"), "console-bundles");

            Button uninstall = gui.find(shell, ConsoleService.ID_BUNDLE_UNINSTALL, Button.class);
            assertFalse(uninstall.isEnabled(), "Uninstall is enabled with no bundle selected");
            selectRow(table, MVNETA);
            gui.click(uninstall);
            gui.until("mvneta to leave the palette and the table again", () -> !hasType(palette, "mvneta") && rows(table).stream().noneMatch(r -> r.startsWith(MVNETA)));
            assertTrue(log.getText().contains("uninstalled " + MVNETA), log.getText());

            Path notABundle = Files.writeString(jar.resolveSibling("not-a-bundle.jar"), "not a jar");
            install.setData(ConsoleService.FILE_DATA, notABundle.toString());
            gui.click(install);
            gui.until("an error dialog", () -> !gui.errorDialogs().isEmpty());
            String message = Gui.texts(gui.errorDialogs().get(0));
            // the framework's own words follow (Felix: "Unable to cache bundle: file:...; caused by: ZipException: ...")
            assertTrue(message.contains("Cannot install " + notABundle + ": ") && message.contains("zip END header not found"), message);
            assertTrue(log.getText().contains("ERROR Cannot install the bundle: Cannot install " + notABundle), log.getText());
        } finally {
            if (bundle(MVNETA).isEmpty()) { // put it back for the other tests
                context.installBundle(original.getLocation(), Files.newInputStream(jar)).start();
            }
        }
    }

    // ------------------------------------------------------------------ helpers

    /** Runs the open pipeline with the Run button and returns the result the summary shows. */
    private RunResultDTO run() {
        Text summary = gui.find(shell, ConsoleService.ID_SUMMARY, Text.class);
        summary.setData(ConsoleService.RESULT_DATA, null);
        gui.click(gui.find(shell, ConsoleService.ID_RUN, Button.class));
        gui.until("the run to end", () -> summary.getData(ConsoleService.RESULT_DATA) != null || !gui.errorDialogs().isEmpty());
        assertTrue(gui.errorDialogs().isEmpty(), () -> "error dialog: " + Gui.texts(gui.errorDialogs().get(0)));
        RunResultDTO r = (RunResultDTO) summary.getData(ConsoleService.RESULT_DATA);
        assertEquals("FINISHED", r.state, r.error);
        return r;
    }

    /** @return the element metrics of a headless run of the sample, 20 ms, seed 7, with {@code --set} overrides. */
    private Map<String, Map<String, Double>> headless(String... sets) throws Exception {
        PipelineDTO p = PipelineReader.read(sample());
        Overrides.apply(p, List.of(sets));
        RunOptionsDTO o = new RunOptionsDTO();
        o.durationPicos = Units.parsePicos("20ms");
        o.seed = 7L;
        return simulator.prepare(p, o).run().elements;
    }

    /**
     * Issue 20, section 5: Help > Model Page says what to do without a selection and names the selected element's page,
     * Help > Documentation the docs' index, About lists Ringlab's version and bundles, and File > Exit is Ctrl+Q.
     */
    @Test
    void helpNamesThePagesAboutListsTheBundlesAndCtrlQQuits() throws Exception {
        Path home = Path.of(context.getProperty("ringlab.home")).toAbsolutePath().normalize(); // as the console has it
        shell = console.open(display, home.resolve("pipelines").resolve("stmmac-bql-100m.pipeline"));
        gui.settle();
        Text log = gui.find(shell, ConsoleService.ID_LOG, Text.class);
        gui.menuItem(shell, ConsoleService.ID_MENU_MODEL_PAGE).notifyListeners(SWT.Selection, new Event());
        assertEquals(1, gui.errorDialogs().size(), "no selection: a dialog says what to do");
        assertTrue(allLabels(gui.errorDialogs().get(0)).stream().anyMatch(l -> l.contains("Select one element")));
        gui.errorDialogs().get(0).close();

        select("eth0");
        gui.menuItem(shell, ConsoleService.ID_MENU_MODEL_PAGE).notifyListeners(SWT.Selection, new Event());
        assertTrue(log.getText().contains("help: stmmac's model page is " + home.resolve("docs/models/stmmac.md")),
                log.getText());
        gui.menuItem(shell, ConsoleService.ID_MENU_DOCS).notifyListeners(SWT.Selection, new Event());
        assertTrue(log.getText().contains("help: the documentation is " + home.resolve("docs").resolve("index.md")),
                log.getText());
        assertTrue(gui.errorDialogs().isEmpty(), "both pages exist");

        gui.menuItem(shell, ConsoleService.ID_MENU_ABOUT).notifyListeners(SWT.Selection, new Event());
        org.eclipse.swt.widgets.Shell about = Arrays.stream(display.getShells()).filter(s -> !s.isDisposed()
                && ConsoleService.ID_ABOUT.equals(s.getData(ConsoleService.WIDGET_ID))).findFirst().orElseThrow();
        String text = String.join("\n", allLabels(about));
        Bundle console = Arrays.stream(context.getBundles()).filter(b -> "io.ringlab.console".equals(b.getSymbolicName()))
                .findFirst().orElseThrow();
        assertTrue(text.contains("Ringlab " + console.getVersion()), text);
        assertTrue(text.contains("io.ringlab.engine ") && text.contains("io.ringlab.console " + console.getVersion()), text);
        // the framework is Felix, as decided: the console ran on Equinox until session 19 (org.eclipse.osgi on the class
        // path came first, and the bnd launcher takes the first FrameworkFactory); About names the running one
        assertEquals("org.apache.felix.framework", context.getBundle(0).getSymbolicName(), "the running framework");
        assertTrue(text.contains("on org.apache.felix.framework " + context.getBundle(0).getVersion() + ";"), text);
        about.close();

        org.eclipse.swt.widgets.MenuItem exit = gui.menuItem(shell, ConsoleService.ID_MENU_EXIT);
        assertEquals(SWT.MOD1 + 'Q', exit.getAccelerator(), "Ctrl+Q");
        exit.notifyListeners(SWT.Selection, new Event());
        gui.settle();
        assertTrue(shell.isDisposed(), "a clean window quits at once");
    }

    /** Clicks the element's box on the pipeline canvas, where the canvas says it drew it. */
    @SuppressWarnings("unchecked")
    private void select(String element) {
        Canvas canvas = gui.find(shell, ConsoleService.ID_PIPELINE, Canvas.class);
        gui.settle();
        int[] b = ((Map<String, int[]>) canvas.getData(ConsoleService.BOUNDS_DATA)).get(element);
        assertNotNull(b, element + " is not drawn");
        Event e = new Event();
        e.button = 1;
        e.x = b[0] + b[2] / 2;
        e.y = b[1] + b[3] / 2;
        canvas.notifyListeners(SWT.MouseDown, e);
        Event up = new Event();
        up.button = 1;
        up.x = e.x;
        up.y = e.y;
        canvas.notifyListeners(SWT.MouseUp, up); // a click, not the start of a drag
        assertEquals(element, canvas.getData(ConsoleService.SELECTION_DATA));
        Composite form = gui.find(shell, ConsoleService.ID_PROPERTIES, Composite.class);
        assertTrue(labels(form).stream().anyMatch(l -> l.startsWith(element + " : ")), labels(form).toString());
    }

    private Optional<Bundle> bundle(String name) {
        return Arrays.stream(context.getBundles()).filter(b -> name.equals(b.getSymbolicName())).findFirst();
    }

    /** @return the file behind a bundle location as bnd's launcher writes it (a path, or a file: or reference:file: URI). */
    private static Path file(String location) {
        String l = location.startsWith("reference:") ? location.substring("reference:".length()) : location;
        return l.startsWith("file:") ? Path.of(URI.create(l)) : Path.of(l);
    }

    private static List<String> rows(Table t) {
        List<String> l = new ArrayList<>();
        for (TableItem i : t.getItems()) {
            l.add(i.getText(1) + " " + i.getText(2)); // symbolic name and state
        }
        return l;
    }

    private static void selectRow(Table t, String symbolicName) {
        for (int i = 0; i < t.getItemCount(); i++) {
            if (symbolicName.equals(t.getItem(i).getText(1))) {
                t.setSelection(i);
                t.notifyListeners(SWT.Selection, new Event());
                return;
            }
        }
        throw new AssertionError(symbolicName + " not in the table");
    }

    private static boolean hasType(Tree palette, String type) {
        return Gui.leaves(palette).stream().anyMatch(t -> t.startsWith(type + "  ("));
    }

    /** @return the texts of every label in {@code c}, however deep (a dialog's message) */
    private static List<String> allLabels(Composite c) {
        List<String> l = new ArrayList<>();
        for (Control k : c.getChildren()) {
            if (k instanceof Label label) {
                l.add(label.getText());
            } else if (k instanceof Composite inner) {
                l.addAll(allLabels(inner));
            }
        }
        return l;
    }

    private static List<String> labels(Composite c) {
        List<String> l = new ArrayList<>();
        for (Control k : c.getChildren()) {
            if (k instanceof Label label) {
                l.add(label.getText());
            }
        }
        return l;
    }
}

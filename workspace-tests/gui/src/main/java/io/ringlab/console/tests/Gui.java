package io.ringlab.console.tests;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Image;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.ImageLoader;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Menu;
import org.eclipse.swt.widgets.MenuItem;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeItem;
import org.eclipse.swt.widgets.Widget;

import io.ringlab.console.api.ConsoleService;

/**
 * Drives real SWT widgets from a test: finds them by their console id, clicks them as a user would (only when enabled),
 * and pumps the event loop until a condition holds, failing after a generous bound. The test thread is the UI thread.
 */
final class Gui {
    /** The longest a GUI condition may take before the test fails; generous for a loaded 2-core CI machine. */
    static final long BOUND_MILLIS = 60_000;

    private static Display shared;

    private final Display display;

    /**
     * @return the display of all GUI test classes, created on the first call on the tester's thread and never disposed:
     *         SWTChart keeps fonts of the first display in static fields, so a second display's charts fail to paint
     *         ("Argument not valid" in {@code GC.setFont}); the framework's exit ends it
     */
    static synchronized Display display() {
        if (shared == null || shared.isDisposed()) {
            shared = new Display();
        }
        return shared;
    }

    private final Runnable wake = () -> {
    };

    Gui(Display display) {
        this.display = display;
    }

    /** @return the text of every label in a composite (a dialog), one per line, depth first */
    static String texts(Composite c) {
        StringBuilder sb = new StringBuilder();
        for (Control k : c.getChildren()) {
            if (k instanceof Label l) {
                sb.append(l.getText()).append('\n');
            } else if (k instanceof Composite cc) {
                sb.append(texts(cc));
            }
        }
        return sb.toString();
    }

    /** @return the menu bar item of {@code shell} whose console id is {@code id}, at any depth; fails the test if none */
    MenuItem menuItem(Shell shell, String id) {
        MenuItem i = find(shell.getMenuBar(), id);
        assertNotNull(i, "no menu item " + id);
        return i;
    }

    private static MenuItem find(Menu m, String id) {
        for (MenuItem i : m.getItems()) {
            if (id.equals(i.getData(ConsoleService.WIDGET_ID))) {
                return i;
            }
            if (i.getMenu() != null) {
                MenuItem k = find(i.getMenu(), id);
                if (k != null) {
                    return k;
                }
            }
        }
        return null;
    }

    /** Runs the event loop until {@code condition} holds; fails, naming {@code what}, after {@link #BOUND_MILLIS}. */
    void until(String what, BooleanSupplier condition) {
        long end = System.nanoTime() + BOUND_MILLIS * 1_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                fail("GUI: gave up after " + BOUND_MILLIS / 1000 + " s waiting for " + what);
            }
            if (!display.readAndDispatch()) {
                display.timerExec(20, wake); // sleep() returns on the next event or this timer, whichever is first
                display.sleep();
            }
        }
    }

    /** Runs the event loop for a span of wall time (to show that something does NOT happen during it). */
    void pumpFor(long millis) {
        long end = System.nanoTime() + millis * 1_000_000L;
        while (System.nanoTime() < end) {
            if (!display.readAndDispatch()) {
                display.timerExec(20, wake);
                display.sleep();
            }
        }
    }

    /** Processes pending events until the queue is empty (layout and paint included). */
    void settle() {
        while (display.readAndDispatch()) {
            // drain
        }
    }

    /** @return the widget under {@code root} with the console id, or a failed test. */
    <W extends Widget> W find(Composite root, String id, Class<W> type) {
        List<Widget> all = new ArrayList<>();
        collect(root, all);
        for (Widget w : all) {
            if (id.equals(w.getData(ConsoleService.WIDGET_ID))) {
                assertTrue(type.isInstance(w), id + " is a " + w.getClass().getSimpleName() + ", not a " + type.getSimpleName());
                return type.cast(w);
            }
        }
        fail("no widget with id " + id);
        return null;
    }

    private static void collect(Control c, List<Widget> into) {
        into.add(c);
        if (c instanceof Composite comp) {
            for (Control child : comp.getChildren()) {
                collect(child, into);
            }
        }
    }

    /** Clicks a button as a user would: it must be enabled. */
    void click(Button b) {
        assertTrue(b.isEnabled(), "button " + b.getText() + " is disabled");
        b.notifyListeners(SWT.Selection, new Event());
    }

    /** @return the open error dialogs' shells. */
    List<Shell> errorDialogs() {
        List<Shell> l = new ArrayList<>();
        for (Shell s : display.getShells()) {
            if (!s.isDisposed() && ConsoleService.ID_ERROR.equals(s.getData(ConsoleService.WIDGET_ID))) {
                l.add(s);
            }
        }
        return l;
    }

    /**
     * Saves what the screen shows of a shell as a PNG.
     *
     * @param dir the folder (the framework property {@code ringlab.screenshots}); must not be {@code null}
     * @return the file
     */
    Path screenshot(Shell shell, String dir, String name) throws Exception {
        shell.forceActive();
        Rectangle area = shell.getClientArea();
        shell.redraw(area.x, area.y, area.width, area.height, true);
        shell.update();
        pumpFor(300); // GTK paints on its frame clock: let it catch up before reading the screen
        assertNotNull(dir, "ringlab.screenshots is not set");
        Path out = Path.of(dir, name + ".png");
        Files.createDirectories(out.getParent());
        Rectangle b = shell.getBounds();
        Image image = new Image(display, b.width, b.height);
        GC gc = new GC(display);
        try {
            gc.copyArea(image, b.x, b.y);
            ImageLoader loader = new ImageLoader();
            loader.data = new ImageData[] { image.getImageData() };
            loader.save(out.toString(), SWT.IMAGE_PNG);
        } finally {
            gc.dispose();
            image.dispose();
        }
        return out;
    }

    /** @return what the screen shows of a control now, after it has painted */
    ImageData grab(org.eclipse.swt.widgets.Control c) {
        c.redraw();
        c.update();
        pumpFor(300); // GTK paints on its frame clock
        org.eclipse.swt.graphics.Point at = c.toDisplay(0, 0), size = c.getSize();
        Image image = new Image(display, size.x, size.y);
        GC gc = new GC(display);
        try {
            gc.copyArea(image, at.x, at.y);
            return image.getImageData();
        } finally {
            gc.dispose();
            image.dispose();
        }
    }

    /** @return how many pixels of {@code area} (clipped to the image) have exactly the colour {@code rgb} */
    static int count(ImageData img, Rectangle area, org.eclipse.swt.graphics.RGB rgb) {
        int n = 0;
        for (int y = Math.max(0, area.y); y < Math.min(img.height, area.y + area.height); y++) {
            for (int x = Math.max(0, area.x); x < Math.min(img.width, area.x + area.width); x++) {
                if (img.palette.getRGB(img.getPixel(x, y)).equals(rgb)) {
                    n++;
                }
            }
        }
        return n;
    }

    /** @return the texts of a two-level tree's leaves (the palette: category, then type), in order */
    static List<String> leaves(Tree tree) {
        List<String> l = new ArrayList<>();
        for (TreeItem c : tree.getItems()) {
            for (TreeItem t : c.getItems()) {
                l.add(t.getText());
            }
        }
        return l;
    }
}

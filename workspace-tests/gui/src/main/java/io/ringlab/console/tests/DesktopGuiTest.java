package io.ringlab.console.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.SashForm;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.ImageLoader;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Sash;
import org.eclipse.swt.widgets.Text;
import org.junit.jupiter.api.Test;

import io.ringlab.console.api.ConsoleService;

/**
 * Issue 20, section 5: visible sashes between the panes, the window's size and pane layout remembered between sessions,
 * and the README's screenshot of the console taken here, so that it cannot go stale.
 */
class DesktopGuiTest extends GuiTest {
    private static final String[] SASHES = { "window", "main", "middle" };

    @Test
    void sashesAreVisibleAndTheWindowsSizeAndLayoutAreRemembered() throws Exception {
        shell = console.open(display, null);
        gui.pumpFor(300); // laid out and painted
        RGB sashColour = display.getSystemColor(SWT.COLOR_WIDGET_NORMAL_SHADOW).getRGB();
        for (String name : SASHES) {
            SashForm f = gui.find(shell, ConsoleService.SASH_PREFIX + name, SashForm.class);
            assertTrue(f.getSashWidth() >= 5, name + "'s sash is " + f.getSashWidth() + " pixels wide");
            // each sash between its panes is drawn in its colour, as wide as it says
            List<Sash> bars = Arrays.stream(f.getChildren()).filter(Sash.class::isInstance).map(Sash.class::cast).toList();
            assertEquals(f.getWeights().length - 1, bars.size(), name + "'s sashes: children " + Arrays.stream(f.getChildren())
                    .map(c -> c.getClass().getSimpleName() + c.getBounds()).toList());
            ImageData img = gui.grab(f);
            for (Sash bar : bars) {
                Rectangle b = bar.getBounds();
                assertEquals(f.getSashWidth(), f.getOrientation() == SWT.HORIZONTAL ? b.width : b.height, name + "'s sash " + b);
                int x = b.x + b.width / 2, y = b.y + b.height / 2;
                assertEquals(sashColour, img.palette.getRGB(img.getPixel(x, y)), name + "'s sash at " + x + "," + y);
            }
        }
        shell.setBounds(30, 40, 1100, 700);
        gui.find(shell, ConsoleService.SASH_PREFIX + "main", SashForm.class).setWeights(30, 45, 25);
        gui.find(shell, ConsoleService.SASH_PREFIX + "middle", SashForm.class).setWeights(1, 1);
        gui.settle();
        int[][] weights = new int[SASHES.length][];
        for (int i = 0; i < SASHES.length; i++) {
            weights[i] = gui.find(shell, ConsoleService.SASH_PREFIX + SASHES[i], SashForm.class).getWeights();
        }
        shell.dispose();
        gui.settle();
        Path state = Path.of(context.getProperty("ringlab.console.state"));
        assertTrue(Files.isRegularFile(state), "the layout is written when the window closes: " + state);

        shell = console.open(display, null);
        gui.settle();
        assertEquals(new Rectangle(30, 40, 1100, 700), shell.getBounds(), "the size and position of last time");
        for (int i = 0; i < SASHES.length; i++) {
            int[] now = gui.find(shell, ConsoleService.SASH_PREFIX + SASHES[i], SashForm.class).getWeights();
            assertEquals(weights[i].length, now.length);
            for (int k = 0; k < now.length; k++) {
                assertEquals(weights[i][k], now[k], 2, SASHES[i] + "'s weights: " + Arrays.toString(now) + ", were "
                        + Arrays.toString(weights[i]));
            }
        }

        // a broken file: the default layout, and the log names the file, the key and what is allowed
        shell.dispose();
        gui.settle();
        Files.writeString(state, "bounds=1,2,3\nsashes.main=a,b\n");
        shell = console.open(display, null);
        String log = gui.find(shell, ConsoleService.ID_LOG, Text.class).getText();
        assertTrue(log.contains(state + ": bounds=1,2,3 left out; allowed: x,y,width,height as whole numbers"), log);
        assertTrue(log.contains(state + ": sashes.main=a,b left out"), log);
        assertEquals(1280, shell.getSize().x, "the default size");
    }

    /**
     * The README's screenshot (docs/console.png): the console after a 20 ms run of netdev-bql at its default size,
     * written here when the console looks different from it (more than 2 % of its pixels differ: the log's times and the
     * wall time of the status line differ from run to run, a changed view does not), so that it shows the console as it
     * is. After the test, docs/console.png is the console as this run drew it, to 2 %.
     */
    @Test
    void theReadmeScreenshotIsTheConsoleAsItIs() throws Exception {
        Path home = Path.of(context.getProperty("ringlab.home"));
        shell = console.open(display, home.resolve("pipelines/netdev-bql.pipeline"));
        gui.find(shell, ConsoleService.ID_DURATION, Text.class).setText("20ms");
        gui.click(gui.find(shell, ConsoleService.ID_RUN, Button.class));
        Text summary = gui.find(shell, ConsoleService.ID_SUMMARY, Text.class);
        gui.until("the run to end", () -> summary.getData(ConsoleService.RESULT_DATA) != null);
        gui.until("the stream to close", () -> summary.getData(ConsoleService.STREAM_DATA) != null);
        Files.delete(Path.of((String) summary.getData(ConsoleService.STREAM_DATA))); // results/ is the user's
        Path shot = gui.screenshot(shell, context.getProperty("ringlab.screenshots"), "console");
        ImageData now = load(shot);
        Path readme = home.resolve("docs/console.png");
        double differs = Files.isRegularFile(readme) ? difference(now, load(readme)) : 1;
        if (differs > 0.02) {
            Files.copy(shot, readme, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            System.out.printf("docs/console.png rewritten: %.1f %% of its pixels differed from the console as drawn now%n",
                    100 * differs);
        }
        assertTrue(difference(now, load(readme)) <= 0.02, "docs/console.png is the console as drawn now");
        assertEquals(1280, now.width);
    }

    private static ImageData load(Path png) throws Exception {
        return new ImageLoader().load(new ByteArrayInputStream(Files.readAllBytes(png)))[0];
    }

    /** @return the share of pixels that differ; 1 when the sizes differ */
    private static double difference(ImageData a, ImageData b) {
        if (a.width != b.width || a.height != b.height) {
            return 1;
        }
        long differ = 0;
        for (int y = 0; y < a.height; y++) {
            for (int x = 0; x < a.width; x++) {
                if (!a.palette.getRGB(a.getPixel(x, y)).equals(b.palette.getRGB(b.getPixel(x, y)))) {
                    differ++;
                }
            }
        }
        return differ / (double) (a.width * (long) a.height);
    }
}

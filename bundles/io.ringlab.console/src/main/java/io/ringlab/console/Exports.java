package io.ringlab.console;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;

import org.eclipse.swt.SWT;
import org.eclipse.swt.SWTException;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.ImageLoader;
import org.eclipse.swt.widgets.Menu;
import org.eclipse.swt.widgets.MenuItem;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Widget;

import io.ringlab.console.api.ConsoleService;
import io.ringlab.pipeline.format.OutputFile;
import io.ringlab.sim.api.dto.RunResultDTO;
import io.ringlab.sim.api.dto.SeriesDTO;

/**
 * File > Export: the visible chart tab as PNG, the series as CSV and the result as JSON, each written by the one writer
 * of its format ({@link ResultFiles}, {@link OutputFile}) to a file from a save dialog or, in tests, from the menu
 * item's automation hook ({@link FileChooser}).
 */
final class Exports {
    private final Shell shell;
    private final ConsoleContext context;
    private final LiveCharts charts;
    private final RunPanel run;
    private final Feedback host;

    Exports(Shell shell, ConsoleContext context, LiveCharts charts, RunPanel run, Feedback host) {
        this.shell = shell;
        this.context = context;
        this.charts = charts;
        this.run = run;
        this.host = host;
    }

    /** @return the file from the automation hook on the menu item, else from a save dialog; {@code null} if cancelled. */
    private Path exportFile(String itemId, String title, String extension) {
        String base = run.pipelineName() == null ? "ringlab" : run.pipelineName();
        return saveTo(menuItem(shell.getMenuBar(), itemId), shell, context, title, extension, base);
    }

    /**
     * @param hook the widget whose automation hook may name the file ({@link FileChooser})
     * @param shell the save dialog's parent
     * @param context where ringlab.home's {@code results} folder, the dialog's first folder, is
     * @param title the dialog's title
     * @param extension the file's extension, without the dot
     * @param base the file name the dialog proposes, before the extension
     * @return the file to export to, or {@code null} if the user cancelled; the one way every export of the console
     *         asks for its file
     */
    static Path saveTo(Widget hook, Shell shell, ConsoleContext context, String title, String extension, String base) {
        return FileChooser.choose(hook, shell, SWT.SAVE, title, extension, base + "." + extension,
                context.home() == null ? null : context.home().resolve("results"));
    }

    /** @return the item with the console id {@code id} in {@code m} or its submenus, or {@code null} */
    static MenuItem menuItem(Menu m, String id) {
        for (MenuItem i : m.getItems()) {
            if (id.equals(i.getData(ConsoleService.WIDGET_ID))) {
                return i;
            }
            if (i.getMenu() != null) {
                MenuItem k = menuItem(i.getMenu(), id);
                if (k != null) {
                    return k;
                }
            }
        }
        return null;
    }

    /** File > Export Chart as PNG: the visible chart tab. */
    void png() {
        Path f = exportFile(ConsoleService.ID_MENU_EXPORT_PNG, "Export the chart as PNG", "png");
        if (f == null) {
            return;
        }
        String tab = charts.visibleTab();
        try {
            ImageLoader loader = new ImageLoader();
            loader.data = new ImageData[] { charts.snapshotOfVisibleTab() };
            loader.save(f.toString(), SWT.IMAGE_PNG);
            host.log("INFO", "exported the " + tab + " charts to " + f);
        } catch (SWTException | IllegalArgumentException e) {
            host.error("Cannot export the chart to " + f, f + ": " + ConsoleWindow.describe(e));
        }
    }

    /** File > Export Series as CSV: the series of the last result, or of the run so far. */
    void csv() {
        RunResultDTO r = run.lastResult();
        SeriesDTO series = run.lastSeries();
        if (series == null || series.columns.isEmpty()) {
            host.error("No series to export", "Run a pipeline first: the CSV holds the sampled series of the last run.");
            return;
        }
        Path f = exportFile(ConsoleService.ID_MENU_EXPORT_CSV, "Export the series as CSV", "csv");
        if (f == null) {
            return;
        }
        try {
            OutputFile.write(f, out -> {
                Writer w = new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8);
                ResultFiles.csv(series, w);
                w.flush();
            });
            host.log("INFO", "exported " + String.format(Locale.ROOT, "%,d", series.rows.size()) + " rows of " + (series.columns.size() - 1)
                    + " series to " + f + (r == null ? " (the run goes on: the rows so far)" : ""));
        } catch (IOException | RuntimeException e) {
            host.error("Cannot export the series to " + f, f + ": " + ConsoleWindow.describe(e));
        }
    }

    /** File > Export Result as JSON: the last result. */
    void json() {
        RunResultDTO r = run.lastResult();
        if (r == null) {
            host.error("No result to export", "The JSON is the result of a run: run a pipeline to its end (or Stop it) first.");
            return;
        }
        Path f = exportFile(ConsoleService.ID_MENU_EXPORT_JSON, "Export the result as JSON", "json");
        if (f == null) {
            return;
        }
        try {
            OutputFile.write(f, ResultFiles.json(r));
            host.log("INFO", "exported the result to " + f);
        } catch (IOException | RuntimeException e) {
            host.error("Cannot export the result to " + f, f + ": " + ConsoleWindow.describe(e));
        }
    }
}

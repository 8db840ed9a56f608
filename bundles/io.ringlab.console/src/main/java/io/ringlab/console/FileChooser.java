package io.ringlab.console;

import java.nio.file.Path;

import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.FileDialog;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Widget;

import io.ringlab.console.api.ConsoleService;

/**
 * The file a button or menu item acts on: the automation hook {@link ConsoleService#FILE_DATA} on the widget when set
 * (then cleared), else a native file dialog, which a test cannot drive. UI thread only.
 */
final class FileChooser {
    private FileChooser() {
    }

    /**
     * @param hook the widget that may carry {@link ConsoleService#FILE_DATA}; may be {@code null}
     * @param shell the dialog's parent
     * @param style {@link SWT#OPEN} or {@link SWT#SAVE} (a save dialog asks before overwriting)
     * @param title the dialog's title
     * @param extension the files offered first, without the dot ({@code "*"} is offered too)
     * @param fileName the name proposed; may be {@code null}
     * @param folder where the dialog starts; may be {@code null}
     * @return the file, or {@code null} if the user cancelled
     */
    static Path choose(Widget hook, Shell shell, int style, String title, String extension, String fileName, Path folder) {
        if (hook != null && hook.getData(ConsoleService.FILE_DATA) instanceof String f) {
            hook.setData(ConsoleService.FILE_DATA, null);
            return Path.of(f);
        }
        FileDialog d = new FileDialog(shell, style);
        d.setText(title);
        if ((style & SWT.SAVE) != 0) {
            d.setOverwrite(true);
        }
        d.setFilterExtensions(new String[] { "*." + extension, "*" });
        if (fileName != null) {
            d.setFileName(fileName);
        }
        if (folder != null) {
            d.setFilterPath(folder.toString());
        }
        String f = d.open();
        return f == null ? null : Path.of(f);
    }
}

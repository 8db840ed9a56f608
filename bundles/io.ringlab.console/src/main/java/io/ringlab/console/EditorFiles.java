package io.ringlab.console;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Shell;

import io.ringlab.console.api.ConsoleService;
import io.ringlab.pipeline.format.OutputFile;
import io.ringlab.pipeline.format.PipelineWriter;
import io.ringlab.sim.api.dto.PipelineDTO;

/**
 * The file of the pipeline being edited: which one it is, Save and Save As (written whole through {@link OutputFile},
 * so never half a file), and the question whether to save unsaved edits before they are discarded. UI thread only.
 */
final class EditorFiles {
    private final PipelineEditor editor;
    private final Shell shell;
    private final Consumer<String> log;
    private final BiConsumer<String, String> error;
    /** The file the pipeline is saved to; {@code null} for a new pipeline not yet saved. */
    private Path file;
    /** Where a test puts the file Save As writes ({@link FileChooser}: the Save As menu item); may be {@code null}. */
    private org.eclipse.swt.widgets.Widget saveAsHook;

    /**
     * @param editor the editor: its model and message line
     * @param shell the window, for the dialogs
     * @param log takes one line for the console's log
     * @param error shows an error (title, message) in a dialog and the log
     */
    EditorFiles(PipelineEditor editor, Shell shell, Consumer<String> log, BiConsumer<String, String> error) {
        this.editor = editor;
        this.shell = shell;
        this.log = log;
        this.error = error;
    }

    /** @return the file the pipeline was opened from or saved to; {@code null} for an untitled one */
    Path file() {
        return file;
    }

    /** @param f the file of the pipeline now edited; {@code null} for an untitled one */
    void file(Path f) {
        file = f;
    }

    /** @return the file's name for messages: the file name, or the untitled pipeline's name */
    String displayName() {
        return file != null ? file.getFileName().toString() : editor.model().name();
    }

    /**
     * Asks, if there are unsaved edits, whether to save them, discard them, or cancel; a blocking question.
     *
     * @return whether the caller may go on (saved or discarded, or nothing to lose)
     */
    boolean confirmDiscard() {
        if (!editor.model().dirty()) {
            return true;
        }
        MessageDialog q = new MessageDialog(shell, "Unsaved changes", null,
                "The pipeline " + displayName() + " has unsaved changes. Save them?", MessageDialog.QUESTION, 0, "Save", "Discard",
                "Cancel");
        q.create();
        q.getShell().setData(ConsoleService.WIDGET_ID, ConsoleService.ID_QUESTION);
        int answer = q.open();
        if (answer == 0) {
            return save();
        }
        return answer == 1;
    }

    /** @return whether the pipeline was saved */
    boolean save() {
        return file == null ? saveAs() : saveTo(file);
    }

    /** @param hook the widget whose {@code FILE_DATA} names the file Save As writes, for tests */
    void saveAsHook(org.eclipse.swt.widgets.Widget hook) {
        saveAsHook = hook;
    }

    /** @return whether the pipeline was saved to a file the user chose */
    boolean saveAs() {
        Path f = FileChooser.choose(saveAsHook, shell, SWT.SAVE, "Save the pipeline", "pipeline",
                file != null ? file.getFileName().toString() : editor.model().name() + ".pipeline",
                file != null ? file.getParent() : null);
        return f != null && saveTo(f);
    }

    private boolean saveTo(Path to) {
        EditablePipeline model = editor.model();
        PipelineDTO p = model.pipeline();
        p.file = to.toString();
        if (p.name == null || file == null && EditablePipeline.UNTITLED.equals(p.name)) {
            // a new pipeline takes the name the user gave its file, as a pipeline read from a file without a name does
            p.name = to.getFileName().toString().replaceFirst("\\.[^.]*$", "");
        }
        try {
            byte[] text = PipelineWriter.write(p).getBytes(StandardCharsets.UTF_8);
            OutputFile.write(to, out -> out.write(text));
        } catch (IOException e) {
            error.accept("Cannot save " + to.getFileName(), OutputFile.reason(e));
            return false;
        } catch (IllegalArgumentException e) {
            error.accept("Cannot save " + to.getFileName(), to + ": " + e.getMessage());
            return false;
        }
        file = to;
        model.saved(p);
        log.accept("saved " + to + ": " + p.elements.size() + " elements, " + p.connections.size() + " connections");
        editor.say("saved " + to.getFileName());
        return true;
    }
}

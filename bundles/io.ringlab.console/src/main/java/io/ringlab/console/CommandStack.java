package io.ringlab.console;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The editor's undo and redo: a stack of applied {@link Command}s and a stack of undone ones, and a save point that tells
 * whether the pipeline differs from the file. Executing a command clears the redo stack (as every editor does); undoing
 * back to the save point makes the pipeline clean again.
 * <p>
 * Not thread-safe: the UI thread owns it. No SWT.
 */
final class CommandStack {
    /** One reversible edit. {@link #apply} and {@link #revert} must be exact inverses on the model they change. */
    interface Command {
        /** Makes the change. */
        void apply();

        /** Undoes the change made by the last {@link #apply}. */
        void revert();

        /** @return what the change is, for the Edit menu ("Add pfifo1", "Move 2 elements"); never {@code null} */
        String label();
    }

    private final Deque<Command> done = new ArrayDeque<>();
    private final Deque<Command> undone = new ArrayDeque<>();
    /** {@code done.size()} when the pipeline was last saved or loaded; -1 once that state cannot be reached by undo/redo. */
    private int savePoint;

    /** Applies a command and makes it the one to undo next. */
    void execute(Command c) {
        c.apply();
        if (savePoint > done.size()) {
            savePoint = -1; // the saved state was on the redo stack, which this command discards
        }
        done.push(c);
        undone.clear();
    }

    /** @return whether there was a command to undo */
    boolean undo() {
        Command c = done.poll();
        if (c == null) {
            return false;
        }
        c.revert();
        undone.push(c);
        return true;
    }

    /** @return whether there was a command to redo */
    boolean redo() {
        Command c = undone.poll();
        if (c == null) {
            return false;
        }
        c.apply();
        done.push(c);
        return true;
    }

    /** @return the label of the command {@link #undo} would revert, or {@code null} if none */
    String undoLabel() {
        Command c = done.peek();
        return c == null ? null : c.label();
    }

    /** @return the label of the command {@link #redo} would apply, or {@code null} if none */
    String redoLabel() {
        Command c = undone.peek();
        return c == null ? null : c.label();
    }

    /** Records that the model now equals its file. */
    void markSaved() {
        savePoint = done.size();
    }

    /** @return whether the model differs from its file (or has none and was edited) */
    boolean dirty() {
        return savePoint != done.size();
    }
}

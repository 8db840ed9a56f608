package io.ringlab.console;

import org.eclipse.swt.SWTException;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Widget;

/**
 * Hands work from any thread (the engine's, a framework's, a stream's) to the UI thread, unless the window it is for
 * has gone: the one place of the console's "is the display disposed" guard.
 */
final class UiExecutor {
    private UiExecutor() {
    }

    /**
     * Runs {@code r} on {@code display}'s thread soon, unless the display is disposed by then, or {@code owner} is (when
     * given) by the time it would run; never blocks, never throws for a display that went away meanwhile.
     *
     * @param display the UI thread's display
     * @param owner the widget the work is for, checked on the UI thread; {@code null} to run it whatever is left
     * @param r the work
     */
    static void later(Display display, Widget owner, Runnable r) {
        try {
            if (!display.isDisposed()) {
                display.asyncExec(() -> {
                    if (owner == null || !owner.isDisposed()) {
                        r.run();
                    }
                });
            }
        } catch (SWTException gone) {
            // the display was disposed between the check and the call: the window is gone, and its work with it
        }
    }
}

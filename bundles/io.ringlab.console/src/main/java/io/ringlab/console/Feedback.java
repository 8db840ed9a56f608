package io.ringlab.console;

/** Where a part of the window tells the user something: the window's error dialog and its log (UI thread). */
interface Feedback {
    /** Shows an error in a dialog, which does not block the caller, and in the log. */
    void error(String title, String message);

    /** Writes a line to the log: {@code level} is INFO, WARN or ERROR. */
    void log(String level, String message);
}

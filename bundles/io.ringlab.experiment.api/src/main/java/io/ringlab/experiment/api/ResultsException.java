package io.ringlab.experiment.api;

/**
 * A results database that cannot be opened, read or written, with a message that names the file and says why: another
 * process holds it (with its PID), the file is not a Ringlab results database, a query is wrong, the disk is full.
 *
 * @since 1.1
 */
public class ResultsException extends Exception {
    private static final long serialVersionUID = 1L;

    /** @param message what went wrong, naming the file */
    public ResultsException(String message) {
        super(message);
    }

    /**
     * @param message what went wrong, naming the file
     * @param cause the underlying failure
     */
    public ResultsException(String message, Throwable cause) {
        super(message, cause);
    }
}

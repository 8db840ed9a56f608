package io.ringlab.experiment.api;

/**
 * A cluster that cannot be joined or reached, with a message that names the cluster file and says why: the file is not
 * valid Hazelcast configuration or names no members, no member answers, a member runs another Ringlab version, the
 * port is taken.
 *
 * @since 1.2
 */
public class ClusterException extends Exception {
    private static final long serialVersionUID = 1L;

    /** @param message what went wrong, naming the cluster file */
    public ClusterException(String message) {
        super(message);
    }

    /**
     * @param message what went wrong, naming the cluster file
     * @param cause the underlying failure
     */
    public ClusterException(String message, Throwable cause) {
        super(message, cause);
    }
}

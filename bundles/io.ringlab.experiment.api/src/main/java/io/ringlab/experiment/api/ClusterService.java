package io.ringlab.experiment.api;

import java.io.PrintStream;
import java.nio.file.Path;

import org.osgi.annotation.versioning.ProviderType;

/**
 * Experiments spread over machines (docs/cluster.md): workers that run simulation tasks, and clients that submit an
 * experiment's runs to them. The cluster file is the cluster's own configuration (for the Hazelcast implementation, its
 * YAML member configuration: cluster name, member addresses, interfaces, port); it must list the members, since no
 * member is ever found by multicast or auto-detection.
 * <p>
 * Thread-safe.
 *
 * @since 1.2
 */
@ProviderType
public interface ClusterService {

    /**
     * A worker: a cluster member that runs the tasks sent to it on its own threads through this installation's
     * {@link ExperimentService#execute}.
     */
    @ProviderType
    interface Worker extends AutoCloseable {
        /** @return the address other members and clients reach it at, {@code host:port} */
        String address();

        /** @return the members of the cluster now, this one included, each as {@code host:port} */
        java.util.List<String> members();

        /** Blocks until the worker has left the cluster (by {@link #close()}, or because the cluster shut it down). */
        void awaitClosed() throws InterruptedException;

        /** Leaves the cluster: the tasks it was running are run again by the other members. Idempotent. */
        @Override
        void close();
    }

    /**
     * Starts a worker that joins the cluster the file describes. It refuses to join (and leaves again) a cluster whose
     * members run another Ringlab version.
     *
     * @param clusterFile the cluster file; must not be {@code null}
     * @param threads how many runs it runs at once, at least 1
     * @param log where the worker says what it does (joined, members, each run it ends); never standard output
     * @return the worker, a member of the cluster
     * @throws ClusterException if the file is not valid, the worker cannot bind its port, or the cluster runs another
     *         Ringlab version, naming the file and what is wrong
     */
    Worker startWorker(Path clusterFile, int threads, PrintStream log) throws ClusterException;

    /**
     * Connects to the cluster the file describes as a client (which opens no listener), to submit runs to its workers.
     * Members that run another Ringlab version are named in {@code log} and sent nothing.
     *
     * @param clusterFile the cluster file; must not be {@code null}
     * @param log where warnings go (members refused); never standard output
     * @return an executor over the cluster's workers
     * @throws ClusterException if the file is not valid, no member answers within the connection timeout, or no member
     *         runs this Ringlab version
     */
    RunExecutor connect(Path clusterFile, PrintStream log) throws ClusterException;
}

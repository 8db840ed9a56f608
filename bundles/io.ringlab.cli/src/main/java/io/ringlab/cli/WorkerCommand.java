package io.ringlab.cli;

import java.nio.file.Path;

import io.ringlab.experiment.api.ClusterException;
import io.ringlab.experiment.api.ClusterService;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ringlab worker --cluster FILE [--threads N] [--plugins DIR]...}: a member of a cluster (docs/cluster.md) that
 * runs the runs {@code ringlab ab --cluster FILE} sends it, until it is stopped (SIGTERM or Ctrl-C: it leaves the
 * cluster gracefully, and the runs it had are run again by the others). Everything it says goes to standard error.
 */
@Command(name = "worker", mixinStandardHelpOptions = true, header = "join a cluster and run the runs clients send it",
        description = "Join the cluster that FILE describes (Hazelcast's YAML member configuration: cluster name, member"
                + " addresses, interfaces, port; docs/cluster.md) and run the experiments' runs that ringlab ab --cluster"
                + " FILE sends, until stopped. Workers must run the same Ringlab build; a worker that finds another build"
                + " in the cluster leaves it. Trusted networks only: the cluster has no authentication.",
        footer = {"%nExamples:",
            "  ./ringlab worker --cluster cluster.yaml",
            "  ./ringlab worker --cluster cluster.yaml --threads 4 --plugins my-drivers/"})
final class WorkerCommand extends Commands.PluginCommand {
    @Option(names = "--cluster", required = true, paramLabel = "FILE", description = "the cluster file (Hazelcast YAML)")
    String cluster;
    @Option(names = "--threads", paramLabel = "N", description = "runs at once (default: one per processor)")
    Integer threads;

    WorkerCommand(Commands root) {
        super(root);
    }

    @Override
    Integer work() {
        if (threads != null && threads < 1) {
            root.err.println("ringlab worker: --threads must be at least 1");
            return Runner.INVALID;
        }
        ClusterService service = root.runner.cluster.get();
        if (service == null) {
            root.err.println("ringlab worker: no cluster service is installed (bundle io.ringlab.cluster)");
            return Runner.FAILED;
        }
        ClusterService.Worker w;
        try {
            w = service.startWorker(Path.of(cluster), threads != null ? threads : Runtime.getRuntime().availableProcessors(),
                    root.err);
        } catch (ClusterException e) {
            root.err.println("ringlab worker: " + e.getMessage());
            return Runner.INVALID;
        }
        try {
            w.awaitClosed(); // a signal shuts the member down gracefully (its shutdown hook), which ends the wait
        } catch (InterruptedException e) {
            w.close();
            Thread.currentThread().interrupt();
        }
        root.err.println("ringlab worker: " + w.address() + " left the cluster");
        return Runner.OK;
    }
}

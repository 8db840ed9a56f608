package io.ringlab.cluster;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import io.ringlab.experiment.api.ClusterException;
import io.ringlab.experiment.api.ClusterService;
import io.ringlab.experiment.api.ExperimentService;
import io.ringlab.experiment.api.RunExecutor;

/**
 * The {@link ClusterService} on Hazelcast (docs/cluster.md). Nothing of Hazelcast is loaded until a worker starts or a
 * client connects ({@link Hazelcasts}); this class names no Hazelcast type.
 * <p>
 * Hazelcast logs through java.util.logging, whose console handler writes to standard error: a worker at INFO (members
 * joining and leaving), a client at WARNING only (so that {@code ringlab ab}'s progress stays readable). Nothing goes
 * to standard output, so {@code --json -} stays clean.
 */
@Component(service = ClusterService.class)
public class ClusterComponent implements ClusterService {
    /** Held so that java.util.logging keeps the level set on it (it holds loggers weakly). */
    private static final Logger HAZELCAST_LOG = Logger.getLogger("com.hazelcast");

    @Reference
    ExperimentService experiments;
    private BundleContext context;

    @Activate
    void activate(BundleContext context) {
        this.context = context;
    }

    @Override
    public Worker startWorker(Path clusterFile, int threads, PrintStream log) throws ClusterException {
        Objects.requireNonNull(clusterFile, "clusterFile");
        if (threads < 1) {
            throw new IllegalArgumentException("threads=" + threads + " must be at least 1");
        }
        ClassLoader hazelcast = Hazelcasts.ensure(context);
        HAZELCAST_LOG.setLevel(Level.INFO);
        return WorkerMember.start(ClusterFile.read(clusterFile, hazelcast), classes(), hazelcast, threads, experiments, log,
                context);
    }

    @Override
    public RunExecutor connect(Path clusterFile, PrintStream log) throws ClusterException {
        Objects.requireNonNull(clusterFile, "clusterFile");
        ClassLoader hazelcast = Hazelcasts.ensure(context);
        HAZELCAST_LOG.setLevel(Level.WARNING);
        Map<String, byte[]> plugins;
        try {
            plugins = context == null ? Map.of() : Plugins.jars(context);
        } catch (java.io.IOException e) {
            throw new ClusterException("a plug-in of this process cannot be read to ship it to the workers: " + e.getMessage(),
                    e);
        }
        return ClusterExecutor.connect(ClusterFile.read(clusterFile, hazelcast), classes(), hazelcast,
                Build.of(experiments.bundles(), context == null ? null : Plugins.core(context)), log, plugins);
    }

    /** @return the class loader Hazelcast deserializes tasks with: this bundle's, which sees Hazelcast's packages too */
    private static ClassLoader classes() {
        return ClusterComponent.class.getClassLoader();
    }
}

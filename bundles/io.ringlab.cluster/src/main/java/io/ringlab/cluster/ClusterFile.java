package io.ringlab.cluster;

import java.io.FileNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.config.Config;
import com.hazelcast.config.FileSystemYamlConfig;
import com.hazelcast.config.InvalidConfigurationException;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.TcpIpConfig;

import io.ringlab.experiment.api.ClusterException;

/**
 * A cluster file (docs/cluster.md): Hazelcast's own YAML member configuration, read with Hazelcast's parser and schema,
 * then held to what Ringlab needs and promises.
 * <ul>
 * <li>Members are found only through the file's {@code network.join.tcp-ip} list: multicast and auto-detection (on in
 * Hazelcast's defaults) are switched off, and a file that enables another discovery (AWS, Kubernetes, ...) or lists no
 * member is refused.</li>
 * <li>A member binds only the address it picks from the file ({@code hazelcast.socket.bind.any=false} unless the file
 * sets it): with {@code network.interfaces} naming 127.0.0.1, nothing listens on other interfaces.</li>
 * <li>No phone-home call, logging through java.util.logging (to standard error, never standard output).</li>
 * </ul>
 * A client takes the same file: the cluster's name and the members' addresses.
 */
final class ClusterFile {
    private final Path file;
    private final Config config;

    private ClusterFile(Path file, Config config) {
        this.file = file;
        this.config = config;
    }

    /**
     * @return the file's member configuration, checked and amended as the class says
     * @throws ClusterException naming the file and what is wrong
     */
    static ClusterFile read(Path file, ClassLoader classes) throws ClusterException {
        Path f = file.toAbsolutePath().normalize();
        if (!Files.isRegularFile(f)) {
            throw new ClusterException(file + ": no such cluster file (a Hazelcast YAML configuration; see docs/cluster.md)");
        }
        Config c;
        ClassLoader tccl = Thread.currentThread().getContextClassLoader();
        Thread.currentThread().setContextClassLoader(classes);
        try {
            c = new FileSystemYamlConfig(f.toFile());
        } catch (FileNotFoundException e) {
            throw new ClusterException(file + ": cannot be read: " + e.getMessage(), e);
        } catch (InvalidConfigurationException e) {
            throw new ClusterException(file + ": not a valid Hazelcast YAML configuration: " + oneLine(e.getMessage())
                    + " (see docs/cluster.md for an example)", e);
        } catch (RuntimeException e) {
            throw new ClusterException(file + ": not a valid Hazelcast YAML configuration: " + oneLine(String.valueOf(
                    e.getMessage())), e);
        } finally {
            Thread.currentThread().setContextClassLoader(tccl);
        }
        JoinConfig join = c.getNetworkConfig().getJoin();
        List<String> other = new ArrayList<>();
        if (join.getAwsConfig().isEnabled()) {
            other.add("aws");
        }
        if (join.getGcpConfig().isEnabled()) {
            other.add("gcp");
        }
        if (join.getAzureConfig().isEnabled()) {
            other.add("azure");
        }
        if (join.getKubernetesConfig().isEnabled()) {
            other.add("kubernetes");
        }
        if (join.getEurekaConfig().isEnabled()) {
            other.add("eureka");
        }
        if (join.getDiscoveryConfig().isEnabled()) {
            other.add("discovery-strategies");
        }
        if (!other.isEmpty()) {
            throw new ClusterException(file + ": hazelcast.network.join enables " + String.join(", ", other)
                    + ": Ringlab finds members only through the tcp-ip member list; remove it");
        }
        TcpIpConfig tcp = join.getTcpIpConfig();
        if (!tcp.isEnabled() || tcp.getMembers().isEmpty()) {
            throw new ClusterException(file + ": hazelcast.network.join.tcp-ip must be enabled with a member list"
                    + " (enabled: true, member-list: [host:port, ...]): Ringlab never looks for members by multicast or"
                    + " auto-detection (see docs/cluster.md)");
        }
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        if (c.getProperty("hazelcast.socket.bind.any") == null) {
            c.setProperty("hazelcast.socket.bind.any", "false");
        }
        c.setProperty("hazelcast.phone.home.enabled", "false");
        c.setProperty("hazelcast.logging.type", "jdk");
        return new ClusterFile(f, c);
    }

    /** @return the member configuration (mutable: the worker adds its executor and attributes) */
    Config member() {
        return config;
    }

    /** @return a client configuration for the same cluster: its name and the members' addresses */
    ClientConfig client(long connectTimeoutMillis) {
        ClientConfig cc = new ClientConfig();
        cc.setClusterName(config.getClusterName());
        cc.getNetworkConfig().setAddresses(new ArrayList<>(config.getNetworkConfig().getJoin().getTcpIpConfig().getMembers()));
        cc.getConnectionStrategyConfig().getConnectionRetryConfig().setClusterConnectTimeoutMillis(connectTimeoutMillis);
        cc.setProperty("hazelcast.phone.home.enabled", "false");
        cc.setProperty("hazelcast.logging.type", "jdk");
        return cc;
    }

    /** @return the cluster's name */
    String name() {
        return config.getClusterName();
    }

    /** @return the file, absolute, for messages */
    Path file() {
        return file;
    }

    /** @return the member list as the file gives it */
    List<String> members() {
        return config.getNetworkConfig().getJoin().getTcpIpConfig().getMembers();
    }

    private static String oneLine(String s) {
        return s.replaceAll("\\s*\\R\\s*", " ").strip();
    }
}

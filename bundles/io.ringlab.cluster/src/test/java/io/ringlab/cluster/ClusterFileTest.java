package io.ringlab.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.config.Config;

import io.ringlab.experiment.api.ClusterException;

class ClusterFileTest {
    @TempDir
    Path dir;

    /** A cluster file for members on 127.0.0.1 from {@code port}. */
    static String loopback(String name, int port) {
        return """
                hazelcast:
                  cluster-name: %s
                  network:
                    port:
                      port: %d
                      auto-increment: true
                      port-count: 3
                    interfaces:
                      enabled: true
                      interfaces:
                        - 127.0.0.1
                    join:
                      tcp-ip:
                        enabled: true
                        member-list:
                          - 127.0.0.1:%d
                          - 127.0.0.1:%d
                """.formatted(name, port, port, port + 1);
    }

    private Path write(String text) throws Exception {
        return Files.writeString(dir.resolve("cluster.yaml"), text);
    }

    private ClusterException refused(String text) throws Exception {
        Path f = write(text);
        ClusterException e = assertThrows(ClusterException.class, () -> ClusterFile.read(f, getClass().getClassLoader()));
        assertTrue(e.getMessage().startsWith(f.toString()) || e.getMessage().startsWith(f.toAbsolutePath().toString()),
                "names the file: " + e.getMessage());
        return e;
    }

    @Test
    void membersAreFoundOnlyThroughTheListAndBindOnlyTheNamedInterface() throws Exception {
        ClusterFile f = ClusterFile.read(write(loopback("lab", 5901)), getClass().getClassLoader());
        Config c = f.member();
        assertEquals("lab", f.name());
        assertFalse(c.getNetworkConfig().getJoin().getMulticastConfig().isEnabled(), "multicast is off");
        assertFalse(c.getNetworkConfig().getJoin().getAutoDetectionConfig().isEnabled(), "auto-detection is off");
        assertEquals("false", c.getProperty("hazelcast.socket.bind.any"));
        assertEquals("false", c.getProperty("hazelcast.phone.home.enabled"));
        assertEquals("jdk", c.getProperty("hazelcast.logging.type"));
        ClientConfig cc = f.client(1000);
        assertEquals("lab", cc.getClusterName());
        assertEquals(List.of("127.0.0.1:5901", "127.0.0.1:5902"), cc.getNetworkConfig().getAddresses());
    }

    @Test
    void aFileThatSetsBindAnyKeepsIt() throws Exception {
        ClusterFile f = ClusterFile.read(write(loopback("lab", 5901) + """
                  properties:
                    hazelcast.socket.bind.any: true
                """), getClass().getClassLoader());
        assertEquals("true", f.member().getProperty("hazelcast.socket.bind.any"));
    }

    @Test
    void aFileWithoutAMemberListIsRefused() throws Exception {
        ClusterException e = refused("""
                hazelcast:
                  cluster-name: lab
                """);
        assertTrue(e.getMessage().contains("tcp-ip must be enabled with a member list"), e.getMessage());
        assertTrue(e.getMessage().contains("never looks for members by multicast or auto-detection"), e.getMessage());
    }

    @Test
    void anotherDiscoveryIsRefused() throws Exception {
        ClusterException e = refused("""
                hazelcast:
                  network:
                    join:
                      aws:
                        enabled: true
                """);
        assertTrue(e.getMessage().contains("enables aws: Ringlab finds members only through the tcp-ip member list"),
                e.getMessage());
    }

    @Test
    void twoDiscoveriesAreRefusedByHazelcastItself() throws Exception {
        ClusterException e = refused(loopback("lab", 5901).replace("""
                      tcp-ip:
                """, """
                      aws:
                        enabled: true
                      tcp-ip:
                """));
        assertTrue(e.getMessage().contains("Only one discovery method can be enabled"), e.getMessage());
    }

    @Test
    void invalidYamlIsRefusedWithTheParsersWords() throws Exception {
        ClusterException e = refused("""
                hazelcast:
                  network:
                    port: [not, a, port
                """);
        assertTrue(e.getMessage().contains("not a valid Hazelcast YAML configuration"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
    }

    @Test
    void anUnknownKeyIsRefused() throws Exception {
        ClusterException e = refused(loopback("lab", 5901).replace("cluster-name", "clustr-name"));
        assertTrue(e.getMessage().contains("not a valid Hazelcast YAML configuration"), e.getMessage());
    }

    @Test
    void aMissingFileIsNamed() {
        Path f = dir.resolve("nowhere.yaml");
        ClusterException e = assertThrows(ClusterException.class, () -> ClusterFile.read(f, getClass().getClassLoader()));
        assertEquals(f + ": no such cluster file (a Hazelcast YAML configuration; see docs/cluster.md)", e.getMessage());
    }
}

package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The qdisc-run transmit loop exists once, in the SDK ({@code DriverSupport.qdiscRun}, the engine's
 * {@code QdiscRunImpl}): {@code dev_tx_weight} is defined once, every driver model with a CPU model and both samples
 * run their transmit through it, and no driver queues transmit work of its own ({@code Core.TX}).
 */
class TransmitLoopOnceTest {
    private static final Pattern DEFINITION = Pattern.compile("\\bDEV_TX_WEIGHT\\s*=");
    private static final Pattern NIC = Pattern.compile("\\bclass\\s+\\w+\\s+implements\\s+[^{]*\\bNicDriver\\b");
    private static final Pattern START_XMIT = Pattern.compile("implements[^{]*\\bStartXmit\\b");

    @Test
    void devTxWeightIsDefinedOnceInTheSdk() throws IOException {
        List<String> definitions = new ArrayList<>();
        for (Path p : mainSources()) {
            if (DEFINITION.matcher(Files.readString(p)).find()) {
                definitions.add(DocsIndexTest.repository().relativize(p).toString());
            }
        }
        assertEquals(List.of("bundles/io.ringlab.driver.api/src/main/java/io/ringlab/driver/api/DriverSupport.java"),
                definitions);
    }

    @Test
    void everyDriverAndBothSamplesTransmitThroughTheQdiscRun() throws IOException {
        List<String> drivers = new ArrayList<>();
        List<String> wrong = new ArrayList<>();
        for (Path p : mainSources()) {
            String src = Files.readString(p);
            String name = DocsIndexTest.repository().relativize(p).toString();
            if (NIC.matcher(src).find()) {
                drivers.add(p.getFileName().toString());
                if (!src.contains("support.qdiscRun(") || !START_XMIT.matcher(src).find()) {
                    wrong.add(name + ": does not hand its transmit to DriverSupport.qdiscRun with a StartXmit");
                }
            }
            if (!name.startsWith("bundles/io.ringlab.engine/") && src.contains("Core.TX,")) {
                wrong.add(name + ": queues transmit work of its own (Core.TX)");
            }
        }
        assertEquals(List.of(), wrong);
        drivers.sort(null);
        assertEquals(List.of("Ixgbe.java", "MiniNic.java", "Mlx4Element.java", "Mlx5Element.java", "MvnetaElement.java",
                "StmmacElement.java"), drivers, "the CPU-modelled drivers and the samples");
    }

    /** @return the Java sources of every bundle's and sample's main tree */
    private static List<Path> mainSources() throws IOException {
        List<Path> out = new ArrayList<>();
        Path top = DocsIndexTest.repository();
        for (String tree : List.of("bundles", "samples")) {
            try (Stream<Path> s = Files.walk(top.resolve(tree))) {
                s.filter(p -> p.toString().endsWith(".java") && p.toString().contains("/src/main/java/"))
                        .forEach(out::add);
            }
        }
        assertTrue(out.size() > 100, "sources found: " + out.size());
        return out;
    }
}

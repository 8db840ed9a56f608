package io.ringlab.pipeline.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.MetricDescriptorDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * The testbed views against the tools' own output: each line of {@code tc -s qdisc show} as Ringlab prints it has the
 * shape of the line of the same kind in real iproute2 6.1 output (test resource, with its source), field by field; the
 * numbers are the result's metrics.
 */
class TestbedViewsTest {

    private static final String SOURCE = "drivers/net/ethernet/stmicro/stmmac/stmmac_ethtool.c @v4.6";
    /** The gauges DriverSupport.bqlMetrics registers (the API this bundle does not import). */
    private static final List<MetricDescriptorDTO> BQL = List.of(MetricDescriptorDTO.bqlLimit(),
            MetricDescriptorDTO.bqlInflight(), MetricDescriptorDTO.bqlLimitMin(), MetricDescriptorDTO.bqlLimitMax(),
            MetricDescriptorDTO.bqlHoldTimeMillis(), MetricDescriptorDTO.bqlStackStops(),
            MetricDescriptorDTO.bqlDriverStops());

    /** @return the sample's lines, comments left out */
    private static List<String> sample(String resource) throws IOException {
        try (InputStream in = TestbedViewsTest.class.getResourceAsStream(resource)) {
            List<String> lines = new ArrayList<>();
            for (String l : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n", -1)) {
                if (!l.startsWith("#") && !l.isEmpty()) {
                    lines.add(l);
                }
            }
            return lines;
        }
    }

    /**
     * @return the line's fields (split at single spaces, so a trailing space is a field) with values abstracted: a
     *         handle is {@code H:}, a device name {@code DEV}, every number {@code N} keeping its unit, a size in
     *         {@code Kb} or {@code Mb} as one in {@code b} (sprint_size picks the unit by the value)
     */
    static List<String> shape(String line) {
        List<String> out = new ArrayList<>();
        String previous = "";
        for (String t : line.split(" ", -1)) {
            String s;
            if (previous.equals("dev")) {
                s = "DEV";
            } else if (t.matches("[0-9a-f]+:")) {
                s = "H:";
            } else {
                s = t.replaceAll("\\d+(\\.\\d+)?", "N").replace("NKb", "Nb").replace("NMb", "Nb");
            }
            out.add(s);
            previous = t;
        }
        return out;
    }

    /** @return the sample line that starts as {@code prefix} does and whose shape has {@code dev} or not */
    private static String sampleLine(List<String> sample, String prefix, boolean dev) {
        for (String l : sample) {
            if (l.startsWith(prefix) && l.contains(" dev ") == dev) {
                return l;
            }
        }
        throw new AssertionError("no sample line " + prefix + (dev ? " with" : " without") + " dev");
    }

    private static Function<String, ElementDescriptorDTO> types() {
        Map<String, ElementDescriptorDTO> m = new HashMap<>();
        for (String q : List.of("pfifo", "pfifo_fast", "fq_codel")) {
            m.put(q, descriptor(q, ElementDescriptorDTO.QDISC));
        }
        ElementDescriptorDTO stmmac = descriptor("stmmac", ElementDescriptorDTO.DRIVER);
        stmmac.metricDescriptors.add(new MetricDescriptorDTO(MetricDescriptorDTO.COUNTER, "txPackets", "model only"));
        stmmac.metricDescriptors.add(new MetricDescriptorDTO(MetricDescriptorDTO.COUNTER, "txCleanedPackets", "")
                .ethtool("tx_pkt_n", SOURCE));
        stmmac.metricDescriptors.add(new MetricDescriptorDTO(MetricDescriptorDTO.RATE, "txMbitPerSecond", "a rate"));
        stmmac.metricDescriptors.add(new MetricDescriptorDTO(MetricDescriptorDTO.COUNTER, "rxPackets", "")
                .ethtool("rx_pkt_n", SOURCE));
        stmmac.metricDescriptors.add(new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, "napiPolls", "")
                .ethtool("napi_poll", SOURCE));
        stmmac.metricDescriptors.addAll(BQL);
        stmmac.metricDescriptors.add(new MetricDescriptorDTO(MetricDescriptorDTO.GAUGE, "cpuCycles", "the engine's"));
        m.put("stmmac", stmmac);
        m.put("netdev", descriptor("netdev", ElementDescriptorDTO.DRIVER));
        m.get("netdev").metricDescriptors.add(new MetricDescriptorDTO(MetricDescriptorDTO.COUNTER, "txPackets", ""));
        m.get("netdev").metricDescriptors.addAll(BQL);
        return m::get;
    }

    private static ElementDescriptorDTO descriptor(String type, String category) {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = type;
        d.category = category;
        return d;
    }

    /**
     * A run with pfifo_fast {@code q} feeding stmmac {@code eth0}, pfifo {@code back} feeding netdev {@code pc}, and an
     * fq_codel {@code fq} feeding netdev {@code pc2}.
     */
    static RunResultDTO result() {
        RunResultDTO r = new RunResultDTO();
        r.types.putAll(Map.of("q", "pfifo_fast", "eth0", "stmmac", "back", "pfifo", "pc", "netdev", "iperf", "tcp",
                "fq", "fq_codel", "pc2", "netdev"));
        r.properties.put("q", Map.of("limit", "1000"));
        r.properties.put("back", Map.of("limit", "1_000"));
        Map<String, String> fq = new LinkedHashMap<>();
        fq.putAll(Map.of("limit", "10_240", "flows", "1024", "quantum", "1514B", "target", "5ms", "interval", "100ms",
                "memoryLimit", "32MiB", "dropBatch", "64", "mtu", "1514B"));
        r.properties.put("fq", fq);
        r.connections.addAll(List.of(PipelineAssertions.connection("iperf", "out", "q", "in"), PipelineAssertions.connection("q", "out", "eth0", "in"),
                PipelineAssertions.connection("back", "out", "pc", "in"), PipelineAssertions.connection("fq", "out", "pc2", "in")));
        Map<String, Double> q = new HashMap<>(Map.of("sentBytes", 11842440.0, "sentPackets", 8128.0, "drops", 5.0,
                "overlimits", 0.0, "requeues", 3.0, "backlogBytes", 7168.0, "backlog", 7.0, "dequeued", 1304.0));
        r.elements.put("q", q);
        r.elements.put("back", new HashMap<>(Map.of("sentBytes", 276010.0, "sentPackets", 4181.0, "drops", 0.0,
                "overlimits", 0.0, "requeues", 0.0, "backlogBytes", 3028.0, "backlog", 2.0)));
        Map<String, Double> f = new HashMap<>(Map.of("sentBytes", 23714788.0, "sentPackets", 16254.0, "drops", 2.0,
                "overlimits", 0.0, "requeues", 0.0, "backlogBytes", 33554432.0, "backlog", 7.0, "maxPacket", 14546.0,
                "dropOverlimit", 2.0, "newFlowCount", 12.0));
        f.putAll(Map.of("memoryUsed", 65408.0, "dropOvermemory", 0.0, "newFlowsLen", 1.0, "oldFlowsLen", 4.0));
        r.elements.put("fq", f);
        r.elements.put("eth0", new HashMap<>(Map.of("txPackets", 8118.0, "txCleanedPackets", 8110.0, "rxPackets",
                4179.0, "napiPolls", 2209.0, "txMbitPerSecond", 98.2, "limit", 15206.0, "inflight", 16654.0, "limitMin",
                0.0, "limitMax", 1879048192.0, "holdTimeMillis", 1000.0)));
        r.elements.get("eth0").putAll(Map.of("stackStops", 2156.0, "driverStops", 0.0, "cpuCycles", 248044686.0));
        r.elements.put("pc", new HashMap<>(Map.of("txPackets", 4181.0, "limit", 0.0, "inflight", 0.0, "limitMin", 0.0,
                "limitMax", 0.0, "holdTimeMillis", 0.0, "stackStops", 0.0, "driverStops", 0.0)));
        r.elements.put("pc2", new HashMap<>(Map.of("txPackets", 1.0)));
        return r;
    }

    @Test
    void everyTcLineHasTheShapeOfIproute2sLineOfTheSameKindFieldByField() throws Exception {
        List<String> real = sample("tc-s-qdisc-iproute2-6.1.txt");
        List<String> composed = sample("fq_codel-iproute2-6.1-source.txt");
        for (String dev : new String[] {null, "eth0", "pc", "pc2"}) {
            String[] ours = TestbedViews.tc(result(), dev, types()).split("\n", -1);
            assertEquals("", ours[ours.length - 1], "the view ends with a newline");
            for (int i = 0; i < ours.length - 1; i++) {
                String line = ours[i];
                String like;
                if (line.startsWith("qdisc fq_codel") || line.startsWith("  ")) {
                    // fq_codel: the composed sample (it has a dev; without --dev the shape is the same minus "dev X")
                    String c = line.startsWith("qdisc") ? composed.get(0)
                            : line.startsWith("  maxpacket") ? composed.get(3) : composed.get(4);
                    like = dev == null ? c : c.replace("dev eth0 ", "");
                    if (line.startsWith("  maxpacket")) {
                        like = like.replace(" drop_overmemory 1", ""); // printed only when not zero, as here
                    }
                } else if (line.startsWith("qdisc ")) {
                    like = sampleLine(real, line.substring(0, line.indexOf(' ', 6) + 1), dev == null);
                } else if (line.startsWith(" Sent")) {
                    like = sampleLine(real, " Sent", false);
                } else {
                    like = sampleLine(real, " backlog", false);
                }
                assertEquals(shape(like), shape(line), "line " + (i + 1) + " of tc for dev " + dev + ":\n  ours: '"
                        + line + "'\n  tc's: '" + like + "'");
            }
        }
    }

    @Test
    void theShapeCheckSeesAMissingTrailingSpaceAndIproute2v4sDoubleSpace() throws IOException {
        List<String> real = sample("tc-s-qdisc-iproute2-6.1.txt");
        String sent = sampleLine(real, " Sent", false);
        assertFalse(shape(sent).equals(shape(sent.stripTrailing())));
        String pfifoFast = sampleLine(real, "qdisc pfifo_fast ", true);
        assertFalse(shape(pfifoFast).equals(shape(pfifoFast.replace("priomap ", "priomap  "))));
        assertFalse(shape(pfifoFast).equals(shape(pfifoFast.replace("refcnt 2 ", ""))));
    }

    @Test
    void theNumbersAreTheResultsCountersAndOptions() throws Exception {
        String tc = TestbedViews.tc(result(), null, types());
        assertTrue(tc.contains("qdisc pfifo_fast 0: dev eth0 root refcnt 2 bands 3 priomap 1 2 2 2 1 2 0 0 1 1 1 1 1 1 1 1\n"
                + " Sent 11842440 bytes 8128 pkt (dropped 5, overlimits 0 requeues 3) \n"
                + " backlog 7Kb 7p requeues 3\n"), tc);
        // element order: back (pfifo) gets the first handle a user's qdisc gets, fq the second
        assertTrue(tc.contains("qdisc pfifo 8001: dev pc root refcnt 2 limit 1000p\n"
                + " Sent 276010 bytes 4181 pkt (dropped 0, overlimits 0 requeues 0) \n"
                + " backlog 3028b 2p requeues 0\n"), tc);
        assertTrue(tc.contains("qdisc fq_codel 8002: dev pc2 root refcnt 2 limit 10240p flows 1024 quantum 1514 target 5ms"
                + " interval 100ms memory_limit 32Mb ecn drop_batch 64 \n"
                + " Sent 23714788 bytes 16254 pkt (dropped 2, overlimits 0 requeues 0) \n"
                + " backlog 32Mb 7p requeues 0\n"
                + "  maxpacket 14546 drop_overlimit 2 new_flow_count 12 ecn_mark 0 memory_used 65408\n"
                + "  new_flows_len 1 old_flows_len 4\n"), tc);
        // the handle does not depend on which device is shown
        assertTrue(TestbedViews.tc(result(), "pc2", types()).startsWith("qdisc fq_codel 8002: root refcnt 2 limit"));
    }

    @Test
    void sizesAndTimesAreIproute2s() {
        assertEquals("3028b", TestbedViews.size(3028));
        assertEquals("7Kb", TestbedViews.size(7168)); // seen in tc output (research/formats.md §3.2)
        assertEquals("2Kb", TestbedViews.size(2060)); // within 16 B of a KiB
        assertEquals("2077b", TestbedViews.size(2077));
        assertEquals("32Mb", TestbedViews.size(32L << 20));
        assertEquals("1023b", TestbedViews.size(1023));
        assertEquals("1.5s", TestbedViews.time(1_500_000));
        assertEquals("5ms", TestbedViews.time(4999)); // %.3g of 4.999
        assertEquals("2.5ms", TestbedViews.time(2500));
        assertEquals("500us", TestbedViews.time(500));
        // fq_codel keeps times in 1024-ns units: 5 ms is dumped as 4999 us, 100 ms as 99999 us
        assertEquals(4999, TestbedViews.dumpedMicros("5ms"));
        assertEquals(99999, TestbedViews.dumpedMicros("100ms"));
        assertEquals("100ms", TestbedViews.time(TestbedViews.dumpedMicros("100ms")));
    }

    @Test
    void ethtoolPrintsTheKernelNamesInTheirOrderThenTheModelsOwnCounters() throws Exception {
        String e = TestbedViews.ethtool(result(), "eth0", types());
        assertEquals("NIC statistics:\n"
                + "     tx_pkt_n: 8110\n"
                + "     rx_pkt_n: 4179\n"
                + "     napi_poll: 2209\n"
                + "# stmmac model counters without a kernel name:\n"
                + "     txPackets: 8118\n"
                + "     stackStops: 2156\n"
                + "     driverStops: 0\n", e);
        String all = TestbedViews.ethtool(result(), null, types());
        assertTrue(all.startsWith("# ethtool -S eth0\nNIC statistics:\n"), all);
        assertTrue(all.contains("# ethtool -S pc\nNIC statistics:\n# netdev model counters without a kernel name:\n"
                + "     txPackets: 4181\n"), all);
        assertTrue(all.contains("# no counter of the netdev model has an ethtool -S name\n"), all);
        TestbedViews.NotApplicable x = assertThrows(TestbedViews.NotApplicable.class,
                () -> TestbedViews.ethtool(result(), "q", types()));
        assertEquals("q is not a driver of the run; drivers: [eth0, pc, pc2]", x.getMessage());
    }

    @Test
    void bqlPrintsTheSysfsFilesAsGrepShowsThem() throws Exception {
        assertEquals("/sys/class/net/eth0/queues/tx-0/byte_queue_limits/hold_time:1000\n"
                + "/sys/class/net/eth0/queues/tx-0/byte_queue_limits/inflight:16654\n"
                + "/sys/class/net/eth0/queues/tx-0/byte_queue_limits/limit:15206\n"
                + "/sys/class/net/eth0/queues/tx-0/byte_queue_limits/limit_max:1879048192\n"
                + "/sys/class/net/eth0/queues/tx-0/byte_queue_limits/limit_min:0\n",
                TestbedViews.bql(result(), "eth0", types()));
        assertTrue(TestbedViews.bql(result(), "pc", types()).startsWith("# pc: BQL off"));
        TestbedViews.NotApplicable x = assertThrows(TestbedViews.NotApplicable.class,
                () -> TestbedViews.bql(result(), "pc2", types()));
        assertEquals("pc2 reports no byte queue limits (its model has no BQL hooks); devices with them: [eth0, pc]",
                x.getMessage());
    }

    @Test
    void aResultWithoutThePipelineAsRunOrAQdiscForTheDeviceIsRefusedWithTheReason() {
        RunResultDTO old = result();
        old.types.clear();
        assertTrue(assertThrows(TestbedViews.NotApplicable.class, () -> TestbedViews.tc(old, null, types())).getMessage()
                .contains("does not record the pipeline as run"));
        assertEquals("no qdisc feeds iperf; devices with a qdisc: [pc, pc2, eth0]", assertThrows(
                TestbedViews.NotApplicable.class, () -> TestbedViews.tc(result(), "iperf", types())).getMessage());
        RunResultDTO noSent = result();
        noSent.elements.get("q").remove("sentBytes");
        assertTrue(assertThrows(TestbedViews.NotApplicable.class, () -> TestbedViews.tc(noSent, null, types())).getMessage()
                .startsWith("qdisc q (pfifo_fast) reports no sentBytes"));
    }
}

package io.ringlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringlab.pipeline.format.TestbedViews;
import io.ringlab.sim.api.dto.ConnectionDTO;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/** {@code ringlab stats}: the views of a result file ({@link TestbedViews}, whose layouts TestbedViewsTest checks). */
class StatsCommandTest {

    private static ElementDescriptorDTO descriptor(String type, String category) {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = type;
        d.category = category;
        return d;
    }

    private static ConnectionDTO connection(String from, String to) {
        ConnectionDTO c = new ConnectionDTO();
        c.from = from;
        c.fromPort = "out";
        c.to = to;
        c.toPort = "in";
        return c;
    }

    /** pfifo_fast q feeding stmmac eth0 (with BQL), pfifo back feeding netdev pc. */
    static RunResultDTO result() {
        RunResultDTO r = new RunResultDTO();
        r.types.putAll(Map.of("q", "pfifo_fast", "eth0", "stmmac", "back", "pfifo", "pc", "netdev"));
        r.properties.put("q", Map.of("limit", "1000"));
        r.properties.put("back", Map.of("limit", "1000"));
        r.connections.addAll(List.of(connection("q", "eth0"), connection("back", "pc")));
        r.elements.put("q", Map.of("sentBytes", 11842440.0, "sentPackets", 8128.0, "drops", 5.0, "overlimits", 0.0,
                "requeues", 3.0, "backlogBytes", 7168.0, "backlog", 7.0));
        r.elements.put("back", Map.of("sentBytes", 276010.0, "sentPackets", 4181.0, "drops", 0.0, "overlimits", 0.0,
                "requeues", 0.0, "backlogBytes", 3028.0, "backlog", 2.0));
        r.elements.put("eth0", Map.of("txPackets", 8118.0, "limit", 15206.0, "inflight", 16654.0, "limitMin", 0.0,
                "limitMax", 1879048192.0, "holdTimeMillis", 1000.0));
        r.elements.put("pc", Map.of("txPackets", 4181.0));
        return r;
    }

    private static Cli cli(Path dir) {
        Cli c = new Cli(new FakeSimulator(), dir);
        c.simulator.elementTypes.add(descriptor("stmmac", ElementDescriptorDTO.DRIVER));
        return c;
    }

    @Test
    void theStatsCommandReadsAResultFileAndNamesTheFileInItsErrors(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("r.json");
        Files.writeString(f, Json.result(result()));
        Cli cli = cli(dir);
        assertEquals(Runner.OK, cli.execute("stats", f.toString(), "--tc", "--dev", "eth0"), cli.err());
        assertEquals(TestbedViews.tc(result(), "eth0", t -> t.equals("stmmac") ? descriptor(t, ElementDescriptorDTO.DRIVER)
                : null), cli.out());

        Cli all = cli(dir);
        assertEquals(Runner.OK, all.execute("stats", f.toString()), all.err());
        Matcher m = Pattern.compile("(?m)^# (.*)$").matcher(all.out());
        List<String> headers = new ArrayList<>();
        while (m.find()) {
            headers.add(m.group(1));
        }
        assertEquals("tc -s qdisc show", headers.get(0));
        assertTrue(headers.contains("ethtool -S eth0"), headers.toString());
        assertTrue(headers.contains("grep . /sys/class/net/*/queues/tx-0/byte_queue_limits/*"), headers.toString());

        // a run without a qdisc (mlx5-bulk-drop): all the views still print, tc's saying why it has none; --tc alone fails
        RunResultDTO noQdisc = result();
        noQdisc.types.keySet().removeAll(List.of("q", "back", "fq"));
        Path nq = dir.resolve("nq.json");
        Files.writeString(nq, Json.result(noQdisc));
        Cli views = cli(dir);
        assertEquals(Runner.OK, views.execute("stats", nq.toString()), views.err());
        assertTrue(views.out().startsWith("# tc -s qdisc show\n# the run has no qdisc element\n# ethtool -S eth0\n"),
                views.out());
        Cli tcOnly = new Cli(new FakeSimulator(), dir);
        assertEquals(Runner.INVALID, tcOnly.execute("stats", nq.toString(), "--tc"));
        assertEquals("ringlab stats: " + nq + ": the run has no qdisc element\n", tcOnly.err());

        Cli missing = new Cli(new FakeSimulator(), dir);
        assertEquals(Runner.INVALID, missing.execute("stats", dir.resolve("nope.json").toString()));
        assertEquals("ringlab stats: " + dir.resolve("nope.json") + ": no such file\n", missing.err());

        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{\"elements\": [");
        Cli broken = new Cli(new FakeSimulator(), dir);
        assertEquals(Runner.INVALID, broken.execute("stats", bad.toString()));
        assertTrue(broken.err().startsWith("ringlab stats: " + bad + ": not a result file (ringlab run --json): "),
                broken.err());
        assertFalse(broken.err().contains("\tat "), "no stack trace");
    }
}

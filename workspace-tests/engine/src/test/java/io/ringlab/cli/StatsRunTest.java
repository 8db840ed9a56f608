package io.ringlab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringlab.engine.kernel.Tshark;
import io.ringlab.engine.standalone.Standalone;
import io.ringlab.experiment.TestExperiments;
import io.ringlab.pipeline.format.ResultJson;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * {@code ringlab stats} (issue 19, section 3) on real runs of stmmac-bql-100m, through the command line as a user types
 * it: the counters tc prints for the device's qdisc are what a capture at the qdisc's output saw, judged by tshark (frames
 * and bytes handed to the driver, and the GSO segments they stand for), the reverse path's pfifo sent what its netdev
 * transmitted, and {@code run --print tc,ethtool,bql} prints what {@code stats} prints from the result file.
 */
class StatsRunTest {
    @TempDir
    static Path dir;
    static Runner runner;
    static RunResultDTO pfifoFast;
    static String pfifoFastTc;
    static String printed;

    /** The MSS of the model's TCP over Ethernet with timestamps: 1500 - 20 - 20 - 12 (models/tcp.md). */
    static final int MSS = 1448;

    @BeforeAll
    static void runTheSeedPipelineWithACaptureAtTheQdiscsOutput() throws Exception {
        Standalone simulator = Standalone.builder().build();
        runner = new Runner(simulator, TestExperiments.of(simulator), io.ringlab.results.TestResults.of(simulator),
                PluginLoader.NONE);
        Path pipeline = FuzzTest.repo().resolve("pipelines/stmmac-bql-100m.pipeline");
        String[] out = ringlab(0, "run", pipeline.toString(), "--duration", "2s", "--json",
                dir.resolve("r.json").toString(), "--pcap", "q.out=" + dir.resolve("q.pcapng"), "--print",
                "tc,ethtool,bql");
        printed = out[0];
        try (Reader in = Files.newBufferedReader(dir.resolve("r.json"))) {
            pfifoFast = ResultJson.read(in, RunResultDTO.class);
        }
        pfifoFastTc = ringlab(0, "stats", dir.resolve("r.json").toString(), "--tc")[0];
    }

    /** @return standard output and error of {@code ringlab args}, which must exit with {@code code} */
    static String[] ringlab(int code, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Commands.execute(runner, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), dir, args);
        String[] r = {out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
        assertEquals(code, exit, String.join(" ", args) + "\n" + r[0] + r[1]);
        return r;
    }

    /** @return the Sent and backlog numbers tc prints for the qdisc of {@code dev}: bytes, pkt, dropped, ..., qlen */
    static long[] sent(String tc, String dev) {
        Matcher m = Pattern.compile("qdisc \\S+ \\S+ dev " + dev + " [^\\n]*\\n Sent (\\d+) bytes (\\d+) pkt \\(dropped (\\d+),"
                + " overlimits (\\d+) requeues (\\d+)\\) \\n backlog (\\S+) (\\d+)p requeues \\d+\\n").matcher(tc);
        assertTrue(m.find(), "no qdisc of " + dev + " in\n" + tc);
        return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)),
            Long.parseLong(m.group(4)), Long.parseLong(m.group(5)), Long.parseLong(m.group(7))};
    }

    @Test
    void theDevicesQdiscSentWhatTheCaptureAtItsOutputSaw() throws Exception {
        long[] s = sent(pfifoFastTc, "eth0");
        long frames = 0;
        long bytes = 0;
        long segments = 0;
        for (String line : Tshark.read(dir.resolve("q.pcapng"), dir, "-T", "fields", "-e", "frame.len", "-e", "tcp.len")
                .lines().toList()) {
            String[] f = line.split("\t", -1);
            frames++;
            bytes += Long.parseLong(f[0]);
            long payload = f.length > 1 && !f[1].isEmpty() ? Long.parseLong(f[1]) : 0;
            segments += payload == 0 ? 1 : (payload + MSS - 1) / MSS; // gso_segs of a GSO skb: its payload in MSS pieces
        }
        assertEquals(bytes, s[0], "Sent bytes = the bytes tshark read at q.out");
        assertEquals(segments, s[1], "Sent pkt = the segments the skbs tshark read stand for (bstats_update: gso_segs)");
        assertTrue(s[1] > frames * 3, "GSO: more segments (" + s[1] + ") than skbs (" + frames + ")");
        Map<String, Double> q = pfifoFast.elements.get("q");
        assertEquals(q.get("dequeued").longValue(), frames, "skbs dequeued = frames at q.out");
        assertEquals(q.get("drops").longValue(), s[2]);
        assertEquals(q.get("backlog").longValue(), s[5]);
    }

    @Test
    void theReversePathsPfifoSentWhatItsNetdevTransmittedOrHolds() {
        long[] s = sent(pfifoFastTc, "pc");
        Map<String, Double> pc = pfifoFast.elements.get("pc");
        assertEquals(pc.get("txPackets").longValue() + pc.get("ringUsed").longValue(), s[1]);
        assertEquals(pc.get("txBytes").longValue(), s[0], "no GSO on the reverse path: bytes = the frames' lengths");
        assertTrue(pfifoFastTc.contains("qdisc pfifo 8001: dev pc root refcnt 2 limit 1000p\n"), pfifoFastTc);
        assertTrue(pfifoFastTc.contains("qdisc pfifo_fast 0: dev eth0 root refcnt 2 bands 3 priomap 1 2 2 2 1 2 0 0 1 1 1"
                + " 1 1 1 1 1\n"), pfifoFastTc);
    }

    @Test
    void runPrintShowsTheViewsStatsPrintsFromTheResult() {
        String stats = ringlab(0, "stats", dir.resolve("r.json").toString())[0];
        assertEquals(stats + "result written to " + dir.resolve("r.json") + "\n", printed);
        assertTrue(stats.contains("# ethtool -S eth0\nNIC statistics:\n     tx_pkt_n: "
                + pfifoFast.elements.get("eth0").get("txCleanedPackets").longValue() + "\n     rx_pkt_n: "
                + pfifoFast.elements.get("eth0").get("rxPackets").longValue() + "\n     napi_poll: "), stats);
        assertTrue(stats.contains("/sys/class/net/eth0/queues/tx-0/byte_queue_limits/limit:"
                + pfifoFast.elements.get("eth0").get("limit").longValue() + "\n"), stats);
        assertTrue(stats.contains("/sys/class/net/eth0/queues/tx-0/byte_queue_limits/hold_time:1000\n"), stats);
    }

    @Test
    void fqCodelShowsItsOptionsAndExtraCounters() throws Exception {
        Path fq = dir.resolve("fq.pipeline");
        Files.writeString(fq, Files.readString(FuzzTest.repo().resolve("pipelines/stmmac-bql-100m.pipeline"))
                .replace("element q : pfifo_fast {", "element q : fq_codel {"));
        String tc = ringlab(0, "run", fq.toString(), "--duration", "2s", "--print", "tc", "--set",
                "q.target=2500us")[0];
        assertTrue(tc.contains("qdisc fq_codel 8002: dev eth0 root refcnt 2 limit 1000p flows 1024 quantum 1514 target"
                + " 2.5ms interval 100ms memory_limit 32Mb ecn drop_batch 64 \n"), tc);
        assertTrue(Pattern.compile("\\n  maxpacket \\d+ drop_overlimit 0 new_flow_count [1-9]\\d* ecn_mark 0( memory_used"
                + " \\d+)?\\n  new_flows_len \\d+ old_flows_len \\d+\\n").matcher(tc).find(), tc);
    }

    @Test
    void aDeviceWithoutAQdiscOrAViewThatDoesNotExistIsRefusedNamingWhatExists() {
        String err = ringlab(2, "stats", dir.resolve("r.json").toString(), "--tc", "--dev", "wire")[1];
        assertEquals("ringlab stats: " + dir.resolve("r.json") + ": no qdisc feeds wire; devices with a qdisc: [pc, eth0]\n",
                err);
        err = ringlab(2, "run", FuzzTest.repo().resolve("pipelines/netdev-bql.pipeline").toString(), "--print",
                "tcp")[1];
        assertEquals("--print: 'tcp' is neither ELEMENT.METRIC nor a view (tc, ethtool, bql)\n", err);
    }
}

package io.ringlab.engine.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringlab.conformance.ModelTests;
import io.ringlab.pipeline.format.PipelineReader;
import io.ringlab.sim.api.PipelineException;
import io.ringlab.sim.api.dto.ProblemDTO;
import io.ringlab.sim.api.dto.RunOptionsDTO;
import io.ringlab.sim.api.dto.RunResultDTO;

/**
 * {@code --pcap} on the sample pipelines (issue 19, section 1), judged by the real tshark (Debian's {@code tshark}, which
 * {@code ./ringlab test} installs as root; without it the test fails, naming the package): every frame reads without a
 * malformed-packet or error-level expert note, tshark's per-conversation frames and bytes equal the models' own
 * per-flow counters, its retransmission analysis counts the model's retransmissions, and a run with captures gives the
 * results of the run without.
 */
class PcapTest {
    @TempDir
    static Path dir;
    static RunResultDTO plain;
    static RunResultDTO captured;

    /** stmmac-bql-100m for 2 s, once as it is and once with the driver, the far host and the TCP sender captured. */
    @BeforeAll
    static void runStmmacWithAndWithoutCaptures() throws Exception {
        String text = ModelTests.sample("stmmac-bql-100m.pipeline", "2s");
        plain = run(text, List.of());
        captured = run(text, List.of("eth0=" + dir.resolve("eth0.pcapng"), "far=" + dir.resolve("far.pcapng"),
                "iperf=" + dir.resolve("iperf.pcapng"), "q.out=" + dir.resolve("q-out.pcapng")));
    }

    static RunResultDTO run(String text, List<String> captures) throws PipelineException {
        RunOptionsDTO o = new RunOptionsDTO();
        o.snapshotIntervalMillis = 0;
        o.captures.addAll(captures);
        RunResultDTO r = new PipelineBuilder(new TestRegistry()).build(PipelineReader.read("test.pipeline", text), o).run();
        assertEquals("FINISHED", r.state, r.error);
        assertTrue(r.invariants.violations.isEmpty(), r.invariants.violations.toString());
        return r;
    }

    @Test
    void capturesChangeNoResult() {
        assertEquals(new TreeMap<>(plain.elements), new TreeMap<>(captured.elements));
        assertEquals(plain.series.columns, captured.series.columns, "no series of the captures");
        assertEquals(plain.series.rows.size(), captured.series.rows.size());
        for (int i = 0; i < plain.series.rows.size(); i++) {
            assertTrue(Arrays.equals(plain.series.rows.get(i), captured.series.rows.get(i)), "series row " + i);
        }
        assertEquals(plain.runtime.size(), captured.runtime.size(), "no runtime row of the captures");
        assertEquals(plain.invariants.generated, captured.invariants.generated);
    }

    @Test
    void tsharkReadsEveryFrameWithoutAMalformedPacketOrError() throws Exception {
        for (String f : List.of("eth0", "far", "iperf", "q-out")) {
            Path file = dir.resolve(f + ".pcapng");
            assertTrue(Files.isRegularFile(file) && !Files.exists(dir.resolve(f + ".pcapng.partial")), f);
            assertEquals("", tshark(file, "-o", "ip.check_checksum:TRUE", "-o", "tcp.check_checksum:TRUE", "-o",
                    "udp.check_checksum:TRUE", "-Y", "_ws.malformed || _ws.expert.severity >= \"error\"").strip(), f);
            assertTrue(Integer.parseInt(tshark(file, "-T", "fields", "-e", "frame.number").strip().lines()
                    .reduce((a, b) -> b).orElse("0")) > 1000, f + ": frames captured");
        }
    }

    @Test
    void eachTcpConversationAtTheSenderHasTheStreamsFramesAndBytes() throws Exception {
        Path file = dir.resolve("iperf.pcapng");
        Map<String, long[]> conv = conversations(file);
        Map<String, Double> iperf = captured.elements.get("iperf");
        assertEquals(4, conv.size(), conv.keySet().toString());
        for (int s = 0; s < 4; s++) {
            long[] c = conv.get("10.0.0.1:" + (32768 + s) + "<->10.0.0.2:5001");
            assertTrue(c != null, "stream " + s + " in " + conv.keySet());
            // tshark's columns: frames and bytes B -> A ("<-"), then A -> B ("->")
            assertEquals(iperf.get("stream" + s + "FramesSent").longValue(), c[2], "stream " + s + " frames sent");
            assertEquals(iperf.get("stream" + s + "FramesReceived").longValue(), c[0], "stream " + s + " frames received");
            assertPrinted(iperf.get("stream" + s + "BytesSent").longValue(), c[3], c[5], "stream " + s + " bytes sent");
            assertPrinted(iperf.get("stream" + s + "BytesReceived").longValue(), c[1], c[4], "stream " + s
                    + " bytes received");
        }
        // the bytes to the byte, summed from each frame's length
        Map<String, Long> bytes = bytesBy(file, "tcp.srcport");
        for (int s = 0; s < 4; s++) {
            assertEquals(iperf.get("stream" + s + "BytesSent").longValue(), bytes.get(String.valueOf(32768 + s)));
        }
        assertTrue(iperf.get("stream0BytesSent") > 1e6, "the streams sent: " + iperf);
    }

    @Test
    void theFarHostsCaptureHasWhatItReceivedAndSent() throws Exception {
        Path file = dir.resolve("far.pcapng");
        Map<String, Double> far = captured.elements.get("far");
        // every flow's far end is 10.H.L.2: what the host received goes there, what it sent comes from there
        Map<String, Long> in = framesAndBytes(file, "ip.dst");
        Map<String, Long> out = framesAndBytes(file, "ip.src");
        assertEquals(far.get("rxPackets").longValue(), in.get("frames:.2"), "frames in: " + in);
        assertEquals(far.get("rxBytes").longValue(), in.get("bytes:.2"));
        assertEquals(far.get("txPackets").longValue(), out.get("frames:.2"), "frames out: " + out);
        assertEquals(far.get("txBytes").longValue(), out.get("bytes:.2"));
        assertEquals(far.get("echoReplies").longValue(), tshark(file, "-Y", "icmp.type == 0", "-T", "fields", "-e",
                "frame.number").lines().count(), "echo replies");
        // a request and its reply carry one identifier, the ping element's own, and tshark pairs them by it
        List<String> ids = tshark(file, "-Y", "icmp", "-T", "fields", "-e", "icmp.ident").lines().distinct().toList();
        assertEquals(1, ids.size(), ids.toString());
        assertFalse(ids.get(0).equals("0"), "an identifier of the element's own");
        assertEquals(far.get("echoReplies").longValue(), tshark(file, "-Y", "icmp.resp_to", "-T", "fields", "-e",
                "frame.number").lines().count(), "replies tshark pairs with their request");
    }

    @Test
    void theDriverShowsSegmentsOnItsWireAndTheQdiscTheGsoSkbs() throws Exception {
        // v3.19's stmmac has no TSO: the stack segments before the driver (validate_xmit_skb), so eth0 shows frames
        // of at most 1514 bytes while the qdisc's output carries the 64 KB GSO skbs the socket built
        long largestOnWire = largest(dir.resolve("eth0.pcapng"));
        long largestAtQdisc = largest(dir.resolve("q-out.pcapng"));
        assertEquals(1514, largestOnWire);
        assertTrue(largestAtQdisc > 3000, "GSO skbs at the qdisc: " + largestAtQdisc);
        // both directions at the driver: the data to the far end and the ACKs from it
        assertFalse(tshark(dir.resolve("eth0.pcapng"), "-Y", "ip.src == 10.0.0.2 && tcp.flags.ack == 1").isBlank(),
                "ACKs arriving at eth0.rx");
    }

    @Test
    void tsharksAnalysisAgreesWithTheModelsRetransmissionsDupAcksAndRttSamples() throws Exception {
        // 4 CUBIC flows into a 100 Mbit/s bottleneck: losses at the bottleneck's queue; the sender's capture sees every
        // retransmitted segment after its original, as tshark's analysis needs
        String text = ModelTests.sample("tcp-4cubic-100m.pipeline", "4s");
        Path file = dir.resolve("cubic.pcapng");
        RunResultDTO r = run(text, List.of("iperf=" + file));
        Map<String, Double> iperf = r.elements.get("iperf");
        long retransmits = iperf.get("retransmits").longValue();
        assertTrue(retransmits > 10, "the run has losses: " + iperf);
        // tshark calls a retransmission sent within an RTT of the highest segment "out-of-order" (packet-tcp.c's
        // ooo_thres, the handshake's RTT); at the sender nothing is reordered, so both are the model's retransmissions
        assertEquals(retransmits, count(file, "tcp.analysis.retransmission || tcp.analysis.out_of_order"));
        assertEquals(iperf.get("fastRetransmits").longValue(), count(file, "tcp.analysis.fast_retransmission"));
        assertEquals(iperf.get("dupAcks").longValue(), count(file, "tcp.analysis.duplicate_ack"));
        // tshark's ack_rtt: from the segment that ends at the ACK's number, the most recently sent one it acknowledges;
        // the model's ackRtt is the same sample (ca_rtt_us), for the ACKs that acknowledge nothing retransmitted
        // (the handshake's SYN-ACK aside: the model takes its RTT by tcp_synack_rtt_meas). tshark also times the ACK of
        // each retransmitted segment, which Linux does not (Karn): one more sample per retransmission
        double[] rtt = tshark(file, "-Y", "tcp.analysis.ack_rtt && tcp.flags.syn == 0", "-T", "fields", "-e",
                "tcp.analysis.ack_rtt").lines().mapToDouble(v -> Double.parseDouble(v) * 1e3).sorted().toArray();
        assertEquals(iperf.get("ackRttCount").longValue() + retransmits, rtt.length);
        // the same distribution: HdrHistogram keeps 3 significant digits (0.1 %); the retransmissions' samples move
        // the ranks of tshark's by at most 0.3 %
        assertEquals(rtt[0], iperf.get("ackRttMinMillis"), rtt[0] * 1e-3, "smallest");
        assertEquals(rtt[rtt.length / 2], iperf.get("ackRttP50Millis"), rtt[rtt.length / 2] * 1e-3, "median");
        assertEquals(rtt[(int) (rtt.length * 0.9)], iperf.get("ackRttP90Millis"), rtt[(int) (rtt.length * 0.9)] * 2e-3,
                "90th percentile");
    }

    private static long count(Path file, String filter) throws Exception {
        return tshark(file, "-Y", filter, "-T", "fields", "-e", "frame.number").lines().count();
    }

    @Test
    void aTapInThePipelineFileCapturesItsConnectionAsPcapDoes() throws Exception {
        String text = ModelTests.sample("stmmac-bql-100m.pipeline", "2s")
                .replace("element eth0 : stmmac", "element cap : tap { file = \"" + dir.resolve("tap.pcapng")
                        + "\" }\nelement eth0 : stmmac")
                .replace("q -> eth0 -> wire -> far", "q -> cap -> eth0 -> wire -> far");
        assertTrue(text.contains("q -> cap -> eth0"), text);
        RunResultDTO r = run(text, List.of());
        assertEquals(new TreeMap<>(plain.elements), new TreeMap<>(r.elements), "no element, no metric, the same results");
        assertEquals(plain.runtime.size(), r.runtime.size());
        String[] fields = {"-T", "fields", "-e", "frame.time_epoch", "-e", "frame.len", "-e", "ip.src", "-e", "ip.dst",
            "-e", "tcp.seq_raw", "-e", "tcp.ack_raw"};
        String tap = tshark(dir.resolve("tap.pcapng"), fields);
        assertTrue(tap.lines().count() > 1000, "frames: " + tap.lines().count());
        assertEquals(tshark(dir.resolve("q-out.pcapng"), fields), tap, "the tap's frames are --pcap q.out's");
    }

    @Test
    void aBadTapIsRefusedAtItsLine() {
        String text = ModelTests.sample("stmmac-bql-100m.pipeline", "10ms");
        String two = text.replace("element eth0 : stmmac", "element cap : tap { file = \"" + dir.resolve("t.pcapng")
                + "\" }\nelement eth0 : stmmac").replace("q -> eth0", "q -> cap -> eth0\ncap -> rwire");
        assertRefusedPipeline(two, "tap cap: a tap sits on one connection", "1 connection(s) in and 2 out");
        String noFile = text.replace("element eth0 : stmmac", "element cap : tap { snaplen = 64B }\nelement eth0 : stmmac")
                .replace("q -> eth0", "q -> cap -> eth0");
        assertRefusedPipeline(noFile, "tap cap: property file is required");
        String typo = text.replace("element eth0 : stmmac", "element cap : tap { flie = \"x.pcapng\" }\nelement eth0 :"
                + " stmmac").replace("q -> eth0", "q -> cap -> eth0");
        assertRefusedPipeline(typo, "no property 'flie'", "did you mean 'file'");
        assertFalse(Files.exists(dir.resolve("t.pcapng")));
    }

    private static void assertRefusedPipeline(String text, String... parts) {
        assertRefused(text, null, parts);
    }

    @Test
    void aBadCaptureIsRefusedNamingTheOptionAndWhatIsAllowed() {
        String text = ModelTests.sample("stmmac-bql-100m.pipeline", "10ms");
        assertRefused(text, "eth9=" + dir.resolve("x.pcapng"), "--pcap eth9=", "no element 'eth9'", "eth0");
        assertRefused(text, "eth0.nope=" + dir.resolve("x.pcapng"), "eth0 (stmmac) has no port 'nope'", "wire");
        assertRefused(text, "eth0=" + dir.resolve("missing/x.pcapng"), "does not exist");
        assertRefused(text, "eth0", "expected ELEMENT=FILE or ELEMENT.PORT=FILE");
        assertRefused(text, "eth0=" + dir, "is a directory");
        assertFalse(Files.exists(dir.resolve("x.pcapng")));
    }

    private static void assertRefused(String text, String capture, String... parts) {
        try {
            run(text, capture == null ? List.of() : List.of(capture));
        } catch (PipelineException e) {
            String all = e.problems().stream().map(ProblemDTO::toString).reduce("", String::concat);
            for (String p : parts) {
                assertTrue(all.contains(p), "'" + p + "' in: " + all);
            }
            return;
        }
        throw new AssertionError(capture + " was not refused");
    }

    /** Checks a byte count tshark printed with an SI prefix ({@code 7963 kB}) against the exact count, to its rounding. */
    private static void assertPrinted(long exact, long printed, long unit, String what) {
        assertTrue(unit == 1 ? exact == printed : Math.abs(exact - printed) < unit, what + ": " + exact + " vs " + printed
                + " (in units of " + unit + ")");
    }

    /**
     * @return {@code A<->B} -> frames and bytes B -> A, frames and bytes A -> B (bytes as printed, times their unit), the
     *         units of the two byte columns; from {@code -z conv,tcp}
     */
    private static Map<String, long[]> conversations(Path file) throws Exception {
        Pattern row = Pattern.compile("^(\\S+)\\s+<->\\s+(\\S+)\\s+(\\d+)\\s+(\\d+) (bytes|kB|MB)\\s+(\\d+)\\s+(\\d+)"
                + " (bytes|kB|MB)\\s.*$");
        Map<String, long[]> m = new TreeMap<>();
        for (String line : tshark(file, "-q", "-z", "conv,tcp").lines().toList()) {
            Matcher x = row.matcher(line.strip());
            if (x.matches()) {
                m.put(x.group(1) + "<->" + x.group(2), new long[] {Long.parseLong(x.group(3)),
                        Long.parseLong(x.group(4)) * scale(x.group(5)), Long.parseLong(x.group(6)),
                        Long.parseLong(x.group(7)) * scale(x.group(8)), scale(x.group(5)), scale(x.group(8))});
            }
        }
        return m;
    }

    private static long scale(String unit) {
        return switch (unit) {
            case "kB" -> 1000;
            case "MB" -> 1_000_000;
            default -> 1;
        };
    }

    private static Map<String, Long> bytesBy(Path file, String field) throws Exception {
        Map<String, Long> m = new TreeMap<>();
        for (String line : tshark(file, "-T", "fields", "-e", field, "-e", "frame.len").lines().toList()) {
            String[] f = line.split("\t");
            m.merge(f[0], Long.parseLong(f[1]), Long::sum);
        }
        return m;
    }

    /** @return frames and bytes by the last octet of an address field: {@code frames:.2}, {@code bytes:.2} */
    private static Map<String, Long> framesAndBytes(Path file, String field) throws Exception {
        Map<String, Long> m = new TreeMap<>();
        for (String line : tshark(file, "-T", "fields", "-e", field, "-e", "frame.len").lines().toList()) {
            String[] f = line.split("\t");
            String end = f[0].substring(f[0].lastIndexOf('.'));
            m.merge("frames:" + end, 1L, Long::sum);
            m.merge("bytes:" + end, Long.parseLong(f[1]), Long::sum);
        }
        return m;
    }

    private static long largest(Path file) throws Exception {
        return tshark(file, "-T", "fields", "-e", "frame.len").lines().mapToLong(Long::parseLong).max().orElse(0);
    }

    static String tshark(Path file, String... args) throws Exception {
        return Tshark.read(file, dir, args);
    }
}

package io.ringlab.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ringlab.buffer.api.Buffer;

/**
 * Frames and pcapng files judged by the real tshark (Debian's {@code tshark}, which {@code ./ringlab test} installs as
 * root): a TCP connection with its handshake, options, data, a SACK and a retransmission, an ICMP echo and its reply,
 * and a UDP datagram are read without a malformed packet or a bad checksum (with checking on), in one conversation
 * with the bytes written, with tshark's own retransmission, RTT and echo-time analysis agreeing with the times written.
 * Without tshark the test fails, naming the package.
 */
class PcapngTsharkTest {
    private static final int A = 0x0A000001, B = 0x0A000002; // 10.0.0.1, 10.0.0.2
    private static final long MAC_A = 0x020000000001L, MAC_B = 0x020000000002L;

    @TempDir
    Path dir;
    private Path file;

    /** A Buffer whose getters answer from a map (0 for what is not set); SACK edges from two arrays. */
    static Buffer buffer(Map<String, Object> v, long[] sackStart, long[] sackEnd) {
        return (Buffer) Proxy.newProxyInstance(Buffer.class.getClassLoader(), new Class<?>[] {Buffer.class},
                (proxy, m, args) -> {
                    if (m.getName().equals("sackStart")) {
                        return sackStart[(int) args[0]];
                    }
                    if (m.getName().equals("sackEnd")) {
                        return sackEnd[(int) args[0]];
                    }
                    Object x = v.get(m.getName());
                    if (x != null) {
                        return x;
                    }
                    return m.getReturnType() == long.class ? 0L : m.getReturnType() == int.class ? 0
                            : m.getReturnType() == boolean.class ? false : null;
                });
    }

    static Buffer tcp(int length, long seq, long ack, int flags, int options, long tsVal, long tsEcr, long... sack) {
        Map<String, Object> v = new HashMap<>();
        v.put("protocol", Buffer.PROTO_TCP);
        v.put("length", length);
        v.put("seq", seq);
        v.put("ack", ack);
        v.put("flags", flags);
        v.put("tcpOptions", options);
        v.put("tcpMssOption", 1448);
        v.put("tcpWscaleOption", 7);
        v.put("tcpWindow", 502);
        v.put("tsVal", tsVal);
        v.put("tsEcr", tsEcr);
        v.put("sackBlocks", sack.length / 2);
        long[] starts = new long[4], ends = new long[4];
        for (int i = 0; i < sack.length / 2; i++) {
            starts[i] = sack[2 * i];
            ends[i] = sack[2 * i + 1];
        }
        return buffer(v, starts, ends);
    }

    @BeforeEach
    void capture() throws IOException {
        capture(128);
    }

    /** Writes the capture with this snap length into {@link #file}. */
    private void capture(int snaplen) throws IOException {
        file = dir.resolve("x.pcapng");
        int syn = Buffer.TCPOPT_MSS | Buffer.TCPOPT_SACK_PERM | Buffer.TCPOPT_TIMESTAMP | Buffer.TCPOPT_WSCALE;
        int ts = Buffer.TCPOPT_TIMESTAMP;
        int ack = Buffer.TCP_ACK, psh = Buffer.TCP_ACK | Buffer.TCP_PSH;
        try (PcapngFile f = new PcapngFile(file, snaplen, "eth0", 4)) { // 4 slots: the writer must keep up or make us wait
            f.write(0, tcp(74, 1000, 0, Buffer.TCP_SYN, syn, 100, 0), MAC_A, MAC_B, A, B, 40000, 5201);
            f.write(1_000_000, tcp(74, 5000, 1001, Buffer.TCP_SYN | ack, syn, 200, 100), MAC_B, MAC_A, B, A, 5201, 40000);
            f.write(2_000_000, tcp(66, 1001, 5001, ack, ts, 101, 200), MAC_A, MAC_B, A, B, 40000, 5201);
            for (int i = 0; i < 3; i++) {
                f.write(3_000_000 + i * 100_000, tcp(1514, 1001 + 1448L * i, 5001, psh, ts, 102, 200), MAC_A, MAC_B, A, B,
                        40000, 5201);
            }
            f.write(5_000_000, tcp(66, 5001, 2449, ack, ts, 201, 102), MAC_B, MAC_A, B, A, 5201, 40000);
            f.write(5_200_000, tcp(78, 5001, 2449, ack, ts, 202, 102, 3897, 5345), MAC_B, MAC_A, B, A, 5201, 40000);
            f.write(15_000_000, tcp(1514, 2449, 5001, psh, ts, 110, 202), MAC_A, MAC_B, A, B, 40000, 5201);
            Map<String, Object> echo = new HashMap<>(Map.of("protocol", Buffer.PROTO_ICMP, "length", 98, "flags", 8,
                    "seq", 1L));
            f.write(20_000_000, buffer(echo, null, null), MAC_A, MAC_B, A, 0x0A000003, 7, 0);
            echo.put("flags", 0);
            f.write(21_000_000, buffer(echo, null, null), MAC_B, MAC_A, 0x0A000003, A, 7, 0);
            f.write(22_000_000, buffer(Map.of("protocol", Buffer.PROTO_UDP, "length", 1514), null, null), MAC_A, MAC_B,
                    0x0A000004, 0x0A000005, 9, 9);
            assertEquals(12, f.frames());
        }
        assertFalse(Files.exists(dir.resolve("x.pcapng.partial")), "renamed once closed");
    }

    @Test
    void tsharkReadsEveryFrameWithoutAMalformedPacketOrABadChecksum() throws Exception {
        capture(1600); // whole frames: tshark verifies a checksum only over a whole segment
        String fields = tshark("-o", "ip.check_checksum:TRUE", "-o", "tcp.check_checksum:TRUE", "-o",
                "udp.check_checksum:TRUE", "-T", "fields", "-e", "frame.number", "-e", "ip.checksum.status", "-e",
                "tcp.checksum.status", "-e", "udp.checksum.status", "-e", "icmp.checksum.status", "-e", "_ws.malformed",
                "-e", "_ws.expert.severity");
        String[] lines = fields.lines().filter(l -> !l.isEmpty()).toArray(String[]::new); // keeps the empty fields
        assertEquals(12, lines.length, fields);
        for (String l : lines) {
            String[] f = l.split("\t", -1);
            assertEquals("1", f[1], "IPv4 checksum good: " + l);
            assertTrue(f[2].equals("1") || f[3].equals("1") || f[4].equals("1"), "layer-4 checksum good: " + l);
            assertEquals("", f[5], "not malformed: " + l);
        }
        assertEquals("", tshark("-Y", "_ws.malformed || _ws.expert.severity >= \"error\"").strip());
    }

    @Test
    void theConnectionIsOneConversationWithTheBytesWritten() throws Exception {
        String conv = tshark("-q", "-z", "conv,tcp");
        // A -> B: SYN 74 + ACK 66 + 3 x 1514 + the retransmission 1514; B -> A: SYN-ACK 74, ACK 66, SACK 78
        assertTrue(conv.contains("10.0.0.1:40000") && conv.contains("10.0.0.2:5201"), conv);
        assertTrue(conv.replaceAll(" +", " ").contains("3 218 bytes 6 6196 bytes 9 6414 bytes"), conv);
    }

    @Test
    void tsharksAnalysisAgreesWithTheTimesAndOptionsWritten() throws Exception {
        assertEquals("9", tshark("-Y", "tcp.analysis.retransmission", "-T", "fields", "-e", "frame.number").strip());
        assertEquals("0.002000000", tshark("-Y", "frame.number == 7", "-T", "fields", "-e", "tcp.analysis.ack_rtt")
                .strip(), "the ACK at 5 ms acknowledges the data sent at 3 ms");
        assertEquals("3897\t5345", tshark("-o", "tcp.relative_sequence_numbers:FALSE", "-Y", "frame.number == 8", "-T",
                "fields", "-e", "tcp.options.sack_le", "-e", "tcp.options.sack_re").strip());
        assertEquals("1448\t128\t100", tshark("-Y", "frame.number == 1", "-T", "fields", "-e", "tcp.options.mss_val",
                "-e", "tcp.options.wscale.multiplier", "-e", "tcp.options.timestamp.tsval").strip());
        assertEquals("1", tshark("-Y", "icmp.type == 0", "-T", "fields", "-e", "icmp.resptime").strip(),
                "the reply 1 ms after its request");
        assertEquals("0.015000000", tshark("-Y", "frame.number == 9", "-T", "fields", "-e", "frame.time_epoch").strip(),
                "virtual time since the epoch, in nanoseconds");
        assertEquals("74\t128", tshark("-Y", "frame.number == 1 || frame.number == 4", "-T", "fields", "-e",
                "frame.cap_len").strip().replace("\n", "\t").replaceAll("\t1514", ""), "a 1514-byte frame is cut at 128");
    }

    /** @return tshark's standard output for the file with these arguments; fails unless it exits with 0 */
    private String tshark(String... args) throws Exception {
        return tshark(file, dir, args);
    }

    /**
     * @param capture the file tshark reads ({@code -r})
     * @param scratch a folder for tshark's standard error
     * @return what tshark printed; fails when it is not installed (naming the package) or exits with an error
     */
    static String tshark(Path capture, Path scratch, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("tshark", "-r", capture.toString()));
        cmd.addAll(List.of(args));
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectError(scratch.resolve("tshark.err").toFile()).start();
        } catch (IOException e) {
            throw new AssertionError("tshark is not installed: ./ringlab test installs it as root; otherwise run sudo"
                    + " apt-get install -y --no-install-recommends tshark (" + e.getMessage() + ")");
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), out);
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ":\n" + out + Files.readString(scratch.resolve("tshark.err")));
        return out;
    }
}

package io.ringlab.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PcapReader} on files built byte by byte: classic pcap in both byte orders and both resolutions, pcapng with two
 * interfaces of different resolutions and offsets, the obsolete Packet Block and blocks it skips; the times and lengths it
 * reads are those tshark reads from the same files. Every malformed or cut file is an error naming the file and the frame.
 */
class PcapReaderTest {
    @TempDir
    Path dir;

    /** An Ethernet frame of {@code length} bytes: IPv4 with this TOS, protocol and ports, or ARP when proto is -1. */
    static byte[] frame(int length, int tos, int proto, int src, int dst, int sport, int dport) {
        ByteBuffer b = ByteBuffer.allocate(length).order(ByteOrder.BIG_ENDIAN);
        b.put(new byte[] {2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1});
        if (proto < 0) {
            b.putShort((short) 0x0806);
            return b.array();
        }
        b.putShort((short) 0x0800);
        b.put((byte) 0x45).put((byte) tos).putShort((short) (length - 14)).putInt(0).put((byte) 64).put((byte) proto)
                .putShort((short) 0).putInt(src).putInt(dst);
        if (length >= 38) {
            b.putShort((short) sport).putShort((short) dport);
        }
        return b.array();
    }

    /** Classic pcap: header and records (seconds, fraction, frame), the fraction in the file's unit. */
    static byte[] pcap(ByteOrder order, boolean nanos, int linkType, long[][] times, byte[][] frames, int snaplen) {
        ByteBuffer b = ByteBuffer.allocate(24 + Arrays.stream(frames).mapToInt(f -> 16 + Math.min(f.length, snaplen)).sum())
                .order(order);
        b.putInt(nanos ? PcapReader.PCAP_NANOS : PcapReader.PCAP_MICROS).putShort((short) 2).putShort((short) 4)
                .putInt(0).putInt(0).putInt(snaplen).putInt(linkType);
        for (int i = 0; i < frames.length; i++) {
            int cap = Math.min(frames[i].length, snaplen);
            b.putInt((int) times[i][0]).putInt((int) times[i][1]).putInt(cap).putInt(frames[i].length);
            b.put(frames[i], 0, cap);
        }
        return b.array();
    }

    /** pcapng blocks, little-endian. */
    static final class Ng {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Ng block(int type, byte[] body) {
            int padded = (body.length + 3) & ~3;
            ByteBuffer b = ByteBuffer.allocate(12 + padded).order(ByteOrder.LITTLE_ENDIAN);
            b.putInt(type).putInt(12 + padded).put(body).position(8 + padded);
            b.putInt(12 + padded);
            out.writeBytes(b.array());
            return this;
        }

        Ng shb() {
            ByteBuffer b = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
            b.putInt(PcapngFile.BYTE_ORDER_MAGIC).putShort((short) 1).putShort((short) 0).putLong(-1);
            return block(PcapngFile.SHB, b.array());
        }

        /** @param tsresol if_tsresol's byte, or -1 for none; offset if_tsoffset seconds, or 0 for none */
        Ng idb(int linkType, int tsresol, long offset) {
            ByteBuffer b = ByteBuffer.allocate(40).order(ByteOrder.LITTLE_ENDIAN);
            b.putShort((short) linkType).putShort((short) 0).putInt(262144);
            if (tsresol >= 0) {
                b.putShort((short) 9).putShort((short) 1).put((byte) tsresol).put(new byte[3]);
            }
            if (offset != 0) {
                b.putShort((short) 14).putShort((short) 8).putLong(offset);
            }
            b.putShort((short) 0).putShort((short) 0);
            return block(PcapngFile.IDB, Arrays.copyOf(b.array(), b.position()));
        }

        Ng epb(int ifIndex, long ts, byte[] frame, int caplen) {
            ByteBuffer b = ByteBuffer.allocate(20 + caplen).order(ByteOrder.LITTLE_ENDIAN);
            b.putInt(ifIndex).putInt((int) (ts >>> 32)).putInt((int) ts).putInt(caplen).putInt(frame.length)
                    .put(frame, 0, caplen);
            return block(PcapngFile.EPB, b.array());
        }

        Ng pb(int ifIndex, long ts, byte[] frame) {
            ByteBuffer b = ByteBuffer.allocate(20 + frame.length).order(ByteOrder.LITTLE_ENDIAN);
            b.putShort((short) ifIndex).putShort((short) 0).putInt((int) (ts >>> 32)).putInt((int) ts)
                    .putInt(frame.length).putInt(frame.length).put(frame);
            return block(PcapReader.PB, b.array());
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }

    private static io.ringlab.buffer.api.Buffer udp(int length) {
        return PcapngTsharkTest.buffer(java.util.Map.of("protocol", io.ringlab.buffer.api.Buffer.PROTO_UDP, "length",
                length), null, null);
    }

    private Path write(String name, byte[] bytes) throws Exception {
        Path f = dir.resolve(name);
        Files.write(f, bytes);
        return f;
    }

    private static final int A = 0x0A000001, B = 0x0A000002;

    private static byte[][] fourFrames() {
        return new byte[][] {frame(1514, 0, 6, A, B, 32768, 5001), frame(66, 0x10, 6, B, A, 5001, 32768),
            frame(1514, 0, 6, A, B, 32768, 5001), frame(60, 0, -1, 0, 0, 0, 0)};
    }

    @Test
    void classicPcapInBothByteOrdersAndResolutions() throws Exception {
        for (ByteOrder order : List.of(ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN)) {
            for (boolean nanos : new boolean[] {false, true}) {
                long unit = nanos ? 1 : 1000; // nanoseconds per fraction unit
                long[][] times = {{1_700_000_000, 999_000 / unit * (nanos ? 1 : 1)}, {1_700_000_001, 500 / (nanos ? 1 : 1)},
                    {1_700_000_001, 500}, {1_700_000_003, 0}};
                Path f = write("x-" + order + nanos + ".pcap", pcap(order, nanos, 1, times, fourFrames(), 128));
                PcapReader.Capture c = PcapReader.read(f);
                long first = times[0][1] * unit * 1000;
                assertEquals(List.of(0L, 1_000_000_000_000L + times[1][1] * unit * 1000 - first,
                        1_000_000_000_000L + times[2][1] * unit * 1000 - first, 3_000_000_000_000L - first),
                        Arrays.stream(c.timePicos()).boxed().toList(), order + " " + (nanos ? "ns" : "us"));
                assertEquals(List.of(1514, 66, 1514, 60), Arrays.stream(c.lengths()).boxed().toList(),
                        "original lengths, whatever the snap length kept");
                assertEquals(List.of(0, 0x10, 0, 0), List.of((int) c.tos()[0], (int) c.tos()[1], (int) c.tos()[2],
                        (int) c.tos()[3]));
                assertEquals(List.of(0, 1, 0, 2), Arrays.stream(c.flows()).boxed().toList(),
                        "a 5-tuple per direction, the ARP frame its own");
                assertEquals(3, c.flowCount());
                assertEquals(1514, c.largest());
            }
        }
    }

    @Test
    void pcapngWithTwoInterfacesOfTheirOwnResolutionAndOffsetAsTsharkReadsIt() throws Exception {
        byte[][] f = fourFrames();
        byte[] nrb = new byte[8]; // a Name Resolution Block with only its end: skipped
        Ng ng = new Ng().shb().idb(1, 9, 0).idb(1, 0x80 | 20, 1_700_000_000L) // ns; 2^-20 s from an offset
                .epb(0, 1_700_000_000_250_000_000L, f[0], 96)
                .block(4, nrb)
                .epb(1, (1L << 20) / 2, f[1], 66) // offset + 0.5 s
                .pb(0, 1_700_000_000_750_000_001L, f[2])
                .epb(1, 3L << 20, f[3], 60);
        Path file = write("two.pcapng", ng.bytes());
        PcapReader.Capture c = PcapReader.read(file);
        assertEquals(List.of(0L, 250_000_000_000L, 500_000_001_000L, 2_750_000_000_000L),
                Arrays.stream(c.timePicos()).boxed().toList());
        assertEquals(List.of(1514, 66, 1514, 60), Arrays.stream(c.lengths()).boxed().toList());
        assertEquals(tshark(file), describe(c), "tshark's relative times (ns) and lengths");

        Path classic = write("t.pcap", pcap(ByteOrder.LITTLE_ENDIAN, true, 1, new long[][] {{5, 1}, {5, 7}, {6, 3},
            {9, 999_999_999}}, fourFrames(), 64));
        assertEquals(tshark(classic), describe(PcapReader.read(classic)));
    }

    @Test
    void ourOwnCapturesReadBack() throws Exception {
        // PcapngFile's header (ns resolution) is what the replay of a Ringlab capture reads
        Path f = dir.resolve("own.pcapng");
        try (PcapngFile p = new PcapngFile(f, 128, "src.out", 4)) {
            p.write(1_000_000_005L, udp(1000), 1, 2, A, B, 9, 9);
            p.write(2_000_000_000L, udp(60), 1, 2, A, B, 9, 9);
        }
        PcapReader.Capture c = PcapReader.read(f);
        assertEquals(List.of(0L, 999_999_995_000L), Arrays.stream(c.timePicos()).boxed().toList());
        assertEquals(List.of(1000, 60), Arrays.stream(c.lengths()).boxed().toList());
    }

    @Test
    void aFrameEarlierThanItsPredecessorIsTakenAtItsTimeAndCounted() throws Exception {
        Path f = write("back.pcap", pcap(ByteOrder.LITTLE_ENDIAN, false, 1, new long[][] {{10, 0}, {9, 0}, {11, 0},
            {12, 0}}, fourFrames(), 128));
        PcapReader.Capture c = PcapReader.read(f);
        assertEquals(List.of(0L, 0L, 1_000_000_000_000L, 2_000_000_000_000L), Arrays.stream(c.timePicos()).boxed().toList());
        assertEquals(1, c.clamped());
    }

    @Test
    void malformedAndCutFilesAreErrorsNamingTheFileAndTheFrame() throws Exception {
        byte[] good = pcap(ByteOrder.LITTLE_ENDIAN, false, 1, new long[][] {{1, 0}, {2, 0}, {3, 0}, {4, 0}}, fourFrames(),
                128);
        assertError("cut.pcap", Arrays.copyOf(good, good.length - 10), "frame 4 is truncated: it needs 60 bytes, the file"
                + " ends after 50");
        assertError("cuthead.pcap", Arrays.copyOf(good, 24 + 16 + 128 + 8), "frame 2 is truncated: the file ends 8 bytes"
                + " into its 16-byte record header");
        byte[] bad = good.clone();
        ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putInt(24 + 16 + 128 + 8, 2000); // caplen > origlen
        assertError("caplen.pcap", bad, "frame 2: malformed record: 2000 bytes captured of 66");
        assertError("magic.pcap", "hello, world".getBytes(StandardCharsets.US_ASCII), "not a pcap or pcapng file: it"
                + " starts with 0x68656C6C");
        assertError("empty.pcap", new byte[0], "empty: not a pcap or pcapng file");
        assertError("none.pcap", Arrays.copyOf(good, 24), "holds no frame");
        assertError("sll.pcap", pcap(ByteOrder.LITTLE_ENDIAN, false, 113, new long[][] {{1, 0}}, new byte[][] {
            frame(60, 0, 6, A, B, 1, 2)}, 128), "the file header: link type 113; only Ethernet (LINKTYPE_ETHERNET, 1) is"
                    + " replayed");
        assertError("short.pcap", pcap(ByteOrder.LITTLE_ENDIAN, false, 1, new long[][] {{1, 0}, {1, 5}}, new byte[][] {
            frame(60, 0, 6, A, B, 1, 2), new byte[10]}, 128), "frame 2: 10 bytes, shorter than an Ethernet header (14)");
        byte[] ng = new Ng().shb().idb(1, 9, 0).epb(0, 5, frame(60, 0, 6, A, B, 1, 2), 60).epb(3, 6,
                frame(60, 0, 6, A, B, 1, 2), 60).bytes();
        assertError("if.pcapng", ng, "frame 2 (block at byte 152): interface 3, but its section describes 1");
        byte[] spb = new Ng().shb().idb(1, 9, 0).block(PcapReader.SPB, new byte[64]).bytes();
        assertError("spb.pcapng", spb, "frame 1 (block at byte 60): a Simple Packet Block has no timestamp");
        byte[] lengths = new Ng().shb().idb(1, 9, 0).epb(0, 5, frame(60, 0, 6, A, B, 1, 2), 60).bytes();
        ByteBuffer.wrap(lengths).order(ByteOrder.LITTLE_ENDIAN).putInt(lengths.length - 4, 76);
        assertError("trailer.pcapng", lengths, "the block at byte 60 says 92 bytes at its start and 76 at its end");
        assertError("cutng.pcapng", Arrays.copyOf(lengths, 100), "frame 1 (block at byte 60) is truncated: it needs 80"
                + " bytes, the file ends after 32");
        Files.createDirectory(dir.resolve("adir"));
        assertTrue(assertThrows(PcapReader.FormatException.class, () -> PcapReader.read(dir.resolve("adir")))
                .getMessage().endsWith("adir: a directory, not a capture file"));
        assertTrue(assertThrows(PcapReader.FormatException.class, () -> PcapReader.read(dir.resolve("nope.pcap")))
                .getMessage().endsWith("nope.pcap: no such file"));
    }

    private void assertError(String name, byte[] bytes, String message) throws Exception {
        Path f = write(name, bytes);
        PcapReader.FormatException e = assertThrows(PcapReader.FormatException.class, () -> PcapReader.read(f), name);
        assertTrue(e.getMessage().startsWith(f + ": " + message), e.getMessage());
    }

    private static List<String> describe(PcapReader.Capture c) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < c.frames(); i++) {
            out.add(String.format("%.9f %d", c.timePicos()[i] / 1e12, c.lengths()[i]));
        }
        return out;
    }

    /** @return tshark's {@code frame.time_relative} and {@code frame.len} of each frame */
    private List<String> tshark(Path file) throws Exception {
        return PcapngTsharkTest.tshark(file, dir, "-T", "fields", "-e", "frame.time_relative", "-e", "frame.len").lines()
                .map(l -> l.replace('\t', ' ')).toList();
    }
}

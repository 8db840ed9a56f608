package io.ringlab.capture;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a capture of Ethernet frames, classic pcap or pcapng, into arrays a replay walks without allocating: each frame's
 * time from the first frame, its length on the wire, its IPv4 TOS and its flow (the first-seen order of its 5-tuple).
 * <p>
 * Formats (research/formats.md §1; draft-ietf-opsawg-pcap, draft-ietf-opsawg-pcapng): classic pcap in either byte order
 * with microsecond ({@code 0xA1B2C3D4}) or nanosecond ({@code 0xA1B23C4D}) timestamps, and the FCS length the link-type
 * field may carry; pcapng with any number of sections and interfaces, Enhanced and (obsolete) Packet Blocks,
 * {@code if_tsresol} (a power of 10 or of 2), {@code if_tsoffset} and {@code if_fcslen}; other blocks are skipped. Only
 * LINKTYPE_ETHERNET (1) is read. A frame's length is its original length ({@code orig_len}) less a recorded FCS, as
 * {@code skb->len} counts it; the captured bytes need to hold the headers only (any snap length).
 * <p>
 * The flow of an IPv4 frame is its 5-tuple (addresses, protocol, and the ports of TCP and UDP when the frame is not a
 * later fragment and the snap length kept them), of another frame its Ethernet addresses and type, after up to two VLAN
 * tags; the two directions of a connection are two flows, as the kernel's flow hash makes them.
 * <p>
 * Frames are numbered from 1 in file order, as tshark numbers them; every error names the file and the frame (or the
 * byte offset of a block) and what was found. A frame whose time is before its predecessor's (interfaces of one pcapng
 * file interleaved) is taken at its predecessor's time and counted ({@link Capture#clamped}).
 */
public final class PcapReader {
    /** The most frames a capture may hold here: 17 bytes each in memory, 272 MiB at this limit. */
    public static final int MAX_FRAMES = 1 << 24;
    /** The longest frame replayed: tcpdump's largest snap length (a GSO skb is at most 64 KiB plus headers). */
    public static final int MAX_LENGTH = 262_144;
    /** Classic pcap's magic numbers, as written in the file's byte order (microseconds, nanoseconds). */
    static final int PCAP_MICROS = 0xA1B2C3D4, PCAP_NANOS = 0xA1B23C4D;
    /** pcapng's obsolete Packet Block and Simple Packet Block (Enhanced: {@link PcapngFile#EPB}). */
    static final int PB = 2, SPB = 3;
    /** pcapng interface options read here. */
    private static final int IF_TSRESOL = 9, IF_FCSLEN = 13, IF_TSOFFSET = 14, OPT_ENDOFOPT = 0;
    /** The largest block accepted: pcapng readers refuse larger (Wireshark's limit is 16 MiB as well). */
    private static final int MAX_BLOCK = 16 << 20;
    private static final long PICOS_PER_SECOND = 1_000_000_000_000L;
    /** 10^0 to 10^18: the decimal resolutions of if_tsresol. */
    private static final long[] TENS = new long[19];

    static {
        TENS[0] = 1;
        for (int i = 1; i < TENS.length; i++) {
            TENS[i] = TENS[i - 1] * 10;
        }
    }

    private PcapReader() {
    }

    /**
     * A capture in memory.
     *
     * @param frames the number of frames
     * @param timePicos each frame's time after the first frame's, in picoseconds, never decreasing
     * @param lengths each frame's length without FCS, bytes
     * @param tos each frame's IPv4 TOS byte; 0 for a frame that is not IPv4
     * @param flows each frame's flow: 0 for the first 5-tuple seen, 1 for the next, ...
     * @param flowCount the number of flows
     * @param clamped frames taken at their predecessor's time because theirs was earlier
     * @param largest the longest frame, bytes
     */
    public record Capture(int frames, long[] timePicos, int[] lengths, byte[] tos, int[] flows, int flowCount,
            int clamped, int largest) {
    }

    /** A capture that cannot be read: the message names the file and the frame or block. */
    public static final class FormatException extends IOException {
        private static final long serialVersionUID = 1L;

        FormatException(String message) {
            super(message);
        }
    }

    /**
     * @param file a pcap or pcapng file
     * @return its frames
     * @throws FormatException naming the file and the frame when it is not a capture of Ethernet frames or is cut short
     * @throws IOException when it cannot be read, naming it
     */
    public static Capture read(Path file) throws IOException {
        if (Files.isDirectory(file)) {
            throw new FormatException(file + ": a directory, not a capture file");
        }
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            Reader r = new Reader(file, in);
            r.read();
            return r.capture();
        } catch (NoSuchFileException e) {
            throw new FormatException(file.toAbsolutePath() + ": no such file");
        }
    }

    /** The state of one read. */
    private static final class Reader {
        private final Path file;
        private final InputStream in;
        private long offset;
        private byte[] record = new byte[1 << 16];
        private ByteOrder order = ByteOrder.LITTLE_ENDIAN;
        private int frame; // frames read so far; the current one is frame + 1
        private long[] time = new long[1024];
        private int[] length = new int[1024];
        private byte[] tos = new byte[1024];
        private int[] flow = new int[1024];
        private final Map<FlowKey, Integer> flowIds = new HashMap<>();
        private int clamped;
        private int largest;
        private long firstSecond = Long.MIN_VALUE;
        private long firstPicos;
        private long previous;
        /** pcapng: this section's interfaces. */
        private final List<Interface> interfaces = new ArrayList<>();

        Reader(Path file, InputStream in) {
            this.file = file;
            this.in = in;
        }

        /**
         * An interface of a pcapng section: link type, its timestamps' resolution (2^-exp s when binary, else 10^-exp s),
         * its {@code if_tsoffset} in seconds and the FCS bytes its frames carry.
         */
        private record Interface(int linkType, boolean binary, int exp, long offsetSeconds, int fcsBytes) {
        }

        private record FlowKey(long a, long b) {
        }

        void read() throws IOException {
            byte[] head = new byte[4];
            if (!fill(head, 4)) {
                throw error("empty: not a pcap or pcapng file");
            }
            int be = ByteBuffer.wrap(head).order(ByteOrder.BIG_ENDIAN).getInt();
            int le = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN).getInt();
            if (be == PcapngFile.SHB) {
                readPcapng(head);
            } else if (le == PCAP_MICROS || le == PCAP_NANOS) {
                order = ByteOrder.LITTLE_ENDIAN;
                readPcap(le == PCAP_NANOS);
            } else if (be == PCAP_MICROS || be == PCAP_NANOS) {
                order = ByteOrder.BIG_ENDIAN;
                readPcap(be == PCAP_NANOS);
            } else {
                throw error(String.format("not a pcap or pcapng file: it starts with 0x%08X; a pcap file starts with "
                        + "0xA1B2C3D4 or 0xA1B23C4D, a pcapng file with 0x0A0D0D0A", be));
            }
            if (frame == 0) {
                throw error("holds no frame");
            }
        }

        // ------------------------------------------------------------------ classic pcap

        private void readPcap(boolean nanos) throws IOException {
            ByteBuffer h = header(20, "the file header");
            int major = Short.toUnsignedInt(h.getShort());
            h.getShort(); // minor
            h.getInt(); // thiszone
            h.getInt(); // sigfigs
            long snaplen = Integer.toUnsignedLong(h.getInt());
            int network = h.getInt();
            if (major != 2) {
                throw error("pcap version " + major + ": only version 2 exists");
            }
            int linkType = network & 0x0FFFFFFF;
            checkLink(linkType, "the file header");
            // the F bit (28) says bits 29-31 hold the frames' FCS length in 16-bit words
            int fcs = (network & 0x10000000) != 0 ? ((network >>> 29) & 7) * 2 : 0;
            byte[] rec = new byte[16];
            while (fill(rec, 16)) {
                ByteBuffer r = ByteBuffer.wrap(rec).order(order);
                long sec = Integer.toUnsignedLong(r.getInt());
                long frac = Integer.toUnsignedLong(r.getInt());
                long caplen = Integer.toUnsignedLong(r.getInt());
                long origlen = Integer.toUnsignedLong(r.getInt());
                int n = frame + 1;
                if (frac >= (nanos ? 1_000_000_000L : 1_000_000L)) {
                    throw error("frame " + n + ": " + (nanos ? "nanoseconds " : "microseconds ") + frac
                            + " in its timestamp, at least a second");
                }
                if (caplen > origlen || caplen > MAX_BLOCK) {
                    throw error("frame " + n + ": malformed record: " + caplen + " bytes captured of " + origlen
                            + " (snap length " + snaplen + ")");
                }
                byte[] data = data((int) caplen, "frame " + n);
                frame(sec, frac * (nanos ? 1000 : 1_000_000), data, 0, (int) caplen, origlen, fcs);
            }
        }

        // ------------------------------------------------------------------ pcapng

        private void readPcapng(byte[] first) throws IOException {
            byte[] type = first;
            boolean haveType = true;
            while (true) {
                long blockOffset = offset - 4;
                if (!haveType) {
                    if (!fill(type, 4)) {
                        return;
                    }
                    blockOffset = offset - 4;
                }
                haveType = false;
                int blockType;
                long total;
                if (ByteBuffer.wrap(type).order(ByteOrder.BIG_ENDIAN).getInt() == PcapngFile.SHB) {
                    // a new section: its byte order is in its magic, after the length
                    byte[] lenAndMagic = new byte[8];
                    if (!fill(lenAndMagic, 8)) {
                        throw error("section header at byte " + blockOffset + " is cut short");
                    }
                    int magicBe = ByteBuffer.wrap(lenAndMagic, 4, 4).order(ByteOrder.BIG_ENDIAN).getInt();
                    int magicLe = ByteBuffer.wrap(lenAndMagic, 4, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
                    if (magicBe == PcapngFile.BYTE_ORDER_MAGIC) {
                        order = ByteOrder.BIG_ENDIAN;
                    } else if (magicLe == PcapngFile.BYTE_ORDER_MAGIC) {
                        order = ByteOrder.LITTLE_ENDIAN;
                    } else {
                        throw error(String.format("section header at byte %d: byte-order magic 0x%08X, not 0x1A2B3C4D",
                                blockOffset, magicBe));
                    }
                    total = Integer.toUnsignedLong(ByteBuffer.wrap(lenAndMagic, 0, 4).order(order).getInt());
                    checkBlock(total, 28, blockOffset, "section header");
                    data((int) total - 16, "the section header at byte " + blockOffset); // version, length, options
                    trailer(total, blockOffset);
                    interfaces.clear();
                    continue;
                }
                blockType = ByteBuffer.wrap(type).order(order).getInt();
                ByteBuffer lenBuf = header(4, "the block at byte " + blockOffset);
                total = Integer.toUnsignedLong(lenBuf.getInt());
                String what = blockType == PcapngFile.EPB || blockType == PB || blockType == SPB
                        ? "frame " + (frame + 1) + " (block at byte " + blockOffset + ")" : "the block at byte " + blockOffset;
                checkBlock(total, 12, blockOffset, what);
                int bodyLength = (int) total - 12;
                byte[] body = data(bodyLength, what);
                trailer(total, blockOffset);
                ByteBuffer b = ByteBuffer.wrap(body, 0, bodyLength).order(order);
                switch (blockType) {
                    case PcapngFile.IDB -> interfaceBlock(b, blockOffset);
                    case PcapngFile.EPB -> packetBlock(b, what, false);
                    case PB -> packetBlock(b, what, true);
                    case SPB -> throw error(what + ": a Simple Packet Block has no timestamp, so it cannot be"
                            + " replayed in time; convert the file with editcap or capture with timestamps");
                    default -> {
                        // name resolution, statistics, custom and other blocks: nothing a replay needs
                    }
                }
            }
        }

        private void interfaceBlock(ByteBuffer b, long blockOffset) throws FormatException {
            if (b.remaining() < 8) {
                throw error("interface description at byte " + blockOffset + " is shorter than its 8 fixed bytes");
            }
            int linkType = Short.toUnsignedInt(b.getShort());
            b.getShort();
            b.getInt(); // snaplen
            boolean binary = false;
            int exp = 6; // if_tsresol's default: microseconds
            long offsetSeconds = 0;
            int fcs = 0;
            while (b.remaining() >= 4) {
                int code = Short.toUnsignedInt(b.getShort());
                int len = Short.toUnsignedInt(b.getShort());
                if (code == OPT_ENDOFOPT) {
                    break;
                }
                if (len > b.remaining()) {
                    throw error("interface description at byte " + blockOffset + ": option " + code + " of " + len
                            + " bytes runs past the block");
                }
                int start = b.position();
                if (code == IF_TSRESOL && len >= 1) {
                    int v = Byte.toUnsignedInt(b.get());
                    binary = (v & 0x80) != 0;
                    exp = v & 0x7F;
                    if (binary ? exp > 62 : exp > 18) {
                        throw error("interface description at byte " + blockOffset + ": if_tsresol 0x"
                                + Integer.toHexString(v) + " is finer than this reader keeps (2^-62 or 10^-18 s)");
                    }
                } else if (code == IF_TSOFFSET && len >= 8) {
                    offsetSeconds = b.getLong();
                } else if (code == IF_FCSLEN && len >= 1) {
                    fcs = Byte.toUnsignedInt(b.get());
                }
                b.position(start + ((len + 3) & ~3));
            }
            interfaces.add(new Interface(linkType, binary, exp, offsetSeconds, fcs));
        }

        private void packetBlock(ByteBuffer b, String what, boolean obsolete) throws IOException {
            if (b.remaining() < 20) {
                throw error(what + ": shorter than a packet block's 20 fixed bytes");
            }
            int ifIndex = obsolete ? Short.toUnsignedInt(b.getShort()) : b.getInt();
            if (obsolete) {
                b.getShort(); // drops count
            }
            long ts = (Integer.toUnsignedLong(b.getInt()) << 32) | Integer.toUnsignedLong(b.getInt());
            long caplen = Integer.toUnsignedLong(b.getInt());
            long origlen = Integer.toUnsignedLong(b.getInt());
            if (ifIndex < 0 || ifIndex >= interfaces.size()) {
                throw error(what + ": interface " + Integer.toUnsignedString(ifIndex) + ", but its section describes "
                        + interfaces.size());
            }
            if (caplen > origlen || caplen > b.remaining()) {
                throw error(what + ": malformed: " + caplen + " bytes captured of " + origlen + ", " + b.remaining()
                        + " bytes in the block");
            }
            Interface i = interfaces.get(ifIndex);
            checkLink(i.linkType(), what + " (interface " + ifIndex + ")");
            long sec;
            long picos;
            if (i.binary()) {
                int v = i.exp();
                sec = ts >>> v;
                long rem = v == 0 ? 0 : ts & ((1L << v) - 1);
                // rem * 10^12 / 2^v, truncated, in 128 bits
                long hi = Math.multiplyHigh(rem, PICOS_PER_SECOND);
                long lo = rem * PICOS_PER_SECOND;
                picos = v == 0 ? 0 : (hi << (64 - v)) | (lo >>> v);
            } else {
                long ups = TENS[i.exp()];
                sec = Long.divideUnsigned(ts, ups);
                long rem = Long.remainderUnsigned(ts, ups);
                picos = ups <= PICOS_PER_SECOND ? rem * (PICOS_PER_SECOND / ups) : rem / (ups / PICOS_PER_SECOND);
            }
            int data = b.position();
            frame(sec + i.offsetSeconds(), picos, b.array(), data, (int) caplen, origlen, i.fcsBytes());
        }


        // ------------------------------------------------------------------ frames

        private void frame(long sec, long picos, byte[] data, int at, int caplen, long origlen, int fcs)
                throws FormatException {
            int n = frame + 1;
            long len = origlen - fcs;
            if (len < 14) {
                throw error("frame " + n + ": " + origlen + " bytes" + (fcs > 0 ? " with a " + fcs + "-byte FCS" : "")
                        + ", shorter than an Ethernet header (14)");
            }
            if (len > MAX_LENGTH) {
                throw error("frame " + n + ": " + len + " bytes, longer than a replay takes (" + MAX_LENGTH + ")");
            }
            if (n > MAX_FRAMES) {
                throw error("more than " + MAX_FRAMES + " frames; cut it to fewer (editcap -r FILE OUT 1-"
                        + MAX_FRAMES + ")");
            }
            if (frame == time.length) {
                int grown = Math.min(MAX_FRAMES, time.length * 2);
                time = Arrays.copyOf(time, grown);
                length = Arrays.copyOf(length, grown);
                tos = Arrays.copyOf(tos, grown);
                flow = Arrays.copyOf(flow, grown);
            }
            if (firstSecond == Long.MIN_VALUE) {
                firstSecond = sec;
                firstPicos = picos;
            }
            long t;
            try {
                t = Math.addExact(Math.multiplyExact(sec - firstSecond, PICOS_PER_SECOND), picos - firstPicos);
            } catch (ArithmeticException e) {
                throw error("frame " + n + ": " + (sec - firstSecond) + " s after the first frame, more than a"
                        + " replay keeps (106 days)");
            }
            if (t < previous) {
                clamped++;
                t = previous;
            }
            previous = t;
            time[frame] = t;
            length[frame] = (int) len;
            largest = Math.max(largest, (int) len);
            classify(data, at, caplen);
            frame = n;
        }

        /** Sets the frame's TOS and flow from the headers the snap length kept. */
        private void classify(byte[] d, int at, int caplen) {
            int end = at + caplen;
            int p = at + 12;
            int type = p + 2 <= end ? u16(d, p) : -1;
            p += 2;
            for (int tags = 0; tags < 2 && (type == 0x8100 || type == 0x88A8) && p + 4 <= end; tags++) {
                type = u16(d, p + 2);
                p += 4;
            }
            long a;
            long b;
            int t = 0;
            if (type == 0x0800 && p + 20 <= end && (d[p] & 0xF0) == 0x40) {
                int ihl = (d[p] & 0x0F) * 4;
                t = d[p + 1] & 0xFF;
                int proto = d[p + 9] & 0xFF;
                long src = u32(d, p + 12);
                long dst = u32(d, p + 16);
                boolean laterFragment = (u16(d, p + 6) & 0x1FFF) != 0;
                int ports = 0;
                if ((proto == 6 || proto == 17) && !laterFragment && ihl >= 20 && p + ihl + 4 <= end) {
                    ports = (int) u32(d, p + ihl);
                }
                a = src << 32 | dst;
                b = 1L << 48 | (long) proto << 32 | Integer.toUnsignedLong(ports);
            } else {
                // not IPv4 (or cut before its header): the Ethernet addresses (12 bytes) and type
                a = at + 12 <= end ? u32(d, at) << 32 | u32(d, at + 4) : 0;
                b = 2L << 48 | (long) (type & 0xFFFF) << 32 | (at + 12 <= end ? u32(d, at + 8) : 0);
            }
            tos[frame] = (byte) t;
            Integer id = flowIds.putIfAbsent(new FlowKey(a, b), flowIds.size());
            flow[frame] = id == null ? flowIds.size() - 1 : id;
        }

        private static int u16(byte[] d, int p) {
            return (d[p] & 0xFF) << 8 | d[p + 1] & 0xFF;
        }

        private static long u32(byte[] d, int p) {
            return Integer.toUnsignedLong((d[p] & 0xFF) << 24 | (d[p + 1] & 0xFF) << 16 | (d[p + 2] & 0xFF) << 8
                    | d[p + 3] & 0xFF);
        }

        Capture capture() {
            return new Capture(frame, Arrays.copyOf(time, frame), Arrays.copyOf(length, frame), Arrays.copyOf(tos, frame),
                    Arrays.copyOf(flow, frame), flowIds.size(), clamped, largest);
        }

        // ------------------------------------------------------------------ bytes

        private void checkLink(int linkType, String where) throws FormatException {
            if (linkType != PcapngFile.LINKTYPE_ETHERNET) {
                throw error(where + ": link type " + linkType + "; only Ethernet (LINKTYPE_ETHERNET, 1) is replayed"
                        + " (a capture on 'any' is LINUX_SLL, 113 or 276: capture on the interface)");
            }
        }

        private void checkBlock(long total, int least, long blockOffset, String what) throws FormatException {
            if (total < least || total % 4 != 0 || total > MAX_BLOCK) {
                throw error(what + ": block length " + total + " (a multiple of 4, from " + least + " to " + MAX_BLOCK
                        + ")");
            }
        }

        private void trailer(long total, long blockOffset) throws IOException {
            ByteBuffer t = header(4, "the block at byte " + blockOffset);
            long trailing = Integer.toUnsignedLong(t.getInt());
            if (trailing != total) {
                throw error("the block at byte " + blockOffset + " says " + total + " bytes at its start and " + trailing
                        + " at its end");
            }
        }

        /** @return the next {@code n} bytes, in the reader's byte order; the file must hold them */
        private ByteBuffer header(int n, String what) throws IOException {
            byte[] h = new byte[n];
            if (!fill(h, n)) {
                throw error(what + " is cut short at byte " + offset);
            }
            return ByteBuffer.wrap(h).order(order);
        }

        /** @return the next {@code n} bytes in a buffer reused from one call to the next */
        private byte[] data(int n, String what) throws IOException {
            if (record.length < n) {
                record = new byte[Math.max(n, record.length * 2)];
            }
            int got = in.readNBytes(record, 0, n);
            offset += got;
            if (got < n) {
                throw error(what + " is truncated: it needs " + n + " bytes, the file ends after " + got);
            }
            return record;
        }

        /** @return false at the end of the file before any byte; true with {@code n} bytes read */
        private boolean fill(byte[] into, int n) throws IOException {
            int got = in.readNBytes(into, 0, n);
            offset += got;
            if (got == 0) {
                return false;
            }
            if (got < n) {
                throw error("frame " + (frame + 1) + " is truncated: the file ends " + got + " bytes into its " + n
                        + "-byte record header");
            }
            return true;
        }

        private FormatException error(String what) {
            return new FormatException(file + ": " + what);
        }
    }
}

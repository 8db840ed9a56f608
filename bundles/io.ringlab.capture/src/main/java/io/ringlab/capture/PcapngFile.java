package io.ringlab.capture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.locks.LockSupport;

import io.ringlab.buffer.api.Buffer;

/**
 * A pcapng capture file (draft-tuexen-opsawg-pcapng: a Section Header Block, one Interface Description Block with
 * LINKTYPE_ETHERNET and nanosecond timestamps, {@code if_tsresol} 9, then one Enhanced Packet Block per frame),
 * written on a thread of its own: the engine's thread formats each block into a slot of a ring allocated up front
 * ({@link Frames} builds the frame) and goes on; the writer thread drains the ring to the file. Nothing is allocated per
 * packet on either side. A full ring makes the engine's thread wait (a capture loses no frame).
 * <p>
 * The file is written as {@code FILE.partial} and renamed to FILE when it is closed whole: an interrupted capture never
 * leaves a truncated file under the name asked for. Timestamps are virtual time since the Unix epoch.
 * <p>
 * {@link #write} from one thread at a time (the engine's); {@link #close()} from that thread too.
 */
public final class PcapngFile implements AutoCloseable {
    /** tcpdump's default snap length is the whole frame; ours is 128 bytes (headers and a little payload). */
    public static final int DEFAULT_SNAPLEN = 128;
    static final int SHB = 0x0A0D0D0A, IDB = 1, EPB = 6;
    static final int BYTE_ORDER_MAGIC = 0x1A2B3C4D;
    static final int LINKTYPE_ETHERNET = 1;
    /** EPB bytes besides the data: type, length, interface, timestamp (2), captured, original, trailing length. */
    private static final int EPB_OVERHEAD = 32;
    /** Blocks one write of the writer thread takes at most (Linux's IOV_MAX is 1,024). */
    private static final int GATHER = 256;

    private final Path file;
    private final Path partial;
    private final int snaplen;
    private final FileChannel channel;
    private final Frames frames = new Frames();
    private final byte[][] slots;
    private final ByteBuffer[] views;
    private final int[] lengths;
    private volatile long head; // blocks published by the engine's thread
    private volatile long tail; // blocks written by the writer thread
    private volatile boolean closing;
    private volatile IOException failure;
    private final Thread writer;
    private long frameCount;
    private int ipId;

    /**
     * Opens {@code FILE.partial} and writes the section and interface headers.
     *
     * @param file the capture's file
     * @param snaplen the most bytes kept of each frame, at least {@value Frames#ETHERNET}
     * @param interfaceName the interface's name ({@code if_name}: the element and port captured)
     * @param slots blocks the ring holds, at least 2
     * @throws IOException if the file cannot be created, naming it
     */
    public PcapngFile(Path file, int snaplen, String interfaceName, int slots) throws IOException {
        if (snaplen < Frames.ETHERNET || slots < 2) {
            throw new IllegalArgumentException("pcap " + file + ": snaplen=" + snaplen + " (at least " + Frames.ETHERNET
                    + ") slots=" + slots + " (at least 2)");
        }
        this.file = file;
        this.partial = file.resolveSibling(file.getFileName() + ".partial");
        this.snaplen = snaplen;
        int slotBytes = EPB_OVERHEAD + ((snaplen + 3) & ~3);
        this.slots = new byte[slots][slotBytes];
        this.views = new ByteBuffer[slots];
        for (int i = 0; i < slots; i++) {
            views[i] = ByteBuffer.wrap(this.slots[i]);
        }
        this.lengths = new int[slots];
        this.channel = FileChannel.open(partial, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE);
        try {
            writeFully(headers(snaplen, interfaceName));
        } catch (IOException e) {
            channel.close();
            Files.deleteIfExists(partial);
            throw e;
        }
        this.writer = new Thread(this::drain, "ringlab-pcap-" + file.getFileName());
        writer.setDaemon(true);
        writer.start();
    }

    private static ByteBuffer headers(int snaplen, String interfaceName) {
        byte[] app = "Ringlab".getBytes(StandardCharsets.UTF_8);
        byte[] name = interfaceName.getBytes(StandardCharsets.UTF_8);
        int shbOptions = 4 + pad(app.length) + 4;
        int shbLength = 28 + shbOptions;
        int idbOptions = 4 + pad(name.length) + 8 + 4;
        int idbLength = 20 + idbOptions;
        ByteBuffer b = ByteBuffer.allocate(shbLength + idbLength).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(SHB).putInt(shbLength).putInt(BYTE_ORDER_MAGIC).putShort((short) 1).putShort((short) 0).putLong(-1);
        option(b, 4, app); // shb_userappl
        b.putInt(0); // opt_endofopt
        b.putInt(shbLength);
        b.putInt(IDB).putInt(idbLength).putShort((short) LINKTYPE_ETHERNET).putShort((short) 0).putInt(snaplen);
        option(b, 2, name); // if_name
        option(b, 9, new byte[] {9}); // if_tsresol: 10^-9 s
        b.putInt(0);
        b.putInt(idbLength);
        return b.flip();
    }

    private static void option(ByteBuffer b, int code, byte[] value) {
        b.putShort((short) code).putShort((short) value.length).put(value);
        for (int i = value.length; i < pad(value.length); i++) {
            b.put((byte) 0);
        }
    }

    private static int pad(int n) {
        return (n + 3) & ~3;
    }

    /**
     * Captures one frame.
     *
     * @param timeNanos virtual time, nanoseconds
     * @param b the packet
     * @param srcMac source MAC, 48 bits
     * @param dstMac destination MAC, 48 bits
     * @param srcIp source IPv4 address
     * @param dstIp destination IPv4 address
     * @param srcPort source port, or the ICMP echo identifier
     * @param dstPort destination port
     * @throws UncheckedIOException if the writer thread failed (the disk is full), naming the file
     */
    public void write(long timeNanos, Buffer b, long srcMac, long dstMac, int srcIp, int dstIp, int srcPort, int dstPort) {
        long h = head;
        while (h - tail >= slots.length) {
            if (failure != null) {
                throw new UncheckedIOException("pcap " + file + ": " + failure.getMessage(), failure);
            }
            LockSupport.unpark(writer);
            LockSupport.parkNanos(20_000);
        }
        if (failure != null) {
            throw new UncheckedIOException("pcap " + file + ": " + failure.getMessage(), failure);
        }
        int s = (int) (h % slots.length);
        byte[] slot = slots[s];
        int origin = frames.write(b, slot, 28, snaplen, srcMac, dstMac, srcIp, dstIp, srcPort, dstPort, ipId++ & 0xffff);
        int captured = Math.min(origin, snaplen);
        int total = EPB_OVERHEAD + pad(captured);
        for (int i = 28 + captured; i < 28 + pad(captured); i++) {
            slot[i] = 0;
        }
        le32(slot, 0, EPB);
        le32(slot, 4, total);
        le32(slot, 8, 0);
        le32(slot, 12, (int) (timeNanos >>> 32));
        le32(slot, 16, (int) timeNanos);
        le32(slot, 20, captured);
        le32(slot, 24, origin);
        le32(slot, total - 4, total);
        lengths[s] = total;
        head = h + 1; // publishes the slot
        frameCount++;
    }

    /** @return frames written so far */
    public long frames() {
        return frameCount;
    }

    /**
     * The writer thread: writes the blocks published so far with one gathering write each time (at most
     * {@value #GATHER} blocks, those contiguous in the ring), not a system call per frame.
     */
    private void drain() {
        while (true) {
            long t = tail;
            long h = head;
            if (t < h) {
                int s = (int) (t % slots.length);
                int n = (int) Math.min(Math.min(h - t, GATHER), slots.length - s);
                for (int k = s; k < s + n; k++) {
                    views[k].clear().limit(lengths[k]);
                }
                try {
                    while (views[s + n - 1].hasRemaining()) {
                        channel.write(views, s, n);
                    }
                } catch (IOException e) {
                    failure = e;
                    return;
                }
                tail = t + n;
            } else if (closing) {
                return;
            } else {
                LockSupport.parkNanos(200_000);
            }
        }
    }

    private void writeFully(ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            channel.write(b);
        }
    }

    /**
     * Writes what is left, closes the file and gives it its name.
     *
     * @throws IOException if the file could not be written whole: it is removed, and the message names it
     */
    @Override
    public void close() throws IOException {
        if (!channel.isOpen()) {
            return;
        }
        closing = true;
        LockSupport.unpark(writer);
        boolean interrupted = false;
        while (writer.isAlive()) {
            try {
                writer.join();
            } catch (InterruptedException e) {
                interrupted = true; // the frames already captured are written whatever happens
            }
        }
        try {
            if (failure != null) {
                throw failure;
            }
            channel.force(false);
            channel.close();
            Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            channel.close();
            Files.deleteIfExists(partial);
            throw new IOException("pcap " + file + ": not written: " + e.getMessage(), e);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void le32(byte[] a, int at, int v) {
        a[at] = (byte) v;
        a[at + 1] = (byte) (v >>> 8);
        a[at + 2] = (byte) (v >>> 16);
        a[at + 3] = (byte) (v >>> 24);
    }
}

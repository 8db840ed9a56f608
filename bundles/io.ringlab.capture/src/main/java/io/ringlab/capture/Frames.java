package io.ringlab.capture;

import io.ringlab.buffer.api.Buffer;

/**
 * The bytes tcpdump would capture of a simulated packet: Ethernet II, IPv4 without options, then TCP (with the options
 * the packet carries, laid out as Linux writes them), UDP or ICMP echo, built from the buffer's metadata; the payload is
 * zeros. Field layouts from RFC 791, 793, 768 and 792 and Linux's {@code tcp_options_write}
 * ({@code net/ipv4/tcp_output.c} @v4.6); checksums are real (RFC 1071), so tshark's checks pass with checking on.
 * <p>
 * One instance per writer: it keeps a scratch header of its own, so building a frame allocates nothing. Not
 * thread-safe.
 */
public final class Frames {
    /** Ethernet II header bytes (destination, source, EtherType). */
    public static final int ETHERNET = 14;
    /** IPv4 header bytes without options. */
    public static final int IPV4 = 20;
    /** The largest header this class writes: Ethernet, IPv4 and a TCP header with 40 bytes of options. */
    public static final int MAX_HEADERS = ETHERNET + IPV4 + 60;
    private static final int ETHERTYPE_IPV4 = 0x0800;
    private static final int TTL = 64; // Linux's default (sysctl net.ipv4.ip_default_ttl)

    private final byte[] h = new byte[MAX_HEADERS];

    /**
     * Writes the captured part of a frame.
     *
     * @param b the packet
     * @param out where the bytes go
     * @param off from where
     * @param snaplen the most bytes to write
     * @param srcMac source MAC address, 48 bits
     * @param dstMac destination MAC address, 48 bits
     * @param srcIp source IPv4 address
     * @param dstIp destination IPv4 address
     * @param srcPort source port (TCP, UDP), or the echo identifier (ICMP)
     * @param dstPort destination port (TCP, UDP); unused for ICMP
     * @param ipId the IPv4 identification field
     * @return the frame's length on the wire (the buffer's length, at least its headers); the bytes written are the
     *         smaller of it and {@code snaplen}
     */
    public int write(Buffer b, byte[] out, int off, int snaplen, long srcMac, long dstMac, int srcIp, int dstIp, int srcPort,
            int dstPort, int ipId) {
        int proto = b.protocol();
        int l4;
        switch (proto) {
            case Buffer.PROTO_TCP -> l4 = tcp(b);
            case Buffer.PROTO_UDP -> l4 = 8;
            case Buffer.PROTO_ICMP -> l4 = 8;
            default -> {
                proto = Buffer.PROTO_UDP; // a plain source's packet: UDP, as iperf -u or pktgen send
                l4 = 8;
            }
        }
        int headers = ETHERNET + IPV4 + l4;
        int wire = Math.max(b.length(), headers);
        int ipLength = Math.min(wire - ETHERNET, 0xffff); // a GSO buffer larger than 64 KiB says 65535
        // Ethernet
        mac(0, dstMac);
        mac(6, srcMac);
        u16(12, ETHERTYPE_IPV4);
        // IPv4
        int ip = ETHERNET;
        h[ip] = 0x45;
        h[ip + 1] = (byte) b.tos();
        u16(ip + 2, ipLength);
        u16(ip + 4, ipId);
        u16(ip + 6, 0x4000); // DF, as Linux sets on TCP (path MTU discovery)
        h[ip + 8] = (byte) TTL;
        h[ip + 9] = (byte) proto;
        u16(ip + 10, 0);
        u32(ip + 12, srcIp);
        u32(ip + 16, dstIp);
        u16(ip + 10, ~sum(h, ip, IPV4, 0) & 0xffff);
        int t = ip + IPV4;
        int l4Length = ipLength - IPV4;
        switch (proto) {
            case Buffer.PROTO_TCP -> {
                u16(t, srcPort);
                u16(t + 2, dstPort);
                u32(t + 4, (int) b.seq());
                u32(t + 8, (b.flags() & Buffer.TCP_ACK) != 0 ? (int) b.ack() : 0);
                h[t + 12] = (byte) ((l4 / 4) << 4);
                h[t + 13] = (byte) b.flags();
                u16(t + 14, b.tcpWindow());
                u16(t + 16, 0);
                u16(t + 18, 0);
                u16(t + 16, ~sum(h, t, l4, pseudo(srcIp, dstIp, proto, l4Length)) & 0xffff);
            }
            case Buffer.PROTO_ICMP -> {
                h[t] = (byte) b.flags(); // type: 8 echo request, 0 echo reply
                h[t + 1] = 0;
                u16(t + 2, 0);
                u16(t + 4, srcPort);
                u16(t + 6, (int) b.seq());
                u16(t + 2, ~sum(h, t, 8, 0) & 0xffff); // the zero payload adds nothing
            }
            default -> {
                u16(t, srcPort);
                u16(t + 2, dstPort);
                u16(t + 4, l4Length);
                u16(t + 6, 0);
                int c = ~sum(h, t, 8, pseudo(srcIp, dstIp, proto, l4Length)) & 0xffff;
                u16(t + 6, c == 0 ? 0xffff : c); // RFC 768: a computed 0 is sent as all ones
            }
        }
        int n = Math.min(wire, snaplen);
        int fromHeader = Math.min(n, headers);
        System.arraycopy(h, 0, out, off, fromHeader);
        java.util.Arrays.fill(out, off + fromHeader, off + n, (byte) 0);
        return wire;
    }

    /** Writes the TCP header's options into the scratch header, after its 20 fixed bytes; @return the header's length */
    private int tcp(Buffer b) {
        int o = ETHERNET + IPV4 + 20;
        int opts = b.tcpOptions();
        boolean ts = (opts & Buffer.TCPOPT_TIMESTAMP) != 0;
        boolean sackPerm = (opts & Buffer.TCPOPT_SACK_PERM) != 0;
        if ((opts & Buffer.TCPOPT_MSS) != 0) {
            u32(o, (2 << 24) | (4 << 16) | (b.tcpMssOption() & 0xffff));
            o += 4;
        }
        if (ts) {
            u32(o, sackPerm ? (4 << 24) | (2 << 16) | (8 << 8) | 10 : (1 << 24) | (1 << 16) | (8 << 8) | 10);
            u32(o + 4, (int) b.tsVal());
            u32(o + 8, (int) b.tsEcr());
            o += 12;
        } else if (sackPerm) {
            u32(o, (1 << 24) | (1 << 16) | (4 << 8) | 2);
            o += 4;
        }
        if ((opts & Buffer.TCPOPT_WSCALE) != 0) {
            u32(o, (1 << 24) | (3 << 16) | (3 << 8) | Math.min(b.tcpWscaleOption(), 14));
            o += 4;
        }
        int room = (ETHERNET + IPV4 + 60 - o - 4) / 8; // the blocks that fit in 40 bytes of options
        int blocks = Math.min(b.sackBlocks(), Math.max(0, room));
        if (blocks > 0) {
            u32(o, (1 << 24) | (1 << 16) | (5 << 8) | (2 + 8 * blocks));
            o += 4;
            for (int i = 0; i < blocks; i++) {
                u32(o, (int) b.sackStart(i));
                u32(o + 4, (int) b.sackEnd(i));
                o += 8;
            }
        }
        return o - ETHERNET - IPV4;
    }

    /** @return the pseudo-header's sum (RFC 793 §3.1, RFC 768): addresses, protocol, length */
    private static int pseudo(int src, int dst, int proto, int length) {
        return (src >>> 16) + (src & 0xffff) + (dst >>> 16) + (dst & 0xffff) + proto + length;
    }

    /** @return the one's-complement sum of {@code len} bytes from {@code off}, plus {@code initial}, folded to 16 bits */
    static int sum(byte[] a, int off, int len, int initial) {
        long s = initial & 0xffffffffL;
        for (int i = 0; i + 1 < len; i += 2) {
            s += ((a[off + i] & 0xff) << 8) | (a[off + i + 1] & 0xff);
        }
        if ((len & 1) != 0) {
            s += (a[off + len - 1] & 0xff) << 8;
        }
        while ((s >>> 16) != 0) {
            s = (s & 0xffff) + (s >>> 16);
        }
        return (int) s;
    }

    private void mac(int at, long mac) {
        for (int i = 0; i < 6; i++) {
            h[at + i] = (byte) (mac >>> (40 - 8 * i));
        }
    }

    private void u16(int at, int v) {
        h[at] = (byte) (v >>> 8);
        h[at + 1] = (byte) v;
    }

    private void u32(int at, int v) {
        h[at] = (byte) (v >>> 24);
        h[at + 1] = (byte) (v >>> 16);
        h[at + 2] = (byte) (v >>> 8);
        h[at + 3] = (byte) v;
    }
}

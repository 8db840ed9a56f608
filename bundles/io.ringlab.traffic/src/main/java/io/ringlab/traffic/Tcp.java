package io.ringlab.traffic;

/**
 * TCP constants shared by the sender ({@code tcp}), the receiver inside {@code host} and {@code demux}: header sizes, flag
 * bits, and the architecture-independent part of the socket memory ({@code skb->truesize}) a segment is charged; the
 * parts that depend on the kernel build (structure sizes, {@code MAX_TCP_HEADER}) are {@link SkbSizes}, one per element.
 * <p>
 * Sequence numbers in {@code Buffer.seq()} and {@code Buffer.ack()} are byte offsets from 0, as 64-bit values that never
 * wrap: both ends start at 0 without a handshake (the initial sequence number is not modelled).
 */
final class Tcp {
    /**
     * Header bytes in front of every segment's payload: Ethernet 14 + IPv4 20 + TCP 20 + 12 of options (the timestamps
     * option, 10 bytes, padded to 12, RFC 7323 §3 and appendix A), so an MSS of 1448 gives a 1514-byte frame.
     */
    static final int HEADERS = 14 + 20 + 32;

    /**
     * Bytes of a socket's page fragment: {@code SKB_FRAG_PAGE_ORDER = get_order(32768)} ({@code include/net/sock.h}, 2014;
     * {@code sk_page_frag_refill}). With a scatter-gather device (stmmac sets NETIF_F_SG) {@code tcp_sendmsg} copies the
     * payload into the socket's page fragment, so an skb's payload lies in one page fragment, or two where it crosses a
     * 32 KB boundary of the stream; the headers stay in the linear part.
     */
    static final int PAGE_FRAG_BYTES = 32768;

    /**
     * @param seq the first payload byte's offset in the stream
     * @param payload payload bytes, at least 1
     * @return the page fragments the payload spans ({@code nr_frags}): boundaries lie at multiples of
     *         {@link #PAGE_FRAG_BYTES} of the stream, as each socket fills its page fragment in order
     */
    static int pageFrags(long seq, int payload) {
        return (int) ((seq + payload - 1) / PAGE_FRAG_BYTES - seq / PAGE_FRAG_BYTES + 1);
    }

    /**
     * The kmalloc block of a TCP skb's head: with GSO (always on in software), {@code select_size()} in
     * {@code net/ipv4/tcp.c} asks for {@code SKB_WITH_OVERHEAD(2048 - MAX_TCP_HEADER)} linear bytes, plus
     * {@code MAX_TCP_HEADER} of headroom, so the head with its shared info is one 2048-byte block; {@code tcp_sendmsg} copies
     * an MSS of payload into it while it has room. The same on every architecture and for any {@code MAX_TCP_HEADER}.
     */
    static final int SKB_HEAD_BYTES = 2048;

    /** {@code GSO_MAX_SIZE} ({@code include/linux/netdevice.h}), the default {@code sk_gso_max_size}: 65,536 bytes. */
    static final int GSO_MAX_SIZE = 65536;
    /** {@code sysctl_tcp_min_tso_segs} (net.ipv4.tcp_min_tso_segs, {@code net/ipv4/tcp_output.c}): 2. */
    static final int MIN_TSO_SEGS = 2;

    private Tcp() {
    }

    /** Bytes of Ethernet and IPv4 headers in front of the TCP header (no IP options). */
    static final int L2_L3 = 14 + 20;
    /** The timestamps option as Linux writes it: NOP, NOP, kind 8 length 10 ({@code TCPOLEN_TSTAMP_ALIGNED}). */
    static final int TS_OPTION = 12;
    /** The largest TCP header: 20 bytes and 40 of options. */
    static final int MAX_TCP_HEADER_BYTES = 60;

    /**
     * {@code kmalloc}'s size classes ({@code mm/slab_common.c} {@code kmalloc_info}: 96 and 192 besides the powers of two
     * up to {@code KMALLOC_MAX_CACHE_SIZE}, 8 KB with SLUB and 4 KB pages); above that a page allocation of the next power
     * of two.
     *
     * @param bytes a request, at least 1
     * @return the block {@code ksize()} reports for it
     */
    static int kmallocSize(int bytes) {
        if (bytes <= 96 && bytes > 64) {
            return 96;
        }
        if (bytes <= 192 && bytes > 128) {
            return 192;
        }
        return Math.max(8, Integer.highestOneBit(bytes - 1) << 1);
    }
}

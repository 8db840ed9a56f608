package io.ringlab.traffic;

/**
 * TCP constants shared by the sender ({@code tcp}), the receiver inside {@code host} and {@code demux}: header sizes, flag
 * bits, and the socket memory ({@code skb->truesize}) a segment is charged.
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
     * {@code SKB_DATA_ALIGN(sizeof(struct sk_buff))}: 232 bytes on x86_64 in the 3.x/4.x kernels, rounded up to the
     * 64-byte {@code SMP_CACHE_BYTES}. An assumption from the structure's layout (a 32-bit ARM kernel has a smaller one).
     */
    static final int SKB_STRUCT_BYTES = 256;
    /**
     * {@code SKB_DATA_ALIGN(sizeof(struct skb_shared_info))}: 40 header bytes and {@code MAX_SKB_FRAGS} = 17 fragments of
     * 16 bytes on x86_64 with 4 KB pages, 312 rounded up to 320. An assumption from the structure's layout.
     */
    static final int SKB_SHINFO_BYTES = 320;
    /**
     * The kmalloc block of a TCP skb's head: with GSO (always on in software), {@code select_size()} in
     * {@code net/ipv4/tcp.c} asks for {@code SKB_WITH_OVERHEAD(2048 - MAX_TCP_HEADER)} linear bytes, plus
     * {@code MAX_TCP_HEADER} of headroom, so the head with its shared info is one 2048-byte block; {@code tcp_sendmsg} copies
     * an MSS of payload into it while it has room.
     */
    static final int SKB_HEAD_BYTES = 2048;

    /**
     * {@code MAX_TCP_HEADER} = {@code 128 + MAX_HEADER} ({@code include/net/tcp.h}), with {@code MAX_HEADER} =
     * {@code LL_MAX_HEADER} = 32 ({@code include/linux/netdevice.h}, a kernel without the wireless, AX.25 and tunnel options
     * that raise it): 160 bytes. An assumption about the board's configuration.
     */
    static final int MAX_TCP_HEADER = 128 + 32;
    /** {@code GSO_MAX_SIZE} ({@code include/linux/netdevice.h}), the default {@code sk_gso_max_size}: 65,536 bytes. */
    static final int GSO_MAX_SIZE = 65536;
    /** {@code sysctl_tcp_min_tso_segs} (net.ipv4.tcp_min_tso_segs, {@code net/ipv4/tcp_output.c}): 2. */
    static final int MIN_TSO_SEGS = 2;

    private Tcp() {
    }

    /**
     * {@code SKB_TRUESIZE(X)} (include/linux/skbuff.h): {@code X} plus the aligned {@code struct sk_buff} and
     * {@code struct skb_shared_info}, what {@code tcp_fixup_rcvbuf} and {@code tcp_rcv_space_adjust} charge per segment.
     *
     * @param bytes the data size
     * @return the truesize in bytes
     */
    static int skbTruesize(int bytes) {
        return bytes + SKB_STRUCT_BYTES + SKB_SHINFO_BYTES;
    }

    /** Bytes of Ethernet and IPv4 headers in front of the TCP header (no IP options). */
    static final int L2_L3 = 14 + 20;
    /** The timestamps option as Linux writes it: NOP, NOP, kind 8 length 10 ({@code TCPOLEN_TSTAMP_ALIGNED}). */
    static final int TS_OPTION = 12;
    /** The largest TCP header: 20 bytes and 40 of options. */
    static final int MAX_TCP_HEADER_BYTES = 60;

    /**
     * {@code skb->truesize} of a segment, as {@code __alloc_skb} sets it ({@code SKB_TRUESIZE}): the data area
     * ({@code SKB_HEAD_BYTES} minus the shared info, or the frame rounded up to 64 bytes when it does not fit) plus the
     * shared info plus {@code struct sk_buff}. 2304 bytes for any frame up to 1728 bytes (an MSS of 1448 included).
     *
     * @param frameBytes the frame's length without FCS
     * @return the truesize in bytes
     */
    static int truesize(int frameBytes) {
        int data = Math.max(SKB_HEAD_BYTES - SKB_SHINFO_BYTES, (frameBytes + 63) & ~63);
        return data + SKB_SHINFO_BYTES + SKB_STRUCT_BYTES;
    }

    /**
     * Payload bytes {@code tcp_sendmsg} copies into an skb's linear part before it turns to page fragments: the head is
     * allocated with {@code select_size()} = {@code SKB_WITH_OVERHEAD(2048 - MAX_TCP_HEADER)} bytes of room
     * ({@code net/ipv4/tcp.c}, 3.x with GSO; {@code sk_stream_alloc_skb} sets {@code reserved_tailroom} so exactly that
     * much is available): 2048 - 160 - 320 = 1568. A one-MSS skb is all linear; a GSO skb's first 1568 payload bytes are.
     */
    static final int LINEAR_PAYLOAD = SKB_HEAD_BYTES - MAX_TCP_HEADER - SKB_SHINFO_BYTES;

    /**
     * {@code skb->truesize} of a TCP skb carrying {@code payload} bytes, as {@code tcp_sendmsg} leaves it: the head
     * ({@link #truesize} of a frame that fits the 2 KB block: 2304) plus every byte copied into page fragments
     * ({@code skb->truesize += copy}, {@code include/net/sock.h} {@code skb_copy_to_page_nocache}), i.e. the payload
     * beyond {@link #LINEAR_PAYLOAD}. 10 segments of 1448 give 2304 + 14,480 - 1568 = 15,216.
     *
     * @param mss payload bytes per segment
     * @param segs segments, at least 1
     * @return the truesize in bytes
     */
    static int gsoTruesize(int mss, int segs) {
        return truesize(HEADERS) + Math.max(0, segs * mss - LINEAR_PAYLOAD);
    }

    /**
     * @param seq the stream offset of the skb's first payload byte
     * @param payload its payload bytes
     * @return {@code nr_frags} of an skb built by {@code tcp_sendmsg}: the page fragments spanned by the payload beyond
     *         the linear part ({@link #pageFrags}), 0 when it all fits the head
     */
    static int skbFrags(long seq, int payload) {
        return payload <= LINEAR_PAYLOAD ? 0 : pageFrags(seq + LINEAR_PAYLOAD, payload - LINEAR_PAYLOAD);
    }

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

    /**
     * The truesize {@code skb_segment} ({@code net/core/skbuff.c}, 3.x) gives a segment of a TCP GSO skb on a
     * scatter-gather device: a new head from {@code __alloc_skb(hsize + doffset + headroom)}, where {@code hsize} is the
     * segment's bytes still in the GSO skb's linear part and {@code doffset + headroom} the GSO skb's headroom and
     * headers ({@code MAX_TCP_HEADER} reserved by {@code sk_stream_alloc_skb}), so {@code truesize =
     * SKB_TRUESIZE(SKB_WITH_OVERHEAD(ksize))} = the kmalloc block plus {@code struct sk_buff}; then each fragment's bytes
     * ({@code nskb->truesize += nskb->data_len}). With the assumed struct sizes a segment of 1448 bytes in fragments takes
     * a kmalloc-512 head: 512 + 256 + 1448 = 2216; a segment all in the linear part a kmalloc-2048 head: 2304.
     *
     * @param hsize payload bytes of the segment in the GSO skb's linear part
     * @param dataLen payload bytes in page fragments
     * @return the segment's truesize
     */
    static int segmentTruesize(int hsize, int dataLen) {
        int head = ((hsize + MAX_TCP_HEADER + 63) & ~63) + SKB_SHINFO_BYTES; // SKB_DATA_ALIGN(size) + shared info
        return kmallocSize(head) + SKB_STRUCT_BYTES + dataLen;
    }
}

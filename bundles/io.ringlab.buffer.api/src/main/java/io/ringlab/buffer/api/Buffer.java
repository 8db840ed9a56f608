package io.ringlab.buffer.api;

import org.osgi.annotation.versioning.ProviderType;

/**
 * A packet buffer handle: one preallocated record that carries one frame through the pipeline, like the kernel's
 * {@code struct sk_buff} with its data area.
 * <p>
 * Buffers are created once, when their pool is created, and recycled; nothing is allocated per packet. Only the engine
 * implements this interface (pools obtain their records from {@link PoolContext#newBuffer(BufferPool, int)}), so methods
 * may be added in minor versions.
 * <p>
 * Metadata travels with the frame: when a model moves a frame into another buffer (a NIC's RX DMA, a copybreak copy) it
 * calls {@link #copyMetadataFrom(Buffer)}, which keeps {@link #packetId()} so the packet is still the same packet for
 * conservation and latency. Times are in picoseconds of virtual time; {@code -1} means "not set".
 * <p>
 * Not thread-safe: a buffer belongs to one simulation run, which runs on one engine thread.
 */
@ProviderType
public interface Buffer {

    /** @return the buffer's index in its run, dense from 0; stable for the buffer's life. */
    int id();

    /** @return the pool this buffer belongs to and returns to when freed; never {@code null}. */
    BufferPool pool();

    /** @return the data capacity in bytes (the pool's object or fragment size). */
    int capacityBytes();

    /**
     * @return the simulated address of the buffer's data area ({@code skb->data} of an empty buffer), for the cache model
     *         ({@code Core.touch}). Its own area unless its pool placed it elsewhere ({@code PoolContext.place}: a page
     *         fragment carved from a shared page); buffers allocated at the same time never overlap
     */
    long address();

    /** @return the frame length in bytes at L2, without preamble, inter-frame gap or FCS ({@code skb->len}). */
    int length();

    /** @param bytes the frame length in bytes, 0 to {@link #capacityBytes()}. */
    void length(int bytes);

    /** @return bytes reserved in front of the data ({@code skb_headroom}). */
    int headroom();

    /** @param bytes bytes reserved in front of the data. */
    void headroom(int bytes);

    /**
     * @return the memory the buffer charges to its socket in bytes, as the kernel's {@code skb->truesize}: data area plus the
     *         buffer's own overhead. TCP Small Queues counts this, not {@link #length()}.
     */
    int truesize();

    /** @param bytes the truesize in bytes. */
    void truesize(int bytes);

    /** @return the packet's identity, assigned by the element that generated it; kept across {@link #copyMetadataFrom}. */
    long packetId();

    /** @return the flow number (0 to {@code flows - 1} of the generating element), used by hashing qdiscs. */
    int flow();

    /** @param flow the flow number. */
    void flow(int flow);

    /** @return the packet's priority ({@code skb->priority}, 0 to 15), used by pfifo_fast's priority map. */
    int priority();

    /** @param priority the priority, 0 to 15. */
    void priority(int priority);

    /** @return the IPv4 TOS byte (0 to 255). */
    int tos();

    /** @param tos the TOS byte. */
    void tos(int tos);

    /** @return the protocol tag: one of the {@code PROTO_*} constants, or a model's own value above 255. */
    int protocol();

    /** @param protocol the protocol tag. */
    void protocol(int protocol);

    /** @return a protocol sequence number (TCP sequence, ICMP echo sequence); model-defined. */
    long seq();

    /** @param seq the sequence number. */
    void seq(long seq);

    /** @return a protocol acknowledgement number; model-defined. */
    long ack();

    /** @param ack the acknowledgement number. */
    void ack(long ack);

    /** @return protocol flags: for TCP the header's flag bits ({@code TCP_*}); otherwise model-defined. */
    int flags();

    /** @param flags protocol flags. */
    void flags(int flags);

    /**
     * @return the TCP header's length in bytes with its options ({@code th->doff * 4}, 20 to 60), or 0 for a frame that is
     *         not TCP or whose model does not say; a TCP frame's payload is {@code length() - 14 - 20 - tcpHeaderBytes()}
     *         (Ethernet and IPv4 without options). Since 1.2.
     */
    int tcpHeaderBytes();

    /** @param bytes the TCP header's length with options, 20 to 60, or 0. Since 1.2. */
    void tcpHeaderBytes(int bytes);

    /**
     * @return the TCP header's 16-bit window field as sent ({@code th->window}, before the receiver's window scaling is
     *         applied; a SYN's is never scaled, RFC 7323 §2.2), 0 to 65535. Since 1.2.
     */
    int tcpWindow();

    /** @param window the window field, 0 to 65535. Since 1.2. */
    void tcpWindow(int window);

    /**
     * @return the TCP options the segment carries besides SACK blocks: a mask of {@link #TCPOPT_MSS},
     *         {@link #TCPOPT_WSCALE}, {@link #TCPOPT_SACK_PERM} and {@link #TCPOPT_TIMESTAMP}. Since 1.2.
     */
    int tcpOptions();

    /** @param options the mask of {@code TCPOPT_*} bits. Since 1.2. */
    void tcpOptions(int options);

    /** @return the MSS option's value (RFC 9293 §3.7.1), meaningful with {@link #TCPOPT_MSS}. Since 1.2. */
    int tcpMssOption();

    /** @param mss the MSS option's value, 0 to 65535. Since 1.2. */
    void tcpMssOption(int mss);

    /** @return the window scale option's shift count (RFC 7323 §2.2), 0 to 14, meaningful with {@link #TCPOPT_WSCALE}. Since 1.2. */
    int tcpWscaleOption();

    /** @param shift the window scale shift count, 0 to 14. Since 1.2. */
    void tcpWscaleOption(int shift);

    /** @return the timestamps option's TSval (RFC 7323 §3.2), an unsigned 32-bit value, meaningful with {@link #TCPOPT_TIMESTAMP}. Since 1.2. */
    long tsVal();

    /** @param tsVal TSval, 0 to 2^32 - 1. Since 1.2. */
    void tsVal(long tsVal);

    /** @return the timestamps option's TSecr, an unsigned 32-bit value. Since 1.2. */
    long tsEcr();

    /** @param tsEcr TSecr, 0 to 2^32 - 1. Since 1.2. */
    void tsEcr(long tsEcr);

    /**
     * @return the SACK blocks the segment carries (RFC 2018), 0 to {@link #MAX_SACK_BLOCKS}; block 0 first on the wire (a
     *         D-SACK block, RFC 2883, is always block 0). Since 1.2.
     */
    int sackBlocks();

    /** @param count the SACK blocks carried, 0 to {@link #MAX_SACK_BLOCKS}; blocks from {@code count} on are ignored. Since 1.2. */
    void sackBlocks(int count);

    /** @return the left edge (first sequence number) of SACK block {@code i}, 0 to {@link #sackBlocks()} - 1. Since 1.2. */
    long sackStart(int i);

    /** @return the right edge (one past the last sequence number) of SACK block {@code i}. Since 1.2. */
    long sackEnd(int i);

    /**
     * Sets SACK block {@code i}; {@link #sackBlocks(int)} says how many are carried.
     *
     * @param i the block, 0 to {@link #MAX_SACK_BLOCKS} - 1
     * @param start its left edge
     * @param end its right edge
     * @since 1.2
     */
    void sackBlock(int i, long start, long end);

    /** @return the number of wire segments this buffer stands for (GSO/TSO); 1 for an ordinary frame. */
    int segments();

    /** @param segments segments, at least 1. */
    void segments(int segments);

    /** @return the number of page fragments beyond the linear part ({@code nr_frags}); a frame takes 1 + this many descriptors. */
    int fragments();

    /** @param fragments page fragments, 0 to 17 ({@code MAX_SKB_FRAGS}). */
    void fragments(int fragments);

    /** @return when the packet was generated, in picoseconds of virtual time. */
    long createdPicos();

    /** @return when the packet last entered a queue (qdisc sojourn time, CoDel), in picoseconds; -1 if never. */
    long enqueuedPicos();

    /** @param picos the enqueue time in picoseconds. */
    void enqueuedPicos(long picos);

    /** @return a model-defined timestamp in picoseconds (for example when the frame left for the wire); -1 if unset. */
    long stampPicos();

    /** @param picos the timestamp in picoseconds. */
    void stampPicos(long picos);

    /**
     * @return the index of the element that holds this buffer now (the engine updates it when the buffer crosses a port), or
     *         -1 while the buffer is free in its pool. Leak reports name this owner.
     */
    int owner();

    /** @return {@code true} while the buffer is allocated (between alloc and free). */
    boolean allocated();

    /** @return the destructor called when this buffer is freed, or {@code null}; cleared by every allocation. */
    BufferDestructor destructor();

    /**
     * Sets the destructor called once when this buffer is next freed ({@code skb->destructor}; TCP sets {@code tcp_wfree}).
     *
     * @param destructor the destructor, or {@code null} for none
     */
    void destructor(BufferDestructor destructor);

    /**
     * Copies every metadata field except the pool, capacity, id, owner, allocation state and destructor (a copy is
     * orphaned, as {@code skb_orphan} leaves it), so that another buffer carries on the same packet.
     *
     * @param other the buffer to copy from; must not be {@code null}.
     */
    void copyMetadataFrom(Buffer other);

    /** Protocol tag: synthetic traffic with no protocol. */
    int PROTO_RAW = 0;
    /** Protocol tag: ICMP. */
    int PROTO_ICMP = 1;
    /** Protocol tag: TCP. */
    int PROTO_TCP = 6;
    /** Protocol tag: UDP. */
    int PROTO_UDP = 17;

    /** TCP flag bit FIN (RFC 9293 §3.1), in {@link #flags()} of a TCP frame. Since 1.2. */
    int TCP_FIN = 0x01;
    /** TCP flag bit SYN. Since 1.2. */
    int TCP_SYN = 0x02;
    /** TCP flag bit RST. Since 1.2. */
    int TCP_RST = 0x04;
    /** TCP flag bit PSH. Since 1.2. */
    int TCP_PSH = 0x08;
    /** TCP flag bit ACK. Since 1.2. */
    int TCP_ACK = 0x10;
    /** TCP flag bit URG. Since 1.2. */
    int TCP_URG = 0x20;
    /** TCP flag bit ECE (RFC 3168 §23.2). Since 1.2. */
    int TCP_ECE = 0x40;
    /** TCP flag bit CWR (RFC 3168 §23.2). Since 1.2. */
    int TCP_CWR = 0x80;

    /** {@link #tcpOptions()} bit: maximum segment size (kind 2, length 4). Since 1.2. */
    int TCPOPT_MSS = 1;
    /** {@link #tcpOptions()} bit: window scale (kind 3, length 3). Since 1.2. */
    int TCPOPT_WSCALE = 2;
    /** {@link #tcpOptions()} bit: SACK permitted (kind 4, length 2). Since 1.2. */
    int TCPOPT_SACK_PERM = 4;
    /** {@link #tcpOptions()} bit: timestamps (kind 8, length 10). Since 1.2. */
    int TCPOPT_TIMESTAMP = 8;
    /** The most SACK blocks a segment carries ({@code TCP_NUM_SACKS}, include/linux/tcp.h). Since 1.2. */
    int MAX_SACK_BLOCKS = 4;
}

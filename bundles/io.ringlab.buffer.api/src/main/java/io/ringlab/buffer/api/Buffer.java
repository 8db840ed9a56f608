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

    /** @return protocol flags; model-defined. */
    int flags();

    /** @param flags protocol flags. */
    void flags(int flags);

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
}

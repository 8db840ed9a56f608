package io.ringlab.sim.api;

import java.util.random.RandomGenerator;

import org.osgi.annotation.versioning.ProviderType;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;

/**
 * An element's view of its run: configuration, ports, virtual time, timers, random stream, cores, metrics, pools and the
 * services a model looks up. Obtain everything the element needs per packet in its constructor.
 * <p>
 * <b>Packets are wire segments.</b> A buffer with {@link Buffer#segments()} {@code = n > 1} (a GSO skb) stands for
 * {@code n} packets with the consecutive ids {@code packetId() .. packetId() + n - 1}: {@link #generated} counts and
 * numbers {@code n}, {@link #deliver}, {@link #drop} and {@link #recycle} end {@code n}, and the invariant walk counts the
 * {@code n} ids. {@link #segment} splits such a buffer into its {@code n} single-segment frames.
 * <p>
 * Not thread-safe: use it on the run's engine thread only.
 */
@ProviderType
public interface ElementContext {

    /** @return the element's name in the pipeline (for example {@code "eth0"}). */
    String name();

    /** @return the element's index in its run, 0 to elements - 1; buffers record it as their {@link Buffer#owner()}. */
    int index();

    /** @return the validated configuration; never {@code null}. */
    Configuration config();

    /**
     * @param name a port name from the element's descriptor
     * @return the output port; an unconnected port accepts nothing ({@link OutputPort#connected()} is {@code false})
     * @throws IllegalArgumentException if the descriptor has no such output
     */
    OutputPort output(String name);

    /**
     * @param name a port name from the element's descriptor
     * @return the input port
     * @throws IllegalArgumentException if the descriptor has no such input
     */
    InputPort input(String name);

    /** @return the current virtual time in picoseconds; inside a CPU task, the task's own clock (see {@link Core}). */
    long nowPicos();

    /**
     * Creates a timer. Create timers in the constructor; arming and cancelling them allocates nothing.
     *
     * @param callback called when the timer fires; must not be {@code null}
     * @return a new, idle timer
     */
    Timer timer(TimerCallback callback);

    /**
     * @return this element's random stream, seeded from the run seed and the element's name (so adding an element leaves the
     *         other streams unchanged, which keeps A/B variants on common random numbers)
     */
    RandomGenerator random();

    /** @return the number of simulated cores in the run, at least 1. */
    int cores();

    /**
     * @param index the core index, 0 to {@link #cores()} - 1
     * @return the simulated core
     */
    Core core(int index);

    /** @return the run's cost profile; never {@code null}. */
    CostProfile costProfile();

    /** @return this element's metrics registry; metric names are scoped to the element. */
    Metrics metrics();

    /**
     * Creates a buffer pool for this element from the provider of {@code kind}.
     *
     * @param kind the pool kind ({@code BufferPoolProvider.KIND})
     * @param suffix the pool's name within the element; the pool is named {@code <element>.<suffix>}
     * @param capacity buffers, at least 1
     * @param bufferBytes data bytes per buffer, at least 1
     * @param settings kind-specific settings; never {@code null}
     * @return the pool; the engine closes it at the end of the run
     * @throws IllegalArgumentException if no provider of that kind is installed (the message lists the installed kinds)
     */
    BufferPool pool(String kind, String suffix, int capacity, int bufferBytes, java.util.Map<String, Object> settings);

    /**
     * Looks up a provider service by kind, for the models that need one (queue limits, qdiscs).
     *
     * @param type the service interface
     * @param kindProperty the service property holding the kind
     * @param kind the wanted kind
     * @param <S> the service type
     * @return the service
     * @throws IllegalArgumentException if none is installed (the message lists the installed kinds)
     */
    <S> S provider(Class<S> type, String kindProperty, String kind);

    /**
     * Registers a drop reason, a kernel-style name such as {@code "qdisc-overlimit"} or {@code "rx-no-buffer"}.
     *
     * @param reason the reason's name
     * @return the id to pass to {@link #drop}
     */
    int dropReason(String reason);

    /**
     * Header bytes of every segment {@link #segment} produces, and the convention a GSO buffer follows: Ethernet 14 + IPv4
     * 20 + TCP 20 + 12 bytes of options (the timestamps option padded, RFC 7323), the {@code tcp} element's headers
     * ({@code io.ringlab.traffic.Tcp.HEADERS}). A GSO buffer's {@link Buffer#length()} is these headers once plus the
     * payload of all its segments. A buffer whose {@link Buffer#tcpHeaderBytes()} is set (buffer.api 1.2) uses
     * {@code 14 + 20 + tcpHeaderBytes()} instead.
     */
    int GSO_HEADER_BYTES = 14 + 20 + 32;

    /**
     * Counts new packets: assigns the packet id and creation time. Sources call it once per buffer they create. A buffer
     * with {@link Buffer#segments()} {@code = n} counts {@code n} packets and reserves {@code n} consecutive ids;
     * {@link Buffer#packetId()} is the first. Set the segments before this call.
     *
     * @param buffer a buffer just allocated by this element
     */
    void generated(Buffer buffer);

    /**
     * Software GSO segmentation ({@code skb_gso_segment} → {@code tcp_gso_segment}, called by {@code validate_xmit_skb}
     * for a device without TSO): allocates {@code gso.segments()} buffers from {@code pool} into {@code dst[0..n)}, each
     * carrying one segment:
     * <ul>
     * <li>packet id {@code gso.packetId() + k}, {@link Buffer#segments()} 1;</li>
     * <li>length {@link #GSO_HEADER_BYTES} + the segment's payload: the payload {@code gso.length() - GSO_HEADER_BYTES}
     * split as {@code gso_size = ceil(payload / n)} for each segment and the rest for the last (the {@code tcp} element
     * builds GSO buffers of full MSS segments, so every segment carries one MSS);</li>
     * <li>{@link Buffer#seq()} advanced by the payload of the segments before it; TCP's FIN and PSH flags on the last
     * segment only ({@code tcp_gso_segment}); every other field copied ({@link Buffer#copyMetadataFrom});</li>
     * <li>fragments: the 32 KB page fragments of the stream its payload bytes lie in (one, or two across a boundary), or
     * none when {@code gso.fragments()} is 0;</li>
     * <li>truesize: its share of {@code gso.truesize()} in proportion to its length, the last taking the rest;</li>
     * <li>destructor: the GSO buffer's ({@code tcp_wfree}), which then runs once per segment freed.</li>
     * </ul>
     * Then the destructor's {@link io.ringlab.buffer.api.BufferDestructor#segmented} hook runs, as the kernel calls the
     * protocol's {@code gso_segment}: the {@code tcp} element there gives each segment the truesize {@code skb_segment}
     * allocates for it and charges the difference to its socket ({@code sum_truesize}, "tcp: gso: fix truesize
     * tracking", v3.13).
     * The GSO buffer then carries no packet (packet id -1), its truesize is 0 and its destructor is cleared; the caller
     * frees it to its own pool ({@code consume_skb}), and no destructor runs for it. Allocates nothing on the heap and
     * throws nothing.
     *
     * @param gso a buffer this element holds with {@code segments() > 1}; must not be {@code null}
     * @param pool where the segments come from, usually a pool of the calling driver; must not be {@code null}
     * @param dst receives the segments; must have at least {@code gso.segments()} slots
     * @return the number of segments written, {@code gso.segments()}; 0 when {@code pool} cannot supply them all or
     *         {@code dst} is too short, in which case nothing was allocated and {@code gso} is unchanged (drop it under a
     *         named reason, such as {@code "gso-segment-failed"})
     */
    int segment(Buffer gso, BufferPool pool, Buffer[] dst);

    /**
     * Reserves simulated memory for the element's own structures (descriptor rings, per-queue state), so that
     * {@link Core#touch} can model its cache lines. Call it while the run is built.
     *
     * @param bytes the size, at least 1
     * @return the base address, page-aligned, distinct from every other reservation of the run
     */
    long memory(long bytes);

    /**
     * The address of a kernel function's code, for {@link Core#touch} with {@code code = true}: the same name gives the
     * same address in the whole run (two drivers calling {@code kmem_cache_alloc_bulk} share its lines). Call it while the
     * run is built; the size should carry its source in the caller's documentation.
     *
     * @param function the function's name
     * @param bytes its code size in bytes, at least 1; a later call with the same name must give the same size
     * @return its first byte's address
     * @throws IllegalArgumentException if the name was registered with another size
     */
    long code(String function, int bytes);

    /**
     * A device (the NIC's DMA engine) writes {@code bytes} at {@code address}: the caches drop those lines, or the level-3
     * cache takes them where the profile has Intel DDIO ({@code cache.ddio = 1}).
     *
     * @param address the first byte written
     * @param bytes bytes written, at least 1
     */
    void dmaWrite(long address, int bytes);

    /**
     * Counts a packet as delivered to its final destination and frees its buffer; a buffer of {@code n} segments counts
     * {@code n} packets.
     *
     * @param core the core the free runs on
     * @param buffer the packet
     */
    void deliver(int core, Buffer buffer);

    /**
     * Counts a packet as dropped for a reason and frees its buffer; a buffer of {@code n} segments counts {@code n} packets.
     *
     * @param core the core the free runs on
     * @param buffer the packet
     * @param reasonId an id from {@link #dropReason}
     */
    void drop(int core, Buffer buffer, int reasonId);

    /**
     * Moves a packet to another buffer: {@code to} takes all of {@code from}'s metadata (as
     * {@link Buffer#copyMetadataFrom}) and carries the packet on, while {@code from} keeps its memory, length and
     * destructor but no longer carries the packet. This is a DMA: the frame on the wire after the MAC fetched a TX
     * descriptor whose skb waits for its TX clean, or an RX buffer filled from a frame.
     *
     * @param from the buffer the packet leaves; must carry a packet
     * @param to the buffer the packet goes to, allocated by this element
     */
    void transferPacket(Buffer from, Buffer to);

    /**
     * Ends a packet here without freeing its buffer: counts the packet as dropped for a reason and clears the buffer's
     * metadata (packet id, lengths, timestamps; its destructor runs) while it stays allocated to this element, as a driver
     * does when it drops a frame and puts the same RX buffer back into its ring, or after a copybreak copy has taken the
     * packet into another buffer. Exactly one of {@link #deliver}, {@link #drop} and this is called per packet; a buffer of
     * {@code n} segments counts {@code n} packets.
     *
     * @param buffer a buffer this element holds
     * @param reasonId an id from {@link #dropReason}
     */
    void recycle(Buffer buffer, int reasonId);

    /**
     * Ends the run with an error that names this element and its bundle. Use it for a broken model state, never for
     * ordinary drops.
     *
     * @param message what went wrong, in {@code key=value} style
     */
    void fail(String message);
}

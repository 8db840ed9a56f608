package io.ringlab.sim.api;

import java.util.random.RandomGenerator;

import org.osgi.annotation.versioning.ProviderType;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;

/**
 * An element's view of its run: configuration, ports, virtual time, timers, random stream, cores, metrics, pools and the
 * services a model looks up. Obtain everything the element needs per packet in its constructor.
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
     * Counts a new packet: assigns its packet id and creation time. Sources call it once per packet they create.
     *
     * @param buffer a buffer just allocated by this element
     */
    void generated(Buffer buffer);

    /**
     * Counts a packet as delivered to its final destination and frees its buffer.
     *
     * @param core the core the free runs on
     * @param buffer the packet
     */
    void deliver(int core, Buffer buffer);

    /**
     * Counts a packet as dropped for a reason and frees its buffer.
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
     * packet into another buffer. Exactly one of {@link #deliver}, {@link #drop} and this is called per packet.
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

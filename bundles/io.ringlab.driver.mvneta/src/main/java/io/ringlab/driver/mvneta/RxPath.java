package io.ringlab.driver.mvneta;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;
import io.ringlab.sim.api.Core;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementState;

/**
 * One of mvneta's receive paths, chosen once by {@link MvnetaElement}'s constructor from {@code kernel} and {@code bm}:
 * {@link SwRefillV46} ({@code mvneta_rx_swbm} of v4.6), {@link BufferManager} ({@code mvneta_rx_hwbm}) or
 * {@link PagePoolCurrent} ({@code mvneta_rx_swbm} of the current kernel). A path owns the RX pools (created in its
 * constructor, in the order the element has always created them), what the device's DMA writes a frame into, the poll's
 * work on one descriptor, the refill rule, the handover keys of its own state, and the writes of the counters only it
 * moves ({@code rxRefillFailures}, {@code dmaMaps}, {@code rxRefillPending}); the element keeps the descriptor ring
 * ({@code rxBuf}, its head and ready count), interrupts, NAPI, transmit and the shared {@code rx_copybreak} copy and
 * {@code napi_gro_receive} ({@link MvnetaElement#copy}, {@link MvnetaElement#up}). The counters and drop reasons are
 * registered by the element, each once, in the order every path shares (the run's state hash covers that order).
 * <p>
 * Not thread-safe: engine thread only. Nothing here allocates per packet.
 */
abstract sealed class RxPath permits SwRefillV46, BufferManager, PagePoolCurrent {
    /** Handover key: the path's {@link #name}; a successor on another path drains and restarts instead. */
    static final String PATH_KEY = "mvneta.rxPath";
    /** Handover key: the pool the RX descriptors' buffers come from ({@link #ringPool}). */
    static final String RING_POOL_KEY = "mvneta.rxPool";

    final MvnetaElement port;
    final ElementContext ctx;
    final int self, coreIndex;
    final Core core;
    /** The element's descriptor ring: slot {@code i}'s buffer, or null (no buffer, or the BM's completion consumed). */
    final Buffer[] rxBuf;
    final int rxRing;

    RxPath(MvnetaElement port) {
        this.port = port;
        this.ctx = port.ctx;
        this.self = port.self;
        this.coreIndex = port.coreIndex;
        this.core = port.core;
        this.rxBuf = port.rxBuf;
        this.rxRing = rxBuf.length;
    }

    /** @return the path's name in handover state, e.g. {@code "mvneta_rx_hwbm v4.6"} */
    abstract String name();

    /** At start: fill the descriptors ({@code mvneta_rxq_fill}) or the BM's pools ({@code mvneta_bm_pool_use}). */
    abstract void fill();

    /**
     * The device's receive DMA for {@code frame} into descriptor {@code slot} (free: not among the ready ones).
     *
     * @return the buffer the frame goes into, now in {@code rxBuf[slot]}; or null when the frame was dropped here
     */
    abstract Buffer dmaTarget(int slot, Buffer frame);

    /**
     * The poll's work on the ready descriptor {@code slot}, whose buffer {@code b} holds a frame (already counted in
     * {@code rxPackets}, {@code rxBytes} and charged {@code rxCycles}): up the stack, copied, or dropped.
     */
    abstract void receive(int slot, Buffer b);

    /**
     * At the end of the poll's RX loop: the refill of descriptors the loop left empty. None by default: the v4.6 paths
     * refill per descriptor in {@link #receive}.
     *
     * @return the descriptors refilled (each a descriptor count update for the device)
     */
    int refillAfterPoll() {
        return 0;
    }

    /** @return descriptors waiting for a refill now (gauge {@code rxRefillPending}); 0 by default */
    int refillPending() {
        return 0;
    }

    /** @return the pool the RX descriptors' buffers come from, the same instance for a same-pool successor */
    abstract BufferPool ringPool();

    /** Writes the path's state: its name, its pools and its own keys (the element writes the ring's). */
    void exportState(ElementState out) {
        out.put(PATH_KEY, name());
        out.put(RING_POOL_KEY, ringPool());
    }

    /**
     * @return whether this path can take over the predecessor's state {@code in}: the same path with the same pools
     *         (an unfilled BM pool would drop every frame); nothing is changed
     */
    boolean accepts(ElementState in) {
        return name().equals(in.get(PATH_KEY, String.class)) && in.get(RING_POOL_KEY, BufferPool.class) == ringPool();
    }

    /** Takes over the path's own state from {@code in}, which {@link #accepts} accepted. Nothing by default. */
    void importState(ElementState in) {
    }

    /** The software paths' fill ({@code mvneta_rxq_fill}): a buffer of {@code pool} in every descriptor. */
    final void fillDescriptors(BufferPool pool) {
        for (int i = 0; i < rxRing; i++) {
            rxBuf[i] = pool.alloc(coreIndex, self);
        }
    }

    /**
     * The software paths' DMA target: the descriptor's own buffer, or a drop ({@code rx-no-descriptor}) when a failed
     * refill left the descriptor without one.
     */
    final Buffer descriptorBuffer(int slot, Buffer frame) {
        Buffer b = rxBuf[slot];
        if (b == null) {
            ctx.drop(coreIndex, frame, port.dropNoDesc);
        }
        return b;
    }
}

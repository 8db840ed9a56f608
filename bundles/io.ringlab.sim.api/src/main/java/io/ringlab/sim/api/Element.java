package io.ringlab.sim.api;

import org.osgi.annotation.versioning.ConsumerType;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferVisitor;

/**
 * One node of a pipeline for one run: a source, a qdisc, a driver, a link, a sink.
 * <p>
 * An element is created by its {@link ElementFactory} with an {@link ElementContext}, from which it takes its ports, timers,
 * random stream, metrics and pools in its constructor. Packets move through ports in two styles, as in Click:
 * <ul>
 * <li><b>push</b>: the upstream element calls {@link OutputPort#push}, which calls {@link #push} here;</li>
 * <li><b>pull</b>: the upstream element signals {@link OutputPort#ready} (the kernel's {@code netif_schedule}), which calls
 * {@link #ready} here, and this element then calls {@link InputPort#pull} while it can take packets, which calls
 * {@link #pull} upstream.</li>
 * </ul>
 * A buffer passed to {@link #push}, or returned from {@link #pull}, belongs to the receiver, which must pass it on, hold it
 * (and show it in {@link #forEachHeld}), or release it through {@link ElementContext#deliver} or {@link ElementContext#drop}.
 * <p>
 * Every method is called on the run's engine thread only; an element is never shared between runs. Per-packet methods
 * must not allocate, box or throw.
 */
@ConsumerType
public interface Element {

    /** Called once when the run starts, at virtual time 0, after every element of the pipeline was created. */
    default void start() {
    }

    /** Called once when the run ends (finished, stopped or failed). Must not free buffers: the invariant walk follows. */
    default void stop() {
    }

    /**
     * Receives a packet on a push input.
     *
     * @param inPort the input port index, in the order of the descriptor's input ports
     * @param buffer the packet, now owned by this element; never {@code null}
     */
    default void push(int inPort, Buffer buffer) {
        throw new UnsupportedOperationException("push input " + inPort);
    }

    /**
     * Receives a burst of packets on a push input as one call (a NAPI poll's worth). Each buffer keeps its own timestamps.
     * The default calls {@link #push} for each.
     *
     * @param inPort the input port index
     * @param buffers the packets in {@code buffers[offset..offset+count)}; the array stays the caller's
     * @param offset first index
     * @param count number of packets, at least 1
     */
    default void pushBatch(int inPort, Buffer[] buffers, int offset, int count) {
        for (int i = offset, end = offset + count; i < end; i++) {
            push(inPort, buffers[i]);
        }
    }

    /**
     * Hands out the next packet on a pull output.
     *
     * @param outPort the output port index
     * @return the packet, now owned by the caller, or {@code null} if none is ready
     */
    default Buffer pull(int outPort) {
        return null;
    }

    /**
     * Told by the upstream element of a pull input that it has packets ready.
     *
     * @param inPort the input port index
     */
    default void ready(int inPort) {
    }

    /**
     * Calls the visitor for every buffer this element holds now: ring descriptors, queued packets, frames on a wire, buffers
     * referenced by pending timers. The invariant checker counts packets in flight by this walk, so it must be complete.
     *
     * @param visitor the visitor; never {@code null}
     */
    default void forEachHeld(BufferVisitor visitor) {
    }
}

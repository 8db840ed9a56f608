package io.ringlab.sim.api;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * The hot-swap contract of an {@link Element} (docs/hot-swap.md). At a safe point of virtual time (between two events,
 * no CPU task running) the engine replaces the instance behind an element:
 * <ol>
 * <li>it creates the new instance with the same {@link ElementContext} (name, index, ports, random stream, metrics:
 * counters and histograms registered again under the same name continue, pools created again with the same suffix,
 * kind and sizes are the same pools, so their occupancy carries over);</li>
 * <li>it calls {@link #exportState} on the old instance, which must not change the old instance's behaviour (if the swap
 * fails, the old instance keeps running);</li>
 * <li>it calls {@link #importState} on the new instance instead of {@link Element#start()};</li>
 * <li>it commits: the old instance's timers and queued CPU tasks are cancelled, except where the new instance took their
 * places ({@link Timer#takeOver}, {@link ElementState#requeue}); buffers elsewhere carry the new instance's destructors
 * where it asked for that ({@link ElementState#replaceDestructors}); the ports point to the new instance, and the old
 * instance is never called again.</li>
 * </ol>
 * A same-version swap whose import takes everything over this way changes nothing the run reports but the swap's record:
 * the work of each instant runs in the same order as without the swap.
 * <p>
 * The new instance must take over every buffer the old one held ({@link Element#forEachHeld}): the engine checks this and
 * drops what it finds left over under the reason {@code swap-drain}. When the old instance does not implement this
 * interface, or either method returns {@code false}, the engine falls back to drain-and-restart: it drops every packet
 * the old instance held (reason {@code swap-drain}), frees its buffers, and starts the new instance with
 * {@link Element#start()}. When the new instance throws while it is created or imports, the swap is undone and the old
 * instance keeps running; the run's result reports why.
 * <p>
 * Called on the run's engine thread only.
 *
 * @since 1.3
 */
@ConsumerType
public interface Handover {

    /**
     * Writes this instance's state: its queued packets, ring descriptors and the buffers they hold, its pending work (a
     * scheduled NAPI poll, its armed timers, its CPU tasks by name), and whatever else its successor needs to go on
     * exactly where it stopped. Must not change this instance's behaviour.
     *
     * @param out where to write; never {@code null}
     * @return {@code false} if this instance cannot export (the engine then drains it)
     */
    boolean exportState(ElementState out);

    /**
     * Takes over a predecessor's state, instead of {@link Element#start()}: adopt its buffers into this instance's
     * rings and queues, take over its timers ({@link Timer#takeOver}) and its pending work ({@link
     * ElementState#requeue}). May leave out what it cannot use, except buffers: every buffer the predecessor held must
     * end up held here, or be freed or dropped here under a named reason.
     *
     * @param in the predecessor's state; {@link ElementState#fromType()} tells which model wrote it
     * @return {@code false} if this instance cannot read that state (checked before any change: the engine then drains
     *         the predecessor and calls {@link Element#start()})
     */
    boolean importState(ElementState in);
}

package io.ringlab.qdisc;

import io.ringlab.sim.api.ElementState;

/**
 * A qdisc of this bundle whose whole state a successor of the same kind takes over in a hot swap, instead of having the
 * packets enqueued again (see {@link QdiscElement}): bands, flows, CoDel, the counters. Values are written under
 * {@code <kind>.<name>}, of the types {@link ElementState} allows; the packets are the same {@code Buffer}s the element
 * hands over.
 * <p>
 * Not thread-safe: the run's engine thread, during the swap.
 */
interface QdiscState {

    /**
     * Writes the state; changes nothing.
     *
     * @param out where to write
     * @param kind the prefix of the keys: the element type and qdisc kind
     */
    void exportState(ElementState out, String kind);

    /**
     * Takes over a predecessor's state, on a new, empty qdisc.
     *
     * @param in what the predecessor of the same kind wrote
     * @param kind the prefix of the keys
     * @return {@code false}, changing nothing, when this qdisc cannot hold that state (the predecessor's qdisc was of
     *         another class, another number of flows or bands, a band longer than this one's ring)
     */
    boolean importState(ElementState in, String kind);
}

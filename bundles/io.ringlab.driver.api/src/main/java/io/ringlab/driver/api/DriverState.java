package io.ringlab.driver.api;

/**
 * Names a driver model writes its state under in a hot swap ({@code io.ringlab.sim.api.Handover}), so that another
 * version, or another model, can take it over. Values whose names start with the model's type id and a dot
 * ({@code stmmac.rxHead}) are that model's own.
 *
 * @since 1.3
 */
public final class DriverState {
    /** The {@code io.ringlab.queue.api.TxQueue}: stop bits and BQL state (limit, in-flight bytes, history). */
    public static final String TX_QUEUE = "txQueue";
    /** The TX descriptor ring, a {@link SendRing}, with the skbs posted and not yet cleaned. */
    public static final String TX_RING = "txRing";
    /** The {@link TxSegments}: segments of a GSO skb not yet posted. */
    public static final String TX_SEGMENTS = "txSegments";
    /**
     * The {@link QdiscRun}, which a successor takes over with {@link QdiscRun#takeOver}: the skbs not yet posted and
     * the pending runs in their places.
     *
     * @since 1.4
     */
    public static final String QDISC_RUN = "qdiscRun";
    /** {@code Boolean}: a NAPI poll was scheduled (queued on its core) at the swap. */
    public static final String NAPI_SCHEDULED = "napiScheduled";
    /**
     * The {@link Napi} context (the receive one, for a driver with several), which a successor takes over with
     * {@link Napi#takeOver}: poll counts, budget, a scheduled poll in its place.
     */
    public static final String NAPI = "napi";

    private DriverState() {
    }
}

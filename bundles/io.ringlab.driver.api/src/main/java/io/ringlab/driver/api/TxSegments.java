package io.ringlab.driver.api;

import org.osgi.annotation.versioning.ProviderType;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferVisitor;

/**
 * The skbs a driver without TSO posts, in order: the packets its qdisc hands it, with a GSO skb split in software
 * ({@code validate_xmit_skb} → {@code skb_gso_segment}) and the segments it has not posted yet held for the next calls
 * ({@code dev_requeue_skb} of the rest of the list). Made by {@link DriverSupport#txSegments}. Engine thread only.
 */
@ProviderType
public interface TxSegments {

    /**
     * The next skb to post: a held segment, else the next packet from the driver's input. A GSO skb is split with
     * {@code ElementContext.segment} into the driver's segment pool, freed ({@code consume_skb}) and its first segment
     * returned; one that cannot be split is dropped as {@code gso-segment-failed} and the following packet taken.
     *
     * @return the skb, now the driver's, or {@code null} when nothing waits
     */
    Buffer next();

    /**
     * {@code dev_requeue_skb}: puts back the skb {@link #next()} returned last, which the driver did not take
     * ({@code NETDEV_TX_BUSY}); the next call returns it first.
     *
     * @param skb the skb {@link #next()} returned last, not {@code null}
     * @since 1.4
     */
    void requeue(Buffer skb);

    /** @return {@code true} while segments of a GSO skb, or a requeued skb, wait to be posted */
    boolean holding();

    /** @param visitor called for each held segment (for the run's in-flight walk) */
    void forEachHeld(BufferVisitor visitor);
}

package io.ringlab.driver.api;

import org.osgi.annotation.versioning.ProviderType;

import io.ringlab.buffer.api.Buffer;

/**
 * A driver's TX descriptor ring: skbs posted in order, each taking some descriptors, handed to the wire by the NIC's DMA
 * (as a copy: the skb stays until its completion is cleaned), then cleaned oldest first. Made by
 * {@link DriverSupport#sendRing}; {@link #used()} counts descriptors. Engine thread only.
 */
@ProviderType
public interface SendRing extends DescriptorRing {

    /**
     * Posts an skb at the tail.
     *
     * @param skb the skb, now the ring's
     * @param descriptors the descriptors it takes, at least 1
     * @return the slot it went to, 0 to {@code size() - 1}
     */
    int post(Buffer skb, int descriptors);

    /** @return the skbs posted and not yet cleaned */
    int queued();

    /** @return the skbs the wire has taken and that wait to be cleaned */
    int sent();

    /**
     * The NIC's DMA takes the oldest posted skb not yet sent: the wire gets a copy from the ring's wire pool
     * ({@code ElementContext.transferPacket}); the skb stays until cleaned. An empty wire pool fails the run with a
     * message naming the pool.
     *
     * @return the copy for the wire, or {@code null} when nothing waits
     */
    Buffer toWire();

    /** @return the slot of the skb the last {@link #toWire} sent */
    int lastSent();

    /**
     * Cleans the oldest sent skb: its descriptors are free again and the caller frees it.
     *
     * @return the skb, or {@code null} when none was sent
     */
    Buffer clean();
}

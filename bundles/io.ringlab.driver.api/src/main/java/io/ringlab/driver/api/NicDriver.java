package io.ringlab.driver.api;

import org.osgi.annotation.versioning.ConsumerType;

import io.ringlab.sim.api.Element;

/**
 * A NIC-driver model. Besides the {@link Element} contract (its TX input pulls from a qdisc, its wire output pushes to a
 * link, its wire input receives frames, its stack output pushes received packets up), a driver exposes its rings for the
 * invariant walk, the console and the conformance kit.
 * <p>
 * Called on the run's engine thread only.
 */
@ConsumerType
public interface NicDriver extends Element, NapiPoller {

    /** @return the TX descriptor ring; never {@code null}. */
    DescriptorRing txRing();

    /** @return the RX descriptor ring; never {@code null}. */
    DescriptorRing rxRing();
}

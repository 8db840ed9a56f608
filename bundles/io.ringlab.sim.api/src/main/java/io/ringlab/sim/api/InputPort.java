package io.ringlab.sim.api;

import org.osgi.annotation.versioning.ProviderType;

import io.ringlab.buffer.api.Buffer;

/** An element's input. Pulling asks the element upstream of a pull input for its next packet. Not thread-safe. */
@ProviderType
public interface InputPort {

    /** @return the port's name. */
    String name();

    /** @return {@code true} if a connection arrives at this port. */
    boolean connected();

    /** @return the next packet from upstream, now owned by the caller, or {@code null} if none is ready. */
    Buffer pull();
}

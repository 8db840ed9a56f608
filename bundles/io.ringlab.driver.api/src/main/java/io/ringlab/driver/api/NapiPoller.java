package io.ringlab.driver.api;

import org.osgi.annotation.versioning.ConsumerType;

/** The driver side of NAPI: the poll function ({@code napi_struct.poll}). */
@ConsumerType
@FunctionalInterface
public interface NapiPoller {
    /**
     * Processes up to {@code budget} received packets (TX completions cost no budget, as in the kernel) and charges the work
     * to the core it runs on.
     *
     * @param budget the most RX packets to process, the NAPI weight (64 by default)
     * @return the RX packets processed; less than {@code budget} means the driver is done and re-enables its interrupt
     */
    int poll(int budget);
}

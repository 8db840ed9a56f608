package io.ringlab.driver.netdev;

import io.ringlab.conformance.DriverContract;
import io.ringlab.sim.api.ElementFactory;

/** The driver contract for the reference NIC (not a NicDriver: its queue is checked through its invariant walk). */
class NetdevConformanceTest extends DriverContract {
    @Override
    protected ElementFactory factory() {
        return new NetdevFactory();
    }
}

package com.example.ixgbe;

import java.util.Map;

import org.junit.jupiter.api.Nested;

import io.ringlab.conformance.DriverContract;
import io.ringlab.sim.api.ElementFactory;

/** The conformance kit's driver contract (docs/conformance.md), with bulk free on completion and without. */
class IxgbeConformanceTest {

    @Nested
    class BulkFree extends DriverContract {
        @Override
        protected ElementFactory factory() {
            return new IxgbeFactory();
        }
    }

    @Nested
    class DevKfreeSkb extends BulkFree {
        @Override
        protected Map<String, String> properties() {
            return Map.of("bulkFree", "false");
        }
    }
}

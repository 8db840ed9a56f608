package io.ringlab.driver.mvneta;

import java.util.Map;

import org.junit.jupiter.api.Nested;

import io.ringlab.conformance.DriverContract;
import io.ringlab.sim.api.ElementFactory;

/** The driver contract for mvneta on the Armada 388, in each of its three receive paths. */
class MvnetaConformanceTest {

    /** The contract with the Armada 388's profile and the properties of one receive path. */
    abstract static class OnArmada388 extends DriverContract {
        @Override
        protected ElementFactory factory() {
            return new MvnetaFactory();
        }

        @Override
        protected String profile() {
            return "armada-388";
        }
    }

    /** Software refill: page fragments, copybreak into skbs (v4.6 without the buffer manager). */
    @Nested
    class SoftwareRefill extends OnArmada388 {
        @Override
        protected Map<String, String> properties() {
            return Map.of("bm", "false");
        }
    }

    /** The hardware buffer manager's long and short pools. */
    @Nested
    class BufferManager extends OnArmada388 {
        @Override
        protected Map<String, String> properties() {
            return Map.of("bm", "true");
        }
    }

    /** The current kernel's path: a page per descriptor from page_pool. */
    @Nested
    class CurrentKernel extends OnArmada388 {
        @Override
        protected Map<String, String> properties() {
            return Map.of("kernel", "current");
        }
    }
}

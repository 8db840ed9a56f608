package io.ringlab.driver.mlx5;

import java.util.Map;

import org.junit.jupiter.api.Nested;

import io.ringlab.conformance.DriverContract;
import io.ringlab.sim.api.ElementFactory;

/** The driver contract for mlx5, with one skb allocation per descriptor and with the 2016 bulk allocation and hint. */
class Mlx5ConformanceTest {

    @Nested
    class SingleAlloc extends DriverContract {
        @Override
        protected ElementFactory factory() {
            return new Mlx5Factory();
        }
    }

    @Nested
    class BulkAllocWithHint extends SingleAlloc {
        @Override
        protected Map<String, String> properties() {
            return Map.of("allocBulk", "8", "bulkHint", "true");
        }
    }
}

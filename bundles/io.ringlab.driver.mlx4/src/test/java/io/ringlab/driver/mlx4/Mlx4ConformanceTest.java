package io.ringlab.driver.mlx4;

import java.util.Map;

import org.junit.jupiter.api.Nested;

import io.ringlab.conformance.DriverContract;
import io.ringlab.sim.api.ElementFactory;

/** The driver contract for mlx4, with TX bulk free (napi_consume_skb) and without (dev_kfree_skb). */
class Mlx4ConformanceTest {

    @Nested
    class BulkFree extends DriverContract {
        @Override
        protected ElementFactory factory() {
            return new Mlx4Factory();
        }
    }

    @Nested
    class OneAtATime extends BulkFree {
        @Override
        protected Map<String, String> properties() {
            return Map.of("bulkFree", "false");
        }
    }
}

package io.ringlab.bql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.ringlab.queue.api.TxQueue;

/** Checks the {@code "dql"} {@link io.ringlab.queue.api.QueueLimitsProvider}: what it creates and what it refuses. */
class DqlProviderTest {

    @Test
    void shouldCreateQueuesThroughTheProvider() {
        DqlProvider provider = new DqlProvider();
        TxQueue.Listener l = () -> { };
        TxQueue q = provider.createTxQueue(true, 250, 250, 0, Dql.DQL_MAX_LIMIT, true, l);
        assertTrue(q.limits() instanceof Dql, "BQL on");
        assertEquals(0, q.limits().minLimit(), "min");
        assertEquals(Dql.DQL_MAX_LIMIT, q.limits().maxLimit(), "max");
        assertEquals(250, ((Dql) q.limits()).slackHoldTime(), "hold time");
        assertNull(provider.createTxQueue(false, 250, 250, 0, Dql.DQL_MAX_LIMIT, true, l).limits(), "BQL off");
    }

    @Test
    void shouldValidateProviderArgumentsEvenWithoutBql() {
        DqlProvider provider = new DqlProvider();
        TxQueue.Listener l = () -> { };
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> provider.createTxQueue(false, 50, 50, 0, Dql.DQL_MAX_LIMIT, true, l));
        assertEquals("hz=50, allowed 100 to 1000", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> provider.createTxQueue(true, 1000, 1000, 10, 5, true, l));
        assertEquals("minLimitBytes=10, allowed 0 to maxLimitBytes=5", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> provider.createTxQueue(true, 1000, 1000, 0, -1, true, l));
        assertEquals("maxLimitBytes=-1, allowed 0 to 1879048192 (DQL_MAX_LIMIT)", e.getMessage());
        NullPointerException npe = assertThrows(NullPointerException.class,
                () -> provider.createTxQueue(true, 1000, 1000, 0, Dql.DQL_MAX_LIMIT, true, null));
        assertEquals("listener=null, a TxQueue.Listener is required", npe.getMessage());
    }
}

package io.ringlab.qdisc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** Checks the {@code "pfifo_fast"} {@link io.ringlab.queue.api.QdiscProvider}: settings, default and refusals. */
class PfifoFastProviderTest {

    @Test
    void shouldCreateFromSettingsWithTxqueuelenDefault() {
        PfifoFastProvider provider = new PfifoFastProvider();
        assertEquals(1000, ((PfifoFastQdisc) provider.create(Map.of())).limit(), "default = txqueuelen 1000");
        assertEquals(5, ((PfifoFastQdisc) provider.create(Map.of("limit", 5L))).limit(), "Long");
        assertEquals(7, ((PfifoFastQdisc) provider.create(Map.of("limit", 7.0))).limit(), "a whole Double");
    }

    @Test
    void shouldRejectBadSettings() {
        PfifoFastProvider provider = new PfifoFastProvider();
        assertEquals("limit=0, allowed a whole Number from 1 to 1000000 packets",
                assertThrows(IllegalArgumentException.class, () -> provider.create(Map.of("limit", 0))).getMessage());
        assertEquals("limit=1.5, allowed a whole Number from 1 to 1000000 packets",
                assertThrows(IllegalArgumentException.class, () -> provider.create(Map.of("limit", 1.5))).getMessage());
        assertEquals("limit=10, allowed a whole Number from 1 to 1000000 packets, not a String",
                assertThrows(IllegalArgumentException.class, () -> provider.create(Map.of("limit", "10"))).getMessage());
        assertEquals("setting=bands, allowed settings: limit",
                assertThrows(IllegalArgumentException.class, () -> provider.create(Map.of("bands", 3))).getMessage());
        assertEquals("limit=0, allowed 1 to 1000000 packets",
                assertThrows(IllegalArgumentException.class, () -> new PfifoFastQdisc(0)).getMessage());
    }
}

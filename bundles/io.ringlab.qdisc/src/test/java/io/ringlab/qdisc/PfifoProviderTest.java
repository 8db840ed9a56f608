package io.ringlab.qdisc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** Checks the {@code "pfifo"} {@link io.ringlab.queue.api.QdiscProvider}: settings, default and refusals. */
class PfifoProviderTest {

    @Test
    void shouldCreateFromSettingsWithTxqueuelenDefault() {
        PfifoProvider provider = new PfifoProvider();
        assertEquals(1000, ((PfifoQdisc) provider.create(Map.of())).limit(), "default = txqueuelen 1000");
        assertEquals(5, ((PfifoQdisc) provider.create(Map.of("limit", 5L))).limit(), "Long");
        assertEquals(1_000_000, ((PfifoQdisc) provider.create(Map.of("limit", 1_000_000))).limit(), "Integer, max");
        assertEquals(7, ((PfifoQdisc) provider.create(Map.of("limit", 7.0))).limit(), "a whole Double");
    }

    @Test
    void shouldRejectBadSettings() {
        PfifoProvider provider = new PfifoProvider();
        assertEquals("limit=0, allowed a whole Number from 1 to 1000000 packets",
                assertThrows(IllegalArgumentException.class, () -> provider.create(Map.of("limit", 0))).getMessage());
        assertEquals("limit=1000001, allowed a whole Number from 1 to 1000000 packets",
                assertThrows(IllegalArgumentException.class, () -> provider.create(Map.of("limit", 1_000_001L)))
                        .getMessage());
        assertEquals("limit=1.5, allowed a whole Number from 1 to 1000000 packets",
                assertThrows(IllegalArgumentException.class, () -> provider.create(Map.of("limit", 1.5))).getMessage());
        assertEquals("limit=10, allowed a whole Number from 1 to 1000000 packets, not a String",
                assertThrows(IllegalArgumentException.class, () -> provider.create(Map.of("limit", "10"))).getMessage());
        assertEquals("setting=limitt, allowed settings: limit",
                assertThrows(IllegalArgumentException.class, () -> provider.create(Map.of("limitt", 10))).getMessage());
        assertEquals("limit=0, allowed 1 to 1000000 packets",
                assertThrows(IllegalArgumentException.class, () -> new PfifoQdisc(0)).getMessage());
    }
}
